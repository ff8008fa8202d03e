"""Colours, card backs and the 105-card deck.

A card is a plain ``int`` from 0 to 104, so that the engine can keep cards in
tuples, sets and bitmasks at no cost.  Card ``b * 3 + k`` has back number ``b``
(one of the 35 three-colour combinations, in canonical order) and as its face
the ``k``-th colour of that back.  Everything else about a card is looked up in
the tables below; ``card_code`` and ``parse_card`` convert to and from the
``F:XYZ`` text form of the game-record format.
"""

from __future__ import annotations

from itertools import combinations

#: Colour letters in canonical order; a colour is its index in this string.
COLOUR_LETTERS = "RGBPKYO"
COLOUR_NAMES = ("red", "green", "blue", "purple", "pink", "yellow", "orange")
#: A distinct shape per colour, always shown beside its letter where there is room,
#: so that hue never carries meaning alone.  Orange's is a club: a heavy Greek cross
#: (U+271A) draws in common monospace fonts as a plain "+".  The README lists them, and
#: ``mantis web`` serves a font with every one of them (``tools/make_symbol_font.py``).
COLOUR_GLYPHS = ("●", "▲", "■", "◆", "♥", "★", "♣")
#: The hue each colour is drawn in (hex), picked so that a 16-colour terminal still
#: maps them to different colours where it can.
COLOUR_HUES = ("#e5484d", "#30a46c", "#3e8ef7", "#9d5bd2", "#f279c2", "#f5d90a", "#f76b15")
NUM_COLOURS = 7

RED, GREEN, BLUE, PURPLE, PINK, YELLOW, ORANGE = range(NUM_COLOURS)

#: The 35 backs, each a tuple of three colours in canonical order.
BACKS: tuple[tuple[int, int, int], ...] = tuple(combinations(range(NUM_COLOURS), 3))
NUM_BACKS = len(BACKS)
NUM_CARDS = NUM_BACKS * 3

#: FACE[card] is the card's face colour; BACK[card] its back number.
FACE: tuple[int, ...] = tuple(BACKS[card // 3][card % 3] for card in range(NUM_CARDS))
BACK: tuple[int, ...] = tuple(card // 3 for card in range(NUM_CARDS))
#: BIT[card] is the card's bit in a card-set bitmask.
BIT: tuple[int, ...] = tuple(1 << card for card in range(NUM_CARDS))
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1
#: The whole deck in card order.
DECK: tuple[int, ...] = tuple(range(NUM_CARDS))


def card_of(back: int, face: int) -> int:
    """The card with back number ``back`` and face colour ``face``."""
    try:
        return back * 3 + BACKS[back].index(face)
    except (ValueError, IndexError):
        raise ValueError(f"no card has back {back} and face {face}") from None


def back_code(back: int) -> str:
    """The three letters of a back, e.g. ``"RGB"``."""
    return "".join(COLOUR_LETTERS[c] for c in BACKS[back])


def card_code(card: int) -> str:
    """The record code of a card: face letter, colon, back letters (``"R:RGB"``)."""
    # Looked up: a record's JSON names every card of the deal, at every game's end.
    return _CARD_CODES[card]


_CARD_CODES: tuple[str, ...] = tuple(
    f"{COLOUR_LETTERS[FACE[card]]}:{back_code(BACK[card])}" for card in DECK
)


_CODE_TO_CARD = {card_code(card): card for card in DECK}


def parse_card(code: str) -> int:
    """The card a record code names; ``ValueError`` for anything else."""
    try:
        return _CODE_TO_CARD[code]
    except (KeyError, TypeError):
        raise ValueError(f"unknown card {code!r}") from None


# mask_of's tables: the bit string's characters are the card numbers from 104 down
# to 0; a marked card's character becomes 0xFF (never a card), then "1", all others "0"
_MARK = b"\xff"
_CARDS_DOWN = bytes(range(NUM_CARDS - 1, -1, -1))
_BINARY_DIGITS = bytes(ord("1") if byte == _MARK[0] else ord("0") for byte in range(256))


def mask_of(cards: bytes) -> int:
    """The bitmask of ``cards``, distinct card numbers one a byte.

    Built in C rather than a bit at a time (summing 16 cards' bits costs
    nearly twice as much, and every game's set-up needs one): ``maketrans``
    marks the cards, ``translate`` writes the bit string, ``int`` reads it.
    """
    marks = bytes.maketrans(cards, _MARK * len(cards))
    return int(_CARDS_DOWN.translate(marks).translate(_BINARY_DIGITS), 2)


def cards_in(mask: int) -> tuple[int, ...]:
    """The cards of a bitmask, in card order."""
    return tuple(card for card in DECK if mask & BIT[card])
