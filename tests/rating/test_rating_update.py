"""The rating update against OpenSkill's own, and the number people read.

Our update is OpenSkill's Plackett–Luce ``rate`` for a game whose outcome
is its winners: every winner's new rating, and every seat's at two seats
or when one seat alone lost, is the library's to the last digit.  Where
several seats lose, the library (given them as tied) would add a pull
towards each other that raises a weak loser: that difference is pinned too.
"""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from mantis.rating.scale import Rating
from mantis.rating.update import rate, win_chances

MODEL = PlackettLuce()

#: Six players of every sort: new, settled, anchored (tiny sigma), strong and weak.
PEOPLE = (
    Rating(),
    Rating(31.0, 1.2),
    Rating(18.5, 0.15),
    Rating(27.3, 4.0),
    Rating(40.0, 0.3),
    Rating(22.0, 6.5),
)


def library(ratings: list[Rating], winners: set[int]) -> list[Rating]:
    """OpenSkill's own update, the winners ranked first and everyone else tied after them."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    ranks = [1 if seat in winners else 2 for seat in range(len(ratings))]
    return [Rating(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=ranks)]


def same(ours: Rating, theirs: Rating) -> bool:
    return ours.mu == pytest.approx(theirs.mu, abs=1e-12) and ours.sigma == pytest.approx(
        theirs.sigma, abs=1e-12
    )


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("winners", [{0}, {2}, {0, 1}, {1, 3, 4}], ids=str)
def test_every_winner_moves_as_the_library_moves_them(seats, winners):
    winners = {w % seats for w in winners}
    players = list(PEOPLE[:seats])
    ours, theirs = rate(players, winners), library(players, winners)
    for seat in winners:
        assert same(ours[seat], theirs[seat])
    assert all(ours[w].mu > players[w].mu for w in winners if len(winners) == 1)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_a_win_shared_by_all_but_one_seat_is_the_library_s_for_everyone(seats):
    # One loser is never tied with anyone: the library's update and ours are one.
    for loser in range(seats):
        players = list(PEOPLE[:seats])
        winners = set(range(seats)) - {loser}
        ours, theirs = rate(players, winners), library(players, winners)
        assert all(same(o, t) for o, t in zip(ours, theirs, strict=True))
        assert ours[loser].mu < players[loser].mu


@pytest.mark.parametrize("winners", [{0}, {1}, {0, 1}], ids=str)
def test_at_two_seats_a_win_or_a_shared_win_is_the_library_s(winners):
    for a, b in [(0, 1), (2, 4), (3, 5), (1, 2)]:
        players = [PEOPLE[a], PEOPLE[b]]
        ours, theirs = rate(players, winners), library(players, winners)
        assert all(same(o, t) for o, t in zip(ours, theirs, strict=True))


def test_a_weak_player_who_loses_to_strong_bots_goes_down_though_tied_losers_would_go_up():
    weak = Rating(15.0, 3.0)
    bots = [Rating(30.0, 0.1)] * 3
    ours = rate([weak, *bots], {1})[0]
    tied = library([weak, *bots], {1})[0]
    assert ours.mu < weak.mu < tied.mu  # the library's tie term pays the loser
    assert rate([weak, *bots], {0})[0].mu > weak.mu


def test_a_shared_win_gives_each_sharer_less_than_a_win_alone():
    players = [Rating(), Rating(), Rating(), Rating()]
    alone = rate(players, {0})[0]
    shared = rate(players, {0, 1})
    assert players[0].mu < shared[0].mu < alone.mu
    assert shared[0] == shared[1]
    assert shared[2].mu < players[2].mu


def test_the_chances_of_a_game_add_up_and_favour_the_stronger():
    chances = win_chances([Rating(30.0, 1.0), Rating(25.0, 1.0), Rating(25.0, 1.0)])
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > chances[1] == pytest.approx(chances[2])
    assert win_chances([Rating(), Rating()]) == [pytest.approx(0.5), pytest.approx(0.5)]


@pytest.mark.parametrize(
    ("ratings", "winners"),
    [([Rating()], {0}), ([Rating(), Rating()], set()), ([Rating(), Rating()], {2})],
)
def test_a_game_that_cannot_be_is_refused(ratings, winners):
    with pytest.raises(ValueError):
        rate(ratings, winners)


def test_the_number_people_read():
    new = Rating()
    assert (new.shown, new.plus_minus, new.provisional) == (1500, 500, True)
    assert new.text() == "1,500 ± 500 provisional"
    settled = Rating(28.0, 1.5)  # 3 points of mu above a new player: 90 shown points
    assert (settled.shown, settled.plus_minus, settled.low) == (1590, 90, 1500)
    assert not settled.provisional and settled.text() == "1,590 ± 90"
    assert Rating(25.0, 4.0).provisional is False and Rating(25.0, 4.01).provisional is True
    assert settled.to_json() == {
        "rating": 1590,
        "plus_minus": 90,
        "provisional": False,
        "mu": 28.0,
        "sigma": 1.5,
    }


def test_four_hundred_points_at_two_seats_are_about_ten_to_one_as_in_elo():
    strong, even = Rating(25.0 + 400 / 30, 0.0), Rating(25.0, 0.0)
    assert win_chances([strong, even])[0] == pytest.approx(10 / 11, abs=0.005)
