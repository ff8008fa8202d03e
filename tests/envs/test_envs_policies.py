"""Every bot level as a baseline from observations: ``policy(observation) -> action``.

The policy rebuilds the seat's view from the observation alone; on every
position it must choose what the bot chooses given the engine's own view.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import mantis.envs.openspiel  # noqa: F401  (registers python_mantis)
from mantis.engine import Game, bot_rng
from mantis.envs import BotPolicy, MantisEnv, mantis_v0
from mantis.envs.actions import from_engine
from mantis.envs.observation import encode, scale, view_of
from mantis.envs.openspiel import PolicyBot
from mantis.players import BOTS, make_bot
from mantis.sim.runner import play_game


def positions(players: int, seed: int, count: int):
    """Positions of random games (two-player bonus turns included)."""
    rng = random.Random(seed)
    game = Game.new(players, seed)
    seen = 0
    while seen < count:
        if game.winners is not None:
            seed += 1
            game = Game.new(players, seed)
        view = game.view()
        yield view
        seen += 1
        game.play(view.legal_actions()[rng.randrange(players)])


@pytest.mark.parametrize("level", list(BOTS))
@pytest.mark.parametrize("players", (2, 3, 6))
def test_a_policy_chooses_what_its_bot_chooses_from_the_engines_view(level, players):
    policies = [BotPolicy(level, seat=seat, seed=9) for seat in range(players)]
    bots = [make_bot(level) for _ in range(players)]
    for seat, bot in enumerate(bots):
        new_game = getattr(bot, "new_game", None)
        if new_game is not None:  # the same generator: noisy bots draw the same noise
            new_game(seat, bot_rng(9, seat))
    extra_turns = 0
    for view in positions(players, players, 150):
        mover = view.to_move
        observation = encode(view, mover)
        forms = (observation, scale(observation), {"observation": observation})
        expected = from_engine(players, mover, bots[mover].choose(view.for_seat(mover)))
        assert policies[mover](forms[view.turn % 3]) == expected, view
        extra_turns += view.extra_turn
    assert players != 2 or extra_turns  # bonus turns were among the positions


def test_the_view_read_back_from_an_observation_is_the_position():
    for view in positions(4, 1, 60):
        mover = view.to_move
        back = view_of(encode(view, mover), mover)
        assert back.to_move == back.seat == mover
        assert [back.tank_counts(s) for s in range(4)] == [view.tank_counts(s) for s in range(4)]
        assert back.scores == view.scores
        assert (back.seen, back.top_back, back.pile_size, back.turn, back.target) == (
            view.seen,
            view.top_back,
            view.pile_size,
            view.turn,
            view.target,
        )


def test_a_policy_refuses_a_position_that_is_not_its_turn_or_is_over():
    game = Game.new(3, 2)
    view = game.view()
    other = (view.to_move + 1) % 3
    with pytest.raises(ValueError, match="not the observing seat's turn"):
        BotPolicy("greedy", seat=other)(encode(view, other))
    game.play_out([make_bot("score").choose] * 3)
    with pytest.raises(ValueError, match="game is over"):
        BotPolicy("greedy")(encode(game.view(), 0))
    with pytest.raises(ValueError, match="178 fields"):
        BotPolicy("greedy")(np.zeros(10))


def test_policies_play_a_pettingzoo_game_from_observations_alone():
    env = mantis_v0.env(num_players=4, scaled=True, table_actions=True)
    env.reset(seed=12)
    levels = ("random", "casual", "greedy", "expert")
    policies = {
        agent: BotPolicy(level, seat=seat, seed=12)
        for seat, (agent, level) in enumerate(zip(env.agents, levels, strict=True))
    }
    played = 0
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        action = None if terminated or truncated else policies[agent](observation)
        played += action is not None
        env.step(action)
    assert env.unwrapped.game.winners is not None and played == env.unwrapped.game.turn


def test_a_policy_as_the_gymnasium_learner_plays_as_the_bot_in_the_simulator():
    # the learner's seat played by expert's policy, opponents by the levels: the
    # same game as the simulator's with an expert in seat 0
    levels = ["casual", "random"]
    env = MantisEnv(num_players=3, opponents=levels, masked_observation=True)
    policy = BotPolicy("expert")
    observation, info = env.reset(seed=31)
    done = False
    while not done:
        observation, _reward, done, _truncated, info = env.step(policy(observation))
    game = play_game([make_bot(level) for level in ["expert", *levels]], 31)
    assert env.game.history == game.history


def test_policy_bots_play_openspiel_through_evaluate_bots():
    game = pyspiel.load_game("python_mantis", {"players": 3})
    bots = [PolicyBot(0, "expert"), PolicyBot(1, "greedy"), PolicyBot(2, "casual", seed=3)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(5))
    assert sorted(returns)[-1] > 0 and sum(returns) == pytest.approx(1.0)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    mover = state.current_player()
    expected = from_engine(3, mover, make_bot("greedy").choose(state.view().for_seat(mover)))
    assert PolicyBot(mover, "greedy").player_id() == mover
    assert PolicyBot(mover, "greedy").step(state) == expected
