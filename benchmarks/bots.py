"""Decision time per bot: median and p95, in milliseconds.

    .venv/bin/python benchmarks/bots.py [--games 200] [--players 2,4,6] [--bots ...]

Each bot plays ``--games`` games against copies of ``greedy`` (itself for
greedy) at each table size; every one of its decisions is timed with
``perf_counter``.  Run it on an otherwise idle machine: other work on the
same cores inflates the p95.
"""

from __future__ import annotations

import argparse
from time import perf_counter

from mantis.engine import Game, game_seed
from mantis.players import BOTS, make_bot
from mantis.players.coach import advise
from mantis.sim.runner import play_game
from mantis.sim.stats import timing_ms


def measure(name: str, players: int, games: int) -> dict[str, float]:
    """Median and p95 (ms) of ``name``'s own decisions, seats rotated."""
    hero = make_bot(name)
    foes = [make_bot("greedy") for _ in range(players - 1)]
    mine: list[float] = []
    for i in range(games):
        pos = i % players
        seats = list(foes)
        seats.insert(pos, hero)
        times: list[list[float]] = [[] for _ in range(players)]
        play_game(seats, game_seed(0, i), times=times)
        mine.extend(times[pos])
    return timing_ms(mine)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", default="2,4,6")
    parser.add_argument("--bots", default=",".join(BOTS))
    args = parser.parse_args()
    tables = [int(p) for p in args.players.split(",")]
    print(f"{'bot':<10}" + "".join(f"{f'{n}p median':>13}{f'{n}p p95':>10}" for n in tables))
    for name in args.bots.split(","):
        cells = []
        for n in tables:
            ms = measure(name, n, args.games)
            cells.append(f"{ms['median']:>13.4f}{ms['p95']:>10.4f}")
        print(f"{name:<10}" + "".join(cells), flush=True)
    print(f"coach advice (odds panel's expert hint): {coach_ms(tables[0]):.3f} ms median")


def coach_ms(players: int, games: int = 50) -> float:
    """Median time of one ``advise`` call over the positions of a few greedy games."""
    times = []
    for i in range(games):
        game = Game.new(players, game_seed(1, i))
        greedy = make_bot("greedy")
        while not game.over:
            view = game.view()
            start = perf_counter()
            advise(view)
            times.append(perf_counter() - start)
            game.play(greedy.choose(view))
    return timing_ms(times)["median"]


if __name__ == "__main__":
    main()
