"""What a finished game pays each seat: its share of the win.

A winner alone gets 1; seats that share a win (the pile ran out with them
level on score and tank) get ``1 / k`` each, as the ratings count a shared
win; every other seat gets 0.  So the payoffs always sum to 1 and a seat's
expected payoff is its win rate, shared wins split.
"""

from __future__ import annotations

from collections.abc import Sequence

WIN = 1.0
LOSS = 0.0


def win_shares(winners: Sequence[int], players: int) -> list[float]:
    """Every seat's payoff, in seat order, for a game ``winners`` won."""
    share = WIN / len(winners)
    payoffs = [LOSS] * players
    for seat in winners:
        payoffs[seat] = share
    return payoffs
