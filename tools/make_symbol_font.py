"""Write the terminal font of ``mantis web``'s page: Roboto Mono, and the app's symbols.

    .venv/bin/pip install -e '.[test]'   # fontTools
    .venv/bin/python tools/make_symbol_font.py /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf

The page draws the terminal in Roboto Mono (textual-serve's font), which has
none of the app's symbols (the colours' glyphs, ▶, ⏎, …): each browser then
draws them in whatever font it finds, or not at all.  This keeps, from a
DejaVu Sans Mono (Debian's ``fonts-dejavu-core``), only the symbols the app
draws that Roboto Mono lacks — every symbol outside ASCII in the package's
code and styles, less the box drawings and blocks the terminal draws itself —
renamed "Mantis Symbols" as DejaVu's licence asks of a changed font.  It
writes the font, the licence beside it, and the page's stylesheet of the
terminal's font family: Roboto Mono's faces, and beside each a face of the
symbols for exactly those characters (``unicode-range``).

Each symbols face has the very weights and style of its Roboto Mono face: a
browser joins faces that differ only in ``unicode-range`` into one font, but
between faces whose weights or style differ it picks one set and never looks
at the other, and a font of the computer's (Liberation Mono, under the
terminal's fallback "Courier New") then draws the symbols.  Run it again
whenever the app draws a new symbol (``tests/web/test_web_font.py`` fails
until then).
"""

from __future__ import annotations

import argparse
import unicodedata
from pathlib import Path

import textual_serve
from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mantis"
OUTPUT = PACKAGE / "web" / "static"
FONT = "mantis-symbols.ttf"
CSS = "terminal-font.css"
LICENCE = "mantis-symbols-licence.txt"
FAMILY = "Mantis Symbols"
#: Drawn by the terminal itself (xterm.js draws box drawings and blocks), never from a font.
DRAWN_BY_THE_TERMINAL = range(0x2500, 0x25A0)
LICENCE_SOURCE = Path("/usr/share/doc/fonts-dejavu-core/copyright")
#: The terminal's font family (textual-serve's page and script name it so).
TERMINAL_FAMILY = "Roboto Mono"
#: Where textual-serve's fonts are, and the address the page has them at, from this
#: stylesheet's (``/mantis-static/``): its own ``/static/fonts/``.
SERVE_FONTS = Path(textual_serve.__file__).parent / "static" / "fonts"
SERVE_FONTS_URL = "../static/fonts/"
#: Roboto Mono's faces, by style.
ROBOTO_MONO = {
    "normal": "RobotoMono-VariableFont_wght.ttf",
    "italic": "RobotoMono-Italic-VariableFont_wght.ttf",
}


def roboto_mono() -> set[int]:
    """The code points the page's own font (textual-serve's Roboto Mono) has."""
    return set(TTFont(SERVE_FONTS / ROBOTO_MONO["normal"]).getBestCmap())


def weights(path: Path) -> str:
    """A variable font's weight range, as ``font-weight`` says it (``100 700``)."""
    axis = next(axis for axis in TTFont(path)["fvar"].axes if axis.axisTag == "wght")
    return f"{axis.minValue:g} {axis.maxValue:g}"


def stylesheet(points: list[int]) -> str:
    """The terminal family's ``@font-face`` rules: each Roboto Mono face, and the symbols' alike."""
    glyphs = "".join(chr(p) for p in points)
    rules = [
        f"/* Written by tools/make_symbol_font.py: the page's terminal font, {TERMINAL_FAMILY}\n"
        f"   (textual-serve's), and for the app's symbols it lacks ({glyphs})\n"
        f"   {FONT} (a subset of DejaVu Sans Mono: {LICENCE}).\n"
        f"   Each symbols face has the weights and style of its {TERMINAL_FAMILY} face: browsers\n"
        "   join such faces into one font, but of faces that differ they draw from one only. */"
    ]
    for style, source in ROBOTO_MONO.items():
        weight = weights(SERVE_FONTS / source)
        for url, only in ((SERVE_FONTS_URL + source, None), (FONT, unicode_range(points))):
            rules.append(
                "@font-face {\n"
                f'  font-family: "{TERMINAL_FAMILY}";\n'
                f'  src: url("{url}") format("truetype");\n'
                f"  font-weight: {weight};\n"
                f"  font-style: {style};\n" + (f"  unicode-range: {only};\n" if only else "") + "}"
            )
    return "\n".join(rules) + "\n"


def app_symbols() -> list[str]:
    """Every character outside ASCII in the app's code and styles.

    The whole package, not only its screens: the text they draw comes from every layer
    (the colours' glyphs from the engine, a connection's marks from the network's code).
    """
    found: set[str] = set()
    for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.tcss")]:
        found.update(ch for ch in path.read_text("utf-8") if ord(ch) > 127)
    return sorted(found)


def symbols(source: set[int]) -> list[int]:
    """The code points to keep: the app's symbols that ``source`` has and the page lacks."""
    page = roboto_mono()
    return [
        ord(ch)
        for ch in app_symbols()
        if ord(ch) in source
        and ord(ch) not in page
        and ord(ch) not in DRAWN_BY_THE_TERMINAL
        and unicodedata.category(ch)[0] in "PS"  # symbols and punctuation, never letters
    ]


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
    wanted = symbols(set(TTFont(args.source).getBestCmap()))
    options = subset.Options()
    options.name_IDs = []  # the names are set below
    options.notdef_outline = True
    options.layout_features = []
    font = TTFont(args.source, recalcTimestamp=False)  # the same source, the same file
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
    (OUTPUT / CSS).write_text(stylesheet(wanted), "utf-8")
    (OUTPUT / LICENCE).write_text(
        f"{FONT} is a subset of DejaVu Sans Mono (https://dejavu-fonts.github.io/), renamed\n"
        f'"{FAMILY}" as its licence asks of a changed font.\n\n' + licence(),
        "utf-8",
    )
    print(f"{len(wanted)} symbols: {glyphs}")
    print(f"wrote {OUTPUT / FONT} ({(OUTPUT / FONT).stat().st_size:,} bytes), {CSS}, {LICENCE}")


if __name__ == "__main__":
    main()
