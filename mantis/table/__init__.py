"""The table: one game and its seats run to the end, and the public stream it tells.

``driver.Table`` runs a game with its players and publishes the public
stream (``messages``); ``position.PublicPosition`` folds a stream back into the
position anyone may know; ``history`` rebuilds a recorded game's stream;
``keeper`` is where a table keeps its game; ``names`` are the rules of a
seat's name.  Nothing here imports the UI.

Its names are loaded when first used (``__getattr__``): the seat-name rules
(``names``) are read by screens that draw before any table exists, and
should not bring the driver with them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .driver import Table
    from .history import dealt, moves_of, opening_of, record_notices, seats_of, stream_of
    from .keeper import Keeper, KeepError, LocalKeeper
    from .messages import (
        STREAM_VERSION,
        Away,
        Back,
        Fault,
        KeepFailed,
        Left,
        Message,
        Notice,
        Opening,
        Recorded,
        StartFailed,
        StreamError,
        Talk,
        TimedOut,
        decode,
        encode,
    )
    from .position import PublicPosition

_HOMES = {
    "Table": "driver",
    "dealt": "history",
    "moves_of": "history",
    "opening_of": "history",
    "record_notices": "history",
    "seats_of": "history",
    "stream_of": "history",
    "Keeper": "keeper",
    "KeepError": "keeper",
    "LocalKeeper": "keeper",
    "STREAM_VERSION": "messages",
    "Away": "messages",
    "Back": "messages",
    "Fault": "messages",
    "KeepFailed": "messages",
    "Left": "messages",
    "Talk": "messages",
    "TimedOut": "messages",
    "Message": "messages",
    "Notice": "messages",
    "Opening": "messages",
    "Recorded": "messages",
    "StartFailed": "messages",
    "StreamError": "messages",
    "decode": "messages",
    "encode": "messages",
    "PublicPosition": "position",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "STREAM_VERSION",
    "Away",
    "Back",
    "Fault",
    "KeepError",
    "KeepFailed",
    "Keeper",
    "Left",
    "LocalKeeper",
    "Message",
    "Notice",
    "Opening",
    "PublicPosition",
    "Recorded",
    "StartFailed",
    "StreamError",
    "Table",
    "Talk",
    "TimedOut",
    "dealt",
    "decode",
    "encode",
    "moves_of",
    "opening_of",
    "record_notices",
    "seats_of",
    "stream_of",
]
