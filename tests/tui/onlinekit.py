"""A stand-in for a seat at a server table, for pictures of the online screens.

It says what a server would (a room, each seat's connection, the stream so
far) and then nothing more, so a snapshot shows a fixed, known table.  Real
online play is tested over loopback in tests/net and test_tui_online.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace

import positions
from msgspec.structs import replace as replace_struct

from mantis.net import protocol
from mantis.net.client import ListedSeat, ListedTable, StreamUpdate, TablePage
from mantis.table import Away, Message, stream_of
from mantis.tui import first_screens
from mantis.tui.app import MantisApp

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


def waiting_room_app() -> MantisApp:
    """The host's waiting room: a friend connected, one gone, an open seat and a bot."""
    seats = [
        ("Ann", "human", None, True),
        ("Bea", "human", None, True),
        ("", "human", None, False),
        ("Ada", "bot", "expert", True),
    ]
    still = StillSeat(room(seats, you=0), ["here", "gone", "open", "bot"])
    return MantisApp(first_screens.Online(still), still=True)  # type: ignore[arg-type]


def online_table_app(away: bool) -> MantisApp:
    """Three seats on a server, mid-game: you, a friend (away, if asked) and a bot."""
    record, upto = positions.mid_game(3)
    names = ["Ann", "Bea", "Cal"]
    seats = [replace_struct(seat, name=names[i]) for i, seat in enumerate(record.seats)]
    me = next(i for i, seat in enumerate(seats) if seat.kind == "human")
    friend = (me + 1) % 3
    seats[friend] = replace_struct(seats[friend], kind="human", bot=None)
    record = replace(record, seats=tuple(seats))
    stream = stream_of(record, upto)
    presence = ["bot"] * 3
    presence[me] = "here"
    presence[friend] = "away" if away else "here"
    if away:
        stream.append(Away(friend, "greedy"))
    state = room([(s.name, s.kind, s.bot, True) for s in seats], you=me, state="playing")
    return MantisApp(first_screens.Online(StillSeat(state, presence, stream)), still=True)  # type: ignore[arg-type]


async def listed_tables(url: str, page: int = 1) -> TablePage:
    """What a server with two public tables lists (for pictures of the lobby)."""
    tables = [
        ListedTable(
            "KXQD",
            "waiting",
            0,
            (
                ListedSeat("Ann", "human", True),
                ListedSeat("", "human", False),
                ListedSeat("Ada", "bot", True),
            ),
        ),
        ListedTable(
            "BDFH",
            "playing",
            31,
            tuple(ListedSeat(n, "human", True) for n in ("Cal", "Dee", "Alan", "Eve")),
        ),
    ]
    return TablePage(tuple(tables), 1, 1, len(tables))
