"""Every seat's chance of winning, valued from one public ``View`` as the expert values it.

For every legal option of the seat to move and every face the top card can
still have (exact card-counting odds, ``View.face_weights`` through
``players.counting``), the position that option and face lead to is valued:

* a score that reaches the target: 1 for the mover, 0 for everyone else;
* the last card played (a deck-out): 1 for every winner, shared or not, else 0;
* otherwise by the expert's network for that table size (``u_i = f(x_i)`` per
  seat, the chance of seat ``i`` is ``exp(u_i) / Σ exp(u_j)``).

An option's chances are the expectation over the faces.  Nothing here can see
the draw pile: the input is a ``View``, which holds the top card's back and
the cards already seen, never the order of the cards still face down.

Where each option and face lead is the expert's own ``option_leaves``, and
the mover's numbers are, to the last bit, those of ``ExpertBot.action_values``
(the same strengths, the same sums in the same order): the expert plays the
best option here, so its own games lose nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine import Action, View
from ..players.bots.expert import (
    Network,
    networks_by_players,
    next_card_odds,
    option_leaves,
    position_strengths,
)
from ..players.counting import unseen_face_counts

Chances = tuple[float, ...]
"""Per seat, a chance of winning from 0 to 1."""

Networks = Mapping[int, Network]
"""A network per table size (2 to 6)."""


@dataclass(frozen=True, slots=True)
class FaceOutcome:
    """One face the top card may show, its probability, and every seat's chance after it."""

    colour: int
    probability: float
    chances: Chances


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One legal option of the seat to move, valued for every seat."""

    action: Action
    chances: Chances
    """Per seat, the chance of winning after this option: the expectation over ``faces``."""
    faces: tuple[FaceOutcome, ...]

    def outcome(self, colour: int) -> FaceOutcome:
        """The outcome for the face ``colour``; ``KeyError`` if that face was impossible."""
        for face in self.faces:
            if face.colour == colour:
                return face
        raise KeyError(colour)


def default_networks() -> Networks:
    """The expert's packaged networks, one per table size."""
    return networks_by_players()


def _leaf_chances(us: Sequence[float], me: int) -> tuple[list[float], float]:
    """Every seat's chance from the strengths, ``exp(u_s) / Σ exp(u_j)``, and the
    mover's ``Σ exp(u_j - u_me)``.

    The mover's chance is one over that sum, written as the expert writes it,
    so it is the very float the expert computes.
    """
    exp = math.exp
    top = max(us)
    weights = [exp(u - top) for u in us]
    total = sum(weights)
    chances = [w / total for w in weights]
    um = us[me]
    mover_total = sum(exp(u - um) for u in us)
    chances[me] = 1.0 / mover_total
    return chances, mover_total


def _exact(players: int, winners: Sequence[int]) -> Chances:
    return tuple(1.0 if s in winners else 0.0 for s in range(players))


def position_chances(view: View, networks: Networks | None = None) -> Chances:
    """Every seat's chance in ``view``'s position before the top card's back is taken
    into account: the value of a position just after a move (exact once the game is over)."""
    n = view.players
    if view.winners is not None:
        return _exact(n, view.winners)
    net = (networks if networks is not None else default_networks())[n]
    counts = [tuple(map(len, tank)) for tank in view.tanks]
    left = view.pile_size
    q = next_card_odds(list(unseen_face_counts(view.seen)), left)
    phase = left / (105 - 4 * n)
    us = position_strengths(net, counts, view.scores, view.to_move, q, view.target, phase)
    return tuple(_leaf_chances(us, view.to_move)[0])


def option_values(view: View, networks: Networks | None = None) -> tuple[OptionValue, ...]:
    """Every legal option of the seat to move (``legal_actions`` order), valued for every seat.

    Empty once the game is over.
    """
    actions = view.legal_actions()
    if not actions:
        return ()
    n = view.players
    me = view.to_move
    net = (networks if networks is not None else default_networks())[n]
    sums = [[0.0] * n for _ in actions]
    faces: list[list[FaceOutcome]] = [[] for _ in actions]
    for i, colour, p, strengths, winners in option_leaves(view, net):
        row = sums[i]
        if strengths is None:
            leaf = _exact(n, winners)
            for s in range(n):
                row[s] += p * leaf[s]
        else:
            chances, mover_total = _leaf_chances(strengths, me)
            for s in range(n):
                # the mover's as the expert sums it, to the last bit
                row[s] += p / mover_total if s == me else p * chances[s]
            leaf = tuple(chances)
        faces[i].append(FaceOutcome(colour, p, leaf))
    return tuple(
        OptionValue(action, tuple(sums[i]), tuple(faces[i])) for i, action in enumerate(actions)
    )


__all__ = [
    "Chances",
    "FaceOutcome",
    "Networks",
    "OptionValue",
    "default_networks",
    "option_values",
    "position_chances",
]
