"""Files of game records (JSON lines, ``docs/game-record.md``) on disk.

Each non-blank line is one game.  Finding game N reads the file only up to
that line and checks only that game: a file of thousands of games opens on
any of them at once, and a bad line elsewhere does not hide the others.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from ..base.atomic import write_text_atomic
from ..engine.record import GameRecord, iter_records, parse_record
from ..engine.seats import RecordError


class GameNotInFile(LookupError):
    """A record file holds fewer games than the one asked for; ``count`` says how many."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


def records_text(records: Iterable[GameRecord]) -> str:
    """Records as a file of them holds them: one JSON line each."""
    return "".join(r.to_json() + "\n" for r in records)


def write_records(path: str | os.PathLike[str], records: Iterable[GameRecord]) -> None:
    """Write records as JSON lines, atomically."""
    write_text_atomic(path, records_text(records))


def read_records(path: str | os.PathLike[str]) -> list[GameRecord]:
    """Every record in a file; ``RecordError`` for a bad line or an unreadable file."""
    try:
        with open(path, encoding="utf-8") as handle:
            return list(iter_records(handle))
    except OSError as exc:
        raise RecordError(f"cannot read {os.fspath(path)}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{os.fspath(path)} is not UTF-8 text") from None


def game_in_file(path: str | os.PathLike[str], number: int) -> GameRecord:
    """Game ``number`` (from 1: the file's ``number``-th non-blank line), checked.

    The lines before it are counted, never parsed, and nothing after it is
    read.  ``RecordError`` names the line if that game's line is bad, or
    says the file cannot be read; ``GameNotInFile`` if there are fewer games.
    """
    if number < 1:
        raise ValueError(f"games are numbered from 1, not {number}")
    games = 0
    try:
        # Bytes, not text: a line that is not UTF-8 matters only if it is the one asked for.
        with open(path, "rb") as handle:
            for line_number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                games += 1
                if games == number:
                    return _parse_line(line, line_number)
    except OSError as exc:
        raise RecordError(f"cannot read {os.fspath(path)}: {exc.strerror}") from None
    raise GameNotInFile(games)


def _parse_line(line: bytes, line_number: int) -> GameRecord:
    try:
        return parse_record(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise RecordError(f"line {line_number}: not UTF-8 text") from None
    except RecordError as exc:
        raise RecordError(f"line {line_number}: {exc}") from None


class RecordFileError(ValueError):
    """A file or game number that ``mantis replay`` cannot open: one line for the user."""


def game_for_command(path: str, number: int) -> GameRecord:
    """Game ``number`` of the file at ``path``, for a command; ``RecordFileError`` with one
    line saying why not (no such file, a bad line, fewer games)."""
    if not os.path.exists(path):
        raise RecordFileError(f"no such file: {path}")
    try:
        return game_in_file(path, number)
    except RecordError as exc:
        raise RecordFileError(f"{path}: {exc}") from None
    except GameNotInFile as exc:
        if exc.count == 0:
            raise RecordFileError(f"{path} holds no games") from None
        count = f"{exc.count} game{'' if exc.count == 1 else 's'}"
        raise RecordFileError(f"--game {number} is out of range: {path} holds {count}") from None
