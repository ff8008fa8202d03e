"""The bot levels' ladder: every level's share of wins against every other, on paired deals.

    nice -n 10 .venv/bin/python -m training.ladder --players 2 4 --deals 1000 --seed 43 --jobs 2

A *match* is one level (the row) alone at the table against copies of
another (the column).  Every deal ``i`` (``game_seed(seed, i)``, the same
deals for every match) is played once with the row level in each seat: at
two seats the pair of games with the seats swapped, at four seats four
games.  So the luck of the deal, and of sitting first, is the same for both
levels.

A level's *share* of a game is 1 if it wins alone, ``1/k`` if it shares the
win with ``k - 1`` others, else 0; its share of a match is the mean over the
games, with a 95% Wilson interval (over the games played: the paired games
of a deal lean opposite ways, so the interval is, if anything, wide).

The ladder's bar: each level against the level just below it
(``random < score < casual < greedy < expert``) --

* two seats: a share of at least 60%;
* four seats: alone against three of the lower level, a share of at least
  one third.  That is the same odds: a share ``p`` against three others is
  ``3p / (1 - p)`` times the wins of each of them, and 1/3 makes it 1.5 =
  60/40.  (The other way round, one lower level against three of the
  higher, the same odds are a share of at most 2/11 = 18.2%: reported as
  ``below``, not part of the bar.)

``--pairs ladder`` plays only the neighbours on the ladder (both ways round
at four seats); ``--pairs all`` every level against every other (the
table of ``docs/research.md``).  ``--json FILE`` writes every match.  The
same arguments give the same figures, whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from mantis.engine import game_seed
from mantis.players.registry import BOTS, BUILT_IN
from mantis.sim.runner import GameTask, run_tasks
from mantis.sim.stats import wilson_interval

LEVELS: tuple[str, ...] = BUILT_IN
"""The ladder, weakest first: every built-in bot."""

TWO_SEAT_BAR = 0.6
"""A level's least share at two seats against the level just below."""


def bar(players: int) -> float:
    """The least share of one level alone against ``players - 1`` of the level below:
    the odds of 60/40 per seat (``TWO_SEAT_BAR`` at two seats, 1/3 at four)."""
    odds = TWO_SEAT_BAR / (1 - TWO_SEAT_BAR)
    others = players - 1
    return odds / (odds + others)


def below_bar(players: int) -> float:
    """The most share of one level alone against ``players - 1`` of the level above, at
    the same odds (40% at two seats, 2/11 at four)."""
    odds = TWO_SEAT_BAR / (1 - TWO_SEAT_BAR)
    return 1 / (1 + (players - 1) * odds)


