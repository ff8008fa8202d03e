"""A stand-in for a seat at a server table, for pictures of the online screens.

It says what a server would (a room, each seat's connection, the stream so
far) and then nothing more, so a snapshot shows a fixed, known table.  Real
online play is tested over loopback in tests/net and test_tui_online.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from mantis.net import protocol
from mantis.net.client import StreamUpdate
from mantis.table import Message

URL = "ws://127.0.0.1:8765"
CODE = "KXQD"


def room(
    seats: Sequence[tuple[str, str, str | None, bool]],
    *,
    you: int,
    host: int = 0,
    state: str = "waiting",
    private: bool = False,
) -> protocol.RoomState:
    """A room from (name, kind, bot, taken) per seat."""
    return protocol.RoomState(
        code=CODE,
        state=state,  # type: ignore[arg-type]
        private=private,
        host=host,
        away_bot="greedy",
        seats=tuple(protocol.SeatState(n, k, b, t) for n, k, b, t in seats),  # type: ignore[arg-type]
        moves=0,
        you=you,
    )


class StillSeat:
    """An online seat whose server has said all it will say."""

    url = URL
    code = CODE

    def __init__(
        self,
        room_state: protocol.RoomState,
        presence: Sequence[str],
        stream: Sequence[Message] = (),
    ) -> None:
        self.room = room_state
        self.seat = room_state.you
        self.presence = tuple(presence)
        self.stream = list(stream)
        self.sent: list[object] = []
        self.record = None

    async def events(self) -> AsyncIterator[object]:
        yield self.room
        yield protocol.Presence(self.presence)  # type: ignore[arg-type]
        if self.stream:
            yield StreamUpdate(tuple(self.stream))
        await asyncio.Event().wait()  # nothing more, ever

    async def send(self, message: object) -> None:
        self.sent.append(message)

    async def close(self) -> None:
        pass
