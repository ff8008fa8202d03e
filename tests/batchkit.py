"""Mantis batched beside the engine: the same games, played move for move.

``EngineTwins`` holds the engine's ``Game`` for every game of a batch (the
same seed) and plays the batch's actions on them too, dealing the engine's
game again when the batch auto-resets one, so a test can compare them at
every step.
"""

from __future__ import annotations

import numpy as np

from mantis.engine import Game
from mantis.envs.actions import to_engine
from mantis.envs.batched import BatchStep, MantisBatch


class EngineTwins:
    """The engine's games of ``batch``, kept in step with it by ``step``."""

    def __init__(self, batch: MantisBatch) -> None:
        self.batch = batch
        self.games = [Game.new(batch.num_players, int(seed)) for seed in batch.seeds]

    def __getitem__(self, g: int) -> Game:
        return self.games[g]

    def step(self, actions: np.ndarray) -> BatchStep:
        """Play ``actions`` on the batch and on the engine's games alike."""
        step = self.batch.step(actions)
        players = self.batch.num_players
        for g, game in enumerate(self.games):
            game.play(to_engine(players, game.to_move, int(actions[g])))
            if step.ended[g]:
                self.games[g] = Game.new(players, int(self.batch.seeds[g]))
        return step
