"""A table's ratings: its seated players' as read, whether its game counts, what a game moved.

A room keeps one ``TableRatings``: the players seated at it, read from the
store as they sit down (and again once a rated game moved them), and the
verdict of the rules (``rated_games``) on its game: judged whenever the
seats change outside a game (what the store says, nothing counted), and once
as each game starts (or is resumed after a restart or a takeover), when a
game judged rated is counted for its pairs of people in the store, so a game
is rated by the seats it started with.  It words the table's ``ratings``
message, tells it to everyone, and works out how a finished game moves
ratings, the seats that forfeited taking the loss.  It is handed the store,
a way to read the seats as the rules see them, and a way to tell everyone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence

from ....engine import GameRecord
from ....rating.scale import Rating
from ....store.player_ratings import GameRating, StoredPlayer
from ....store.tables_interface import StoreError, TableStore
from ... import protocol
from .rated_games import UNRATED, RatedGames, SeatFacts, Verdict

log = logging.getLogger("mantis.server")


class TableRatings:
    """The ratings of one table (rated or not), read from ``store``, judged by ``rules``."""

    def __init__(
        self,
        store: TableStore,
        rules: RatedGames | None,
        rated: bool,
        seats: Callable[[], Sequence[SeatFacts]],
        broadcast: Callable[[protocol.ServerMessage], None],
    ) -> None:
        """``rated``: the host made the table rated; ``rules``: None rates nothing;
        ``seats``: the table's seats now."""
        self.store = store
        self.seats = seats
        self.broadcast = broadcast
        self.rules = rules
        self.rated = rated and rules is not None
        self.known: dict[str, StoredPlayer] = {}
        """The ratings of the players seated here, as last read from the store."""
        self.verdict: Verdict = UNRATED
        """Whether the table's game (or the next, with the seats as they are) counts."""
        self.judged = 0
        """The game (its id) the verdict was judged for (0: the seats outside a game)."""
        self.before: tuple[int | None, ...] = ()
        """Each seat's rating before the game just rated (None: it did not move)."""

    async def announce(self, game: int | None, before: tuple[int | None, ...] = ()) -> None:
        """Read the ratings (``before``: after a rated game, each seat's from before it:
        every one again) and tell everyone (of version 3 on) the ``ratings`` message;
        ``game``: the id of the game being played (None: none)."""
        await self.read(game, again=bool(before))
        self.broadcast(self.message(before))

    async def read(self, game: int | None, again: bool = False) -> None:
        """Read the seated players not read yet (``again``: every one) and judge the seats
        (``game``: the id of the game being played; it is judged once)."""
        seats = self.seats()
        missing = [s.player for s in seats if s.player and (again or s.player not in self.known)]
        try:
            if missing:
                self.known.update(await self.store.players(missing))
            if game is None or game != self.judged:
                await self.judge(game or 0)
        except StoreError as exc:  # shown without them, then: the game goes on
            log.error("could not read ratings: %s", exc)

    async def judge(self, game: int = 0) -> None:
        """Judge the seats as they are (``game``: the id of the game starting, counted for
        its pairs if rated; 0: no game, nothing counted).  A game whose count the store
        could not take is played unrated (said so)."""
        self.judged = game
        if not self.rated or self.rules is None:
            self.verdict = UNRATED
            return
        try:
            self.verdict = await self.rules.judge(self.seats(), self.known, game or None)
        except StoreError as exc:
            if not game:
                raise
            log.error("could not count a rated game: %s", exc)
            self.verdict = Verdict(
                False, "the server could not count this game just now: it is not rated"
            )

    def message(self, before: tuple[int | None, ...] = ()) -> protocol.Ratings:
        """The table's ``ratings`` message now."""
        seats = self.seats()
        shown: list[protocol.SeatRating | None] = []
        for seat in seats:
            known = self.known.get(seat.player) if seat.player else None
            if known is None:
                shown.append(None)
                continue
            rating = known.rating
            shown.append(
                protocol.SeatRating(
                    rating.shown, rating.plus_minus, rating.provisional, known.games
                )
            )
        verdict = self.verdict
        if self.rated and self.rules is not None and not verdict.counts and verdict.why is None:
            verdict = self.rules.seats_verdict(seats)  # (not judged yet: what the seats say)
        why = verdict.why if self.rated else None
        return protocol.Ratings(
            self.rated, self.rated and verdict.counts, why, tuple(shown), before
        )

    def game_rating(self, record: GameRecord, forfeits: Collection[int]) -> GameRating | None:
        """How the game that just ended moves ratings (None: it does not); ``before`` keeps
        each seat's rating from before it, for the table to say."""
        if not self.rated or self.rules is None:
            return None
        seats = self.seats()
        rating = self.rules.game_rating(self.verdict, seats, record, forfeits)
        if rating is not None:
            self.before = tuple(
                (self.known[seat.player].rating if seat.player in self.known else Rating()).shown
                if seat.player
                else None
                for seat in seats
            )
        return rating
