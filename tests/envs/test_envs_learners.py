"""Mantis with the learning libraries researchers use on it: SB3-contrib's MaskablePPO
(through Stable-Baselines3's own ``make_vec_env``) and RLlib's action-masking module.

They need PyTorch, which is too heavy for the test extra (see pyproject.toml):
these tests run where the libraries are installed and skip otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest

from mantis.envs import MantisEnv


def test_sb3s_make_vec_env_and_maskable_ppo_train_on_mantis():
    pytest.importorskip("sb3_contrib", reason="needs sb3-contrib (and torch)")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    # make_vec_env asks every environment for render_mode="rgb_array"
    vec = make_vec_env(
        "mantis.envs:Mantis-v0",
        n_envs=2,
        seed=3,
        env_kwargs={"num_players": 3, "opponents": "greedy", "scaled": True},
    )
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.tolist() == [[True, True, True, False, False, False]] * 2
    images = vec.get_images()
    assert all(image.ndim == 3 and image.dtype == np.uint8 for image in images)
    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, seed=3, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    env = MantisEnv(num_players=3, opponents="greedy", scaled=True)
    observation, _info = env.reset(seed=1)
    done = False
    while not done:
        action, _state = model.predict(observation, action_masks=env.action_masks())
        assert env.action_masks()[action]
        observation, _reward, done, _truncated, _info = env.step(action)


def test_rllibs_action_masking_module_takes_the_masked_observation():
    pytest.importorskip("ray.rllib", reason="needs ray[rllib] (and torch)")
    torch = pytest.importorskip("torch")
    from ray.rllib.core.columns import Columns
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    env = MantisEnv(num_players=2, opponents="expert", masked_observation=True, scaled=True)
    module = ActionMaskingTorchRLModule(
        observation_space=env.observation_space,
        action_space=env.action_space,
        model_config={"fcnet_hiddens": [32]},
    )
    observations = [env.reset(seed=seed)[0] for seed in range(4)]
    batch = {
        Columns.OBS: {
            key: torch.as_tensor(np.stack([o[key] for o in observations]))
            for key in ("observations", "action_mask")
        }
    }
    out = module.forward_inference(batch)
    logits = out[Columns.ACTION_DIST_INPUTS]
    assert tuple(logits.shape) == (4, 6)
    # the two actions there are at two seats keep their logits; the four there never are
    # are pushed out of reach
    assert (logits[:, 2:] < -1e30).all() and (logits[:, :2] > -1e3).all()
