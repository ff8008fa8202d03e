"""``mantis simulate``: many bot-vs-bot games at one table, headless.

Game ``i`` (0-based) is dealt from ``game_seed(S, i) = S * 2**32 + i`` (see
``engine.deal``), which is also the record's ``seed``: ``mantis play --seed``
with that number deals the same game again.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any

from ..base.atomic import write_text_atomic
from ..base.printable import echo
from ..engine import game_seed
from .jobs import resolve_jobs
from .progress import progress_bar
from .runner import BotFailure, GameTask, RunResult, run_tasks
from .settings import RunSettingsError, check_table, split_bots
from .stats import timing_ms, wilson_interval


@dataclass(frozen=True)
class Summary:
    """The figures ``mantis simulate`` reports."""

    games: int
    players: int
    seed: int
    bots: tuple[str, ...]
    wins: tuple[int, ...]
    mean_scores: tuple[float, ...]
    shared: int
    avg_turns: float
    seconds: float
    decision_ms: dict[str, dict[str, float]]

    @property
    def win_rates(self) -> tuple[float, ...]:
        return tuple(w / self.games for w in self.wins)

    @property
    def cis(self) -> tuple[tuple[float, float], ...]:
        return tuple(wilson_interval(w, self.games) for w in self.wins)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "bots": list(self.bots),
            "wins": list(self.wins),
            "win_rate": list(self.win_rates),
            "win_rate_ci95": [list(ci) for ci in self.cis],
            "mean_score": [round(s, 4) for s in self.mean_scores],
            "shared": self.shared,
            "avg_turns": self.avg_turns,
            "games_per_second": round(self.games_per_second, 1),
            "decision_ms": self.decision_ms,
        }


def parse_lineup(bots: str, players: int) -> tuple[str, ...]:
    """One bot spec per seat from ``--bots``; ``RunSettingsError`` if it does not fit."""
    specs = split_bots(bots)
    if len(specs) == 1:
        specs *= players
    elif len(specs) != players:
        raise RunSettingsError(
            f"--bots names {len(specs)} bots for {players} players (give 1 or {players})"
        )
    return tuple(specs)


def summarise(
    result: RunResult, players: int, seed: int, bots: tuple[str, ...], seconds: float
) -> Summary:
    games = len(result.games)
    wins = [0] * players
    totals = [0] * players
    shared = turns = 0
    for game in result.games:
        for seat in game.winners:
            wins[seat] += 1  # a shared win counts fully for each sharer
        for seat, score in enumerate(game.scores):
            totals[seat] += score
        shared += len(game.winners) > 1
        turns += game.turns
    return Summary(
        games=games,
        players=players,
        seed=seed,
        bots=bots,
        wins=tuple(wins),
        mean_scores=tuple(t / games for t in totals),
        shared=shared,
        avg_turns=turns / games,
        seconds=seconds,
        decision_ms={spec: timing_ms(t) for spec, t in result.decision_times.items()},
    )


def simulate(
    players: int,
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    want_records: bool = False,
    progress: Any = None,
) -> tuple[Summary, RunResult]:
    """Play ``games`` games and summarise them (the engine of the command)."""
    check_table(players, games)
    lineup = tuple(bots)
    tasks = [GameTask(i, game_seed(seed, i), lineup) for i in range(games)]
    start = perf_counter()
    result = run_tasks(tasks, jobs=jobs, want_records=want_records, progress=progress)
    seconds = perf_counter() - start
    return summarise(result, players, seed, lineup, seconds), result


def format_summary(summary: Summary) -> str:
    """The human-readable report: a table per seat and the totals."""
    lines = [
        f"{summary.games} games, {summary.players} players, base seed {summary.seed}",
        "",
        f"{'seat':>4}  {'bot':<16} {'wins':>7} {'win rate':>9}  {'95% CI':<16} {'mean score':>10}",
    ]
    for seat, bot in enumerate(summary.bots):
        lo, hi = summary.cis[seat]
        lines.append(
            f"{seat + 1:>4}  {bot:<16} {summary.wins[seat]:>7} {summary.win_rates[seat]:>8.1%}"
            f"  {lo:>6.1%} – {hi:<6.1%} {summary.mean_scores[seat]:>10.2f}"
        )
    lines += [
        "",
        f"shared wins: {summary.shared}   mean turns: {summary.avg_turns:.1f}   "
        f"games/s: {summary.games_per_second:,.0f}",
    ]
    for spec, ms in summary.decision_ms.items():
        lines.append(f"decision time {spec}: median {ms['median']:.4f} ms, p95 {ms['p95']:.4f} ms")
    return "\n".join(lines)


def run_simulate(args: argparse.Namespace) -> int:
    """The ``mantis simulate`` command; returns the exit status."""
    try:
        check_table(args.players, args.games)
        lineup = parse_lineup(args.bots, args.players)
        with progress_bar(args.games, "simulating") as advance:
            summary, result = simulate(
                args.players,
                lineup,
                args.games,
                seed=args.seed,
                jobs=resolve_jobs(args.jobs, [lineup], args.games),
                want_records=bool(args.record),
                progress=advance,
            )
    except RunSettingsError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 2
    except BotFailure as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 1
    if args.record:
        try:
            write_text_atomic(args.record, "".join(f"{g.record}\n" for g in result.games))
        except OSError as exc:
            echo(
                f"mantis: error: cannot write {args.record}: {exc.strerror}",
                file=sys.stderr,
                lines=False,
            )
            return 1
    if args.json:
        echo(json.dumps(summary.to_json()))
    else:
        echo(format_summary(summary))
    return 0
