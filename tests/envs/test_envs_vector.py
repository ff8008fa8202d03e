"""``MantisVectorEnv``: Mantis-v0's episodes, many at once, with Gymnasium's SAME_STEP reset."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from mantis.engine import game_seed
from mantis.envs import MantisEnv
from mantis.envs.vector import MantisVectorEnv
from mantis.players.bots.expert import ExpertBot
from mantis.players.bots.greedy import GreedyBot
from mantis.players.bots.score import ScoreBot

# The batched bots play as the plain bots do (the levels' seeded noise is for people).
PLAIN = {"greedy": GreedyBot, "expert": ExpertBot, "score": ScoreBot}


@pytest.mark.parametrize(("players", "opponents"), [(2, "greedy"), (3, "expert"), (4, "score")])
def test_each_game_is_mantis_v0s_episode_for_the_same_actions(players, opponents):
    envs = 6
    vector = MantisVectorEnv(envs, players, opponents=opponents)
    obs, infos = vector.reset(seed=9)
    assert obs.shape == (envs, 178) and vector.observation_space.contains(obs)
    singles = []
    for g in range(envs):
        single = MantisEnv(players, opponents=[PLAIN[opponents]() for _ in range(players - 1)])
        first, _ = single.reset(seed=game_seed(9, g))
        assert obs[g].tolist() == first.tolist()
        singles.append(single)
    dealt = envs
    rng = np.random.default_rng(players)
    episodes = 0
    for _ in range(50):
        actions = rng.integers(0, players, size=envs)
        obs, rewards, terminated, truncated, infos = vector.step(actions)
        assert not truncated.any()
        for g in range(envs):
            single_obs, reward, done, _, single_info = singles[g].step(int(actions[g]))
            assert bool(terminated[g]) == done and rewards[g] == reward
            if done:
                episodes += 1
                assert infos["_final_obs"][g]
                assert infos["final_obs"][g].tolist() == single_obs.tolist()
                assert np.flatnonzero(infos["final_info"]["winners"][g]).tolist() == list(
                    single_info["winners"]
                )
                first, _ = singles[g].reset(seed=game_seed(9, dealt))
                dealt += 1
                assert obs[g].tolist() == first.tolist()
            else:
                assert obs[g].tolist() == single_obs.tolist()
        assert (infos["action_mask"][:, :players] == 1).all()
    assert episodes > envs


def test_an_illegal_action_ends_its_episode_and_a_policy_can_play_the_opponents():
    seen = []

    def policy(observations, masks):
        seen.append(observations.shape)
        return np.zeros(len(observations), dtype=int)  # always score

    vector = MantisVectorEnv(4, 2, opponents=policy, illegal_reward=-2.0)
    vector.reset(seed=1)
    obs, rewards, terminated, _, infos = vector.step(np.array([0, 5, 1, -1]))
    assert terminated.tolist() == [False, True, False, True]
    assert rewards.tolist() == [0.0, -2.0, 0.0, -2.0]
    assert seen and seen[0] == (4, 178)
    with pytest.raises(ValueError, match="batched opponents"):
        MantisVectorEnv(2, opponents="casual")


def test_gymnasiums_vector_checks_accept_it():
    vector = MantisVectorEnv(8, 3, opponents="random")
    assert isinstance(vector, gymnasium.vector.VectorEnv)
    a, _ = vector.reset(seed=4)
    b, _ = MantisVectorEnv(8, 3, opponents="random").reset(seed=4)
    assert (a == b).all()
    for _ in range(60):
        obs, *_ = vector.step(vector.action_space.sample() % 3)
        assert vector.observation_space.contains(obs)
