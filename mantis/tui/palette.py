"""How each card colour is drawn so that hue never carries meaning alone.

Every colour has a letter (the record format's R G B P K Y O) that is always
shown next to it, plus a glyph for larger layouts.  The hues are picked so
that a 16-colour terminal still maps them to different ANSI colours where it
can; where it cannot (it has no orange or pink), the letter tells them apart.
"""

from __future__ import annotations

from rich.text import Text

from ..engine import COLOUR_LETTERS, COLOUR_NAMES
from ..engine.cards import COLOUR_GLYPHS, COLOUR_HUES

#: Foreground hue per colour (canonical order R G B P K Y O).
HUES = COLOUR_HUES
#: Text drawn on a chip of the colour, chosen for contrast.
INKS = ("#ffffff", "#ffffff", "#ffffff", "#ffffff", "#000000", "#000000", "#000000")
#: A distinct shape per colour, for when there is room (the engine's, beside the letters).
GLYPHS = COLOUR_GLYPHS


def letter(colour: int) -> str:
    """The colour's letter, e.g. ``"R"``."""
    return COLOUR_LETTERS[colour]


def name(colour: int) -> str:
    """The colour's name, e.g. ``"red"``."""
    return COLOUR_NAMES[colour]


def chip(colour: int, *, wide: bool = False) -> Text:
    """The colour as a small solid chip with its letter (and glyph when ``wide``)."""
    label = (
        f" {GLYPHS[colour]} {COLOUR_LETTERS[colour]} " if wide else f" {COLOUR_LETTERS[colour]} "
    )
    return Text(label, style=f"bold {INKS[colour]} on {HUES[colour]}")


def tag(colour: int, *, spaced: bool = False) -> Text:
    """The colour's letter in its hue, bold: for dense one-line layouts.

    ``spaced`` adds the space that follows the letter inside the same run:
    some SVG viewers drop a run's leading space, gluing "R" to "red".
    """
    return Text(COLOUR_LETTERS[colour] + (" " if spaced else ""), style=f"bold {HUES[colour]}")


def hue(colour: int) -> str:
    """The colour's hue as a hex string."""
    return HUES[colour]
