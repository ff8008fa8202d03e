"""How long a whole game's review takes, beside the expert deciding the same positions.

    .venv/bin/python benchmarks/review.py [--games 100] [--players 2,3,4,5,6]

For each table size, ``--games`` games of ``expert`` and ``greedy`` (alternating
seats) are played first; then, on the very same records and in the same run:

* **review**: ``review_game(record)``, the whole analysis of one game (every
  option of every decision valued for every seat, the luck of every card,
  the chart), timed per game;
* **expert (peer)**: the same positions, replayed from the same records, and
  ``ExpertBot.choose`` asked at each: what the expert spends deciding that game;
* **replay**: the replay alone (the engine replaying the record and a view
  per move), the floor both of them stand on.

The three take turns game by game.  Prints per table size the moves per game,
the median and p95 milliseconds per game of each, and the review's total cost
as a multiple of the expert's.
Run on an otherwise idle machine: other work on the same cores inflates the
p95.
"""

from __future__ import annotations

import argparse
from statistics import median, quantiles
from time import perf_counter

from mantis.engine import Game, GameRecord, game_seed, record_of
from mantis.players import make_bot
from mantis.players.bots.expert import ExpertBot
from mantis.review import review_game
from mantis.sim.runner import play_game


def records(players: int, games: int) -> list[GameRecord]:
    out = []
    for i in range(games):
        names = ["expert" if (s + i) % 2 == 0 else "greedy" for s in range(players)]
        out.append(record_of(play_game([make_bot(n) for n in names], game_seed(31, i))))
    return out


def replay_only(record: GameRecord) -> None:
    game = Game(record.tanks, record.pile, record.first, seed=record.seed)
    for seat, action in record.actions:
        game.view(seat)
        game.play(action, seat)


def expert_decides(record: GameRecord, expert: ExpertBot) -> None:
    game = Game(record.tanks, record.pile, record.first, seed=record.seed)
    for seat, action in record.actions:
        expert.choose(game.view(seat))
        game.play(action, seat)


def timed(works, items) -> list[list[float]]:
    """Milliseconds of each of ``works`` on each item, the works taking turns item by
    item (so that a change in the machine's load falls on all of them alike)."""
    times: list[list[float]] = [[] for _ in works]
    for item in items:
        for work, spent in zip(works, times, strict=True):
            start = perf_counter()
            work(item)
            spent.append((perf_counter() - start) * 1e3)
    return times


def p95(times: list[float]) -> float:
    return quantiles(times, n=20)[-1] if len(times) > 1 else times[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", default="2,3,4,5,6")
    args = parser.parse_args()
    expert = ExpertBot()
    review_game(records(2, 1)[0])  # load the networks before timing
    print(
        f"{'table':<7}{'moves':>6}{'review median':>15}{'p95':>8}{'expert median':>15}"
        f"{'p95':>8}{'replay median':>15}{'review/expert':>15}   (ms per game)"
    )
    for players in (int(p) for p in args.players.split(",")):
        games = records(players, args.games)
        moves = sum(len(r.actions) for r in games) / len(games)
        reviewing, deciding, replaying = timed(
            (review_game, lambda r: expert_decides(r, expert), replay_only), games
        )
        print(
            f"{f'{players}p':<7}{moves:>6.1f}{median(reviewing):>15.2f}{p95(reviewing):>8.2f}"
            f"{median(deciding):>15.2f}{p95(deciding):>8.2f}{median(replaying):>15.2f}"
            f"{sum(reviewing) / sum(deciding):>14.2f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
