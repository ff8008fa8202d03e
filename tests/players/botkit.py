"""Random positions for bot tests: real games played to a random point."""

from __future__ import annotations

import random
from collections.abc import Iterator

from mantis.engine import Game
from mantis.players.bots.random_bot import RandomBot


def random_positions(count: int, seed: int) -> Iterator[Game]:
    """``count`` games (every table size) each stopped at a random turn, not over."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        players = rng.randint(2, 6)
        game = Game.new(players, rng.randrange(2**40))
        mover = RandomBot()
        mover.new_game(0, random.Random(rng.random()))
        stop = rng.randrange(0, 60)
        for _ in range(stop):
            if game.over:
                break
            game.play(mover.choose(game.view()))
        if not game.over:
            made += 1
            yield game
