"""The page's terminal font (``mantis/web/static``): every symbol the app draws, made alike.

``tools/make_symbol_font.py`` writes the font of the app's symbols and the page's stylesheet;
these checks need no browser (``test_web_browser.py`` checks what a browser draws with them).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from fontTools.ttLib import TTFont

from mantis.tui.palette import GLYPHS
from mantis.web.server import STATIC

ROOT = Path(__file__).resolve().parents[2]
#: Control pictures (␛ for ESC...), which the app shows for control characters in outside
#: text: DejaVu Sans Mono has none of them, so the page leaves them to the computer's fonts.
CONTROL_PICTURES = set(range(0x2400, 0x2440))


def _tool():
    spec = importlib.util.spec_from_file_location(
        "make_symbol_font", ROOT / "tools" / "make_symbol_font.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def served() -> list[int]:
    """The code points the page's symbols font has."""
    return sorted(TTFont(STATIC / TOOL.FONT).getBestCmap())


def test_the_pages_font_has_every_symbol_the_app_draws_and_no_other() -> None:
    # A symbol new in the app's code (anywhere in the package: the colours' glyphs are the
    # engine's) needs the font made again: python tools/make_symbol_font.py DejaVuSansMono.ttf.
    drawn = {ord(ch) for ch in TOOL.app_symbols()} - CONTROL_PICTURES
    assert set(TOOL.symbols(drawn)) == set(served())
    assert {ord(glyph) for glyph in GLYPHS} <= set(served())
    font = (STATIC / TOOL.FONT).read_bytes()
    assert font[:4] == b"\x00\x01\x00\x00" and len(font) < 20_000  # a small TrueType subset


def test_the_pages_stylesheet_gives_the_symbols_with_each_roboto_mono_face_alike() -> None:
    # The tool's stylesheet for the font as it is: the symbols' faces take Roboto Mono's
    # weights and styles from textual-serve's fonts (a browser joins only faces alike).
    css = (STATIC / TOOL.CSS).read_text("utf-8")
    assert css == TOOL.stylesheet(served())
    faces = [dict(re.findall(r"([a-z-]+): ([^;]+);", face)) for face in css.split("@font-face")[1:]]
    for style in ("normal", "italic"):
        alike = [face for face in faces if face["font-style"] == style]
        assert [("unicode-range" in face) for face in alike] == [False, True], alike
        assert len({(face["font-family"], face["font-weight"]) for face in alike}) == 1, alike
