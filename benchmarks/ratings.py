"""How well the level anchors predict win rates: measured against predicted, lineup by lineup.

    .venv/bin/python benchmarks/ratings.py [--games 300] [--players 2,3,4,5,6] [--seed 9]
        [--bots random,score,casual,greedy] [--jobs 2]

For every table size, a ``mantis tournament`` of ``--bots`` (seats rotated,
``--games`` per lineup; a seed other than the anchors' own, so the games are
new), and for every pairing the win rate of one bot alone against copies of
the other, measured (with its 95% Wilson interval) and as the shipped
anchors predict it; ``z`` is the gap in standard errors.  It shows where one
number per level is enough (two seats) and which pairings it misses at
bigger tables (docs/ratings.md gives a run's figures).
"""

from __future__ import annotations

import argparse
import math

from mantis.rating.levels import level_rating
from mantis.rating.update import win_chances
from mantis.sim.runner import run_tasks
from mantis.sim.stats import wilson_interval
from mantis.sim.tournament import make_tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", default="2,3,4,5,6")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--bots", default="random,score,casual,greedy")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    bots = args.bots.split(",")
    for players in map(int, args.players.split(",")):
        games = run_tasks(make_tasks(bots, players, args.games, args.seed), jobs=args.jobs).games
        print(f"\n{players} seats, {len(games)} games: alone vs copies, measured / predicted")
        worst = 0.0
        for a in bots:
            for b in bots:
                if a == b:
                    continue
                mine = [g for g in games if g.bots.count(a) == 1 and b in g.bots]
                wins = sum(g.bots.index(a) in g.winners for g in mine)
                seats = [level_rating(a, players)] + [level_rating(b, players)] * (players - 1)
                predicted = win_chances(seats)[0]
                low, high = wilson_interval(wins, len(mine))
                z = (wins / len(mine) - predicted) / math.sqrt(
                    predicted * (1 - predicted) / len(mine)
                )
                worst = max(worst, abs(z))
                print(
                    f"  {a:>7} vs {b:<7} {wins / len(mine):6.1%} [{low:5.1%}, {high:5.1%}]"
                    f"  predicted {predicted:6.1%}  z {z:+5.1f}"
                )
        print(f"  largest |z|: {worst:.1f}")


if __name__ == "__main__":
    main()
