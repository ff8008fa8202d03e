"""The batched bots choose what the project's bots choose, game for game."""

from __future__ import annotations

import numpy as np
import pytest
from batchkit import EngineTwins

from mantis.envs.actions import from_engine
from mantis.envs.batched import MantisBatch
from mantis.envs.batched_bots import (
    expert_actions,
    expert_choices,
    expert_values,
    greedy_actions,
    random_actions,
    score_actions,
)
from mantis.players.bots.expert import ExpertBot
from mantis.players.bots.greedy import GreedyBot


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_greedy_chooses_what_the_greedy_bot_chooses(players):
    games = 16
    batch = MantisBatch(games, players, seed=11)
    engine = EngineTwins(batch)
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
        engine.step(actions)
    assert disagreements == 0
    assert steals > 0


def test_score_and_random_are_legal_moves():
    batch = MantisBatch(64, 5, seed=0)
    rng = np.random.default_rng(0)
    assert (score_actions(batch) == 0).all()
    chosen = random_actions(batch, rng)
    assert set(chosen.tolist()) == set(range(5))
    batch.step(chosen)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_expert_values_and_chooses_as_the_expert_bot(players):
    games = 12
    batch = MantisBatch(games, players, seed=21)
    engine = EngineTwins(batch)
    bot = ExpertBot()
    rng = np.random.default_rng(players)
    disagreements = 0
    for turn in range(60):
        values = expert_values(batch)
        chosen = expert_choices(batch, values)
        if turn == 0:
            assert (chosen == expert_actions(batch)).all()
        for g in range(games):
            view = engine[g].view()
            assert values[g].tolist() == bot.action_values(view)
            disagreements += int(chosen[g]) != from_engine(players, view.to_move, bot.choose(view))
        actions = np.where(rng.random(games) < 0.3, random_actions(batch, rng), chosen)
        engine.step(actions)
    assert disagreements == 0


@pytest.mark.parametrize("players", [2, 4])
def test_expert_values_the_last_card_by_the_deck_outs_result(players):
    games = 16
    batch = MantisBatch(games, players, seed=5)
    engine = EngineTwins(batch)
    bot = ExpertBot()
    rng = np.random.default_rng(players)
    last_cards = 0
    while last_cards < 20:
        near_end = np.flatnonzero(batch.pile_size <= 2)
        if near_end.size:
            values = expert_values(batch)
            for g in near_end:
                assert values[g].tolist() == bot.action_values(engine[g].view())
            last_cards += int((batch.pile_size == 1).sum())
        # steals nearly always, so that piles run out before anyone reaches the target
        steal = rng.integers(1, players, size=games)
        actions = np.where(rng.random(games) < 0.03, 0, steal)
        engine.step(actions)
