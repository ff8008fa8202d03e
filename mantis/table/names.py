"""Seat names, and lines said at a table, that are safe on anyone's screen.

A name typed by a person elsewhere ends up in every player's terminal: in
the log, on the seat's border, on a button.  Textual reads square brackets
as markup and a terminal obeys escape sequences, so a name keeps only
letters, digits, spaces and a little punctuation, and stays short.  A line
of table talk is cleaned the same way, with the rest of punctuation and
symbols kept (a person says "gg!" or "2 more :)"), never markup's brackets
and backslash, nor anything that is not printed (controls, escapes, format
characters).
"""

from __future__ import annotations

import unicodedata

MAX_NAME_LENGTH = 16
MAX_LINE_LENGTH = 200
_PUNCTUATION = frozenset(" -_.'")
_MARKUP = frozenset("[]\\")
"""Characters Textual's markup (and Rich's) reads: never in a line from elsewhere."""
_PRINTED = frozenset("LMNPS")
"""Unicode's classes of characters a line keeps: letters, marks, numbers, punctuation,
symbols (and spaces, as single spaces)."""


def clean_name(text: str) -> str:
    """``text`` as a seat name: letters, digits, spaces and ``-_.'`` only, at most 16.

    Anything else (markup, control characters, escape sequences) is dropped,
    runs of spaces become one, and the ends are trimmed.  It may come back
    empty: the caller decides what an empty name becomes.
    """
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(c for c in text if c in _PUNCTUATION or unicodedata.category(c)[0] in ("L", "N"))
    return " ".join(kept.split())[:MAX_NAME_LENGTH].strip()


def clean_line(text: str, limit: int = MAX_LINE_LENGTH) -> str:
    """``text`` as a line of table talk: printed characters only, at most ``limit``.

    Control characters and escape sequences, format characters and markup's
    brackets and backslash are dropped; any run of white space (a newline,
    a tab) becomes one space; the ends are trimmed.  It may come back empty.
    """
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(
        c if unicodedata.category(c)[0] in _PRINTED and c not in _MARKUP else " "
        for c in text
        if c.isspace() or unicodedata.category(c)[0] in _PRINTED
    )
    return " ".join(kept.split())[:limit].strip()
