"""The table: one game and its seats run to the end, and the public stream it tells.

``driver.Table`` runs a game with its players and publishes the public
stream (``messages``); ``position.PublicPosition`` folds a stream back into the
position anyone may know; ``history`` rebuilds a recorded game's stream;
``keeper`` is where a table keeps its game.  Nothing here imports the UI.
"""

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
