"""The built-in levels' anchors: shipped, reproducible from their seed, and what they predict.

The full run (``python -m training.rate_levels``) takes minutes; here a tiny
run from the shipped seed checks the script's machinery: it is
deterministic, whatever the number of processes, and it lands within its
own (wide) uncertainty of the shipped anchors.
"""

from __future__ import annotations

import json
import math

import pytest

from mantis.engine import game_seed
from mantis.players.registry import BOTS
from mantis.rating.levels import level_rating, level_table, parse_levels
from mantis.rating.scale import MU, Rating
from mantis.rating.update import rate
from mantis.sim.runner import GameTask, run_tasks
from training.rate_levels import format_table, measure


def test_every_level_has_an_anchor_at_every_table_size_and_overall():
    table = level_table()
    assert sorted(table.by_players) == [2, 3, 4, 5, 6]
    for levels in (table.overall, *table.by_players.values()):
        assert list(levels) == list(BOTS)  # weakest first, as the setup lists them
        assert all(0 < f.rating.sigma < 1 and f.games > 0 for f in levels.values())
        assert sum(f.rating.mu for f in levels.values()) / len(levels) == pytest.approx(MU)
    for n, games in table.games.items():
        assert all(f.games <= games for f in table.by_players[n].values())
    assert level_rating("expert", 4) == table.by_players[4]["expert"].rating
    assert level_rating("expert") == table.overall["expert"].rating
    assert level_rating("mybots:Strong", 4) is None and level_rating("expert", 7) is None


def test_a_tiny_run_from_the_shipped_seed_is_deterministic_and_near_the_anchors():
    shipped = level_table()
    tiny = measure(2, shipped.seed, sizes=(2, 3))
    again = measure(2, shipped.seed, sizes=(2, 3), jobs=2)
    assert again == tiny
    assert parse_levels(json.dumps(tiny.to_json())).to_json() == tiny.to_json()
    assert tiny.games == {2: 20 * 2, 3: 60 * 2}
    for n in (2, 3):
        for level, fitted in tiny.by_players[n].items():
            anchor = shipped.by_players[n][level].rating
            gap = abs(fitted.rating.mu - anchor.mu)
            assert gap <= 3 * math.hypot(fitted.rating.sigma, anchor.sigma), (n, level)
    text = format_table(tiny)
    assert all(level in text for level in BOTS) and "2 seats" in text and "overall" in text


def test_a_level_table_that_is_not_one_is_refused_in_one_line():
    with pytest.raises(ValueError, match="not a level table"):
        parse_levels('{"seed": 1}')


def test_a_person_who_plays_like_greedy_settles_near_greedy_s_anchor():
    # Greedy sits as a person, rated game by game against the other levels' anchors.
    opponents = ("random", "score", "casual")
    tasks = [
        GameTask(i, game_seed(31, i), ("greedy", opponents[i % 3])[:: 1 if i % 2 else -1])
        for i in range(600)
    ]
    person = Rating()
    path = []
    for game in run_tasks(tasks).games:
        me = game.bots.index("greedy")
        seats = [person if s == me else level_rating(b, 2) for s, b in enumerate(game.bots)]
        person = rate(seats, game.winners)[me]
        path.append(person.mu)
    settled = sum(path[-300:]) / 300  # the rating wanders with tau: its mean over the last half
    anchor = level_rating("greedy", 2)
    assert not person.provisional
    assert abs(settled - anchor.mu) < 2 * person.sigma, (settled, anchor, person)
