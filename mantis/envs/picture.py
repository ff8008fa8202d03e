"""The table as a picture: what the ``rgb_array`` render mode gives.

An ``H x W x 3`` ``uint8`` image (as PettingZoo's classic games give), drawn
with numpy alone.  Each card is its colour's shape in the app's hue (``●``
red, ``▲`` green, ``■`` blue, ``◆`` purple, ``♥`` pink, ``★`` yellow, ``♣``
orange), so that hue never carries meaning alone, as in the app.

* The top band: the draw pile (a card with its size beside it), the top
  card's back (its three colours as three stripes) and the faces it can
  still have.
* A band per seat: a white arrow at the seat to move (a gold bar at each
  winner once the game is over), the seat's number and score, a bar of the
  score towards the target (the target's tick in white), then its tank: for
  each colour it holds, that many cards, five to a row.

Every card in a seat's band is drawn whole and in that band only: its
pixels of a colour's hue are that many cards' shapes, which is how the
tests read a picture back.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from ..engine import BACKS, View
from ..engine.cards import COLOUR_HUES, NUM_COLOURS
from ..engine.seat_count import MAX_SEATS

#: Each colour's shape on a 9 x 9 grid, in colour order (R G B P K Y O).
SHAPES = (
    ("..XXXXX..", ".XXXXXXX.", "XXXXXXXXX", "XXXXXXXXX", "XXXXXXXXX",
     "XXXXXXXXX", "XXXXXXXXX", ".XXXXXXX.", "..XXXXX.."),  # ● red
    ("....X....", "...XXX...", "...XXX...", "..XXXXX..", "..XXXXX..",
     ".XXXXXXX.", ".XXXXXXX.", "XXXXXXXXX", "XXXXXXXXX"),  # ▲ green
    (".........", ".XXXXXXX.", ".XXXXXXX.", ".XXXXXXX.", ".XXXXXXX.",
     ".XXXXXXX.", ".XXXXXXX.", ".XXXXXXX.", "........."),  # ■ blue
    ("....X....", "...XXX...", "..XXXXX..", ".XXXXXXX.", "XXXXXXXXX",
     ".XXXXXXX.", "..XXXXX..", "...XXX...", "....X...."),  # ◆ purple
    (".XX...XX.", "XXXX.XXXX", "XXXXXXXXX", "XXXXXXXXX", ".XXXXXXX.",
     "..XXXXX..", "...XXX...", "....X....", "........."),  # ♥ pink
    ("....X....", "....X....", "...XXX...", "XXXXXXXXX", ".XXXXXXX.",
     "..XXXXX..", "..XX.XX..", ".XX...XX.", ".X.....X."),  # ★ yellow
    ("...XXX...", "...XXX...", ".X.XXX.X.", "XXXXXXXXX", "XXXXXXXXX",
     ".X.XXX.X.", "....X....", "...XXX...", "........."),  # ♣ orange
)  # fmt: skip

#: Digits on a 3 x 5 grid.
DIGITS = (
    ("XXX", "X.X", "X.X", "X.X", "XXX"),
    (".X.", "XX.", ".X.", ".X.", "XXX"),
    ("XXX", "..X", "XXX", "X..", "XXX"),
    ("XXX", "..X", "XXX", "..X", "XXX"),
    ("X.X", "X.X", "XXX", "..X", "..X"),
    ("XXX", "X..", "XXX", "..X", "XXX"),
    ("XXX", "X..", "XXX", "X.X", "XXX"),
    ("XXX", "..X", "..X", "..X", "..X"),
    ("XXX", "X.X", "XXX", "X.X", "XXX"),
    ("XXX", "X.X", "XXX", "..X", "XXX"),
)

BACKGROUND = (24, 24, 30)
CARD = (58, 58, 70)
"""The pile's card, and the score bar's track."""
TEXT = (235, 235, 235)
SCORE = (150, 150, 160)
GOLD = (212, 175, 55)
HUES = tuple(tuple(int(hue[i : i + 2], 16) for i in (1, 3, 5)) for hue in COLOUR_HUES)
"""Each colour's hue as (red, green, blue), the app's."""

PITCH = 10
"""A card's square in a tank (a 9 x 9 shape and a pixel of gap)."""
PER_ROW = 5
"""Cards of one colour in a row of its group."""
GROUP = PER_ROW * PITCH + 8
TOP_BAND = 56
SEAT_BAND = 44
"""Room for three rows of cards (fifteen, a whole colour) and a gap."""
TANK_LEFT = 190
WIDTH = TANK_LEFT + NUM_COLOURS * GROUP
DIGIT_SCALE = 2
BAR_LEFT, BAR_WIDTH = 100, 80


