"""Card counting from a public ``View``: what the unseen cards can be.

Every card is face up once dealt or played, so ``View.seen`` says exactly which
cards are still in the draw pile (but never their order).  Card ``b * 3 + k``
has back ``b`` and face ``BACKS[b][k]``.  These helpers answer the two
questions bots ask, fast (bit counts, no loops over the 105 cards):

* the top card's possible faces and their probabilities, given its visible
  back (``top_face_odds``);
* how many unseen cards carry each face colour (``unseen_face_counts``), which
  is the face distribution of a card whose back is not visible yet.
"""

from __future__ import annotations

from ..engine import BACKS, NUM_CARDS, NUM_COLOURS, View
from ..engine.cards import ALL_CARDS_MASK

FACE_MASKS: tuple[int, ...] = tuple(
    sum(1 << card for card in range(NUM_CARDS) if BACKS[card // 3][card % 3] == colour)
    for colour in range(NUM_COLOURS)
)
"""Per colour, the bitmask of the 15 cards whose face is that colour."""


def top_face_odds(view: View) -> tuple[tuple[int, float], ...]:
    """The top card's possible faces as ``(colour, probability)``, exact.

    Only faces that are still possible (the card ``(back, face)`` is unseen)
    are listed; empty when the pile is empty.  The counting itself is the
    view's (``View.face_weights``); this is its float form for the bots.
    """
    faces = [colour for colour, weight in view.face_weights() if weight]
    if not faces:  # no top card (in a real game the top card itself is unseen)
        return ()
    p = 1.0 / len(faces)
    return tuple((colour, p) for colour in faces)


_RED, _GREEN, _BLUE, _PURPLE, _PINK, _YELLOW, _ORANGE = FACE_MASKS


def unseen_face_counts(seen: int) -> tuple[int, ...]:
    """Per colour, how many unseen cards have that face."""
    unseen = ALL_CARDS_MASK ^ seen
    # written out: a generator over the masks costs twice as much (every bot
    # decision and every observation of mantis.envs counts them)
    return (
        (unseen & _RED).bit_count(),
        (unseen & _GREEN).bit_count(),
        (unseen & _BLUE).bit_count(),
        (unseen & _PURPLE).bit_count(),
        (unseen & _PINK).bit_count(),
        (unseen & _YELLOW).bit_count(),
        (unseen & _ORANGE).bit_count(),
    )


def naive_face_odds(view: View) -> tuple[tuple[int, float], ...]:
    """No counting: each of the top back's three colours counts as 1/3."""
    back = view.top_back
    if back is None:
        return ()
    return tuple((colour, 1 / 3) for colour in BACKS[back])
