"""How a seat's connection at an online table is said: on a board, in a waiting room, in lines.

The server reports each seat as ``here``, ``gone`` (dropped, not yet away),
``away`` (a bot plays for them), ``left`` (gone for good, a bot plays on),
``open`` (nobody sat down) or ``bot``; a
person's state is said with a mark and a word, which reads the same with
or without colour.
"""

from __future__ import annotations

WORDS = {"here": "online", "gone": "offline", "away": "away", "left": "left"}
"""A person's connection, in a word (what a line mode says)."""
MARKS = {"here": "●", "gone": "○", "away": "◌", "left": "✕"}
LABELS = {state: f"{MARKS[state]} {word}" for state, word in WORDS.items()}
"""A person's connection, in a mark and a word (what a board shows)."""
OPEN_SEAT = "waiting for someone to join"
"""An open seat, where the waiting room lists the seats."""


def presence_label(state: str) -> str:
    """A person's connection in a mark and a word ("" for a bot, an open seat, anything else)."""
    return LABELS.get(state, "")
