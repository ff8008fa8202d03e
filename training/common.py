"""Helpers shared by the training scripts: seat-rotated matches in worker processes.

A player is given as ``(module:Class, kwargs)`` so that variants with other
weights can be sent to worker processes.  Seeds come from
``mantis.engine.game_seed(seed, i)``: the same seed gives the same deals to
every candidate (common random numbers), which makes comparisons sharper.
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
from collections.abc import Sequence
from typing import Any

from mantis.engine import game_seed
from mantis.sim.runner import play_game
from mantis.sim.stats import wilson_interval

Spec = tuple[str, dict[str, Any]]


def build(spec: Spec) -> Any:
    path, kwargs = spec
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)(**kwargs)


def _play_chunk(args: tuple[Spec, Spec, int, int, int, int]) -> int:
    hero_spec, foe_spec, players, seed, start, stop = args
    hero = build(hero_spec)
    foes = [build(foe_spec) for _ in range(players - 1)]
    wins = 0
    for i in range(start, stop):
        pos = i % players
        seats = list(foes)
        seats.insert(pos, hero)
        game = play_game(seats, game_seed(seed, i))
        wins += pos in game.winners
    return wins


def match(
    hero: Spec, foe: Spec, players: int, games: int, *, seed: int = 0, jobs: int = 2
) -> tuple[float, float, float]:
    """Win rate of ``hero`` against ``players - 1`` copies of ``foe``, seats rotated."""
    step = max(players, (games // (jobs * 4)) // players * players)
    chunks = [(hero, foe, players, seed, s, min(s + step, games)) for s in range(0, games, step)]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            wins = sum(pool.map(_play_chunk, chunks))
    else:
        wins = sum(map(_play_chunk, chunks))
    lo, hi = wilson_interval(wins, games)
    return wins / games, lo, hi


def fmt(result: Sequence[float]) -> str:
    rate, lo, hi = result
    return f"{rate:.2%} [{lo:.2%}, {hi:.2%}]"


def write_result(path: str, result: dict[str, Any]) -> None:
    """A script's figures as JSON at ``path``, written whole or not at all."""
    from mantis.base.atomic import write_text_atomic

    write_text_atomic(path, json.dumps(result, indent=2) + "\n")
