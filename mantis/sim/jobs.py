"""How many worker processes a run uses: ``--jobs N``, ``auto`` (every core) or the default.

The default is whichever is faster for the run asked for, by a rule measured
on a 2-core machine (``benchmarks/jobs.py`` measures it again): a worker pool
pays only when each game costs much more than sending its result back
(tens of microseconds) and the run is long enough to cover starting the
workers.  So the default is every core when the bots make a game cost at least
``PARALLEL_GAME_SECONDS`` and the run would take at least ``PARALLEL_RUN_SECONDS``
in one process; otherwise one process.  Measured (4 players, one process
against two): ``score`` and ``greedy`` games were never faster in two, at any
count; ``expert`` games (about 15 ms each) were 8% faster from 40 games on.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..players.registry import BOT_LEVELS

AUTO = "auto"

#: Rough seconds one decision takes, per built-in bot (measured, 4 players).
DECISION_SECONDS = {level.name: level.decision_seconds for level in BOT_LEVELS}
#: A bot from a plug-in: assumed to think like a middling bot.
UNKNOWN_DECISION_SECONDS = 5e-5
#: The rules' own cost of a turn, and the turns of a typical game.
TURN_SECONDS = 3e-6
TYPICAL_TURNS = 35
#: A game must cost this much for more processes to pay...
PARALLEL_GAME_SECONDS = 2e-3
#: ...and the run, in one process, at least this long.
PARALLEL_RUN_SECONDS = 1.0


def cores() -> int:
    """Processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def game_seconds(lineup: Sequence[str]) -> float:
    """Estimated seconds one game with these bots (one spec per seat) takes."""
    decision = sum(DECISION_SECONDS.get(s, UNKNOWN_DECISION_SECONDS) for s in lineup) / len(lineup)
    return TYPICAL_TURNS * (TURN_SECONDS + decision)


def default_jobs(lineups: Sequence[Sequence[str]], games_per_lineup: int, available: int) -> int:
    """One process or ``available``, whichever should finish the run first."""
    if available <= 1 or not lineups:
        return 1
    per_game = max(game_seconds(lineup) for lineup in lineups)
    total = sum(game_seconds(lineup) for lineup in lineups) * games_per_lineup
    if per_game >= PARALLEL_GAME_SECONDS and total >= PARALLEL_RUN_SECONDS:
        return available
    return 1


def resolve_jobs(
    jobs: int | str | None, lineups: Sequence[Sequence[str]], games_per_lineup: int
) -> int:
    """Worker processes for ``--jobs``: a number, ``auto`` (every core), or None (the default)."""
    if jobs == AUTO:
        return cores()
    if jobs is None:
        return default_jobs(lineups, games_per_lineup, cores())
    assert isinstance(jobs, int)
    return jobs
