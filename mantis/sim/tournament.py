"""``mantis tournament``: every bot against every other, seats rotated.

Lineups, in a fixed order (bots in the order given):

* two players: every ordered pair ``(a, b)`` with ``a != b`` — ``a`` in seat 0,
  ``b`` in seat 1 — so each pair meets in both seatings;
* ``N > 2`` players: for every ordered pair, one ``a`` against ``N - 1``
  copies of ``b``, with ``a`` in each seat position in turn.

``--games`` games are played per lineup.  Game ``i`` (0-based over the whole
run, lineup by lineup) is dealt from ``game_seed(S, i)``, so the results do
not depend on ``--jobs``.

A bot's record counts the games in which it sits alone at the table (both
bots at two players; the single bot against copies at ``N > 2``).  A shared
win counts fully for each sharer.  The fair share is ``1/N``.  Head-to-head:
the row bot's win rate against the column bot (at ``N > 2``: alone against
copies of the column bot).

``--ratings`` also fits the ratings every game implies (every seat counts
here, copies too; ``mantis.rating.fit``), placed so that the built-in levels
among the bots keep their shipped mean at this table size: a level's number
can be read against its shipped rating, and a plug-in's against the levels.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base.printable import echo
from ..engine import game_seed
from ..rating.fit import fit
from ..rating.levels import level_rating
from ..rating.scale import Fitted
from .jobs import resolve_jobs
from .progress import progress_bar
from .runner import BotFailure, GameTask, RunResult, run_tasks
from .settings import RunSettingsError, check_table, split_bots
from .stats import timing_ms, wilson_interval


def parse_bots(text: str) -> tuple[str, ...]:
    """The bot specs of ``--bots``; ``RunSettingsError`` unless at least two good ones."""
    specs = split_bots(text)
    if len(specs) < 2:
        raise RunSettingsError("a tournament needs at least two bots (--bots a,b)")
    if len(set(specs)) != len(specs):
        raise RunSettingsError(f"--bots names a bot twice: {text!r}")
    return tuple(specs)


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, str, tuple[str, ...]]]:
    """``(alone, against, seats)`` for every lineup, in the tournament's order."""
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for a in bots:
        for b in bots:
            if a == b:
                continue
            if players == 2:
                out.append((a, b, (a, b)))
                continue
            for pos in range(players):
                seats = [b] * players
                seats[pos] = a
                out.append((a, b, tuple(seats)))
    return out


def make_tasks(bots: Sequence[str], players: int, games: int, seed: int) -> list[GameTask]:
    tasks: list[GameTask] = []
    for _, _, seats in lineups(bots, players):
        for _ in range(games):
            index = len(tasks)
            tasks.append(GameTask(index, game_seed(seed, index), seats))
    return tasks


@dataclass
class Tally:
    games: int = 0
    wins: int = 0

    def add(self, won: bool) -> None:
        self.games += 1
        self.wins += won

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson_interval(self.wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 6) if self.games else 0.0,
            "ci95": [round(lo, 6), round(hi, 6)],
        }


