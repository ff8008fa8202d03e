"""What a move of OpenSpiel's ``python_mantis`` costs beside the engine's own move, in one run.

Run: ``.venv/bin/python benchmarks/openspiel_moves.py [--games N] [--repeat R]`` (about a minute).

Per move, in µs of CPU time (other load on the machine counts less), each the
best of ``--repeat`` runs over the same ``--games`` games of uniformly random
moves, at 2, 4 and 6 players:

* **engine**: the bare engine's move (its view, a ``randrange``, ``Game.play``);
* **playout**: a move of ``python_mantis`` as a random playout makes it
  (``research.py``'s): its three nodes (the top card's back, the move, its
  face), each chance node asked ``chance_outcomes()`` and drawn by its
  probabilities; what MCTS's rollouts do;
* **search**: the same with a ``clone()`` of the state at every node, as a
  search does when it branches;
* **MCTS**: a decision of OpenSpiel's ``MCTSBot`` with 100 simulations and
  leaves valued by ``mantis.envs.search.ExpertEvaluator`` (the expert's value
  network), the search ``training/mcts_vs_expert.py`` runs, per decision in ms,
  over the first decisions of the games.

The multiples are of the engine's move in the same run: what the binding
(every call crossing between OpenSpiel's C++ and the game's Python) adds.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from research import (  # (this folder: the script's own, first on the path)
    engine_turns,
    openspiel_games,
)

import mantis.envs.openspiel  # noqa: F401  (registers python_mantis)

SIZES = (2, 4, 6)


def best(repeat: int, run: Callable[[], float]) -> float:
    """The lowest cost of ``repeat`` runs of ``run`` (a cost per move)."""
    return min(run() for _ in range(repeat))


def engine_move(players: int, games: int) -> float:
    """µs of CPU per move of the bare engine (``research.py``'s engine turn)."""
    return 1e6 / engine_turns(players, games)


def openspiel_move(players: int, games: int, *, clone: bool) -> float:
    """µs of CPU per move of ``python_mantis`` played out (cloned at every node if asked)."""
    return 1e6 / openspiel_games(players, games, clone=clone)[1]


def mcts_decision(players: int, decisions: int) -> float:
    """ms of CPU per decision of a 100-simulation MCTS with the expert's value network."""
    from mantis.envs.search import ExpertEvaluator

    game = pyspiel.load_game("python_mantis", {"players": players})
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(
        game,
        1.0,
        100,
        ExpertEvaluator(players),
        random_state=rng,
        dont_return_chance_node=True,
    )
    made = 0
    seconds = 0.0
    state = game.new_initial_state()
    while made < decisions:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(outcomes, p=probs))
            continue
        start = time.process_time()
        action = bot.step(state)
        seconds += time.process_time() - start
        made += 1
        state.apply_action(action)
    return 1e3 * seconds / made


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per timed loop")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=30, help="MCTS decisions timed")
    args = parser.parse_args()
    games, repeat = args.games, args.repeat
    print(f"µs of CPU per move (best of {repeat} x {games} games of random moves)")
    for players in SIZES:
        engine = best(repeat, lambda n=players: engine_move(n, games * 10))
        playout = best(repeat, lambda n=players: openspiel_move(n, games, clone=False))
        search = best(repeat, lambda n=players: openspiel_move(n, games, clone=True))
        decision = best(repeat, lambda n=players: mcts_decision(n, args.decisions))
        print(
            f"  {players} players: engine {engine:5.2f}   python_mantis playout {playout:6.1f} "
            f"({playout / engine:4.1f}x)   search, cloned at every node {search:6.1f} "
            f"({search / engine:4.1f}x)   MCTS 100 simulations {decision:6.1f} ms a decision"
        )


if __name__ == "__main__":
    main()
