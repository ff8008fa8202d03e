"""How good the game review's numbers are: losses per bot level, and calibration.

    .venv/bin/python benchmarks/review_quality.py losses [--games 400] [--jobs 2]
    .venv/bin/python benchmarks/review_quality.py calibration [--games 10000] [--players 2,4]
    .venv/bin/python benchmarks/review_quality.py luck [--games 1000]

``losses``: each bot level (random, casual, greedy, expert) plays ``--games``
games against copies of itself at every table size from 2 to 6 (seed base
23); every game is reviewed.  Prints, per level, the share of decisions that
are real choices, the mean loss per real decision, the quantiles of the
losses and how often each label's threshold is reached — the figures the
thresholds in ``mantis/review/judgement.py`` were chosen from — and checks
the expert's largest loss (0: it plays the best option of the same numbers).

``calibration``: ``--games`` games per table size of ``expert`` and
``greedy`` (alternating seats, the lineup rotated every game; seed base 22,
none of the networks' training games, which used bases 2026020 to 2026060).
Every decision's predicted chance for the mover (the chosen option's
``win``) goes into a bucket of tenths; each bucket gives its mean prediction,
how often the mover actually won (a shared win counts as a win, as the
review's exact end values count it) and the gap.  Brier scores of the
predictions and of the naive 1/players.

``luck``: ``--games`` games per table size of ``expert`` and ``greedy`` (seed
base 24): per seat and game, the mean and spread of the luck, and the spread
of the result beside that of the luck-adjusted result.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections.abc import Sequence
from statistics import mean, pstdev
from time import perf_counter

from mantis.engine import game_seed, record_of
from mantis.players import make_bot, registry
from mantis.review import LABELS, THRESHOLDS, review_game
from mantis.sim.runner import play_game

LEVELS = tuple(bot for _, bot in registry.LEVELS)  # the levels people play
LOSS_SEED = 23
CALIBRATION_SEED = 22
LUCK_SEED = 24


def _losses_chunk(args: tuple[str, int, int, int]) -> tuple[list[float], int, int]:
    """Real-decision losses of ``bot`` in its own games ``start..stop`` at ``players``."""
    bot, players, start, stop = args
    seats = [make_bot(bot) for _ in range(players)]
    losses: list[float] = []
    decisions = real = 0
    for i in range(start, stop):
        game = play_game(seats, game_seed(LOSS_SEED * 10 + players, i))
        review = review_game(record_of(game))
        for d in review.decisions:
            decisions += 1
            if d.real:
                real += 1
                losses.append(d.loss)
    return losses, decisions, real


def _calibration_chunk(
    args: tuple[int, int, int],
) -> tuple[list[int], list[float], list[float], float, float, int, float]:
    """Per bucket (count, sum of predictions, wins); Brier sums; decisions; seconds."""
    players, start, stop = args
    counts = [0] * 10
    predicted = [0.0] * 10
    won = [0.0] * 10
    brier = naive = 0.0
    total = 0
    reviewing = 0.0
    for i in range(start, stop):
        names = ["expert" if (s + i) % 2 == 0 else "greedy" for s in range(players)]
        game = play_game([make_bot(name) for name in names], game_seed(CALIBRATION_SEED, i))
        record = record_of(game)
        clock = perf_counter()
        review = review_game(record)
        reviewing += perf_counter() - clock
        winners = record.result.winners if record.result else ()
        for d in review.decisions:
            p = d.chosen_option.win
            outcome = 1.0 if d.seat in winners else 0.0
            bucket = min(9, int(p * 10))
            counts[bucket] += 1
            predicted[bucket] += p
            won[bucket] += outcome
            brier += (p - outcome) ** 2
            naive += (1 / players - outcome) ** 2
            total += 1
    return counts, predicted, won, brier, naive, total, reviewing


def _luck_chunk(args: tuple[int, int, int]) -> list[tuple[str, float, float, float]]:
    """Per seat of every game: (its bot, result, luck, luck-adjusted result)."""
    players, start, stop = args
    rows = []
    for i in range(start, stop):
        names = ["expert" if (s + i) % 2 == 0 else "greedy" for s in range(players)]
        game = play_game([make_bot(name) for name in names], game_seed(LUCK_SEED, i))
        for seat in review_game(record_of(game)).seats:
            rows.append((names[seat.seat], seat.result, seat.luck, seat.luck_adjusted))
    return rows


def _pool_map(function, chunks: Sequence, jobs: int) -> list:
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return pool.map(function, chunks)
    return [function(c) for c in chunks]


def _chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    step = max(1, games // (jobs * 4))
    return [(s, min(s + step, games)) for s in range(0, games, step)]


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def losses(games: int, tables: Sequence[int], jobs: int) -> None:
    quantiles = (0.5, 0.75, 0.9, 0.95, 0.99, 0.999)
    print(f"{games} games per table size ({', '.join(map(str, tables))} players), each level")
    print("against copies of itself; losses in win-% points over real decisions\n")
    header = f"{'level':<8}{'real':>7}{'mean':>7}" + "".join(
        f"{f'q{q * 100:g}':>7}" for q in quantiles
    )
    header += "".join(f"{f'>={THRESHOLDS[lab]:g}':>8}" for lab in LABELS) + f"{'max':>7}"
    print(header)
    for level in LEVELS:
        chunks = [(level, n, a, b) for n in tables for a, b in _chunks(games, jobs)]
        parts = _pool_map(_losses_chunk, chunks, jobs)
        found = sorted(x for part in parts for x in part[0])
        decisions = sum(part[1] for part in parts)
        real = sum(part[2] for part in parts)
        mean = sum(found) / len(found) if found else 0.0
        row = f"{level:<8}{real / decisions:>6.0%} {mean:>6.2f}"
        row += "".join(f"{_quantile(found, q):>7.2f}" for q in quantiles)
        for label in LABELS:
            share = sum(x >= THRESHOLDS[label] for x in found) / len(found) if found else 0.0
            row += f"{share:>8.2%}"
        row += f"{(found[-1] if found else 0.0):>7.2f}"
        print(row, flush=True)
    print("\n(>=T: the share of real decisions losing T points or more, T each label's threshold)")


def calibration(games: int, tables: Sequence[int], jobs: int) -> None:
    for players in tables:
        start = perf_counter()
        chunks = [(players, a, b) for a, b in _chunks(games, jobs)]
        parts = _pool_map(_calibration_chunk, chunks, jobs)
        counts = [sum(p[0][b] for p in parts) for b in range(10)]
        predicted = [sum(p[1][b] for p in parts) for b in range(10)]
        won = [sum(p[2][b] for p in parts) for b in range(10)]
        brier = sum(p[3] for p in parts)
        naive = sum(p[4] for p in parts)
        total = sum(p[5] for p in parts)
        reviewing = sum(p[6] for p in parts)
        print(
            f"\n{players} players: {games} games of expert and greedy (seed base "
            f"{CALIBRATION_SEED}), {total} decisions, reviewed at {reviewing / games * 1e3:.1f} ms "
            f"a game ({perf_counter() - start:.0f} s in all)"
        )
        print(f"{'bucket':<10}{'decisions':>10}{'predicted':>11}{'won':>8}{'gap':>8}")
        worst = 0.0
        for b in range(10):
            if not counts[b]:
                print(f"{b / 10:.1f}-{(b + 1) / 10:.1f}{0:>12}")
                continue
            mean = predicted[b] / counts[b]
            rate = won[b] / counts[b]
            gap = (rate - mean) * 100
            flag = ""
            if counts[b] >= 500:
                worst = max(worst, abs(gap))
                flag = "" if abs(gap) <= 3 else "  > 3 points"
            print(
                f"{b / 10:.1f}-{(b + 1) / 10:.1f}{counts[b]:>12}{mean:>11.3f}{rate:>8.3f}"
                f"{gap:>+8.2f}{flag}"
            )
        print(
            f"Brier {brier / total:.4f} (naive 1/{players}: {naive / total:.4f}); "
            f"largest gap in a bucket of 500+: {worst:.2f} points"
        )


def luck(games: int, tables: Sequence[int], jobs: int) -> None:
    print(f"{games} games per table size of expert and greedy (seed base {LUCK_SEED});")
    print("per seat and game, in wins: the mean result and luck of each bot's seats, the spread")
    print("of the luck, and the spread of the result beside that of the luck-adjusted result\n")
    print(
        f"{'table':<7}{'expert won':>11}{'luck':>8}{'greedy won':>11}{'luck':>8}"
        f"{'sd luck':>9}{'sd result':>11}{'sd adjusted':>13}"
    )
    for players in tables:
        chunks = [(players, a, b) for a, b in _chunks(games, jobs)]
        rows = [row for part in _pool_map(_luck_chunk, chunks, jobs) for row in part]
        by_bot = {bot: [(r[1], r[2]) for r in rows if r[0] == bot] for bot in ("expert", "greedy")}
        cells = "".join(
            f"{mean(r for r, _ in by_bot[bot]):>11.3f}{mean(x for _, x in by_bot[bot]):>+8.3f}"
            for bot in ("expert", "greedy")
        )
        print(
            f"{f'{players}p':<7}{cells}{pstdev(r[2] for r in rows):>9.3f}"
            f"{pstdev(r[1] for r in rows):>11.3f}{pstdev(r[3] for r in rows):>13.3f}",
            flush=True,
        )
    print("\n(luck is the cards' share: about zero for both bots whatever their results, and")
    print(" the luck-adjusted result varies less than the result)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("losses", "calibration", "luck"))
    parser.add_argument("--games", type=int, help="games per table size")
    parser.add_argument("--players", help="table sizes (default: 2-6 for losses, 2,4 else)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.what == "losses":
        tables = [int(p) for p in (args.players or "2,3,4,5,6").split(",")]
        losses(args.games or 400, tables, args.jobs)
    elif args.what == "luck":
        tables = [int(p) for p in (args.players or "2,3,4,5,6").split(",")]
        luck(args.games or 1000, tables, args.jobs)
    else:
        tables = [int(p) for p in (args.players or "2,4").split(",")]
        calibration(args.games or 10_000, tables, args.jobs)


if __name__ == "__main__":
    main()
