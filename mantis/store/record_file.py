"""Files of game records (JSON lines, ``shared/game-record.md``) on disk."""

from __future__ import annotations

import os
from collections.abc import Iterable

from ..engine.record import GameRecord
from .atomic import write_text_atomic


def write_records(path: str | os.PathLike[str], records: Iterable[GameRecord]) -> None:
    """Write records as JSON lines, atomically."""
    write_text_atomic(path, "".join(r.to_json() + "\n" for r in records))
