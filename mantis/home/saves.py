"""The game in progress, saved after every action so it can be resumed.

A save is one game record (``docs/game-record.md``) with ``"result":
null``, plus ``"saved_at"`` and an optional ``"app"`` object for whatever the
app wants back on resume.  Record readers ignore fields they do not know, so
a save is also a valid one-line record file.

Writes are atomic (temp file in the same directory, fsync, rename), so a
crash or ``kill -9`` mid-write leaves the previous save.  A save that cannot
be read is never deleted: it is moved aside next to the save, under a name
that does not overwrite an earlier one, and the load says where it went.
Loading also clears the temp files a writer killed mid-save left behind.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import msgspec

from ..base.atomic import remove_stale_temp_files, write_text_atomic
from ..base.paths import data_dir
from ..engine.seats import RecordError

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.record import GameRecord

SAVE_NAME = "current-game.json"


def default_save_path() -> Path:
    """Where the game in progress is saved: ``current-game.json`` in the data directory."""
    return data_dir() / SAVE_NAME


class LoadedSave(msgspec.Struct, frozen=True):
    """A save that was read and checked: the game so far and what came with it."""

    record: GameRecord
    """The unfinished game: deal, actions so far and seats."""
    path: Path
    saved_at: datetime | None = None
    """When it was written (UTC), if the save says."""
    app: Mapping[str, Any] = msgspec.field(default_factory=lambda: MappingProxyType({}))
    """The ``app`` object given to ``save_game`` (read-only)."""

    def resume(self) -> Game:
        """The game at the saved position, ready for the next action."""
        return self.record.replay()


def save_game(
    record: GameRecord,
    path: str | os.PathLike[str] | None = None,
    *,
    app: Mapping[str, Any] | None = None,
    saved_at: datetime | None = None,
) -> None:
    """Save an unfinished game atomically (default: the user's save file).

    ``app`` is any JSON-serialisable mapping to get back from ``load_save``.
    ``ValueError`` for a finished game: there is nothing to resume (see
    ``autosave``).  ``OSError`` if the file cannot be written.
    """
    if record.result is not None:
        raise ValueError("a finished game is not saved: clear the save instead")
    target = Path(path) if path is not None else default_save_path()
    when = (saved_at or datetime.now(UTC)).astimezone(UTC)
    data = json.loads(record.to_json())
    data["saved_at"] = when.isoformat(timespec="seconds").replace("+00:00", "Z")
    if app is not None:
        data["app"] = dict(app)
    write_text_atomic(target, json.dumps(data, separators=(",", ":")) + "\n")
    _sync_directory(target.parent)


def autosave(record: GameRecord, path: str | os.PathLike[str] | None = None) -> None:
    """What the app calls after every action: save an unfinished game, clear a finished one."""
    if record.result is None:
        save_game(record, path)
    else:
        clear_save(path)


def clear_save(path: str | os.PathLike[str] | None = None) -> None:
    """Forget the save (a game ended, or the player chose a new one); no save is fine."""
    target = Path(path) if path is not None else default_save_path()
    target.unlink(missing_ok=True)


def load_save(
    path: str | os.PathLike[str] | None = None,
) -> tuple[LoadedSave | None, str | None]:
    """The saved game, if any, and a one-line warning, if any.

    ``(None, None)``: no save.  ``(save, None)``: resume ``save``.  ``(None,
    warning)``: the save could not be used (unreadable, not UTF-8, not a
    valid record, or already finished); it was moved aside and the warning
    says where.  The caller then starts a new game.
    """
    target = Path(path) if path is not None else default_save_path()
    remove_stale_temp_files(target.parent)  # left by a writer killed mid-save
    try:
        raw = target.read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, move_aside(target, f"cannot be read ({exc.strerror})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None, move_aside(target, "is not UTF-8 text")
    # The record format (and the rules it replays through) loads only for a save to read:
    # every plain launch looks for one before its first frame.
    from ..engine.record import parse_record

    try:
        record = parse_record(text)
    except RecordError as exc:
        return None, move_aside(target, f"is damaged ({exc})")
    if record.result is not None:
        return None, move_aside(target, "holds a game that is already over")
    extras = json.loads(text)  # parse_record accepted it, so it is a JSON object
    app = extras.get("app")
    return (
        LoadedSave(
            record=record,
            path=target,
            saved_at=_parse_time(extras.get("saved_at")),
            app=MappingProxyType(dict(app) if isinstance(app, dict) else {}),
        ),
        None,
    )


def _parse_time(value: Any) -> datetime | None:
    """``saved_at`` is informational: a missing or odd value is ignored, not an error."""
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def move_aside(
    target: Path,
    problem: str,
    *,
    what: str = "The saved game",
    instead: str = "starting a new game",
) -> str:
    """Move an unusable file out of the way, never overwriting; the warning for the user.

    ``what`` names the file in the warning, ``instead`` says what happens
    if it cannot even be moved.
    """
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    n = 1
    while True:
        suffix = "" if n == 1 else f"-{n}"
        aside = target.with_name(f"{target.stem}.corrupt-{stamp}{suffix}{target.suffix}")
        try:
            _rename_no_clobber(target, aside)
        except FileExistsError:
            n += 1
            continue
        except OSError as exc:
            return (
                f"{what} {target} {problem} and could not be moved aside "
                f"({exc.strerror}); {instead}."
            )
        return f"{what} {problem}; it was moved to {aside}."


def _rename_no_clobber(source: Path, destination: Path) -> None:
    """Rename, raising ``FileExistsError`` rather than replacing ``destination``.

    ``os.rename`` silently replaces on POSIX; a hard link fails if the name
    is taken, atomically.  Where links are not supported, check then rename.
    """
    try:
        os.link(source, destination)
    except FileExistsError:
        raise
    except (OSError, NotImplementedError):
        if destination.exists():
            raise FileExistsError(destination) from None
        os.rename(source, destination)
        return
    source.unlink()


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable: without this a power cut can undo it (POSIX)."""
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:  # some filesystems refuse fsync on directories; the data is safe anyway
        pass
    finally:
        os.close(fd)
