"""Table codes: four letters that are easy to read aloud and to type."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

#: Consonants only, so no code spells a word, and none that sound alike in English
#: (no C/K/Q, no G/J, no V/B, no S/Z, no M/N pairs kept both).
ALPHABET = "BDFHKLMPRTWXZ"
LENGTH = 4


async def new_code(claim: Callable[[str], Awaitable[bool]]) -> str:
    """A fresh code (``secrets``, so codes cannot be predicted), taken with ``claim``.

    ``claim(code)`` takes the code if it is free and says whether it did: the
    code is the caller's from then on, however many tables are created at once.
    """
    length = LENGTH
    while True:
        for _ in range(100):
            code = "".join(secrets.choice(ALPHABET) for _ in range(length))
            if await claim(code):
                return code
        length += 1  # the four-letter codes are nearly all in use


def normal_code(text: str) -> str:
    """A code as typed ("kxqd", "KX-QD ") in the form tables are found by."""
    return "".join(c for c in text.upper() if c.isalnum())
