"""What makes a rated game count, and how much each person's rating moves in it.

A rated table's game moves ratings only when it is earned against someone
else (docs/ratings.md says why each rule is there):

- at least two people at it sit with a player key (a person without one,
  an older Mantis, plays on but is rated as nobody: they sit at a new
  player's rating, never move, and weigh nothing);
- every bot is a built-in level (it sits at its level's anchor);
- no two people sit from one network (an IPv4 /24, an IPv6 /48): one party
  with two keys at one address rates nobody;
- no two people have played ``PAIR_GAMES_PER_DAY`` rated games together in
  the last day (a pair cannot trade results all day): two *people*, their
  keys, whatever names they sit under; a game counts for its pairs from the
  moment it starts rated, taken in the store in one step with the count
  (``TableStore.count_rated``), so games started together never pass it;

and then each person's change is scaled by how much their opponents weigh:
a bot weighs 1, a person ``min(1, rated games / HISTORY)`` (a person
without a key 0) — so a brand-new key moves nobody's rating (its own moves
as usual), and a newcomer moves others a little more with each rated game
it plays.

A seat that forfeits (its person left, was away at the end, or ran out of
time three times in the game) takes the loss: it is taken out of the
winners, and if nobody else won, everyone else shares the win.

Handed what it reads: the ``TableStore`` (games a pair played together) and
a ``Clock`` (what "the last day" is).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ....base.clock import Clock
from ....engine import GameRecord
from ....rating.levels import level_rating
from ....rating.scale import Rating
from ....store.player_ratings import GameRating, RatedStart, StoredPlayer
from ....store.tables_interface import TableStore
from ... import protocol

#: Rated games a person plays before they weigh fully as an opponent.
HISTORY = 10
#: Rated games two people may play together in a day; past it their games are unrated.
PAIR_GAMES_PER_DAY = 3
PAIR_WINDOW = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What the rules read of a seat."""

    name: str
    kind: str
    bot: str | None
    person: bool
    """A person holds this seat (its token is taken)."""
    player: str | None
    """The name its person holds with a player key (``name_key``), if any."""
    network: str | None
    """The network its person sat down from."""
    key: str | None = None
    """The id of its person's player key: who they are, whatever name they sit under."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a rated table's game counts (and why not), and each seat's share of its change."""

    counts: bool
    why: str | None = None
    weights: tuple[float, ...] = ()


UNRATED = Verdict(False)


class RatedGames:
    """Judges rated tables' games against the rules above."""

    def __init__(self, store: TableStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def seats_verdict(self, seats: Sequence[SeatFacts]) -> Verdict:
        """The rules the seats alone decide (no store needed)."""
        people = _keyed(seats)
        if len(people) < 2:
            return Verdict(
                False, "a rated game needs two people with player keys: this one is not rated"
            )
        for seat in seats:
            if seat.kind == "bot" and (
                seat.bot is None or level_rating(seat.bot, len(seats)) is None
            ):
                return Verdict(False, f"the bot {seat.name} has no rating: this game is not rated")
        for i, first in enumerate(people):
            for second in people[i + 1 :]:
                if first.network is None or first.network == second.network:
                    return Verdict(
                        False,
                        f"{first.name} and {second.name} sit from one network: "
                        "this game is not rated",
                    )
        return Verdict(True)

    async def judge(
        self,
        seats: Sequence[SeatFacts],
        known: Mapping[str, StoredPlayer],
        game_id: int | None = None,
    ) -> Verdict:
        """Whether a rated table's game with these seats counts, and each seat's weight
        (``known``: the seated players' ratings, as read).  ``game_id``: the game starting
        (or resumed), counted for its pairs as it is judged rated; None: the seats as they
        are, before a game (what the store says now, nothing counted)."""
        verdict = self.seats_verdict(seats)
        if not verdict.counts:
            return verdict
        people = _keyed(seats)
        now = datetime.fromtimestamp(self.clock.time(), UTC)
        since = now - PAIR_WINDOW
        pairs = [(a, b) for i, a in enumerate(people) for b in people[i + 1 :]]
        keys = [(_key(a), _key(b)) for a, b in pairs]
        if game_id is not None:
            start = RatedStart(game_id, tuple(keys), since, PAIR_GAMES_PER_DAY, now)
            over = await self.store.count_rated(start)
            if over is not None:
                first, second = pairs[keys.index((over.first, over.second))]
                return _too_many(first, second, over.games)
        else:
            for (first, second), (one, other) in zip(pairs, keys, strict=True):
                together = await self.store.pair_games(one, other, since)
                if together >= PAIR_GAMES_PER_DAY:
                    return _too_many(first, second, together)
        return Verdict(True, None, weights(seats, known))

    def game_rating(
        self,
        verdict: Verdict,
        seats: Sequence[SeatFacts],
        record: GameRecord,
        forfeits: Collection[int],
    ) -> GameRating | None:
        """How a finished game moves ratings (None: it does not), its forfeits taking the loss."""
        if not verdict.counts or record.result is None:
            return None
        lost = set(forfeits) | set(record.left)
        winners = [w for w in record.result.winners if w not in lost]
        if not winners:  # the seats that forfeited come last: the others share the win
            winners = [s for s in range(len(seats)) if s not in lost]
        if not winners:
            return None
        placed: list[str | Rating] = []
        for seat in seats:
            if seat.kind == "bot":
                anchor = level_rating(seat.bot or "", len(seats))
                assert anchor is not None  # (seats_verdict said so otherwise)
                placed.append(anchor)
            else:  # a person without a key (or an open seat) is nobody: fixed, new
                placed.append(seat.player or Rating())
        return GameRating(tuple(placed), tuple(winners), verdict.weights)


def table_clock(rated: bool, clock: int | None) -> int | None | str:
    """The turn clock a new table gets (a rated one always has one: ``RATED_CLOCK`` if its
    host asked for none), or why it may not have the one asked for."""
    if not rated:
        return clock
    if clock is None:
        return protocol.RATED_CLOCK
    if clock > protocol.RATED_CLOCK_MOST:
        return f"a rated table's turn clock is at most {protocol.RATED_CLOCK_MOST} s a move"
    return clock


def _keyed(seats: Sequence[SeatFacts]) -> list[SeatFacts]:
    """The people at the table who sit with a player key."""
    return [s for s in seats if s.kind == "human" and s.person and s.player is not None]


def _key(seat: SeatFacts) -> str:
    """Who a keyed person is, for the pair rule: their key (their name, for a seat kept
    without its key's id, which the rule then cannot tie to other names)."""
    return seat.key or f"name:{seat.player}"


def _too_many(first: SeatFacts, second: SeatFacts, together: int) -> Verdict:
    return Verdict(
        False,
        f"{first.name} and {second.name} played {together} rated games together today: "
        "this one is not rated",
    )


def weight(seat: SeatFacts, known: Mapping[str, StoredPlayer]) -> float:
    """How much a seat weighs as an opponent: a bot fully, a person by their rated games
    (a person without a key not at all)."""
    if seat.kind == "bot":
        return 1.0
    player = known.get(seat.player) if seat.player else None
    return min(1.0, (player.games if player else 0) / HISTORY)


def weights(seats: Sequence[SeatFacts], known: Mapping[str, StoredPlayer]) -> tuple[float, ...]:
    """Each seat's share of its change: the mean weight of the others at the table."""
    own = [weight(seat, known) for seat in seats]
    total = sum(own)
    others = len(seats) - 1
    return tuple((total - mine) / others for mine in own)
