"""Rate the built-in bot levels: tournaments at every table size, fitted ratings, ``levels.json``.

Every level meets every other at 2 to 6 seats, by ``mantis tournament``'s
lineups (at two seats both seatings of every pair; above, one level alone
against copies of another, in each seat position), ``--games`` games per
lineup, dealt from ``--seed``.  The ratings are fitted per table size and
over all sizes together (``mantis.rating.fit``), the levels' mean set to
1,500, and written to ``mantis/rating/levels.json`` with their uncertainty.
The same seed and games give the same file, whatever ``--jobs`` is.

    .venv/bin/python -m training.rate_levels --games 500 --seed 2026 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from mantis.base.atomic import write_text_atomic
from mantis.players.registry import BOTS
from mantis.rating.fit import fit
from mantis.rating.levels import LEVELS_FILE, LevelTable
from mantis.rating.scale import Fitted
from mantis.sim.runner import run_tasks
from mantis.sim.tournament import make_tasks

LEVELS = tuple(BOTS)
SIZES = (2, 3, 4, 5, 6)
OUT = Path(__file__).resolve().parent.parent / "mantis" / "rating" / LEVELS_FILE

Result = tuple[tuple[str, ...], tuple[int, ...]]


def play(players: int, games: int, seed: int, jobs: int, levels: Sequence[str]) -> list[Result]:
    """Every lineup of ``levels`` at ``players`` seats, ``games`` times: (seats, winners) each."""
    tasks = make_tasks(levels, players, games, seed)
    return [(g.bots, g.winners) for g in run_tasks(tasks, jobs=jobs).games]


def measure(
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    sizes: Sequence[int] = SIZES,
    levels: Sequence[str] = LEVELS,
) -> LevelTable:
    """Play the tournaments and fit the levels' ratings, per size and overall."""
    results = {n: play(n, games, seed, jobs, levels) for n in sizes}
    by_players: dict[int, dict[str, Fitted]] = {n: fit(r) for n, r in results.items()}
    overall = fit(r for n in sizes for r in results[n])
    return LevelTable(
        seed=seed,
        games_per_lineup=games,
        overall=_in_order(overall, levels),
        by_players={n: _in_order(f, levels) for n, f in by_players.items()},
        games={n: len(r) for n, r in results.items()},
    )


def _in_order(fitted: dict[str, Fitted], levels: Sequence[str]) -> dict[str, Fitted]:
    return {level: fitted[level] for level in levels}


def format_table(table: LevelTable) -> str:
    """The ratings as a table: one row per level, one column per size, then overall."""
    sizes = sorted(table.by_players)
    head = "level   " + "".join(f"{f'{n} seats':>14}" for n in sizes) + f"{'overall':>14}"
    lines = [head]
    for level in table.overall:
        cells = [table.by_players[n][level].rating for n in sizes] + [table.overall[level].rating]
        lines.append(
            f"{level:<8}" + "".join(f"{f'{r.shown:,} ± {r.plus_minus}':>14}" for r in cells)
        )
    games = [f"{table.games[n]:,}" for n in sizes] + [f"{sum(table.games.values()):,}"]
    lines.append("games   " + "".join(f"{g:>14}" for g in games))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games per lineup")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (- for nowhere)")
    args = parser.parse_args(argv)
    table = measure(args.games, args.seed, jobs=args.jobs)
    print(format_table(table))
    if str(args.out) != "-":
        import json

        write_text_atomic(args.out, json.dumps(table.to_json(), indent=1) + "\n")
        print(f"written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
