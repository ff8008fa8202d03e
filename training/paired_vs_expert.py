"""An expert with other weights against the shipped ``expert``, on paired deals.

    nice -n 10 .venv/bin/python -m training.paired_vs_expert --weights expert_2p_10x.json \\
        --players 2 --deals 10000 --seed 43

Deal ``i`` is the engine's game for ``game_seed(seed, i)``, played
``players`` times with the same cards: the candidate (``ExpertBot(weights)``)
at seat ``k`` in the ``k``-th, the shipped ``ExpertBot()`` in every other
seat.  So each seat, and each deal's luck, falls to both sides alike (paired
games: same deals, seats swapped), and ``--deals 10000`` at two players is
20,000 games.  Both bots are deterministic: a run is reproducible from its
seed.  Played through the simulator's own game loop (``play_game``), in
``--jobs`` worker processes.

A win counts for the candidate when it is among the winners (a shared win
counts, as ``mantis tournament`` counts it), with a 95% Wilson interval over
the games; the mean payoff splits shared wins.  Also printed: the deals the
candidate won in more seatings than the shipped expert and the other way
round (a sign test over deals, which leaves out the deals both sides won
equally often).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from typing import Any

from mantis.engine import game_seed
from mantis.players.bots.expert import ExpertBot, load_networks, networks_by_players
from mantis.sim.runner import play_game
from mantis.sim.stats import wilson_interval
from training.common import write_result


def _play_deals(args: tuple[dict[str, Any], int, int, int, int]) -> list[tuple[int, float]]:
    """Per deal: the candidate's wins over its seatings, and its payoff."""
    weights, players, seed, start, stop = args
    hero = ExpertBot(weights)
    shipped = ExpertBot()
    out = []
    for i in range(start, stop):
        wins = 0
        payoff = 0.0
        for seat in range(players):
            seats = [shipped] * players
            seats[seat] = hero
            winners = play_game(seats, game_seed(seed, i)).winners
            assert winners is not None
            if seat in winners:
                wins += 1
                payoff += 1 / len(winners)
        out.append((wins, payoff))
    return out


def _play_deals_batched(args: tuple[dict[str, Any], int, int, int, int]) -> list[tuple[int, float]]:
    """``_play_deals`` on Mantis batched: every deal of the chunk at once per seating,
    each bot's moves chosen by ``expert_actions`` (the same choices as
    ``ExpertBot``, a test says so)."""
    import numpy as np

    from mantis.envs.batched import MantisBatch
    from mantis.envs.batched_bots import expert_actions

    weights, players, seed, start, stop = args
    hero = networks_by_players(load_networks(weights))[players]
    shipped = networks_by_players()[players]
    seeds = [game_seed(seed, i) for i in range(start, stop)]
    wins = np.zeros(len(seeds), dtype=np.int64)
    payoff = np.zeros(len(seeds))
    for seat in range(players):
        batch = MantisBatch(len(seeds), players, autoreset=False)
        batch.reset(seeds=seeds)
        while not batch.over.all():
            heroes = batch.to_move == seat
            actions = np.where(heroes, expert_actions(batch, hero), expert_actions(batch, shipped))
            batch.step(actions)
        won = batch.winners[:, seat]
        wins += won
        payoff += np.where(won, 1 / batch.winners.sum(axis=1), 0.0)
    return [(int(w), float(p)) for w, p in zip(wins, payoff, strict=True)]


def run(
    weights: dict[str, Any], players: int, deals: int, seed: int, jobs: int, batched: bool = False
) -> dict[str, Any]:
    step = min(deals, 2048) if batched else max(1, deals // (jobs * 8))
    chunks = [(weights, players, seed, s, min(s + step, deals)) for s in range(0, deals, step)]
    play = _play_deals_batched if batched else _play_deals
    start = time.perf_counter()
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(play, chunks)
    else:
        parts = [play(c) for c in chunks]
    per_deal = [row for part in parts for row in part]
    games = deals * players
    wins = sum(w for w, _ in per_deal)
    payoff = sum(p for _, p in per_deal)
    low, high = wilson_interval(wins, games)
    # a deal is the candidate's when it won more of its seatings than its fair share
    fair = 1  # of `players` seatings, one seat's fair share of wins is one
    better = sum(w > fair for w, _ in per_deal)
    worse = sum(w < fair for w, _ in per_deal)
    decided = better + worse
    # two-sided sign test, normal approximation
    z = (better - decided / 2) / math.sqrt(decided / 4) if decided else 0.0
    return {
        "players": players,
        "deals": deals,
        "games": games,
        "seed": seed,
        "wins": wins,
        "win_rate": wins / games,
        "ci95": [low, high],
        "mean_payoff": payoff / games,
        "fair_share": 1 / players,
        "deals_better": better,
        "deals_worse": worse,
        "sign_z": z,
        "seconds": round(time.perf_counter() - start, 1),
        "batched": batched,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--weights", required=True, help="the candidate's weights (JSON)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--batched", action="store_true", help="play on Mantis batched (the same games, faster)"
    )
    parser.add_argument("--out", help="also write the result as JSON here")
    args = parser.parse_args(argv)
    with open(args.weights, encoding="utf-8") as fh:
        weights = json.load(fh)
    result = run(weights, args.players, args.deals, args.seed, args.jobs, args.batched)
    low, high = result["ci95"]
    print(
        f"{args.weights} against the shipped expert, {args.players} players, "
        f"{result['games']} paired games ({args.deals} deals x {args.players} seatings): "
        f"{result['win_rate']:.2%} [{low:.2%}, {high:.2%}] won (fair share "
        f"{result['fair_share']:.1%}), mean payoff {result['mean_payoff']:.4f}; deals "
        f"better/worse {result['deals_better']}/{result['deals_worse']} "
        f"(z {result['sign_z']:.2f}), "
        f"{result['seconds']:.0f} s"
    )
    if args.out:
        write_result(args.out, result)


if __name__ == "__main__":
    main()
