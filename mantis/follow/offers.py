"""Another game at an online table, in the words both front ends say it.

Once a game is over, anyone seated may offer another; each seat accepts or
declines, and the offer lapses when nobody answers in time.  How it stands
is said the same on the app's result and in the line mode; how long is
left is each one's own (a countdown, or the seconds in words).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..net import protocol
from ..table.names import YOU
from ..table.narration import join_names


def offer_line(offer: protocol.Offer, names: Sequence[str], me: int | None) -> str:
    """How an open offer stands for seat ``me`` (None: watching): "Bea offers another
    game: a accepts, d declines" while ``me`` has not answered, else "You asked for another
    game, waiting for Bea"."""
    if me is not None and me not in offer.accepted:
        return f"{names[offer.by]} offers another game: a accepts, d declines"
    waiting = ["you" if names[s] == YOU else names[s] for s in range(len(names))]
    waiting = [name for s, name in enumerate(waiting) if s not in offer.accepted]
    asker = YOU if offer.by == me else names[offer.by]
    return f"{asker} asked for another game, waiting for {join_names(waiting)}"


def closed_line(closed: protocol.OfferClosed, names: Sequence[str]) -> str:
    """Why the offer of another game is off: "Bea declined another game."."""
    who = "" if closed.seat is None else names[closed.seat]
    if closed.reason == "declined":
        return f"{who} declined another game."
    if closed.reason == "left":
        return f"{who} left the table: no other game."
    return "Nobody answered: the offer of another game lapsed."
