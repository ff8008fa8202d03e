"""The levels' ladder: each level's noise is its own generator's, bounded, and small samples
keep the order (the full measurement is ``training.ladder``, whose figures the docs quote)."""

from __future__ import annotations

import random

import pytest
from botkit import random_positions

from mantis.engine import BACKS, SCORE, bot_rng
from mantis.players import make_bot
from mantis.players.bots.casual import CasualBot
from mantis.players.bots.greedy import GreedyBot, GreedyLevel
from mantis.players.bots.score import ScoreBot, ScoreLevel
from training.ladder import LEVELS, bar, below_bar, lineups, match_tasks, play, play_matches

POSITIONS = {n: [g for g in random_positions(1200, 43) if g.players == n][:150] for n in (2, 4)}


@pytest.mark.parametrize("name", ["score", "casual", "greedy"])
def test_a_retuned_level_varies_with_its_generator_and_repeats_with_the_same(name):
    choices = {}
    for seed in range(12):
        runs = []
        for _ in range(2):
            bot = make_bot(name)
            bot.new_game(0, bot_rng(seed, 0))
            runs.append(tuple(bot.choose(g.view()) for g in POSITIONS[4]))
        assert runs[0] == runs[1]
        choices[seed] = runs[0]
    assert len(set(choices.values())) > 1


@pytest.mark.parametrize(
    ("noisy", "exact"),
    [
        (GreedyLevel(), GreedyBot()),
        (CasualBot(), CasualBot(noise=0.0, noise2=0.0)),
    ],
    ids=["greedy", "casual"],
)
def test_noise_changes_some_moves_not_most(noisy, exact):
    # Each level's noise is fitted (training.tune_ladder): its noise-free self's move stays
    # the usual one, and a level whose noise ran away (near random: half the moves at two
    # seats, a quarter at four) or vanished would fail here.
    for players, positions in POSITIONS.items():
        noisy.new_game(0, random.Random(players))
        same = sum(noisy.choose(g.view()) == exact.choose(g.view()) for g in positions)
        assert 0.55 < same / len(positions) < 0.95, (players, same)


def test_greedy_never_lets_a_sure_win_go_whatever_its_noise():
    sure = []
    for game in random_positions(1000, 44):
        view = game.view()
        mine = view.tank_counts(view.to_move)
        need = view.target - view.scores[view.to_move]
        faces = [c for c, w in view.face_weights() if w]
        if faces and all(mine[c] and mine[c] + 1 >= need for c in faces):
            sure.append(view)
    assert len(sure) >= 5
    for seed in range(20):
        bot = GreedyBot(noise2=3.0, noise=3.0)  # five times the fitted noise
        bot.new_game(0, random.Random(seed))
        assert all(bot.choose(view) == SCORE for view in sure)


def test_score_steals_at_two_seats_only_what_cannot_miss_and_at_more_on_a_whim():
    bot = ScoreLevel()
    bot.new_game(0, random.Random(3))
    for view in (g.view() for g in POSITIONS[2]):
        action = bot.choose(view)
        if action != SCORE:
            theirs = view.tank_counts(action.target)
            assert all(theirs[c] for c in BACKS[view.top_back])
    steals = sum(bot.choose(g.view()) != SCORE for g in POSITIONS[4])
    assert 0.2 < steals / len(POSITIONS[4]) < 0.5  # its whim is 0.35
    never = ScoreBot()  # the plain bot: no sure steals, no whims
    assert all(never.choose(g.view()) == SCORE for n in (2, 4) for g in POSITIONS[n])


def test_the_bar_is_the_same_odds_at_every_size():
    assert bar(2) == pytest.approx(0.6) and below_bar(2) == pytest.approx(0.4)
    assert bar(4) == pytest.approx(1 / 3) and below_bar(4) == pytest.approx(2 / 11)
    for n in (2, 4):  # a share p against n - 1 others is 3p / (1 - p) times the wins of each
        assert bar(n) / (1 - bar(n)) * (n - 1) == pytest.approx(1.5)


def test_a_match_plays_every_deal_once_with_the_level_in_each_seat():
    tasks = match_tasks("greedy", "casual", 4, 3, seed=9)
    assert len(tasks) == 12 and len({t.number for t in tasks}) == 12
    for i in range(3):
        deal = tasks[4 * i : 4 * i + 4]
        assert len({t.seed for t in deal}) == 1
        assert [t.bots.index("greedy") for t in deal] == [0, 1, 2, 3]
        assert all(t.bots.count("casual") == 3 for t in deal)
    assert lineups(2, "ladder", LEVELS) == [
        ("score", "random"),
        ("casual", "score"),
        ("greedy", "casual"),
        ("expert", "greedy"),
    ]
    assert len(lineups(4, "all", LEVELS)) == 20


def test_a_ladder_run_is_the_same_whatever_the_processes():
    one = play(2, 6, 5, levels=("random", "score", "casual"))
    two = play(2, 6, 5, levels=("random", "score", "casual"), jobs=2)
    assert one == two
    by = {(m.alone, m.against): m for m in one}
    for a, b in (("score", "random"), ("casual", "score")):
        assert by[a, b].games == by[b, a].games == 12
        assert by[a, b].share + by[b, a].share == pytest.approx(12)  # someone wins each game


def test_a_small_sample_keeps_the_lower_steps_of_the_ladder_at_two_seats():
    # 300 paired games a step: each level's share is about 62% (training.ladder), three to
    # five standard errors above an even match here; a level that collapsed towards random
    # would lose its step.  (expert against greedy costs more: a greedy without its noise
    # fails the test above.)
    steps = lineups(2, "ladder", LEVELS)[:3]
    matches = play_matches(2, steps, 150, 4343)
    for match in matches[::2]:
        assert match.rate > 0.5, match.text()
