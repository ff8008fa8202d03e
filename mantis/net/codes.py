"""Table codes: four letters that are easy to read aloud and to type."""

from __future__ import annotations

import secrets
from collections.abc import Callable

#: Consonants only, so no code spells a word, and none that sound alike in English
#: (no C/K/Q, no G/J, no V/B, no S/Z, no M/N pairs kept both).
ALPHABET = "BDFHKLMPRTWXZ"
LENGTH = 4


def new_code(taken: Callable[[str], bool]) -> str:
    """A fresh code (``secrets``, so codes cannot be predicted) that ``taken`` says is free."""
    length = LENGTH
    while True:
        for _ in range(100):
            code = "".join(secrets.choice(ALPHABET) for _ in range(length))
            if not taken(code):
                return code
        length += 1  # the four-letter codes are nearly all in use


def normal_code(text: str) -> str:
    """A code as typed ("kxqd", "KX-QD ") in the form tables are found by."""
    return "".join(c for c in text.upper() if c.isalnum())
