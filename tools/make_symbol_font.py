"""Write ``mantis/web/static/``'s symbol font: the app's glyphs for ``mantis web``'s page.

    .venv/bin/pip install fonttools
    .venv/bin/python tools/make_symbol_font.py /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf

The page draws the terminal in Roboto Mono (textual-serve's font), which has
none of the app's symbols (the colours' glyphs, ▶, ⏎, …): each browser then
draws them in whatever font it finds, or not at all.  This keeps, from a
DejaVu Sans Mono (Debian's ``fonts-dejavu-core``), only the symbols the app
draws that Roboto Mono lacks — every character outside ASCII in
``mantis/tui``'s code and styles, less the box drawings and blocks the
terminal draws itself — renamed "Mantis Symbols" as DejaVu's licence asks of
a changed font.  It writes the font, the ``@font-face`` rule that adds it to
the page's Roboto Mono for exactly those characters (``unicode-range``), and
the licence beside them.  Run it again whenever the app draws a new symbol
(``tests/web`` checks that the colours' glyphs are all in it).
"""

from __future__ import annotations

import argparse
import unicodedata
from pathlib import Path

import textual_serve
from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "mantis" / "web" / "static"
FONT = "mantis-symbols.ttf"
CSS = "mantis-symbols.css"
LICENCE = "mantis-symbols-licence.txt"
FAMILY = "Mantis Symbols"
#: Drawn by the terminal itself (xterm.js draws box drawings and blocks), never from a font.
DRAWN_BY_THE_TERMINAL = range(0x2500, 0x25A0)
LICENCE_SOURCE = Path("/usr/share/doc/fonts-dejavu-core/copyright")


def roboto_mono() -> set[int]:
    """The code points the page's own font (textual-serve's Roboto Mono) has."""
    fonts = Path(textual_serve.__file__).parent / "static" / "fonts"
    return set(TTFont(fonts / "RobotoMono-VariableFont_wght.ttf").getBestCmap())


def app_symbols() -> list[str]:
    """Every character outside ASCII that the app's screens, widgets and styles draw."""
    tui = ROOT / "mantis" / "tui"
    found: set[str] = set()
    for path in [*tui.rglob("*.py"), *tui.rglob("*.tcss")]:
        found.update(ch for ch in path.read_text("utf-8") if ord(ch) > 127)
    return sorted(found)


def licence() -> str:
    """DejaVu's licence, as Debian's package gives it (the fonts' part, not the packaging's)."""
    text = LICENCE_SOURCE.read_text("utf-8")
    start = text.index("Files: *")
    end = text.index("Files: debian/*")
    return text[start:end].rstrip() + "\n"


def unicode_range(points: list[int]) -> str:
    """``U+2190, U+25A0-25A1, …``: the code points, runs joined."""
    runs: list[list[int]] = []
    for point in sorted(points):
        if runs and point == runs[-1][1] + 1:
            runs[-1][1] = point
        else:
            runs.append([point, point])
    return ", ".join(f"U+{a:04X}" if a == b else f"U+{a:04X}-{b:04X}" for a, b in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="DejaVuSansMono.ttf")
    args = parser.parse_args()
    source = TTFont(args.source)
    has = set(source.getBestCmap())
    page = roboto_mono()
    wanted = [
        ord(ch)
        for ch in app_symbols()
        if ord(ch) in has
        and ord(ch) not in page
        and ord(ch) not in DRAWN_BY_THE_TERMINAL
        and unicodedata.category(ch)[0] in "PS"  # symbols and punctuation, never letters
    ]
    options = subset.Options()
    options.name_IDs = []  # the names are set below
    options.notdef_outline = True
    options.layout_features = []
    font = TTFont(args.source)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    names = font["name"]
    for name_id, value in (
        (1, FAMILY),
        (2, "Regular"),
        (3, f"{FAMILY} Regular"),
        (4, f"{FAMILY} Regular"),
        (6, "MantisSymbols-Regular"),
    ):
        names.setName(value, name_id, 3, 1, 0x409)
    names.setName(
        "Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved. DejaVu changes are in "
        "public domain. A subset of DejaVu Sans Mono, renamed; see "
        f"{LICENCE}.",
        0,
        3,
        1,
        0x409,
    )
    OUTPUT.mkdir(parents=True, exist_ok=True)
    font.save(OUTPUT / FONT)
    glyphs = "".join(chr(p) for p in wanted)
    (OUTPUT / CSS).write_text(
        f"/* Written by tools/make_symbol_font.py: the app's symbols ({glyphs}) in the page's\n"
        f"   terminal font, from {FONT} (a subset of DejaVu Sans Mono: {LICENCE}). */\n"
        "@font-face {\n"
        '  font-family: "Roboto Mono";\n'
        f'  src: url("{FONT}") format("truetype");\n'
        "  font-weight: 100 900;\n"
        f"  unicode-range: {unicode_range(wanted)};\n"
        "}\n",
        "utf-8",
    )
    (OUTPUT / LICENCE).write_text(
        f"{FONT} is a subset of DejaVu Sans Mono (https://dejavu-fonts.github.io/), renamed\n"
        f'"{FAMILY}" as its licence asks of a changed font.\n\n' + licence(),
        "utf-8",
    )
    print(f"{len(wanted)} symbols: {glyphs}")
    print(f"wrote {OUTPUT / FONT} ({(OUTPUT / FONT).stat().st_size:,} bytes), {CSS}, {LICENCE}")


if __name__ == "__main__":
    main()