def size(players: int) -> tuple[int, int]:
    """The picture's height and width at a table of ``players``."""
    return TOP_BAND + players * SEAT_BAND, WIDTH


def seat_band(seat: int) -> slice:
    """The rows of the picture that show ``seat``."""
    top = TOP_BAND + seat * SEAT_BAND
    return slice(top, top + SEAT_BAND)


@cache
def _mask(rows: tuple[str, ...], scale: int = 1) -> np.ndarray:
    grid = np.array([[c == "X" for c in row] for row in rows], dtype=bool)
    return np.kron(grid, np.ones((scale, scale), dtype=bool)).astype(bool)


def shape_pixels(colour: int) -> int:
    """How many pixels one card of ``colour`` covers."""
    return int(_mask(SHAPES[colour]).sum())


def _stamp(image: np.ndarray, mask: np.ndarray, top: int, left: int, rgb: Sequence[int]) -> None:
    height, width = mask.shape
    image[top : top + height, left : left + width][mask] = rgb


def _box(
    image: np.ndarray, top: int, left: int, height: int, width: int, rgb: Sequence[int]
) -> None:
    image[top : top + height, left : left + width] = rgb


def _number(image: np.ndarray, value: int, top: int, left: int, rgb: Sequence[int] = TEXT) -> int:
    """Draw ``value`` in digits from ``left``; where the next thing may start."""
    for digit in str(value):
        mask = _mask(DIGITS[int(digit)], DIGIT_SCALE)
        _stamp(image, mask, top, left, rgb)
        left += mask.shape[1] + DIGIT_SCALE
    return left


def _arrow(image: np.ndarray, top: int, left: int) -> None:
    for row in range(11):
        reach = 6 - abs(row - 5)
        _box(image, top + row, left, 1, reach + 1, TEXT)


def picture(view: View) -> np.ndarray:
    """The table of ``view``'s position as an image (see the module's docstring)."""
    n = view.players
    image = np.empty((*size(n), 3), dtype=np.uint8)
    image[:] = BACKGROUND
    # the top band: the pile, the top card's back and its possible faces
    _box(image, 10, 10, 36, 26, CARD)
    _number(image, view.pile_size, 18, 44)
    if view.top_back is not None:
        for k, colour in enumerate(BACKS[view.top_back]):
            _box(image, 10 + 12 * k, 100, 12, 26, HUES[colour])
        left = 140
        for colour, weight in view.face_weights():
            if weight:
                _stamp(image, _mask(SHAPES[colour], 2), 19, left, HUES[colour])
                left += 24
    winners = view.winners or ()
    for seat in range(min(n, MAX_SEATS)):
        top = seat_band(seat).start + 4
        if view.winners is None and seat == view.to_move:
            _arrow(image, top + 10, 6)
        elif seat in winners:
            _box(image, top, 4, SEAT_BAND - 8, 6, GOLD)
        _number(image, seat, top + 10, 22)
        score = view.scores[seat]
        _number(image, score, top + 10, 48, SCORE)
        _box(image, top + 13, BAR_LEFT, 4, BAR_WIDTH, CARD)
        reach = min(score, view.target) * BAR_WIDTH // view.target
        _box(image, top + 13, BAR_LEFT, 4, reach, SCORE)
        _box(image, top + 11, BAR_LEFT + BAR_WIDTH, 8, 1, TEXT)
        for colour, count in enumerate(view.tank_counts(seat)):
            mask = _mask(SHAPES[colour])
            for k in range(count):
                row, column = divmod(k, PER_ROW)
                left = TANK_LEFT + colour * GROUP + column * PITCH
                _stamp(image, mask, top + row * PITCH, left, HUES[colour])
    return image


__all__ = ["HUES", "SHAPES", "picture", "seat_band", "shape_pixels", "size"]
