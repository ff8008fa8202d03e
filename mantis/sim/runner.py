"""Playing many bot-vs-bot games, in one process or spread over several.

A ``GameTask`` names a lineup (bot specs, one per seat) and a seed.  Games are
independent, so ``run_tasks`` cuts the task list into chunks (sized by
``chunking.ChunkSizer`` to take a fraction of a second each, so that progress
moves), plays them in worker processes when ``jobs > 1``, and returns the
results in task order: the outcome never depends on ``jobs``.  Bots are built once per lineup per
process and told about each new game through their optional ``new_game``.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from time import perf_counter
from typing import NamedTuple

from ..engine import Game, SeatInfo, bot_rng, record_of
from ..players import Player, bot_factory
from .chunking import ChunkSizer
from .jobs import cores

#: Every Nth game has each decision timed: timing costs about as much as a
#: ``score`` decision, and a sample of games gives the same median and p95.
TIMING_STRIDE = 16


class GameTask(NamedTuple):
    """One game to play: ``number`` (its place in the run), its seed and its lineup."""

    number: int  # not "index": a tuple's index() method has that name
    seed: int
    bots: tuple[str, ...]


class GameResult(NamedTuple):
    """What one game gave."""

    number: int
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
    seconds: float = 0.0
    """How long the games took where they were played (sizes the next chunk)."""


class BotFailure(Exception):
    """A bot raised or chose an illegal action during a simulated game."""

    def __init__(self, bot: str, index: int, seed: int, problem: str) -> None:
        super().__init__(f"bot {bot!r} failed in game {index} (seed {seed}): {problem}")
        self.bot = bot
        self.index = index
        self.seed = seed
        self.problem = problem

    def __reduce__(self) -> tuple[type[BotFailure], tuple[str, int, int, str]]:
        # from a worker process to the parent: rebuilt from the same four fields
        return (BotFailure, (self.bot, self.index, self.seed, self.problem))


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
    # A seat's name is at most 64 characters (SeatInfo): a long plug-in spec is cut short.
    return tuple(SeatInfo(f"{bot[:60]} {seat}", "bot", bot) for seat, bot in enumerate(bots))


#: Bots per lineup, built once per process and kept for the whole run.
_LINEUPS: dict[tuple[str, ...], list[Player]] = {}


def _run_chunk(tasks: Sequence[GameTask], want_records: bool) -> RunResult:
    start = perf_counter()
    lineups = _LINEUPS
    out = RunResult()
    for task in tasks:
        bots = lineups.get(task.bots)
        if bots is None:
            bots = lineups[task.bots] = [bot_factory(spec)() for spec in task.bots]
        timed = task.number % TIMING_STRIDE == 0
        times: list[list[float]] | None = [[] for _ in bots] if timed else None
        try:
            game = play_game(bots, task.seed, names=task.bots, times=times)
        except BotFailure as exc:
            raise BotFailure(exc.bot, task.number, task.seed, str(exc.__cause__)) from None
        if times is not None:
            for spec, seat_times in zip(task.bots, times, strict=True):
                out.decision_times.setdefault(spec, []).extend(seat_times)
        record = None
        if want_records:
            record = record_of(game, _seat_infos(task.bots)).to_json()
        assert game.winners is not None
        out.games.append(
            GameResult(
                task.number, task.seed, task.bots, game.winners, game.scores, game.turn, record
            )
        )
    out.seconds = perf_counter() - start
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

    ``progress(n)`` is called as each chunk of ``n`` games finishes: after the
    first game, then about every ``chunking.TARGET_SECONDS``.  A failing bot
    raises ``BotFailure`` naming the bot, the game index and its seed.
    """
    jobs = max(1, min(jobs, cores(), len(tasks) or 1))
    sizer = ChunkSizer()
    parts: dict[int, RunResult] = {}

    def done(start: int, part: RunResult) -> None:
        parts[start] = part
        sizer.record(len(part.games), part.seconds)
        if progress is not None:
            progress(len(part.games))

    _LINEUPS.clear()  # bots are built afresh for each run
    next_start = 0
    if jobs == 1:
        while next_start < len(tasks):
            size = sizer.next_size()
            done(next_start, _run_chunk(tasks[next_start : next_start + size], want_records))
            next_start += size
        return _merge(parts)
    context = multiprocessing.get_context("spawn" if os.name != "posix" else "fork")
    finished: queue.SimpleQueue[tuple[int, RunResult | BaseException]] = queue.SimpleQueue()
    failed: tuple[int, BaseException] | None = None
    with context.Pool(jobs) as pool:
        in_flight = 0
        while (next_start < len(tasks) and failed is None) or in_flight:
            # two chunks per worker in flight: none waits for the next to be handed out
            while failed is None and next_start < len(tasks) and in_flight < 2 * jobs:
                size = sizer.next_size()
                chunk = tasks[next_start : next_start + size]
                pool.apply_async(
                    _chunk_worker,
                    ((chunk, want_records),),
                    callback=partial(_put, finished, next_start),
                    error_callback=partial(_put, finished, next_start),
                )
                next_start += size
                in_flight += 1
            start, part = finished.get()
            in_flight -= 1
            if isinstance(part, BaseException):
                # The chunks under way finish first: a worker stopped while it sends a result
                # can leave the results' lock held, and the pool then never closes.
                if failed is None or start < failed[0]:
                    failed = (start, part)
                continue
            done(start, part)
    if failed is not None:
        raise failed[1]  # (the earliest game's failure among those played)
    return _merge(parts)


def _put(
    finished: queue.SimpleQueue[tuple[int, RunResult | BaseException]],
    start: int,
    part: RunResult | BaseException,
) -> None:
    finished.put((start, part))


def _merge(parts: dict[int, RunResult]) -> RunResult:
    """The chunks' results as one, in task order."""
    total = RunResult()
    for start in sorted(parts):
        part = parts[start]
        total.games.extend(part.games)
        for spec, times in part.decision_times.items():
            total.decision_times.setdefault(spec, []).extend(times)
        total.seconds += part.seconds
    return total
