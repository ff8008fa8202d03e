"""PettingZoo's module for Mantis, named as its own are: ``env`` and ``raw_env``.

from mantis.envs import mantis_v0
env = mantis_v0.env(num_players=4, render_mode="ansi")
"""

from __future__ import annotations

from .aec import env, raw_env

__all__ = ["env", "raw_env"]
