"""What a person types at the line mode's prompt, read into a ``Command``.

A command is a word (some also have a one-letter form: ``ALIASES``), and
Enter; a seat's number steals from that seat.  Whether a command makes
sense now (a move when it is not your turn, ``leave`` at a local table) is
for whoever follows the table to say: here a line only becomes a command,
or ``unknown``.
"""

from __future__ import annotations

from dataclasses import dataclass

WORDS = (
    "score",
    "steal",
    "look",
    "scores",
    "odds",
    "more",
    "coach",
    "log",
    "last",
    "talk",
    "ping",
    "who",
    "leave",
    "back",
    "clock",
    "start",
    "bot",
    "open",
    "remove",
    "pause",
    "next",
    "speed",
    "brief",
    "bell",
    "yes",
    "no",
    "again",
    "rematch",
    "review",
    "replay",
    "new",
    "help",
    "quit",
)
"""Every command, by its full word."""

ALIASES = {
    "s": "score",
    "l": "look",
    "o": "odds",
    "m": "more",
    "options": "more",
    "c": "coach",
    "t": "talk",
    "say": "talk",
    "b": "back",
    "p": "pause",
    "n": "next",
    "y": "yes",
    "d": "no",
    "decline": "no",
    "a": "again",
    "accept": "again",
    "r": "rematch",
    "e": "review",
    "v": "replay",
    "h": "help",
    "?": "help",
    "q": "quit",
    "exit": "quit",
}
"""Short forms: a letter, or another word people use (help names each letter)."""


@dataclass(frozen=True, slots=True)
class Command:
    """One typed line: its command word (``unknown`` if none, ``repeat`` for an empty
    line), the rest of the line, and for a steal the seat named (from 0)."""

    word: str
    rest: str = ""
    seat: int | None = None


def read_command(line: str) -> Command:
    """The command ``line`` asks for."""
    text = line.strip()
    if not text:
        return Command("repeat")
    head, _, rest = text.partition(" ")
    rest = rest.strip()
    word = head.casefold()
    if word.isdigit():
        return Command("steal", rest, int(word) - 1)
    word = ALIASES.get(word, word)
    if word == "steal":
        seat = rest.split(" ", 1)[0] if rest else ""
        return Command("steal", rest, int(seat) - 1 if seat.isdigit() else None)
    if word not in WORDS:
        return Command("unknown", text)
    return Command(word, rest)
