"""Positions for property tests: a deal, then the ``choices``-th legal move each turn.

``position(players, seed, choices)`` plays from ``seed``'s deal the
``choices[i] % len(legal)``-th legal move at each turn, as far as the choices go,
and stops one move before the end (a position with a turn to play).  Random
choices reach any position the rules allow, empty tanks included;
``EMPTY_TANKS`` are some where a seat other than the mover has an empty tank.
"""

from __future__ import annotations

from collections.abc import Sequence

from mantis.engine import Game

EMPTY_TANKS = (
    (2, 0, (0, 0, 1, 0, 1, 0, 0, 0, 0)),
    (3, 0, (0, 0, 1, 0, 1, 0)),
    (4, 0, (0, 0, 2, 0, 2, 0, 1, 0, 0, 0)),
)
"""(players, seed, choices) of positions where a seat's tank is empty, a steal from it legal."""


def position(players: int, seed: int, choices: Sequence[int]) -> Game:
    """The game after the ``choices``-th legal move of each turn (stopping before its end)."""
    game = Game.new(players, seed)
    for choice in choices:
        actions = game.view().legal_actions()
        before = game.copy()
        game.play(actions[choice % len(actions)])
        if game.over:
            return before
    return game


def test_the_empty_tank_positions_have_an_empty_tank() -> None:
    for players, seed, choices in EMPTY_TANKS:
        view = position(players, seed, choices).view()
        assert any(view.tank_size(s) == 0 for s in range(players) if s != view.to_move)
