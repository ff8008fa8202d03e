"""Every entry point as a researcher calls it: pickling with any opponent, pictures,
render modes the environments lack, table-sized actions, scaled and masked observations,
and ``gymnasium.make`` in a fresh process."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from mantis.engine import BACKS
from mantis.envs import ENV_ID, MantisEnv, mantis_v0
from mantis.envs.observation import HIGH, SIZE, encode
from mantis.envs.picture import HUES, seat_band, shape_pixels, size
from mantis.players import BOTS


@pytest.mark.parametrize("level", list(BOTS))
def test_an_environment_with_any_opponent_pickles_mid_game_and_plays_on_identically(level):
    env = MantisEnv(num_players=3, opponents=level)
    env.reset(seed=5)
    env.step(1)  # every opponent has decided at least once (the expert's network is built)
    twin = pickle.loads(pickle.dumps(env))
    for action in (0, 2, 1, 0) * 30:
        first, second = env.step(action), twin.step(action)
        assert np.array_equal(first[0], second[0]) and first[1:4] == second[1:4]
        if first[2]:
            break
    assert twin.game.history == env.game.history and env.game.winners is not None


def test_a_pettingzoo_environment_pickles_with_its_options():
    env = mantis_v0.env(num_players=4, table_actions=True, scaled=True)
    env.reset(seed=2)
    env.step(3)
    twin = pickle.loads(pickle.dumps(env))
    assert np.array_equal(twin.last()[0]["observation"], env.last()[0]["observation"])
    assert twin.action_space(twin.agent_selection) == gymnasium.spaces.Discrete(4)


@pytest.mark.parametrize("players", (2, 4, 6))
def test_rgb_array_is_a_picture_of_the_board_every_seats_tank_card_by_card(players):
    env = mantis_v0.raw_env(num_players=players, render_mode="rgb_array")
    env.reset(seed=players)
    for _ in range(25):
        env.step(random.Random(env.game.turn).randrange(players))
        if env.game.winners is not None:
            break
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.shape == (*size(players), 3)
    view = env.game.view()
    for seat in range(players):
        band = image[seat_band(seat)]
        for colour, count in enumerate(view.tank_counts(seat)):
            drawn = np.all(band == HUES[colour], axis=-1).sum()
            assert drawn == count * shape_pixels(colour), (seat, colour)
    top = image[: seat_band(0).start]
    if view.top_back is not None:
        # the back's three colours as stripes, and the faces it can still have
        shown = {c for c, hue in enumerate(HUES) if np.all(top == hue, axis=-1).any()}
        assert shown == set(BACKS[view.top_back])
        left = top[:, 130:]
        faces = {c for c, hue in enumerate(HUES) if np.all(left == hue, axis=-1).any()}
        assert faces == {c for c, weight in view.face_weights() if weight}


def test_the_gymnasium_picture_changes_with_the_game():
    env = gymnasium.make(ENV_ID, num_players=2, opponents="greedy", render_mode="rgb_array")
    env.reset(seed=3)
    before = env.render()
    env.step(0)
    after = env.render()
    assert before.shape == after.shape == (*size(2), 3) and not np.array_equal(before, after)


def test_a_render_mode_the_environments_lack_is_warned_about_not_refused(caplog):
    with pytest.warns(UserWarning, match="not 'rgb_array_list'"):
        env = MantisEnv(num_players=2, render_mode="rgb_array_list")
    env.reset(seed=1)
    env.step(0)
    assert env.render() is None
    with pytest.warns(UserWarning, match="not 'video'"):
        aec = mantis_v0.env(num_players=3, render_mode="video")
    aec.reset(seed=1)
    assert aec.render() is None


def test_gymnasium_make_by_the_modules_name_needs_no_import_first():
    program = (
        "import gymnasium, sys\n"
        "env = gymnasium.make('mantis.envs:Mantis-v0', num_players=3, opponents='expert')\n"
        "observation, info = env.reset(seed=1)\n"
        "assert 'mantis.envs' in sys.modules\n"
        "print(observation.shape, info['action_mask'].tolist())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(178,) [1, 1, 1, 0, 0, 0]"


@pytest.mark.parametrize("players", (2, 5))
def test_table_actions_are_discrete_n_with_no_action_that_is_never_legal(players):
    env = gymnasium.make(ENV_ID, num_players=players, opponents="casual", table_actions=True)
    assert env.action_space == gymnasium.spaces.Discrete(players)
    _obs, info = env.reset(seed=4)
    assert info["action_mask"].tolist() == [1] * players
    assert env.unwrapped.action_masks().all()
    check_env(env.unwrapped)
    aec = mantis_v0.env(num_players=players, table_actions=True)
    aec.reset(seed=4)
    mover = aec.agent_selection
    assert aec.action_space(mover) == gymnasium.spaces.Discrete(players)
    assert aec.observe(mover)["action_mask"].tolist() == [1] * players
    others = [agent for agent in aec.agents if agent != mover]
    assert aec.observe(others[0])["action_mask"].tolist() == [0] * players


def test_table_actions_pass_pettingzoos_api_test():
    api_test(mantis_v0.env(num_players=3, table_actions=True, scaled=True), num_cycles=100)


def test_a_scaled_observation_is_the_counts_over_their_largest_values():
    env = MantisEnv(num_players=4, opponents="greedy", scaled=True)
    observation, _info = env.reset(seed=8)
    for _ in range(6):
        observation, *_rest = env.step(1)
    assert observation.dtype == np.float32 and observation.shape == (SIZE,)
    assert observation.min() >= 0.0 and observation.max() <= 1.0
    counts = encode(env.game.view(), 0)
    assert np.allclose(observation * HIGH, counts, atol=1e-4)
    assert env.observation_space.contains(observation)
    check_env(MantisEnv(num_players=3, opponents="random", scaled=True))


def test_a_masked_observation_carries_the_keys_rllibs_masking_module_reads():
    env = MantisEnv(num_players=3, opponents="greedy", masked_observation=True, scaled=True)
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["action_mask"].dtype == np.float32  # RLlib takes its logarithm
    observation, info = env.reset(seed=6)
    assert space.contains(observation)
    assert observation["action_mask"].tolist() == [1, 1, 1, 0, 0, 0]
    assert np.array_equal(observation["action_mask"], info["action_mask"])
    done = False
    while not done:
        observation, _reward, done, _truncated, info = env.step(0)
        assert space.contains(observation)
    assert not observation["action_mask"].any()
    check_env(MantisEnv(num_players=2, opponents="casual", masked_observation=True))
