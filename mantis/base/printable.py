"""Outside text made safe to show: nothing in it is obeyed by a terminal.

Names a record or a server gives, a record file's contents, a server's
words, a file's path: a terminal obeys the escape sequences such text may
carry (move the cursor, retitle the window, clear or reset the screen), and
a bidirectional override reorders what follows it.  One rule for every
place that shows text, the command line's reports, the line mode and the
app alike (``printable``): each control character is shown as its visible
picture (ESC as ␛), C1 controls as �, bidirectional controls are dropped,
and a line break stays one only where lines are wanted.  Everything the
command line prints goes out through ``echo``.

It lives in ``mantis.base``, below every layer that shows text: the stores, the
review, the servers' command lines, the line mode and the app all use it.
"""

from __future__ import annotations

import sys
from typing import TextIO

#: Characters that reorder the text around them in a terminal that does bidi.
_BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_SHOWN = {
    **{c: chr(0x2400 + c) for c in range(0x20)},  # C0 controls: ␀ … ␛ … ␟
    0x7F: "\u2421",  # ␡
    **{c: "\ufffd" for c in range(0x80, 0xA0)},  # C1 controls
    **{ord(c): None for c in _BIDI_CONTROLS},
    0x2028: " ",  # line and paragraph separators
    0x2029: " ",
    0x09: " ",
}
_SHOWN_LINES = {**_SHOWN, 0x0A: "\n"}


def printable(text: object, *, lines: bool = False) -> str:
    """``text`` with nothing a terminal would obey: every control character shown as a picture.

    ``lines``: keep line breaks (elsewhere a newline shows as ␊, so outside
    text cannot add lines of its own to a one-line place).
    """
    return str(text).translate(_SHOWN_LINES if lines else _SHOWN)


def echo(
    text: object = "",
    *,
    file: TextIO | None = None,
    lines: bool = True,
    end: str = "\n",
    flush: bool = False,
) -> None:
    """Print ``text`` (to ``file``, standard output by default) through ``printable``.

    ``lines=False`` for a line that must stay one (an error: its outside
    parts may hold line breaks of their own).
    """
    print(
        printable(text, lines=lines),
        file=file if file is not None else sys.stdout,
        end=end,
        flush=flush,
    )
