"""Engine speed: whole games per second in one process, through the simulator.

Run: ``.venv/bin/python benchmarks/engine.py [--games N] [--repeat R]``.
Prints games/s for 2 and 4 players with ``score`` and ``random`` seats (the
best of R runs, since other load on the machine only ever slows a run down),
then what a game costs: the deal, a new game, and a turn (view, the ``score``
bot's choice and the rules), in microseconds.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from mantis.engine import SCORE, Game, deal
from mantis.sim.simulate import simulate


def best_rate(players: int, bot: str, games: int, repeat: int) -> tuple[float, float]:
    rates = []
    turns = 0.0
    for _ in range(repeat):
        summary, _ = simulate(players, [bot] * players, games, jobs=1)
        rates.append(summary.games_per_second)
        turns = summary.avg_turns
    return max(rates), turns


def best_micro(fn: Callable[[int], object], number: int, repeat: int) -> float:
    """Best-of-``repeat`` microseconds per call of ``fn(i)``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for i in range(number):
            fn(i)
        best = min(best, (time.perf_counter() - start) / number * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"games/s in one process (best of {args.repeat} x {args.games} games)")
    for players in (2, 4):
        for bot in ("score", "random"):
            rate, turns = best_rate(players, bot, args.games, args.repeat)
            print(f"  {players} players, {bot:<6} seats: {rate:9,.0f} games/s ({turns:.1f} turns)")

    number = min(args.games, 20000)
    choose = [lambda view: SCORE] * 4
    games = [Game.new(4, i) for i in range(number)]
    for game in games:
        game.play_out(choose)
    turns = sum(game.turn for game in games) / number
    deal_us = best_micro(lambda i: deal(4, i), number, args.repeat)
    new_us = best_micro(lambda i: Game.new(4, i), number, args.repeat)
    game_us = best_micro(lambda i: Game.new(4, i).play_out(choose), number, args.repeat)
    view_us = best_micro(lambda i, view=games[0].view: view(), number, args.repeat)
    print(f"per-game costs, 4 players, score seats ({turns:.1f} turns a game)")
    print(f"  {'deal (shuffle and deal one seed)':<40} {deal_us:8.2f} µs")
    print(f"  {'new game (deal + set-up)':<40} {new_us:8.2f} µs")
    print(f"  {'a turn (view + choice + rules)':<40} {(game_us - new_us) / turns:8.2f} µs")
    print(f"  {'  of which the view':<40} {view_us:8.2f} µs")
    print(f"  {'whole game':<40} {game_us:8.2f} µs")


if __name__ == "__main__":
    main()
