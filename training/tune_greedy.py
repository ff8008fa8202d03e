"""Fit the ``greedy`` bot's weights by tournament (coordinate search).

Each round tries, for every weight, the current value plus and minus a step;
a candidate is scored by its win rate against the current best weights, in
2-player games and as one seat against three copies at 4 players (seats
rotated, the same deals for every candidate).  A change is kept only when the
combined excess over the fair share beats a noise margin; then steps halve.

    .venv/bin/python -m training.tune_greedy --games 6000 --rounds 3 --seed 1
"""

from __future__ import annotations

import argparse
import json

from mantis.players.bots.greedy import WEIGHTS

from .common import fmt, match

GREEDY = "mantis.players.bots.greedy:GreedyBot"


TWO_PLAYER_KEYS = ("tank2", "extra")


def score(key: str, cand: dict, base: dict, games: int, seed: int, jobs: int) -> tuple[float, str]:
    """Excess win rate over the fair share: 2p for 2p weights, 4p (x2) for the others."""
    if key in TWO_PLAYER_KEYS:
        r2 = match((GREEDY, cand), (GREEDY, base), 2, games, seed=seed, jobs=jobs)
        return r2[0] - 0.5, f"2p {fmt(r2)}"
    r4 = match((GREEDY, cand), (GREEDY, base), 4, games, seed=seed + 1, jobs=jobs)
    return 2 * (r4[0] - 0.25), f"4p {fmt(r4)}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--margin", type=float, default=0.01)
    parser.add_argument("--keys", default="tank2,extra,tank,lead,other")
    args = parser.parse_args()
    best = dict(WEIGHTS)
    steps = {"tank2": 0.1, "tank": 0.1, "lead": 0.3, "other": 0.2, "extra": 0.3}
    seed = args.seed
    for rnd in range(args.rounds):
        for key in args.keys.split(","):
            for sign in (1, -1):
                cand = dict(best)
                cand[key] = round(best[key] + sign * steps[key], 4)
                seed += 7
                excess, text = score(key, cand, best, args.games, seed, args.jobs)
                keep = excess > args.margin
                print(
                    f"round {rnd} {key}={cand[key]:<6} excess {excess:+.4f}  {text}"
                    f"{'  KEEP' if keep else ''}",
                    flush=True,
                )
                if keep:
                    best = cand
                    break
        steps = {k: v / 2 for k, v in steps.items()}
        print("best", json.dumps(best), flush=True)


if __name__ == "__main__":
    main()
