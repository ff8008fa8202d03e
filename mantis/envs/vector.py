"""``MantisVectorEnv``: one learning seat against batched bots, as a Gymnasium vector env.

    env = MantisVectorEnv(num_envs=1024, num_players=2, opponents="greedy")
    observations, infos = env.reset(seed=0)
    observations, rewards, terminations, truncations, infos = env.step(actions)

``Mantis-v0`` (``single_agent.py``) over a whole batch: in every game the
learner sits at seat 0 and the opponents at the others, the spaces are
``Mantis-v0``'s batched (``(num_envs, 178)`` observations, one action of
``Discrete(6)`` per game), the reward is the learner's share of the win at
the end, and ``infos["action_mask"]`` (``(num_envs, 6)``) says which actions
are legal.  The games are played by ``MantisBatch``, so a step is one call
for all of them, the opponents' moves included.

Opponents: ``"random"``, ``"score"``, ``"greedy"`` or ``"expert"`` (the
project's bots, batched: ``score``, ``greedy`` and ``expert`` choose what
``ScoreBot``, ``GreedyBot`` and ``ExpertBot`` do with their plain play; the
seeded noise the ``score`` and ``greedy`` levels add for people is left
out, as a learner wants a fixed opponent), or a callable
``policy(observations, action_masks) -> actions`` given the observations of
every game from its seat to move, for self-play against a frozen copy of
the learner.  It is asked for every game and its action is played in the
games where an opponent is to move.

Auto-reset is Gymnasium's ``SAME_STEP``: a game that ends is reported
(reward, ``terminations``), its last observation is in
``infos["final_obs"]`` (``infos["_final_obs"]`` marks the games) with its
winners in ``infos["final_info"]["winners"]``, and the observation returned
is already the next game's.  An action that is not legal ends that game's
episode with ``illegal_reward`` (default -1), as in ``Mantis-v0``.

Seeding: ``reset(seed=s)`` deals game ``i`` of the batch's stream as the
engine's ``Game.new(num_players, game_seed(s, i))`` (``s`` below 2**31):
the first ``num_envs`` games at reset, the next ones as games end.  With
greedy, expert or score opponents, game ``i`` is exactly ``Mantis-v0``'s
episode after ``reset(seed=game_seed(s, i))`` for the same actions, played
against ``GreedyBot()``, ``ExpertBot()`` or ``ScoreBot()`` (a test plays
both); random opponents draw from the env's generator, seeded by ``s``. A
game the opponents end before the learner's first move (possible at two
players, through a chain of steals) is no episode of the learner's: the next
game of the stream is dealt in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .actions import ActionSpace
from .batched import SEED_LIMIT, Ints, MantisBatch
from .batched_bots import expert_actions, greedy_actions, random_actions, score_actions
from .options import Spaces

LEARNER = 0
Policy = Callable[[npt.NDArray[np.uint8], npt.NDArray[np.int8]], npt.ArrayLike]
LEVELS = ("random", "score", "greedy", "expert")


class MantisVectorEnv(VectorEnv[npt.NDArray[np.uint8], npt.NDArray[np.int64], np.ndarray]):
    """``num_envs`` games of ``Mantis-v0``, stepped as one batch."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        opponents: str | Policy = "greedy",
        illegal_reward: float = -1.0,
    ) -> None:
        if isinstance(opponents, str) and opponents not in LEVELS:
            raise ValueError(
                f"batched opponents are {', '.join(LEVELS)} or a policy(observations, "
                f"action_masks), not {opponents!r}"
            )
        if not isinstance(opponents, str) and not callable(opponents):
            raise ValueError(f"an opponent policy must be callable, not {opponents!r}")
        self.batch = MantisBatch(num_envs, num_players, autoreset=False)
        self.num_envs = num_envs
        self.num_players = num_players
        self.opponents = opponents
        self.illegal_reward = float(illegal_reward)
        self.single_observation_space = Spaces(
            num_players, table_actions=False, scaled=False
        ).observation
        self.single_action_space = ActionSpace()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rng = np.random.default_rng()
        # the learner's moves in each game so far: a game over with none was not its
        self._learner_moves = np.zeros(num_envs, dtype=np.int64)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        if isinstance(seed, list):
            raise ValueError("seed the batch with one number: game i is game_seed(seed, i)")
        if seed is None:
            seed = int(self._rng.integers(SEED_LIMIT))
        self._rng = np.random.default_rng(seed)
        self.batch.reset(seed=seed)
        self._learner_moves[:] = 0
        self._opponents_play()
        return self.batch.observe(LEARNER), {"action_mask": self.batch.action_mask()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.uint8],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        batch = self.batch
        acts = np.asarray(actions).reshape(self.num_envs)
        illegal = (acts < 0) | (acts >= self.num_players)
        batch.step(np.where(illegal, 0, acts), where=~illegal)
        self._learner_moves += ~illegal
        self._opponents_play()
        over = batch.over
        terminated = over | illegal
        rewards = np.zeros(self.num_envs)
        shares = batch.winners[over]
        rewards[over] = shares[:, LEARNER] / shares.sum(axis=1)
        rewards[illegal] = self.illegal_reward
        infos: dict[str, Any] = {}
        ended = np.flatnonzero(terminated)
        if ended.size:
            final = np.full(self.num_envs, None, dtype=object)
            last = batch.observe(LEARNER)
            for g in ended:
                final[g] = last[g]
            winners = np.where(over[:, None], batch.winners, False)
            infos["final_obs"] = final
            infos["_final_obs"] = terminated.copy()
            infos["final_info"] = {"winners": winners, "_winners": over.copy()}
            batch.deal_next(ended)
            self._learner_moves[ended] = 0
            self._opponents_play()
        infos["action_mask"] = batch.action_mask()
        truncated = np.zeros(self.num_envs, dtype=bool)
        return batch.observe(LEARNER), rewards, terminated, truncated, infos

    def _opponent_actions(self) -> Ints:
        batch = self.batch
        if self.opponents == "expert":
            return expert_actions(batch)
        if self.opponents == "greedy":
            return greedy_actions(batch)
        if self.opponents == "score":
            return score_actions(batch)
        if self.opponents == "random":
            return random_actions(batch, self._rng)
        assert callable(self.opponents)
        chosen = self.opponents(batch.observe(), batch.action_mask())
        return np.asarray(chosen, dtype=np.int64).reshape(self.num_envs)

    def _opponents_play(self) -> None:
        """Play the opponents until every game waits for the learner; a game they
        end before the learner's first move is dealt again (no episode of its)."""
        batch = self.batch
        while True:
            waiting = ~batch.over & (batch.to_move != LEARNER)
            if waiting.any():
                batch.step(self._opponent_actions(), where=waiting)
                continue
            unplayed = np.flatnonzero(batch.over & (self._learner_moves == 0))
            if not unplayed.size:
                return
            batch.deal_next(unplayed)
