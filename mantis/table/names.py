"""Seat names, and lines said at a table, that are safe on anyone's screen.

A name typed by a person elsewhere ends up in every player's terminal: in
the log, on the seat's border, on a button.  Textual reads square brackets
as markup and a terminal obeys escape sequences, so a name keeps only
letters, digits, spaces and a little punctuation, and stays short.  Letters
that show as nothing (the Hangul fillers, and every other Unicode
default-ignorable code point) are dropped too.  A line of table talk is
cleaned the same way, with the rest of punctuation and symbols kept (a
person says "gg!" or "2 more :)"), never markup's brackets and backslash,
nor anything that is not printed (controls, escapes, format characters).

Two names are the same person's when they *look* alike, not only when they
are spelt alike: ``Аda`` with a Cyrillic А is the bot ``Ada``, and ``Yоu``
with a Cyrillic о is "You".  Names are compared by their skeleton (Unicode
Technical Standard #39), in any case, with Unicode's own confusables data
(``confusables.txt`` beside this module, made by ``tools/make_confusables.py``;
its header says which Unicode version).  Case and look-alikes meet in
capitals: ``I`` looks like ``l`` though ``i`` does not, so ``AIice`` is
``Alice`` only once both are written ``ALICE``; a server holds a name by two
keys (``NameKeys``), its skeleton in lower case and in capitals, and two
names clash when either key is the same.

The one home of a seat name's rules (the length, the cleaning, the reserved
"You", looking alike): the command line, the setup screen, the lobby and
the server all ask here.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

MAX_NAME_LENGTH = 16
MAX_LINE_LENGTH = 200
#: How every screen calls its own seat: nobody else may look like it.
YOU = "You"
_PUNCTUATION = frozenset(" -_.'")
_MARKUP = frozenset("[]\\")
"""Characters Textual's markup (and Rich's) reads: never in a line from elsewhere."""
_PRINTED = frozenset("LMNPS")
"""Unicode's classes of characters a line keeps: letters, marks, numbers, punctuation,
symbols (and spaces, as single spaces)."""
MAX_MARKS = 3
"""Combining marks a line keeps on one letter: enough for any script's stacked
diacritics, too few to pile a letter's marks over the lines above and below."""
_STACKED = frozenset(("Mn", "Me"))
"""The marks that stack on their letter (a spacing mark takes room of its own)."""
_BLANK = frozenset("\u2800\U0001d159\u3164\uffa0\u115f\u1160\U00016fe4")
"""Printed characters that show as an empty cell, though no class says so: the blank
Braille pattern, the null note head, the Hangul and Khitan fillers."""
_DATA = Path(__file__).with_name("confusables.txt")


@cache
def _data() -> tuple[dict[int, str], frozenset[int]]:
    """Each confusable code point's prototype, and the code points that show as nothing."""
    prototypes: dict[int, str] = {}
    blank: set[int] = set()
    for line in _DATA.read_text(encoding="utf-8").splitlines():
        kind, _, rest = line.partition(" ")
        points = [int(p, 16) for p in rest.split()] if kind in ("I", "C") else []
        if kind == "I":
            blank.update(range(points[0], points[1] + 1))
        elif kind == "C":
            prototypes[points[0]] = "".join(map(chr, points[1:]))
    return prototypes, frozenset(blank)


def shows_as_nothing(char: str) -> bool:
    """Whether ``char`` is a default-ignorable code point (drawn as nothing at all)."""
    # No ASCII character is one (the first is U+00AD), and a plain name is read
    # before the table's first frame: it need not wait for the data file.
    return not char.isascii() and ord(char) in _data()[1]


