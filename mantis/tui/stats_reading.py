"""Reading the statistics database off the UI thread, waiting out another program's lock.

The statistics and past-games screens read SQLite in a thread worker, so a
database that another program holds locked never freezes the app: the read
is tried again (each try waits out SQLite's own lock timeout) for as long as
the screen is open, and the screen is told once that it is waiting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from textual.dom import DOMNode
from textual.message import Message
from textual.worker import get_current_worker

from ..home.stats import StatsError, StatsLockedError

T = TypeVar("T")

BUSY_NOTE = "The statistics database is in use by another program: waiting for it (Esc closes)."
"""What a screen shows while ``read_patiently`` waits for the lock."""


class StatsBusy(Message):
    """The statistics database is locked by another program; the read goes on."""


def read_patiently(node: DOMNode, read: Callable[[], T]) -> T | StatsError | None:
    """``read()`` from a thread worker, tried again while the database is locked.

    ``node`` (the screen) gets one ``StatsBusy`` message when the first try
    finds the database locked.  Any other ``StatsError`` is returned, for
    the screen to show; None if the worker is cancelled (the screen closed)
    before a read got through.
    """
    worker = get_current_worker()
    told = False
    while not worker.is_cancelled:
        try:
            return read()
        except StatsLockedError:
            if not told:
                told = True
                node.post_message(StatsBusy())  # thread-safe
        except StatsError as exc:
            return exc
    return None
