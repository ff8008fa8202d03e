"""Values of ``python_mantis`` states for search, exact at the node where a move waits for its face.

A move of the OpenSpiel game is three nodes: the top card's back (chance),
the move, then the card's face (chance).  A depth-limited search (OpenSpiel's
``expectiminimax``, which counts only decision nodes) stops right after a
move, at the face's chance node, where the position is still the one before
the move: valuing that position would value the move not at all.  So the
values here are, at the face's chance node, the exact expectation over the
one to three faces the card can have (each equally likely: every card is
unique) of the values of the positions they lead to (``expected_over_faces``).

``ExpertEvaluator`` values positions by the expert bot's own value network
(every seat's chance to win, from the features and weights the expert plays
by), and is an OpenSpiel MCTS ``Evaluator`` too.  At the face's chance node
its value for the mover is exactly what the expert expects of that move
(``ExpertBot.action_values``); a finished game is worth its returns.

    from open_spiel.python.algorithms.minimax import expectiminimax
    value = ExpertEvaluator(players)
    best, action = expectiminimax(state, 2, lambda s: value.evaluate(s)[me], me)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from ..players.bots.expert import networks_by_players, next_card_odds, position_strengths
from ..players.counting import unseen_face_counts
from .openspiel import MantisState, pile_at_deal


def expected_over_faces(state: MantisState, value: Callable[[MantisState], Any]) -> Any:
    """``value(state)``, but at the face's chance node the exact expectation over the faces.

    ``value`` is asked only of positions no move is waiting in; what it
    returns (a number, or an array of every seat's values) is averaged by
    each face's probability.
    """
    if state.pending_move is None or state.is_terminal():
        return value(state)
    total: Any = 0.0
    for face, probability in state.chance_outcomes():
        child = state.child(face)
        total = total + probability * value(child)
    return total


class ExpertEvaluator(mcts.Evaluator):  # type: ignore[misc]  # OpenSpiel has no type information
    """Every seat's chance to win a ``python_mantis`` state, by the expert's value network."""

    def __init__(self, players: int) -> None:
        self.players = players
        self._net = networks_by_players()[players]
        self._pile = pile_at_deal(players)

    def evaluate(self, state: MantisState) -> np.ndarray:
        """Every seat's value: its returns once the game is over, the network's chances
        of a position (before its move, the top card counted among the unseen), and
        their exact expectation over the faces where a move waits for its face."""
        return np.asarray(expected_over_faces(state, self._position))

    def _position(self, state: MantisState) -> np.ndarray:
        if state.is_terminal():
            return np.asarray(state.returns())
        view = state.view()
        if state.engine_game is None:  # still dealing: nobody is ahead yet
            return np.full(self.players, 1.0 / self.players)
        counts = [tuple(map(len, tank)) for tank in view.tanks]
        q = next_card_odds(unseen_face_counts(view.seen), view.pile_size)
        strengths = position_strengths(
            self._net,
            counts,
            view.scores,
            view.to_move,
            q,
            view.target,
            view.pile_size / self._pile,
        )
        top = max(strengths)
        weights = [math.exp(u - top) for u in strengths]
        total = sum(weights)
        return np.array([w / total for w in weights])

    def prior(self, state: MantisState) -> list[tuple[int, float]]:
        """Chance nodes' exact probabilities; uniform over the legal moves elsewhere."""
        if state.is_chance_node():
            outcomes: list[tuple[int, float]] = state.chance_outcomes()
            return outcomes
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


__all__ = ["ExpertEvaluator", "expected_over_faces"]
