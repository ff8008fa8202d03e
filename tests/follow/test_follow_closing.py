"""Closing a followed table waits for what was said on the connection's clock, not the loop's."""

from __future__ import annotations

import asyncio

from mantis.base.clock import ManualClock
from mantis.follow import online_table
from mantis.follow.online_table import OnlineTable
from mantis.net import protocol
from mantis.net.client import TableConnection

#: Generous bound on something done at once (a slow machine is slower, never red).
SOON = 30.0


async def test_what_was_said_gets_its_time_to_go_out_on_the_connections_clock() -> None:
    clock = ManualClock(frozen=True)
    opening = protocol.Join(protocol.PROTOCOL_VERSION, "KXQD", "Ann")
    connection = TableConnection("ws://127.0.0.1:1", opening, clock=clock)
    table = OnlineTable(connection, lambda change: None)
    # Never started: nothing takes what is said, as when a server stops reading.
    table.send(protocol.Say("good game"))
    closing = asyncio.ensure_future(table.shut())
    # The wait is set on the clock (a wait on the loop's would never show here)...
    await asyncio.wait_for(clock.until_pending(online_table.SEND_BEFORE_CLOSING), SOON)
    assert not closing.done()
    # ...and the table closes once the clock says the time is up, whatever the loop saw.
    clock.advance(online_table.SEND_BEFORE_CLOSING)
    await asyncio.wait_for(closing, SOON)
