"""The colours' glyphs are defined once (``tui/palette.py``): every place showing them follows."""

from __future__ import annotations

import re
from pathlib import Path

from mantis.engine import COLOUR_LETTERS, NUM_COLOURS
from mantis.tui.palette import GLYPHS
from mantis.tui.screens.help import HELP_SECTIONS

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_lists_the_palettes_glyphs() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    listed = re.findall(
        r"`([A-Z]) (\S)`", readme.split("shown with its letter and its own glyph")[1]
    )
    assert listed[:NUM_COLOURS] == list(zip(COLOUR_LETTERS, GLYPHS, strict=True))


def test_the_help_shows_each_colour_with_its_glyph() -> None:
    cards = dict(HELP_SECTIONS)["The cards"]
    for letter, glyph in zip(COLOUR_LETTERS, GLYPHS, strict=True):
        assert f"{letter} {glyph} " in cards
