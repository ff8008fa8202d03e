"""The rules under the server, alone: each answers in a millisecond (a break shows here, not as
a two-minute wait in a game).  The timeouts counter, a rated table's clock, and how much an
opponent weighs."""

from __future__ import annotations

import pytest

from mantis.engine import SCORE, CardRevealed
from mantis.net import protocol
from mantis.net.server.room.rated_games import (
    HISTORY,
    PAIR_GAMES_PER_DAY,
    PAIR_WINDOW,
    SeatFacts,
    table_clock,
    weights,
)
from mantis.net.server.room.turn_timer import TIMEOUTS_AWAY, TIMEOUTS_FORFEIT, Timeouts
from mantis.rating.scale import Rating
from mantis.store.player_ratings import StoredPlayer
from mantis.table import Back, TimedOut


def timed_out(seat: int) -> list[object]:
    """A timeout: its notice, then the stand-in's move."""
    return [TimedOut(seat, "greedy", SCORE), CardRevealed(seat, SCORE, 0, seat)]


def moved(seat: int) -> list[object]:
    return [CardRevealed(seat, SCORE, 0, seat)]


def test_three_timeouts_in_the_game_forfeit_though_not_in_a_row() -> None:
    counter = Timeouts()
    for message in [*timed_out(1), *timed_out(1), *moved(1), *moved(0), *timed_out(1)]:
        assert counter.see(message) is None  # never three in a row: never away
    assert counter.forfeits() == {1} and not counter.away(1)
    assert TIMEOUTS_FORFEIT == 3


def test_three_timeouts_in_a_row_put_a_seat_away_and_forfeit_it() -> None:
    counter = Timeouts()
    seen = [counter.see(m) for m in [*timed_out(0), *timed_out(0), *timed_out(0)]]
    assert seen.count(0) == 1 and counter.away(0) and counter.forfeits() == {0}
    assert TIMEOUTS_AWAY == 3


def test_coming_back_resets_the_run_but_not_the_games_count() -> None:
    counter = Timeouts()
    for message in [*timed_out(2), *timed_out(2), Back(2), *timed_out(2)]:
        counter.see(message)
    assert not counter.away(2) and counter.forfeits() == {2}
    assert Timeouts().forfeits() == set()


@pytest.mark.parametrize(
    ("rated", "asked", "given"),
    [
        (False, None, None),
        (False, 3600, 3600),
        (True, None, protocol.RATED_CLOCK),
        (True, 45, 45),
        (True, protocol.RATED_CLOCK_MOST, protocol.RATED_CLOCK_MOST),
    ],
)
def test_a_rated_table_always_has_a_clock(rated: bool, asked: int | None, given) -> None:
    assert table_clock(rated, asked) == given


def test_a_rated_tables_clock_is_never_longer_than_two_minutes() -> None:
    refused = table_clock(True, protocol.RATED_CLOCK_MOST + 1)
    assert isinstance(refused, str) and "at most 120 s" in refused


def _person(name: str, keyed: bool = True) -> SeatFacts:
    return SeatFacts(name, "human", None, True, name.lower() if keyed else None, name)


def _played(games: int) -> StoredPlayer:
    return StoredPlayer("x", "x", Rating(), games, 0)


def test_the_numbers_of_rated_play_are_the_documented_ones() -> None:
    # docs/ratings.md: 3 rated games a day between two people; a person weighs fully
    # after 10 rated games; a rated table's clock is at most 120 s (30 s if none asked).
    assert PAIR_GAMES_PER_DAY == 3 and PAIR_WINDOW.total_seconds() == 86_400
    assert HISTORY == 10
    assert protocol.RATED_CLOCK_MOST == 120 and protocol.RATED_CLOCK == 30


def test_a_new_key_weighs_nothing_and_a_seasoned_one_fully() -> None:
    seats = [_person("Ann"), _person("Eve")]
    assert weights(seats, {"ann": _played(40), "eve": _played(0)}) == (0.0, 1.0)
    half = weights(seats, {"ann": _played(5), "eve": _played(10)})
    assert half == (1.0, 0.5)
    bot = SeatFacts("Ada", "bot", "greedy", False, None, None)
    keyless = _person("Old", keyed=False)
    # Everyone is weighed by the mean of the others: a bot fully, no key not at all.
    assert weights([_person("Ann"), bot, keyless], {"ann": _played(HISTORY)}) == (
        0.5,
        0.5,
        1.0,
    )