@dataclass
class Standings:
    """Everything a tournament reports."""

    bots: tuple[str, ...]
    players: int
    games_per_lineup: int
    seed: int
    totals: dict[str, Tally] = field(default_factory=dict)
    pairs: dict[tuple[str, str], Tally] = field(default_factory=dict)
    decision_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    games: int = 0
    ratings: dict[str, Fitted] | None = None
    """The ratings the games imply, when asked for."""

    def ranking(self) -> list[tuple[str, Tally]]:
        order = sorted(
            self.bots,
            key=lambda b: (-(self.totals[b].wins / max(1, self.totals[b].games)), b),
        )
        return [(b, self.totals[b]) for b in order]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "games_per_lineup": self.games_per_lineup,
            "games": self.games,
            "seed": self.seed,
            "fair_share": round(1 / self.players, 6),
            "ranking": [{"bot": b, **t.to_json()} for b, t in self.ranking()],
            "head_to_head": {
                a: {b: self.pairs[a, b].to_json() for b in self.bots if b != a} for a in self.bots
            },
            "decision_ms": {b: self.decision_ms.get(b, {}) for b in self.bots},
            **({} if self.ratings is None else {"ratings": self._ratings_json(self.ratings)}),
        }

    def _ratings_json(self, ratings: dict[str, Fitted]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for bot in self.bots:
            shipped = level_rating(bot, self.players)
            out[bot] = {
                **ratings[bot].rating.to_json(),
                "games": ratings[bot].games,
                "level_rating": None if shipped is None else shipped.shown,
            }
        return out


def tally(result: RunResult, bots: Sequence[str], players: int, games: int, seed: int) -> Standings:
    """Count wins of each bot where it sits alone, overall and per opponent."""
    out = Standings(tuple(bots), players, games, seed, games=len(result.games))
    out.totals = {b: Tally() for b in bots}
    out.pairs = {(a, b): Tally() for a in bots for b in bots if a != b}
    for game in result.games:
        seats = game.bots
        kinds = set(seats)
        for a in kinds:
            if seats.count(a) != 1:
                continue
            (b,) = kinds - {a}
            won = seats.index(a) in game.winners
            out.totals[a].add(won)
            out.pairs[a, b].add(won)
    out.decision_ms = {
        spec: timing_ms(times) for spec, times in result.decision_times.items() if times
    }
    return out


def implied_ratings(result: RunResult, bots: Sequence[str], players: int) -> dict[str, Fitted]:
    """The ratings the games imply, the built-in levels among ``bots`` at their shipped mean."""
    reference = {
        bot: anchor.mu for bot in bots if (anchor := level_rating(bot, players)) is not None
    }
    return fit(((g.bots, g.winners) for g in result.games), reference=reference)


def tournament(
    bots: Sequence[str],
    players: int,
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    ratings: bool = False,
) -> Standings:
    """Play the whole tournament and count it (the engine of the command).

    ``ratings``: also fit the ratings the games imply (``implied_ratings``).
    """
    check_table(players, games)
    tasks = make_tasks(bots, players, games, seed)
    result = run_tasks(tasks, jobs=jobs, progress=progress)
    standings = tally(result, bots, players, games, seed)
    if ratings:
        standings.ratings = implied_ratings(result, bots, players)
    return standings


def _pct(t: Tally) -> str:
    return f"{t.wins / t.games:6.1%}" if t.games else "     -"


def format_standings(st: Standings) -> str:
    """The human-readable report: ranking, head-to-head, decision times."""
    width = max(6, *(len(b) for b in st.bots))
    lines = [
        f"Tournament: {len(st.bots)} bots, {st.players} players, "
        f"{st.games_per_lineup} games per lineup ({st.games} games), base seed {st.seed}",
        "Win rates count the games a bot sits alone at the table; "
        f"fair share {1 / st.players:.1%}.",
        "",
        f"{'rank':>4}  {'bot':<{width}} {'games':>7} {'wins':>7} {'win rate':>9}  95% CI",
    ]
    for rank, (bot, t) in enumerate(st.ranking(), 1):
        lo, hi = wilson_interval(t.wins, t.games)
        lines.append(
            f"{rank:>4}  {bot:<{width}} {t.games:>7} {t.wins:>7} {_pct(t):>9}  {lo:.1%} – {hi:.1%}"
        )
    against = "vs" if st.players == 2 else f"alone vs {st.players - 1}×"
    lines += ["", f"Head-to-head: row bot's win rate {against} column bot", ""]
    lines.append(f"{'':<{width}} " + " ".join(f"{b:>{width}}" for b in st.bots))
    for a in st.bots:
        cells = [
            f"{'-':>{width}}" if a == b else f"{_pct(st.pairs[a, b]).strip():>{width}}"
            for b in st.bots
        ]
        lines.append(f"{a:<{width}} " + " ".join(cells))
    lines += ["", "Decision time (ms):", f"{'bot':<{width}} {'median':>10} {'p95':>10}"]
    for bot in st.bots:
        ms = st.decision_ms.get(bot)
        if ms:
            lines.append(f"{bot:<{width}} {ms['median']:>10.4f} {ms['p95']:>10.4f}")
    if st.ratings is not None:
        lines += ["", *format_ratings(st)]
    return "\n".join(lines)


def format_ratings(st: Standings) -> list[str]:
    """The ratings the games imply, best first, beside each level's shipped rating."""
    ratings = st.ratings
    assert ratings is not None
    width = max(6, *(len(b) for b in st.bots))
    lines = [
        "Ratings these games imply (1,500-centred; ± two standard errors; every seat counts),",
        f"beside each built-in level's shipped rating at {st.players} seats:",
        f"{'bot':<{width}} {'rating':>14} {'games':>7} {'shipped':>14}",
    ]
    for bot in sorted(st.bots, key=lambda b: (-ratings[b].rating.mu, b)):
        fitted = ratings[bot]
        shipped = level_rating(bot, st.players)
        ours = f"{fitted.rating.shown:,} ± {fitted.rating.plus_minus}"
        theirs = "-" if shipped is None else f"{shipped.shown:,} ± {shipped.plus_minus}"
        lines.append(f"{bot:<{width}} {ours:>14} {fitted.games:>7} {theirs:>14}")
    return lines


def run_tournament(args: argparse.Namespace) -> int:
    """The ``mantis tournament`` command; returns the exit status."""
    try:
        check_table(args.players, args.games)
        bots = parse_bots(args.bots)
        seatings = [seats for _, _, seats in lineups(bots, args.players)]
        jobs = resolve_jobs(args.jobs, seatings, args.games)
        with progress_bar(len(seatings) * args.games, "tournament") as advance:
            standings = tournament(
                bots,
                args.players,
                args.games,
                seed=args.seed,
                jobs=jobs,
                progress=advance,
                ratings=args.ratings,
            )
    except RunSettingsError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 2
    except BotFailure as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 1
    if args.json:
        echo(json.dumps(standings.to_json()))
    else:
        echo(format_standings(standings))
    return 0
