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
from mantis.net.client import StreamUpdate
from mantis.net.client.server_lists import Leader, LeaderPage, ListedSeat, ListedTable, TablePage
from mantis.table import Away, Message, Recorded, stream_of
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
    **v2: object,
) -> protocol.RoomState:
    """A room from (name, kind, bot, taken) per seat (``v2``: its version-2 fields)."""
    return protocol.RoomState(
        code=CODE,
        state=state,  # type: ignore[arg-type]
        private=private,
        host=host,
        away_bot="greedy",
        seats=tuple(protocol.SeatState(n, k, b, t) for n, k, b, t in seats),  # type: ignore[arg-type]
        moves=0,
        you=you,
        **v2,  # type: ignore[arg-type]
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
        *,
        clock: tuple[protocol.Clock, float] | None = None,
        then: Sequence[object] = (),
        ratings: protocol.Ratings | None = None,
    ) -> None:
        """``clock``: the turn clock and its seconds left, as they stay; ``then``: what the
        server says after the stream (talk, an offer…)."""
        self.room = room_state
        self.seat = room_state.you
        self.opening = protocol.Join(protocol.PROTOCOL_VERSION, CODE)  # (its seat, by token)
        self.presence = tuple(presence)
        self.stream = list(stream)
        self.sent: list[object] = []
        self.record = None
        self.offer: protocol.Offer | None = None
        self.clock = clock
        self.ratings = ratings
        self._later: asyncio.Queue[object] = asyncio.Queue()
        for event in then:
            self._later.put_nowait(event)

    def tell(self, event: object) -> None:
        """Have the server say ``event`` now (after all it said at first)."""
        self._later.put_nowait(event)

    async def events(self) -> AsyncIterator[object]:
        yield self.room
        yield protocol.Presence(self.presence)  # type: ignore[arg-type]
        if self.stream:
            yield StreamUpdate(tuple(self.stream))
        while True:  # ``then``, and after it only what a test has it say
            event = await self._later.get()
            if isinstance(event, protocol.Offer):
                self.offer = event
            if isinstance(event, protocol.Ratings):
                self.ratings = event
            yield event

    def clock_left(self) -> tuple[protocol.Clock, float] | None:
        return self.clock

    def offer_left(self) -> float:
        return 0.0 if self.offer is None else self.offer.lapses_in

    def bots_left(self) -> float | None:
        return self.room.bots_in

    async def send(self, message: object) -> None:
        self.sent.append(message)

    def next_ping(self) -> protocol.Ping:
        return protocol.Ping(len(self.sent))

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
    # A rated table: Ann settled on this server, Bea new here; the bot at its level's rating.
    ratings = protocol.Ratings(
        True,
        True,
        None,
        (
            protocol.SeatRating(1612, 84, False, 31),
            protocol.SeatRating(1500, 500, True, 0),
            None,
            None,
        ),
    )
    still = StillSeat(room(seats, you=0), ["here", "gone", "open", "bot"], ratings=ratings)
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
    rating = [None, None, None]
    rating[me] = protocol.SeatRating(1537, 120, False, 24)
    rating[friend] = protocol.SeatRating(1488, 260, True, 6)
    ratings = protocol.Ratings(True, True, None, tuple(rating))
    still = StillSeat(state, presence, stream, ratings=ratings)
    return MantisApp(first_screens.Online(still), still=True)  # type: ignore[arg-type]


async def leaders(url: str, page: int = 1) -> LeaderPage:
    """Page ``page`` of a leaderboard of 23 players, 10 a page (for pictures of it)."""
    names = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]
    rows = tuple(
        Leader(
            rank=(page - 1) * 10 + i + 1,
            name=f"{name} {page}" if page > 1 else name,
            rating=1700 - 20 * ((page - 1) * 10 + i),
            plus_minus=80 + 15 * i,
            provisional=i >= 8,
            games=60 - 5 * i,
            wins=30 - 3 * i,
        )
        for i, name in enumerate(names[: 10 if page < 3 else 3])
    )
    return LeaderPage(rows, page, 3, 23)


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
            clock=30,
        ),
        ListedTable(
            "BDFH",
            "playing",
            31,
            tuple(ListedSeat(n, "human", True) for n in ("Cal", "Dee", "Alan", "Eve")),
        ),
    ]
    return TablePage(tuple(tables), 1, 1, len(tables))


