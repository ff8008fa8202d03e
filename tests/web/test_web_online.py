"""A browser tab at an online table: a table server, a terminal client and ``mantis web``.

The terminal client (the protocol client of tests/net) hosts a two-seat
table; the tab joins it through the app's own lobby, by keys and the mouse,
and plays a move that the terminal client sees.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from webkit import Tab, browser, web_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from netkit import WAIT, create, play_my_turns, running_server  # noqa: E402

from mantis.base.paths import settings_path  # noqa: E402
from mantis.engine import SCORE, CardRevealed, TurnStarted  # noqa: E402
from mantis.home import Settings, save_settings  # noqa: E402
from mantis.net import protocol  # noqa: E402


async def test_a_browser_tab_joins_an_online_table_and_its_move_reaches_the_terminal(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "server") as (_, url):
        host = await create(url, seats=("human", "open"), name="Ann")
        code = next(m for m in host.heard if isinstance(m, protocol.Welcome)).code
        save_settings(
            Settings(speed="instant", animations=False, server=url, online_name="Web"),
            settings_path(),
        )
        async with web_server() as web, browser() as chrome:
            tab = await Tab.open(chrome, web.url)
            await tab.shows("MANTIS · set up a table")
            await tab.press("o")
            await tab.shows("MANTIS · play online", "code: KXQD")
            await tab.click_text("code: KXQD")  # the mouse, as in a terminal
            await tab.type(code)
            await tab.press("Enter")
            await tab.shows(code, "Ann")  # the waiting room, with the host in it
            await host.until(lambda: _seat_taken(host, 1), "the tab taking its seat")
            await host.send(protocol.Start())
            hosting = asyncio.create_task(play_my_turns(host, 0))
            try:
                await tab.shows("YOUR TURN")
                await tab.score()
                # The terminal client hears the tab's move: a card drawn on the tab's turn.
                move = await host.until(lambda: _move_of(host, 1), "the tab's move")
                assert move.action == SCORE
            finally:
                hosting.cancel()
            await tab.close()
        await asyncio.wait_for(host.close(), WAIT)


def _seat_taken(client, seat: int) -> bool:
    rooms = [m for m in client.heard if isinstance(m, protocol.RoomState)]
    return bool(rooms) and rooms[-1].seats[seat].taken


def _move_of(client, seat: int) -> CardRevealed | None:
    """The first card drawn on one of ``seat``'s turns, as the client heard it."""
    turn = None
    for message in client.stream:
        if isinstance(message, TurnStarted):
            turn = message.seat
        elif isinstance(message, CardRevealed) and turn == seat and message.seat == seat:
            return message
    return None