@dataclass(frozen=True)
class Match:
    """One level alone against copies of another at a table size: its share of the wins."""

    players: int
    alone: str
    against: str
    games: int
    share: float
    """Wins, a shared win split evenly among its sharers."""

    @property
    def rate(self) -> float:
        return self.share / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.share, self.games)

    def text(self) -> str:
        lo, hi = self.ci95
        return f"{self.rate:.1%} [{lo:.1%}, {hi:.1%}]"

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {
            "players": self.players,
            "alone": self.alone,
            "against": self.against,
            "games": self.games,
            "share": round(self.rate, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
        }


def match_tasks(
    alone: str, against: str, players: int, deals: int, seed: int, start: int = 0
) -> list[GameTask]:
    """Every deal once with ``alone`` in each seat, the other seats ``against``."""
    tasks = []
    for i in range(deals):
        deal = game_seed(seed, i)
        for pos in range(players):
            seats = [against] * players
            seats[pos] = alone
            tasks.append(GameTask(start + len(tasks), deal, tuple(seats)))
    return tasks


def lineups(players: int, pairs: str, levels: Sequence[str]) -> list[tuple[str, str]]:
    """The matches to play, ``(alone, against)``.

    At two seats a match's games are its reverse's too, so only one of the two is played.
    """
    if pairs == "ladder":
        steps = list(zip(levels[1:], levels[:-1], strict=True))
    else:
        steps = [(b, a) for a, b in combinations(levels, 2)]
    if players == 2:
        return steps
    return [m for up, down in steps for m in ((up, down), (down, up))]


def play(
    players: int,
    deals: int,
    seed: int,
    *,
    pairs: str = "ladder",
    levels: Sequence[str] = LEVELS,
    jobs: int = 1,
) -> list[Match]:
    """Play every match of ``pairs`` at ``players`` seats; at two seats both ways round."""
    return play_matches(players, lineups(players, pairs, levels), deals, seed, jobs=jobs)


def play_matches(
    players: int,
    matches: Sequence[tuple[str, str]],
    deals: int,
    seed: int,
    *,
    jobs: int = 1,
) -> list[Match]:
    """Play each ``(alone, against)`` match on the same deals; at two seats the reverse
    match comes from the same games, and follows each."""
    tasks: list[GameTask] = []
    spans: list[tuple[str, str, int, int]] = []
    for alone, against in matches:
        more = match_tasks(alone, against, players, deals, seed, len(tasks))
        spans.append((alone, against, len(tasks), len(tasks) + len(more)))
        tasks.extend(more)
    games = run_tasks(tasks, jobs=jobs).games
    out = []
    for alone, against, lo, hi in spans:
        shares = {alone: 0.0, against: 0.0}
        for game in games[lo:hi]:
            seat = game.bots.index(alone)
            if seat in game.winners:
                shares[alone] += 1 / len(game.winners)
            if players == 2 and 1 - seat in game.winners:
                shares[against] += 1 / len(game.winners)
        out.append(Match(players, alone, against, hi - lo, shares[alone]))
        if players == 2:
            out.append(Match(players, against, alone, hi - lo, shares[against]))
    return out


def ladder_rows(matches: Sequence[Match], levels: Sequence[str] = LEVELS) -> list[str]:
    """Each step of the ladder: the higher level's share against the lower, and the bar."""
    by = {(m.players, m.alone, m.against): m for m in matches}
    rows = []
    for players in sorted({m.players for m in matches}):
        for down, up in zip(levels[:-1], levels[1:], strict=True):
            m = by.get((players, up, down))
            if m is None:
                continue
            least = bar(players)
            verdict = "clear" if m.ci95[0] >= least else "met" if m.rate >= least else "NOT met"
            line = (
                f"{players} seats  {up:>6} vs {down:<6} {m.text():<22} "
                f"bar {bar(players):.1%}: {verdict}  ({m.games:,} games)"
            )
            back = by.get((players, down, up))
            if players > 2 and back is not None:
                line += f"; {down} alone vs {up}: {back.text()} (at most {below_bar(players):.1%})"
            rows.append(line)
    return rows


def table_markdown(matches: Sequence[Match], players: int, levels: Sequence[str] = LEVELS) -> str:
    """Every level (row, alone) against every other (column, the rest of the table)."""
    by = {(m.alone, m.against): m for m in matches if m.players == players}
    head = "| alone \\ against | " + " | ".join(f"`{b}`" for b in levels) + " |"
    lines = [head, "| --- |" + " ---: |" * len(levels)]
    for a in levels:
        cells = [by[a, b].text() if (a, b) in by else "—" for b in levels]
        lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--deals", type=int, default=1000, help="deals per match")
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--pairs", choices=("ladder", "all"), default="ladder")
    parser.add_argument("--levels", default=",".join(LEVELS), help="weakest first")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=argparse.FileType("w"), help="write every match here")
    args = parser.parse_args(argv)
    levels = tuple(s.strip() for s in args.levels.split(","))
    unknown = [b for b in levels if b not in BOTS]
    if unknown or len(levels) < 2:
        parser.error(f"--levels: give two or more of {', '.join(BOTS)}")
    matches: list[Match] = []
    for players in args.players:
        start = time.perf_counter()
        matches += play(
            players, args.deals, args.seed, pairs=args.pairs, levels=levels, jobs=args.jobs
        )
        print(f"{players} seats: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    for row in ladder_rows(matches, levels):
        print(row)
    if args.pairs == "all":
        for players in args.players:
            print(f"\n{players} seats (share of the row level alone against the column's):\n")
            print(table_markdown(matches, players, levels))
    if args.json:
        json.dump(
            {
                "made_by": "python -m training.ladder " + " ".join(argv or sys.argv[1:]),
                "seed": args.seed,
                "deals": args.deals,
                "matches": [m.to_json() for m in matches],
            },
            args.json,
            indent=1,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