def clean_name(text: str) -> str:
    """``text`` as a seat name: letters, digits, spaces and ``-_.'`` only, at most 16.

    Anything else (markup, control characters, escape sequences, characters
    that show as nothing) is dropped, runs of spaces become one, and the ends
    are trimmed.  It may come back empty: the caller decides what an empty
    name becomes.
    """
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(
        c
        for c in text
        if (c in _PUNCTUATION or unicodedata.category(c)[0] in ("L", "N"))
        and not shows_as_nothing(c)
    )
    return " ".join(kept.split())[:MAX_NAME_LENGTH].strip()


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: equal skeletons look alike.

    NFD, default-ignorable code points removed, each code point replaced by
    its prototype, NFD again.
    """
    prototypes, blank = _data()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(prototypes.get(ord(c), c) for c in decomposed if ord(c) not in blank)
    return unicodedata.normalize("NFD", mapped)


def _capitals(name: str) -> str:
    """The skeleton of ``name`` in capitals, in lower case: ``AIice`` and ``alice`` are both
    ``allce`` (capital I looks like l), as ``0lga`` and ``Olga`` are ``olga``."""
    return skeleton(name.casefold().upper()).casefold()


def _looks(name: str) -> frozenset[str]:
    # As written, in lower case and in capitals: "Ann" is "ann", "Ian" is "lan" (I looks
    # like l), and "ian" is "lan" too (it is "Ian" in another case).
    return frozenset((skeleton(name), skeleton(name.casefold()), _capitals(name)))


def look_alike(name: str, other: str) -> bool:
    """Whether two names would pass for one another on screen (in any case)."""
    return not _looks(name).isdisjoint(_looks(other))


def name_key(name: str) -> str:
    """One string per name as a server holds it for a player key: the skeleton of the
    cleaned name in lower case, so "Ann", "ANN" and "Аnn" (a Cyrillic А) are one name."""
    return skeleton(clean_name(name).casefold())


@dataclass(frozen=True, slots=True)
class NameKeys:
    """The two keys a server holds a name by: two names clash when either is the same.

    ``low`` is ``name_key`` (the skeleton in lower case: ``Аnn`` is ``ann``, ``rn`` is
    ``m``); ``capitals`` the skeleton in capitals, in lower case (``AIice`` is ``Alice``,
    ``lan`` is ``Ian``, ``BiII`` is ``Bill``, ``0lga`` is ``Olga``).  Each is the same
    for a name in any case.
    """

    low: str
    capitals: str

    @classmethod
    def of(cls, name: str) -> NameKeys:
        cleaned = clean_name(name)
        return cls(skeleton(cleaned.casefold()), _capitals(cleaned))

    def clash(self, other: NameKeys) -> bool:
        """Whether a server takes the two names for one."""
        return self.low == other.low or self.capitals == other.capitals


def capitals_key(name: str) -> str:
    """A stored name's second key (``NameKeys.capitals``), from the name as spelt."""
    return NameKeys.of(name).capitals


def looks_like_you(name: str) -> bool:
    """Whether ``name`` would pass for "You", how every screen calls its own seat."""
    return look_alike(name, YOU)


def unique_name(name: str, others: Iterable[str], fallback: str) -> str:
    """``name`` (``fallback`` if empty or looking like "You") made to look like none of ``others``.

    A number is added ("Ann 2", "Ann 3"…), the name cut to keep it within 16.
    """
    base = name or fallback
    if looks_like_you(base):
        base = fallback
    taken = frozenset().union(*(_looks(other) for other in others if other))
    candidate, n = base, 2
    while not _looks(candidate).isdisjoint(taken):
        # Cut to fit 16 with the number, never leaving two spaces where the cut fell.
        candidate = f"{base[: MAX_NAME_LENGTH - len(str(n)) - 1].rstrip()} {n}"
        n += 1
    return candidate


class NameRefused(ValueError):
    """A name nobody can sit down with at an online table; the message is one line."""


def name_to_sit_with(text: str) -> str:
    """``text`` cleaned into a name to sit down with online; ``NameRefused`` if it cannot be one."""
    name = clean_name(text)
    if not text.strip():
        raise NameRefused("type a name: it is how the others will see you")
    if not name:
        raise NameRefused(f"{text!r} has no letters or digits left to show")
    if looks_like_you(name):
        raise NameRefused(f"{YOU!r} is how every player's screen says their own seat: pick a name")
    return name


def clean_line(text: str, limit: int = MAX_LINE_LENGTH) -> str:
    """``text`` as a line of table talk: printed characters only, at most ``limit``.

    Control characters and escape sequences, format characters, characters
    that show as nothing or as an empty cell (the blank Braille pattern),
    and markup's brackets and backslash are dropped (the brackets and
    backslash leave a space); a letter keeps at most ``MAX_MARKS`` combining
    marks stacked on it; any run of white space (a newline, a tab) becomes
    one space; the ends are trimmed.  It may come back empty.
    """
    text = unicodedata.normalize("NFKC", text)
    kept: list[str] = []
    marks = 0
    for c in text:
        if c.isspace() or c in _MARKUP:
            kept.append(" ")
            marks = 0
            continue
        category = unicodedata.category(c)
        if category[0] not in _PRINTED or c in _BLANK or shows_as_nothing(c):
            continue
        if category in _STACKED:
            marks += 1
            if marks > MAX_MARKS or not kept or kept[-1] == " ":
                continue  # piled too high, or on nothing at all
        else:  # (a letter composed with its marks, like é, brings them along)
            marks = len(unicodedata.normalize("NFD", c)) - 1
        kept.append(c)
    return " ".join("".join(kept).split())[:limit].strip()
