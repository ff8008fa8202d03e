"""Mantis as standard environments for game-AI research.

* ``mantis_v0``: PettingZoo's AEC environment, every seat an agent
  (``mantis_v0.env(num_players=4)``, ``mantis_v0.raw_env``);
* ``Mantis-v0``: a Gymnasium environment, one seat learning against the
  project's bots, registered when this package is imported; naming the
  package registers it with no import first
  (``gymnasium.make("mantis.envs:Mantis-v0", num_players=2, opponents=["greedy"])``);
* ``mantis.envs.openspiel``: the OpenSpiel game ``python_mantis``, with
  explicit chance nodes, registered when that module is imported;
* ``BotPolicy``: any bot level as a policy over observations, and
  ``mantis.envs.search``: the expert's values for OpenSpiel's search.

Every one is a view of the engine (``mantis.engine``): the rules are played
by ``Game``, never again here.  ``docs/research.md`` documents the model,
the observation, the actions and the rewards.  Nothing of the app imports
this package; its dependencies are the ``research`` extra.
"""

from __future__ import annotations

import gymnasium

from . import mantis_v0
from .policies import BotPolicy
from .single_agent import MantisEnv

ENV_ID = "Mantis-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="mantis.envs.single_agent:MantisEnv")

__all__ = ["ENV_ID", "BotPolicy", "MantisEnv", "mantis_v0"]
