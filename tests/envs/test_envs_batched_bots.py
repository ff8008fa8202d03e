"""The batched bots choose what the project's bots choose, game for game."""

from __future__ import annotations

import numpy as np
import pytest

from mantis.engine import Game
from mantis.envs.actions import from_engine, to_engine
from mantis.envs.batched import MantisBatch
from mantis.envs.batched_bots import greedy_actions, random_actions, score_actions
from mantis.players.bots.greedy import GreedyBot


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_greedy_chooses_what_the_greedy_bot_chooses(players):
    games = 16
    batch = MantisBatch(games, players, seed=11)
    engine = [Game.new(players, int(seed)) for seed in batch.seeds]
    bot = GreedyBot()
    rng = np.random.default_rng(players)
    disagreements = steals = 0
    for _ in range(250):
        chosen = greedy_actions(batch)
        for g in range(games):
            view = engine[g].view()
            want = from_engine(players, view.to_move, bot.choose(view))
            disagreements += int(chosen[g]) != want
        steals += int((chosen > 0).sum())
        # play greedy's moves with some random ones mixed in, to reach varied positions
        actions = np.where(rng.random(games) < 0.3, random_actions(batch, rng), chosen)
        step = batch.step(actions)
        for g in range(games):
            engine[g].play(to_engine(players, engine[g].to_move, int(actions[g])))
            if step.ended[g]:
                engine[g] = Game.new(players, int(batch.seeds[g]))
    assert disagreements == 0
    assert steals > 0


def test_score_and_random_are_legal_moves():
    batch = MantisBatch(64, 5, seed=0)
    rng = np.random.default_rng(0)
    assert (score_actions(batch) == 0).all()
    chosen = random_actions(batch, rng)
    assert set(chosen.tolist()) == set(range(5))
    batch.step(chosen)