def _table(record, upto, presence_of_friend: str = "here"):
    """Three seats from ``record``: you, a friend (a person) and a bot; (seats, me, friend)."""
    names = ["Ann", "Bea", "Cal"]
    seats = [replace_struct(seat, name=names[i]) for i, seat in enumerate(record.seats)]
    me = next(i for i, seat in enumerate(seats) if seat.kind == "human")
    friend = (me + 1) % 3
    seats[friend] = replace_struct(seats[friend], kind="human", bot=None)
    presence = ["bot"] * 3
    presence[me] = "here"
    presence[friend] = presence_of_friend
    return replace(record, seats=tuple(seats)), me, friend, presence


def clocked_table_app(seconds_left: float, talk: Sequence[str] = ()) -> MantisApp:
    """Mid-game on a server with a 30 s clock, your move with ``seconds_left``, and the
    friend's ``talk`` in the log."""
    record, upto = positions.mid_game(3)
    record, me, friend, presence = _table(record, upto)
    stream = stream_of(record, upto)
    state = room(
        [(s.name, s.kind, s.bot, True) for s in record.seats],
        you=me,
        state="playing",
        clock=30,
        game=1,
    )
    clock = protocol.Clock(upto, me, seconds_left, 30)
    name = record.seats[friend].name
    said = [protocol.Said("players", friend, name, line) for line in talk]
    still = StillSeat(state, presence, stream, clock=(clock, seconds_left), then=said)
    return MantisApp(first_screens.Online(still), still=True)  # type: ignore[arg-type]


def offered_again_app() -> MantisApp:
    """A finished game on a server: the friend offers another game, the bot accepted."""
    record, _ = positions.single_win()
    record, me, friend, presence = _table(record, None)
    bot = 3 - me - friend
    stream = [*stream_of(record), Recorded(record.to_json())]
    state = room(
        [(s.name, s.kind, s.bot, True) for s in record.seats],
        you=me,
        state="over",
        clock=30,
        game=1,
    )
    offer = protocol.Offer(friend, tuple(sorted((friend, bot))), 42.0)
    still = StillSeat(state, presence, stream, then=[offer])
    return MantisApp(first_screens.Online(still), still=True)  # type: ignore[arg-type]


def rated_game_over() -> tuple[MantisApp, StillSeat, list[str]]:
    """A rated game on a server just finished, its ratings not said yet: the app, its seat
    (to have the server say them) and the seats' names."""
    record, _ = positions.single_win()
    record, me, friend, presence = _table(record, None)
    stream = [*stream_of(record), Recorded(record.to_json())]
    state = room(
        [(s.name, s.kind, s.bot, True) for s in record.seats], you=me, state="over", game=1
    )
    rating: list[protocol.SeatRating | None] = [None] * len(record.seats)
    rating[me] = protocol.SeatRating(1500, 500, True, 0)
    rating[friend] = protocol.SeatRating(1500, 500, True, 0)
    still = StillSeat(
        state, presence, stream, ratings=protocol.Ratings(True, True, None, tuple(rating))
    )
    return MantisApp(first_screens.Online(still), still=True), still, [s.name for s in record.seats]  # type: ignore[arg-type]


def quick_waiting_app() -> MantisApp:
    """ "Play now": a quick-play table of three, you seated, waiting for two more."""
    seats = [("Ann", "human", None, True), ("", "human", None, False), ("", "human", None, False)]
    state = room(seats, you=0, clock=30, quick=True, bots_in=42.0)
    still = StillSeat(state, ["here", "open", "open"])
    return MantisApp(first_screens.Online(still), still=True)  # type: ignore[arg-type]
