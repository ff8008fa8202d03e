"""Engine speed: whole games per second in one process, through the simulator.

Run: ``.venv/bin/python benchmarks/engine.py [--games N] [--repeat R]``.
Prints games/s for 2 and 4 players with ``random`` and ``score`` seats (the
best of R runs, since other load on the machine only ever slows a run down),
plus the cost of the deal alone.
"""

from __future__ import annotations

import argparse
import random
import time

from mantis.engine import Game
from mantis.engine.deal import shuffled_deck
from mantis.sim.simulate import simulate


def best_rate(players: int, bot: str, games: int, repeat: int) -> tuple[float, float]:
    rates = []
    turns = 0.0
    for _ in range(repeat):
        summary, _ = simulate(players, [bot] * players, games)
        rates.append(summary.games_per_second)
        turns = summary.avg_turns
    return max(rates), turns


def micro(label: str, fn, number: int) -> None:
    start = time.perf_counter()
    for i in range(number):
        fn(i)
    per = (time.perf_counter() - start) / number * 1e6
    print(f"  {label:<34} {per:8.2f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"games/s in one process (best of {args.repeat} x {args.games} games)")
    for players in (2, 4):
        for bot in ("score", "random"):
            rate, turns = best_rate(players, bot, args.games, args.repeat)
            print(f"  {players} players, {bot:<6} seats: {rate:9,.0f} games/s ({turns:.1f} turns)")
    print("per-game costs")
    rng = random.Random(0)
    micro("random.Random(seed)", random.Random, 20000)
    micro("shuffled_deck", lambda i: shuffled_deck(rng), 20000)
    micro("Game.new (seed + shuffle + deal)", lambda i: Game.new(4, i), 20000)


if __name__ == "__main__":
    main()
