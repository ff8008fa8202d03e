"""OpenSpiel's ``MCTSBot``, searching Mantis's chance nodes, against the ``expert`` bot.

    nice -n 19 .venv/bin/python -m training.mcts_vs_expert --players 2 --games 10000 --seed 1

One MCTS seat against ``players - 1`` experts.  Game ``i`` is the engine's
game for ``game_seed(seed, i)`` (``Game.new``), one sample of the chance
process the OpenSpiel game models, and the MCTS sits at seat ``i %
players``: seats rotate, and every run with the same seed plays the same
deals.  The search runs on ``python_mantis`` (``mantis.envs.openspiel``):
the OpenSpiel state follows the engine's game move by move (each move's
back, move and face applied as the chance outcomes they were) and the
search sees the top card's back, never its face nor the rest of the pile;
inside the search every back and face is drawn by its exact probability.

The search: ``--simulations`` per move, UCT constant ``--uct``, leaves
evaluated by ``--evaluator``: ``expert`` (the expert's value network: every
seat's chance to win the position, from the bot's own features and
weights) or ``random`` (one random playout).  With ``expert`` the search
never stops at a chance node (``dont_return_chance_node``), so a leaf is a
position after a whole move with the next back known.  Its random
generator is seeded from the game's seed: a run is reproducible.

A win counts for the MCTS seat when it is among the winners (a shared win
counts, as ``mantis tournament`` counts it); the 95% interval is Wilson's.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from mantis.engine import BACK, Game, game_seed, record_of
from mantis.envs.actions import from_engine, to_engine
from mantis.envs.openspiel import FIRST_BACK, state_from_record
from mantis.envs.search import ExpertEvaluator
from mantis.players.bots.expert import ExpertBot
from mantis.sim.stats import wilson_interval
from training.common import write_result


def make_bot(
    game: pyspiel.Game, evaluator: str, simulations: int, uct: float, seed: int
) -> mcts.MCTSBot:
    rng = np.random.RandomState(seed % 2**32)
    if evaluator == "expert":
        judge: mcts.Evaluator = ExpertEvaluator(game.num_players())
    else:
        judge = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(
        game,
        uct,
        simulations,
        judge,
        random_state=rng,
        dont_return_chance_node=evaluator == "expert",
    )


def play_one(
    game: pyspiel.Game, index: int, args: argparse.Namespace, expert: ExpertBot
) -> tuple[int, tuple[int, ...]]:
    """Game ``index``: the MCTS's seat and the winners."""
    players = game.num_players()
    seed = game_seed(args.seed, index)
    engine = Game.new(players, seed)
    hero = index % players
    bot = make_bot(game, args.evaluator, args.simulations, args.uct, seed)
    state = state_from_record(game, record_of(engine))
    while engine.winners is None:
        card = engine.initial_pile[engine.turn]
        state.apply_action(FIRST_BACK + BACK[card])
        seat = engine.to_move
        if seat == hero:
            move = bot.step(state)
            action = to_engine(players, seat, move)
        else:
            action = expert.choose(engine.view())
            move = from_engine(players, seat, action)
        state.apply_action(move)
        state.apply_action(card)
        engine.play(action)
    assert state.is_terminal()
    return hero, engine.winners


def run(args: argparse.Namespace) -> dict[str, Any]:
    import mantis.envs.openspiel  # noqa: F401  (registers python_mantis)

    game = pyspiel.load_game("python_mantis", {"players": args.players})
    expert = ExpertBot()
    wins = 0
    share = 0.0
    start = time.perf_counter()
    for i in range(args.games):
        hero, winners = play_one(game, i, args, expert)
        if hero in winners:
            wins += 1
            share += 1.0 / len(winners)
        if args.progress and (i + 1) % args.progress == 0:
            elapsed = time.perf_counter() - start
            print(
                f"{i + 1} games: {wins / (i + 1):.2%} won, {elapsed:.0f} s",
                flush=True,
            )
    seconds = time.perf_counter() - start
    low, high = wilson_interval(wins, args.games)
    return {
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "evaluator": args.evaluator,
        "simulations": args.simulations,
        "uct": args.uct,
        "wins": wins,
        "win_rate": wins / args.games,
        "ci95": [low, high],
        "mean_payoff": share / args.games,
        "fair_share": 1 / args.players,
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--uct", type=float, default=1.0)
    parser.add_argument("--evaluator", choices=("expert", "random"), default="expert")
    parser.add_argument("--progress", type=int, default=0, help="print every N games")
    parser.add_argument("--out", help="also write the result as JSON here")
    args = parser.parse_args(argv)
    result = run(args)
    low, high = result["ci95"]
    print(
        f"MCTS ({args.evaluator}, {args.simulations} simulations, uct {args.uct}) against "
        f"{args.players - 1} expert(s), {args.games} games: {result['win_rate']:.2%} "
        f"[{low:.2%}, {high:.2%}] (fair share {result['fair_share']:.1%}), "
        f"{result['seconds']:.0f} s"
    )
    if args.out:
        write_result(args.out, result)


if __name__ == "__main__":
    main()
