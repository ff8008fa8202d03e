"""Gymnasium's ``Mantis-v0``: one seat learning against the project's bots.

    env = gymnasium.make("Mantis-v0", num_players=3, opponents=["greedy", "expert"])

The learner sits at seat 0 and ``opponents[k - 1]`` at seat ``k``: the seat
``k`` places after the learner, the one action ``k`` steals from.  Who moves
first is the deal's (a random seat, as in every game).  An opponent is a bot
level (``random``, ``score``, ``casual``, ``greedy``, ``expert``), a plug-in
bot (``package.module:Class``) or any object with ``choose(view)``; one level
alone stands for every opponent.

Observation: the ``Box`` of ``observation.py`` from the learner's seat
(``scaled``: as ``float32`` in [0, 1]; ``masked_observation``: in a ``Dict``
with the mask, ``{"observations": ..., "action_mask": ...}``, as RLlib's
action-masking module reads it).  Actions: ``Discrete(6)`` (``actions.py``;
``table_actions``: ``Discrete(num_players)``); ``action_masks()`` (what
SB3-contrib's MaskablePPO asks) and ``info["action_mask"]`` say which are
legal.  An illegal action ends the episode with ``illegal_reward`` (default
-1).  The reward is 0 until the game ends, then the learner's share of the
win (1, or ``1/k`` of a win shared by ``k``; 0 for a loss).

Seeding: ``reset(seed=s)`` deals ``Game.new(num_players, s)``, the engine's
own game for seed ``s``, and seeds the environment's generator with ``s``;
each opponent's randomness (``casual``'s noise, ``random``'s choices) comes
from its own generator for that deal and seat (``bot_rng(s, seat)``), as
``mantis simulate`` seeds its bots: the same seed gives the same opponents'
play there and here, and a seeded reset replays exactly.  ``reset()`` with
no seed deals a seed drawn from the environment's generator.

If the opponents end the game before the learner's first turn (possible at
two players, through a chain of successful steals), ``reset`` returns the
final position with an empty mask and the next ``step`` ends the episode
with the learner's reward, whatever the action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..engine import Game, View, bot_rng
from ..players import Player, bot_factory, is_player
from .actions import to_engine
from .aec import SEED_BOUND
from .options import RENDER_MODES, Spaces, check_players, check_render_mode, drawn
from .render import move_text
from .rewards import win_shares

LEARNER = 0
"""The learner's seat."""
DEFAULT_OPPONENT = "greedy"


def _opponents(num_players: int, opponents: str | Sequence[str | Player] | None) -> list[Player]:
    specs: Sequence[str | Player]
    if opponents is None:
        specs = [DEFAULT_OPPONENT] * (num_players - 1)
    elif isinstance(opponents, str):
        specs = [opponents] * (num_players - 1)
    else:
        specs = list(opponents)
    if len(specs) != num_players - 1:
        raise ValueError(
            f"opponents names {len(specs)} seats for a table of {num_players} "
            f"(give {num_players - 1}, one per other seat, or one level for all)"
        )
    bots: list[Player] = []
    for spec in specs:
        if isinstance(spec, str):
            bots.append(bot_factory(spec)())
        elif is_player(spec):
            bots.append(spec)
        else:
            raise ValueError(f"an opponent is a bot level or has choose(view), not {spec!r}")
    return bots


