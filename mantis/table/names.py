"""Seat names that are safe on anyone's screen.

A name typed by a person elsewhere ends up in every player's terminal: in
the log, on the seat's border, on a button.  Textual reads square brackets
as markup and a terminal obeys escape sequences, so a name keeps only
letters, digits, spaces and a little punctuation, and stays short.
"""

from __future__ import annotations

import unicodedata

MAX_NAME_LENGTH = 16
_PUNCTUATION = frozenset(" -_.'")


def clean_name(text: str) -> str:
    """``text`` as a seat name: letters, digits, spaces and ``-_.'`` only, at most 16.

    Anything else (markup, control characters, escape sequences) is dropped,
    runs of spaces become one, and the ends are trimmed.  It may come back
    empty: the caller decides what an empty name becomes.
    """
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(c for c in text if c in _PUNCTUATION or unicodedata.category(c)[0] in ("L", "N"))
    return " ".join(kept.split())[:MAX_NAME_LENGTH].strip()
