"""Seat names that are safe on anyone's screen.

A name typed by a person elsewhere ends up in every player's terminal: in
the log, on the seat's border, on a button.  Textual reads square brackets
as markup and a terminal obeys escape sequences, so a name keeps only
letters, digits, spaces and a little punctuation, and stays short.  And
every screen calls its own seat "You", so at an online table nobody may
sit down under that name.  The one home of these rules: the command line,
the setup screen, the lobby and the server all ask here.
"""

from __future__ import annotations

import unicodedata

MAX_NAME_LENGTH = 16
YOU = "You"
"""How every screen calls its own seat (and the name a lone person here plays under)."""
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


def is_you(name: str) -> bool:
    """Whether ``name`` reads as "You", the name no one may take at an online table."""
    return name.casefold() == YOU.casefold()


class NameRefused(ValueError):
    """A name nobody can sit down with at an online table; the message is one line."""


def name_to_sit_with(text: str) -> str:
    """``text`` cleaned into a name to sit down with online; ``NameRefused`` if it cannot be one."""
    name = clean_name(text)
    if not text.strip():
        raise NameRefused("type a name: it is how the others will see you")
    if not name:
        raise NameRefused(f"{text!r} has no letters or digits left to show")
    if is_you(name):
        raise NameRefused(f"{YOU!r} is how every player's screen says their own seat: pick a name")
    return name
