"""Gymnasium's ``Mantis-v0``: one seat learning against the project's bots.

    env = gymnasium.make("Mantis-v0", num_players=3, opponents=["greedy", "expert"])

The learner sits at seat 0 and ``opponents[k - 1]`` at seat ``k``: the seat
``k`` places after the learner, the one action ``k`` steals from.  Who moves
first is the deal's (a random seat, as in every game).  An opponent is a bot
level (``random``, ``score``, ``casual``, ``greedy``, ``expert``), a plug-in
bot (``package.module:Class``) or any object with ``choose(view)``; one level
alone stands for every opponent.

Observation: the ``Box`` of ``observation.py`` from the learner's seat.
Actions: ``Discrete(6)`` (``actions.py``); ``action_masks()`` and
``info["action_mask"]`` say which are legal, for maskable algorithms.  An
illegal action ends the episode with ``illegal_reward`` (default -1).  The
reward is 0 until the game ends, then the learner's share of the win (1, or
``1/k`` of a win shared by ``k``; 0 for a loss).

Seeding: ``reset(seed=s)`` deals ``Game.new(num_players, s)``, the engine's
own game for seed ``s``, and seeds the environment's generator with ``s``;
the opponents' randomness (``casual``'s noise, ``random``'s choices) is
drawn from that generator, so a seeded reset replays exactly.  ``reset()``
with no seed deals a seed drawn from the generator.

If the opponents end the game before the learner's first turn (possible at
two players, through a chain of successful steals), ``reset`` returns the
final position with an empty mask and the next ``step`` ends the episode
with the learner's reward, whatever the action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from ..engine import Game
from ..players import Player, bot_factory, is_player
from .actions import MASKS, NO_ACTIONS, ActionSpace, to_engine
from .aec import SEED_BOUND, check_settings, observation_box
from .observation import Encoder
from .render import move_text, paints, show, table_text
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


class MantisEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learning seat against bots at a table of ``num_players`` (2 to 6)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        num_players: int = 2,
        opponents: str | Sequence[str | Player] | None = None,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        check_settings(num_players, render_mode)
        self.num_players = num_players
        self.opponents: list[Player | None] = [None, *_opponents(num_players, opponents)]
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.observation_space = observation_box()
        self.action_space = ActionSpace()
        self._encode = Encoder().encode
        self._legal = MASKS[num_players]
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
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        generator = self.np_random
        if seed is None:
            seed = int(generator.integers(SEED_BOUND))
        game = self._game = Game.new(self.num_players, seed)
        for seat, bot in enumerate(self.opponents):
            new_game = getattr(bot, "new_game", None)
            if new_game is not None:
                new_game(seat, random.Random(int(generator.integers(SEED_BOUND))))
        self._last = None
        self._opponents_play()
        if self.render_mode == "human":
            self.render()
        return self._encode(game.view(), LEARNER), {"action_mask": self._mask()}

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self._game or self.game  # (the property says what is missing)
        if game.winners is None:
            if not 0 <= action < self.num_players:
                observation = self._encode(game.view(), LEARNER)
                info = {"action_mask": NO_ACTIONS.copy(), "illegal_action": True}
                return observation, self.illegal_reward, True, False, info
            move = to_engine(self.num_players, LEARNER, int(action))
            if self.render_mode is None:
                game.play(move)
            else:
                self._last = move_text(game.apply(move), self._names)
            self._opponents_play()
        if self.render_mode == "human":
            self.render()
        view = game.view()
        observation = self._encode(view, LEARNER)
        winners = view.winners
        if winners is None:
            return observation, 0.0, False, False, {"action_mask": self._legal.copy()}
        reward = win_shares(winners, self.num_players)[LEARNER]
        info = {"action_mask": NO_ACTIONS.copy(), "winners": winners, "scores": game.scores}
        return observation, reward, True, False, info

    def _opponents_play(self) -> None:
        game = self.game
        opponents = self.opponents
        view = game.view
        while game.winners is None and (seat := game.to_move) != LEARNER:
            bot = opponents[seat]
            assert bot is not None
            move = bot.choose(view())
            if self.render_mode is None:
                game.play(move)
            else:
                self._last = move_text(game.apply(move), self._names)

    def _mask(self) -> np.ndarray:
        """The legal actions now (a new array: whoever is given it may keep it)."""
        return (NO_ACTIONS if self.game.winners is not None else MASKS[self.num_players]).copy()

    def action_masks(self) -> np.ndarray:
        """Which actions are legal now, as booleans (for maskable algorithms)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = table_text(
            self.game.view(),
            self._names,
            painted=self.render_mode == "human" and paints(),
            last=self._last,
        )
        if self.render_mode == "ansi":
            return text
        show(text)
        return None


__all__ = ["LEARNER", "MantisEnv"]
