"""PettingZoo's ``mantis_v0``: every seat an agent, turn by turn (the AEC API).

Built as PettingZoo's own classic card games are: agents ``player_0`` to
``player_{n-1}`` (one per seat), observations ``{"observation": Box,
"action_mask": Box}`` (``observation.py``; the mask is all zeros for a seat
that is not to move), ``Discrete(6)`` actions (``actions.py``; ``Discrete(n)``
with ``table_actions``), rewards only
when the game ends (``rewards.py``: the share of the win, 0 for a loss) with
every agent terminated then.  With two players a seat that steals
successfully is selected again at once (its extra turn).

``env()`` wraps ``raw_env`` in PettingZoo's standard wrappers
(``wrappers.py``: PettingZoo's classes, through their public methods):
an illegal action ends the game with -1 for whoever played it (and 0 for
the others), an action outside the space is an error, and calls out of order
are errors.

``reset(seed=s)`` deals ``Game.new(num_players, s)``, the engine's own game
for that seed; ``reset()`` with no seed deals a seed drawn from the
environment's generator (itself seeded by the last seeded reset).  The whole
environment pickles, mid-game included, and plays on from where it was.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..engine import Game, IllegalActionError
from .actions import to_engine
from .options import RENDER_MODES, Spaces, check_players, check_render_mode, drawn
from .render import move_text
from .rewards import win_shares
from .wrappers import StandardWrappers

ILLEGAL_REWARD = -1.0
"""What ``env()`` gives a seat that plays an illegal action (the game ends)."""
#: Deal seeds drawn by an unseeded reset are below this.
SEED_BOUND = 2**63


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801  (PettingZoo: untyped, and its name)
    """Mantis for ``num_players`` (2 to 6) as a PettingZoo AEC environment, unwrapped.

    ``table_actions`` and ``scaled``: see ``options.py`` (``Discrete(num_players)``
    actions; observations as ``float32`` in [0, 1]).
    """

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "mantis_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 2,
        render_mode: str | None = None,
        *,
        table_actions: bool = False,
        scaled: bool = False,
    ) -> None:
        check_players(num_players)
        check_render_mode(render_mode)
        super().__init__()
        self.num_players = num_players
        self.render_mode = render_mode
        # the modes that print text say what the last move did: only they need the events
        self._narrated = render_mode in ("ansi", "human")
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        table = Spaces(num_players, table_actions=table_actions, scaled=scaled)
        self.observation_spaces = {
            agent: spaces.Dict(
                {"observation": table.observation, "action_mask": table.mask_space()}
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: table.action_space() for agent in self.possible_agents}
        self._mask = table.legal
        self._no_actions = table.none
        self._encode = table.observe
        self._generator: np.random.Generator | None = None
        self._generator_seed: int | None = None
        self._game: Game | None = None
        self._last: str | None = None

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ playing

    @property
    def game(self) -> Game:
        """The engine's game being played (after ``reset``)."""
        if self._game is None:
            raise RuntimeError("call reset() before playing")
        return self._game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            # the generator is made from this seed when an unseeded reset first needs
            # it (making one costs half a deal, and seeded resets never need it)
            self._generator = None
            self._generator_seed = seed
        else:
            if self._generator is None:
                self._generator, _ = seeding.np_random(self._generator_seed)
            seed = int(self._generator.integers(SEED_BOUND))
        game = self._game = Game.new(self.num_players, seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[game.to_move]
        self._last = None

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        view = (self._game or self.game).view()  # (the property says what is missing)
        seat = self._seats[agent]
        mask = self._mask if seat == view.to_move and view.winners is None else self._no_actions
        return {"observation": self._encode(view, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game or self.game
        if action is None:
            raise IllegalActionError(f"{agent} is to move: None is not an action")
        move = to_engine(self.num_players, game.to_move, action)
        if not self._narrated:
            game.play(move)
        else:
            self._last = move_text(game.apply(move), self.possible_agents)
        # Rewards come only at the end, so until then every reward, and every
        # cumulative reward, stays 0 and needs no clearing nor adding up.
        if game.winners is not None:
            agents = self.possible_agents
            for seat, share in enumerate(win_shares(game.winners, self.num_players)):
                self.rewards[agents[seat]] = share
            self.terminations = dict.fromkeys(self.agents, True)
            for other in self.agents:
                self.infos[other] = {"winners": game.winners, "scores": game.scores}
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[game.to_move]
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ showing

    def render(self) -> str | np.ndarray | None:
        """The table: text (``ansi``), printed (``human``) or a picture (``rgb_array``)."""
        if self.render_mode is None:
            return None
        return drawn(self.render_mode, self.game.view(), self.possible_agents, self._last)

    def close(self) -> None:
        """Nothing to release: the environment holds no window or file."""


def env(
    num_players: int = 2,
    render_mode: str | None = None,
    *,
    table_actions: bool = False,
    scaled: bool = False,
) -> AECEnv[str, Any, Any]:
    """``raw_env`` in PettingZoo's standard wrappers (illegal move: -1 and the end)."""
    raw = raw_env(num_players, render_mode, table_actions=table_actions, scaled=scaled)
    return StandardWrappers(raw, ILLEGAL_REWARD)
