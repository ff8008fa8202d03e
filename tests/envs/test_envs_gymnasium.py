"""Gymnasium's ``Mantis-v0``: Gymnasium's own checks, the opponents, seeding, illegal actions."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mantis.engine import Game, bot_rng
from mantis.envs import ENV_ID, MantisEnv
from mantis.envs.actions import from_engine
from mantis.players import PlayerSpecError, make_bot
from mantis.sim.runner import play_game

LINEUPS = {
    2: ["greedy"],
    3: ["casual", "random"],
    4: ["random", "expert", "casual"],
    6: ["score", "casual", "greedy", "random", "expert"],
}


@pytest.mark.parametrize("players", sorted(LINEUPS))
def test_gymnasium_check_env_passes_with_every_level_among_the_opponents(players, capsys):
    env = gymnasium.make(ENV_ID, num_players=players, opponents=LINEUPS[players])
    check_env(env.unwrapped)  # its determinism checks included: casual and random draw noise


def test_make_builds_the_environment_named_in_the_issue():
    env = gymnasium.make("Mantis-v0", num_players=2, opponents=["greedy"])
    assert isinstance(env.unwrapped, MantisEnv)
    assert env.action_space == gymnasium.spaces.Discrete(6)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].tolist() == [1, 1, 0, 0, 0, 0]
    assert env.unwrapped.action_masks().tolist() == [True, True, False, False, False, False]


def test_reset_with_a_seed_deals_the_engines_game_for_that_seed():
    env = MantisEnv(num_players=3, opponents="score")
    env.reset(seed=99)
    expected = Game.new(3, 99)
    assert env.game.initial_tanks == expected.initial_tanks
    assert env.game.initial_pile == expected.initial_pile
    assert env.game.first == expected.first


def history_of(seed: int, opponents: list[str]) -> tuple:
    env = MantisEnv(num_players=len(opponents) + 1, opponents=opponents)
    env.reset(seed=seed)
    done = False
    while not done:
        *_, terminated, truncated, _info = env.step(0)
        done = terminated or truncated
    return env.game.history


def test_the_opponents_randomness_comes_from_the_environments_seed():
    noisy = ["casual", "random", "casual"]
    assert history_of(8, noisy) == history_of(8, noisy)
    assert history_of(8, noisy) != history_of(9, noisy)


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward():
    env = MantisEnv(num_players=2, opponents="greedy", illegal_reward=-2.5)
    env.reset(seed=1)
    turn = env.game.turn
    _obs, reward, terminated, truncated, info = env.step(np.int64(4))
    assert (reward, terminated, truncated) == (-2.5, True, False)
    assert info["illegal_action"] and not info["action_mask"].any()
    assert env.game.turn == turn


def test_the_episode_pays_the_learners_share_of_the_win_once_at_the_end():
    env = MantisEnv(num_players=4, opponents="random")
    won = 0
    for seed in range(30):
        env.reset(seed=seed)
        rewards = []
        done = False
        while not done:
            _obs, reward, done, _truncated, info = env.step(0)
            rewards.append(reward)
        winners = env.game.winners
        assert rewards[-1] == (1 / len(winners) if 0 in winners else 0.0)
        assert set(rewards[:-1]) <= {0.0} and info["winners"] == winners
        won += 0 in winners
    assert 0 < won < 30  # always scoring against random seats wins some, loses some


def test_opponents_that_do_not_fit_the_table_are_one_line_errors():
    with pytest.raises(ValueError, match="names 2 seats for a table of 4"):
        MantisEnv(num_players=4, opponents=["greedy", "greedy"])
    with pytest.raises(PlayerSpecError, match="unknown bot 'grandmaster'"):
        MantisEnv(num_players=2, opponents=["grandmaster"])
    with pytest.raises(ValueError, match="has choose"):
        MantisEnv(num_players=2, opponents=[42])  # type: ignore[list-item]


def test_a_pickled_environment_plays_on_exactly_as_the_original():
    env = MantisEnv(num_players=3, opponents=["casual", "random"])
    env.reset(seed=21)
    for _ in range(3):
        env.step(1)
    twin = pickle.loads(pickle.dumps(env))
    for action in (0, 2, 0, 1, 0, 0, 2, 1) * 12:
        first = env.step(action)
        second = twin.step(action)
        assert np.array_equal(first[0], second[0]) and first[1:4] == second[1:4]
        if first[2]:
            break
    assert twin.game.history == env.game.history


@pytest.mark.parametrize("seed", (3, 40))
def test_the_opponents_play_as_mantis_simulate_seeds_them(seed):
    """The same seed gives the same deal and the same opponents' play as the simulator's:
    here the learner plays as a seeded ``casual`` in seat 0 would, so the whole game
    must be the simulator's game of that lineup."""
    lineup = ["casual", "random", "casual", "casual"]
    env = MantisEnv(num_players=4, opponents=lineup[1:])
    learner = make_bot("casual")
    learner.new_game(0, bot_rng(seed, 0))
    env.reset(seed=seed)
    done = False
    while not done:
        action = from_engine(4, 0, learner.choose(env.game.view()))
        *_, done, _truncated, _info = env.step(action)
    simulated = play_game([make_bot(level) for level in lineup], seed)
    assert env.game.history == simulated.history
    assert env.game.winners == simulated.winners
