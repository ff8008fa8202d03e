"""Playing many bot-vs-bot games, in one process or spread over several.

A ``GameTask`` names a lineup (bot specs, one per seat) and a seed.  Games are
independent, so ``run_tasks`` cuts the task list into chunks, plays them in
worker processes when ``jobs > 1``, and returns the results in task order:
the outcome never depends on ``jobs``.  Bots are built once per lineup per
process and told about each new game through their optional ``new_game``.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import NamedTuple

from ..engine import Game, SeatInfo, bot_rng, record_of
from ..players import Player, bot_factory

#: Every Nth game has each decision timed: timing costs about as much as a
#: ``score`` decision, and a sample of games gives the same median and p95.
TIMING_STRIDE = 16


class GameTask(NamedTuple):
    """One game to play: ``index`` (its place in the run), its seed and its lineup."""

    index: int
    seed: int
    bots: tuple[str, ...]


class GameResult(NamedTuple):
    """What one game gave."""

    index: int
    seed: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int
    record: str | None = None
    """The game record as a JSON line, when records were asked for."""


@dataclass
class RunResult:
    """Results in task order plus decision times (seconds) per bot spec."""

    games: list[GameResult] = field(default_factory=list)
    decision_times: dict[str, list[float]] = field(default_factory=dict)


class BotFailure(Exception):
    """A bot raised or chose an illegal action during a simulated game."""

    def __init__(self, bot: str, index: int, seed: int, problem: str) -> None:
        super().__init__(f"bot {bot!r} failed in game {index} (seed {seed}): {problem}")
        self.bot = bot
        self.index = index
        self.seed = seed


def play_game(
    players: Sequence[Player],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    times: list[list[float]] | None = None,
) -> Game:
    """Play one whole game between ``players`` dealt from ``seed``.

    ``times[seat]`` collects that seat's decision times when given.  A bot
    that raises or picks an illegal action raises ``BotFailure`` (``names``
    label the seats in its message).
    """
    game = Game.new(len(players), seed)
    for seat, player in enumerate(players):
        new_game = getattr(player, "new_game", None)
        if new_game is not None:
            new_game(seat, bot_rng(seed, seat))
    choosers = [player.choose for player in players]
    play = game.play
    view = game.view
    try:
        if times is None:
            game.play_out(choosers)
        else:
            clock = perf_counter
            while not game.over:
                seat = game.to_move
                start = clock()
                action = choosers[seat](view())
                times[seat].append(clock() - start)
                play(action)
    except Exception as exc:
        seat = game.to_move
        bot = names[seat] if names else type(players[seat]).__name__
        raise BotFailure(bot, -1, seed, f"{type(exc).__name__}: {exc}") from exc
    return game


def _seat_infos(bots: Sequence[str]) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(f"{bot} {seat}", "bot", bot) for seat, bot in enumerate(bots))


def _run_chunk(tasks: Sequence[GameTask], want_records: bool) -> RunResult:
    lineups: dict[tuple[str, ...], list[Player]] = {}
    out = RunResult()
    for task in tasks:
        bots = lineups.get(task.bots)
        if bots is None:
            bots = lineups[task.bots] = [bot_factory(spec)() for spec in task.bots]
        timed = task.index % TIMING_STRIDE == 0
        times: list[list[float]] | None = [[] for _ in bots] if timed else None
        try:
            game = play_game(bots, task.seed, names=task.bots, times=times)
        except BotFailure as exc:
            raise BotFailure(exc.bot, task.index, task.seed, str(exc.__cause__)) from None
        if times is not None:
            for spec, seat_times in zip(task.bots, times, strict=True):
                out.decision_times.setdefault(spec, []).extend(seat_times)
        record = None
        if want_records:
            record = record_of(game, _seat_infos(task.bots)).to_json()
        assert game.winners is not None
        out.games.append(
            GameResult(
                task.index, task.seed, task.bots, game.winners, game.scores, game.turn, record
            )
        )
    return out


# Tasks and results are NamedTuples rather than dataclasses because thousands
# of them cross process boundaries with --jobs, and tuples pickle several
# times faster.


def _chunk_worker(args: tuple[Sequence[GameTask], bool]) -> RunResult:
    return _run_chunk(*args)


def run_tasks(
    tasks: Sequence[GameTask],
    *,
    jobs: int = 1,
    want_records: bool = False,
    progress: Callable[[int], None] | None = None,
) -> RunResult:
    """Play every task; results come back in task order whatever ``jobs`` is.

    ``progress(n)`` is called as batches of ``n`` games finish.  A failing bot
    raises ``BotFailure`` naming the bot, the game index and its seed.
    """
    jobs = max(1, min(jobs, os.cpu_count() or 1, len(tasks) or 1))
    size = max(1, min(2000, len(tasks) // (jobs * 8) or 1))
    chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
    total = RunResult()

    def merge(part: RunResult) -> None:
        total.games.extend(part.games)
        for spec, times in part.decision_times.items():
            total.decision_times.setdefault(spec, []).extend(times)
        if progress is not None:
            progress(len(part.games))

    if jobs == 1:
        for chunk in chunks:
            merge(_run_chunk(chunk, want_records))
        return total
    context = multiprocessing.get_context("spawn" if os.name != "posix" else "fork")
    with context.Pool(jobs) as pool:
        for part in pool.imap(_chunk_worker, [(chunk, want_records) for chunk in chunks]):
            merge(part)
    return total