class MantisEnv(gymnasium.Env[Any, np.int64]):
    """One learning seat against bots at a table of ``num_players`` (2 to 6).

    ``table_actions``, ``scaled``: see ``options.py``.  ``masked_observation``:
    the observation is ``{"observations": vector, "action_mask": mask}``, the
    keys RLlib's action-masking module reads (the mask as ``float32``), instead
    of the vector alone.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        num_players: int = 2,
        opponents: str | Sequence[str | Player] | None = None,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        *,
        table_actions: bool = False,
        scaled: bool = False,
        masked_observation: bool = False,
    ) -> None:
        check_players(num_players)
        check_render_mode(render_mode)
        self.num_players = num_players
        self.opponents: list[Player | None] = [None, *_opponents(num_players, opponents)]
        self.render_mode = render_mode
        # the modes that print text say what the last move did: only they need the events
        self._narrated = render_mode in ("ansi", "human")
        self.illegal_reward = float(illegal_reward)
        table = self._table = Spaces(num_players, table_actions=table_actions, scaled=scaled)
        self._masked = masked_observation
        self.observation_space: spaces.Space[Any] = (
            spaces.Dict(
                {
                    "observations": table.observation,
                    "action_mask": table.mask_space(np.float32),
                }
            )
            if masked_observation
            else table.observation
        )
        self.action_space = table.action_space()
        self._names = ["learner"] + [f"seat {s}" for s in range(1, num_players)]
        self._game: Game | None = None
        self._last: str | None = None

    @property
    def game(self) -> Game:
        """The engine's game being played (after ``reset``)."""
        if self._game is None:
            raise RuntimeError("call reset() before playing")
        return self._game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(SEED_BOUND))
        game = self._game = Game.new(self.num_players, seed)
        for seat, bot in enumerate(self.opponents):
            new_game = getattr(bot, "new_game", None)
            if new_game is not None:
                # as the simulator seeds them: the same deal, the same opponents' play
                new_game(seat, bot_rng(seed, seat))
        self._last = None
        self._opponents_play()
        if self.render_mode == "human":
            self.render()
        mask = self._mask()
        return self._observe(game.view(), mask), {"action_mask": mask}

    def step(self, action: np.int64 | int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        game = self._game or self.game  # (the property says what is missing)
        table = self._table
        if game.winners is None:
            if not 0 <= action < self.num_players:
                none = table.none.copy()
                info = {"action_mask": none, "illegal_action": True}
                return self._observe(game.view(), none), self.illegal_reward, True, False, info
            move = to_engine(self.num_players, LEARNER, int(action))
            if not self._narrated:
                game.play(move)
            else:
                self._last = move_text(game.apply(move), self._names)
            self._opponents_play()
        if self.render_mode == "human":
            self.render()
        view = game.view()
        winners = view.winners
        if winners is None:
            mask = table.legal.copy()
            return self._observe(view, mask), 0.0, False, False, {"action_mask": mask}
        reward = win_shares(winners, self.num_players)[LEARNER]
        mask = table.none.copy()
        info = {"action_mask": mask, "winners": winners, "scores": game.scores}
        return self._observe(view, mask), reward, True, False, info

    def _observe(self, view: View, mask: np.ndarray) -> Any:
        observation = self._table.observe(view, LEARNER)
        if self._masked:
            # as float32: RLlib's action-masking module takes the mask's logarithm
            return {"observations": observation, "action_mask": mask.astype(np.float32)}
        return observation

    def _opponents_play(self) -> None:
        game = self.game
        opponents = self.opponents
        view = game.view
        while game.winners is None and (seat := game.to_move) != LEARNER:
            bot = opponents[seat]
            assert bot is not None
            move = bot.choose(view())
            if not self._narrated:
                game.play(move)
            else:
                self._last = move_text(game.apply(move), self._names)

    def _mask(self) -> np.ndarray:
        """The legal actions now (a new array: whoever is given it may keep it)."""
        table = self._table
        return (table.none if self.game.winners is not None else table.legal).copy()

    def action_masks(self) -> np.ndarray:
        """Which actions are legal now, as booleans (what SB3-contrib's MaskablePPO asks)."""
        return self._mask().astype(bool)

    def render(self) -> Any:  # str (ansi), an image (rgb_array) or None
        """The table: text (``ansi``), printed (``human``) or a picture (``rgb_array``)."""
        if self.render_mode is None:
            return None
        return drawn(self.render_mode, self.game.view(), self._names, self._last)


__all__ = ["LEARNER", "MantisEnv"]
