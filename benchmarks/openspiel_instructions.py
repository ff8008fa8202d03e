"""One workload for an instruction count: python_mantis played out, cloned or not, or the engine.

Run under callgrind, whose counts the machine's load does not change::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/openspiel_instructions.py WHAT PLAYERS GAMES

``WHAT`` is ``playout`` (a move's three nodes: chance outcomes drawn by their
probabilities, legal actions asked at the decision), ``search`` (the same
with a ``clone()`` of the state at every node, as a search branching there)
or ``engine`` (the bare engine's move: its view, a random move,
``Game.play``).  It prints the moves played; run it once with ``GAMES`` 0 and
subtract that count (the interpreter's start and the imports), then divide by
the moves.  ``docs/research.md`` (Speed) quotes the figures.
"""

from __future__ import annotations

import random
import sys

import pyspiel

import mantis.envs.openspiel  # noqa: F401  (registers python_mantis)
from mantis.engine import Game, legal_actions_for


def main() -> None:
    what, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(1)
    moves = 0
    if what == "engine":
        acts = [legal_actions_for(players, s) for s in range(players)]
        for seed in range(games):
            game = Game.new(players, seed)
            while game.winners is None:
                game.view()
                game.play(acts[game.to_move][rng.randrange(players)])
            moves += game.turn
    else:
        spiel = pyspiel.load_game("python_mantis", {"players": players})
        for _ in range(games):
            state = spiel.new_initial_state()
            while not state.is_terminal():
                if what == "search":
                    state = state.clone()
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    moves += 1
    print(moves)


if __name__ == "__main__":
    main()
