"""The fonts a computer has, for the browser tests: a fontconfig of the test's own.

Chromium knows the computer's fonts from fontconfig, which reads the file
``FONTCONFIG_FILE`` names: a browser started with one of these sees the fonts
given here and none of the machine's, so a test of what the page draws is the
same on every machine.  Two computers:

* ``plain``: Roboto Mono alone (textual-serve's own file, which has none of the
  app's symbols), also as every generic family: a computer with no font for the
  symbols.  The page must draw them from its own font, or draw no symbol at all.
* ``covering``: a font under every family name the page's terminal asks for
  (Roboto Mono, Monaco, Courier New, ...) and as every generic family, with a
  glyph for each of the app's symbols, all the same plain box, unlike any real
  font's: a computer whose fonts draw the symbols (Liberation Mono, which
  Chromium's recommended packages bring, has ●).  A symbol the page takes from
  the computer instead of from its own font shows up as a box.

Each is made in a folder of the test's own with fontTools, in a fraction of a
second; fontconfig's cache of it goes in the same folder.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

import textual_serve

#: The computers a browser test can be run on (``fonts(name, folder)``).
COMPUTERS = ("plain", "covering")

#: The families the covering computer has, each with every symbol: the terminal's own
#: (textual-serve's page asks for "'Roboto Mono', Monaco, 'Courier New', monospace") and
#: the fonts that stand for them or for monospace on Linux, macOS and Windows.
COVERING_FAMILIES = (
    "Roboto Mono",
    "Monaco",
    "Menlo",
    "Courier New",
    "Consolas",
    "Liberation Mono",
    "DejaVu Sans Mono",
    "Noto Sans Mono",
)

#: The generic families, each the computer's first font (fontconfig's aliases).
GENERIC_FAMILIES = ("monospace", "sans-serif", "serif", "system-ui")

#: The plain computer's one font: the terminal's, as textual-serve ships it.
ROBOTO_MONO = (
    Path(textual_serve.__file__).parent / "static" / "fonts" / "RobotoMono-VariableFont_wght.ttf"
)


def fonts(computer: str, folder: Path, symbols: str) -> dict[str, str]:
    """Write ``computer``'s fonts and fontconfig in ``folder``; the environment to start with.

    ``symbols``: the characters the covering computer's fonts draw (as boxes).
    """
    if computer not in COMPUTERS:
        raise ValueError(f"no such computer: {computer!r} (one of {', '.join(COMPUTERS)})")
    folder.mkdir(parents=True, exist_ok=True)
    if computer == "plain":
        (folder / ROBOTO_MONO.name).write_bytes(ROBOTO_MONO.read_bytes())
        default = "Roboto Mono"
    else:
        for family in COVERING_FAMILIES:
            _box_font(folder / (family.replace(" ", "") + ".ttf"), family, symbols)
        default = "Liberation Mono"
    aliases = "".join(
        f"  <alias><family>{generic}</family><prefer><family>{default}</family></prefer></alias>\n"
        for generic in GENERIC_FAMILIES
    )
    config = folder / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?>\n'
        '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        "<fontconfig>\n"
        f"  <dir>{escape(str(folder))}</dir>\n"
        f"  <cachedir>{escape(str(folder / 'cache'))}</cachedir>\n"
        f"{aliases}"
        "</fontconfig>\n",
        "utf-8",
    )
    return {"FONTCONFIG_FILE": str(config)}


def _box_font(path: Path, family: str, symbols: str) -> None:
    """A monospaced TrueType font named ``family`` whose every glyph is the same full box."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = {ord(ch): f"uni{ord(ch):04X}" for ch in symbols}
    order = [".notdef", *names.values()]
    box = TTGlyphPen(None)
    box.moveTo((50, -200))
    box.lineTo((50, 800))
    box.lineTo((550, 800))
    box.lineTo((550, -200))
    box.closePath()
    glyph = box.glyph()
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap(names)
    builder.setupGlyf(
        {name: glyph if name != ".notdef" else TTGlyphPen(None).glyph() for name in order}
    )
    builder.setupHorizontalMetrics({name: (600, 50) for name in order})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost(isFixedPitch=1)
    builder.save(path)
