"""Table codes: letters that are easy to read aloud and to type.

A public table's code is four letters: it is listed for anyone to see, so
it only has to be short.  A private table is found by its code alone, so
its code is long enough that guessing finds nothing: twelve letters, shown
in three groups (``KXQD-MPRT-WZLH``).  docs/protocol.md works out the odds
against the guess limits.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

#: Consonants only, so no code spells a word, and none that sound alike in English
#: (no C/K/Q, no G/J, no V/B, no S/Z, no M/N pairs kept both).
ALPHABET = "BDFHKLMPRTWXZ"
LENGTH = 4
PRIVATE_LENGTH = 12
MAX_LENGTH = 16
"""The longest code a client asks for (a server lengthens codes only when nearly all
of a length are in use)."""
GROUP = 4
"""Letters shown together (a long code is shown in groups joined by dashes)."""


async def new_code(reserve: Callable[[str], Awaitable[bool]], *, private: bool = False) -> str:
    """A fresh code (``secrets``, so codes cannot be predicted), reserved with ``reserve``.

    ``reserve(code)`` takes the code if it is free and says whether it did: the
    code is the caller's from then on, however many tables are created at once.
    """
    length = PRIVATE_LENGTH if private else LENGTH
    while True:
        for _ in range(100):
            code = "".join(secrets.choice(ALPHABET) for _ in range(length))
            if await reserve(code):
                return code
        length += 1  # the four-letter codes are nearly all in use


def normal_code(text: str) -> str:
    """A code as typed ("kxqd", "KX-QD ") in the form tables are found by."""
    return "".join(c for c in text.upper() if c.isalnum())


def read_code(text: str) -> str | None:
    """``text`` as a table code (``normal_code``), or None if it cannot be one."""
    code = normal_code(text)
    return code if LENGTH <= len(code) <= MAX_LENGTH else None


def shown_code(code: str) -> str:
    """A code as people read it: a long one in groups of four (``KXQD-MPRT-WZLH``).

    Anything but letters and digits (from a server of another kind) is left as it is.
    """
    if len(code) <= LENGTH + 1 or not code.isalnum():
        return code
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))
