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


def _covered(css: str) -> set[int]:
    (ranges,) = re.findall(r"unicode-range:\s*([^;]+);", css)
    points: set[int] = set()
    for part in ranges.split(","):
        first, _, last = part.strip().removeprefix("U+").partition("-")
        points.update(range(int(first, 16), int(last or first, 16) + 1))
    return points


def test_the_web_pages_symbol_font_has_every_glyph() -> None:
    # mantis web's page draws the glyphs from this font (tools/make_symbol_font.py): a new
    # glyph needs the font made again.
    static = ROOT / "mantis" / "web" / "static"
    covered = _covered((static / "mantis-symbols.css").read_text("utf-8"))
    assert {ord(glyph) for glyph in GLYPHS} <= covered
    font = (static / "mantis-symbols.ttf").read_bytes()
    assert font[:4] == b"\x00\x01\x00\x00" and len(font) < 20_000  # a small TrueType subset
