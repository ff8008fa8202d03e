"""Save slots: every app open at once keeps its game in progress in a file of its own.

One person may have several Mantis apps open at once (terminals, browser
tabs of ``mantis web``).  Each app that plays a local game holds a *slot*:
``current-game.json`` (slot 1, the file a single app always used) or
``current-game-N.json``.  Holding a slot is an exclusive lock on a small
file next to the save, taken without waiting and released when the app
ends — even by ``kill -9``, since the system drops a dead process's locks —
so two apps never write the same save, and an app only offers to resume a
game that no other app is playing.
"""

from __future__ import annotations

import itertools
import os
import re
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path

from ..base.file_lock import try_lock
from ..base.paths import data_dir
from .saves import SAVE_NAME, LoadedSave, load_save

_SLOT_FILE = re.compile(r"current-game(?:-([0-9]+))?\.json")


def slot_path(number: int, directory: Path | None = None) -> Path:
    """The save file of slot ``number`` (from 1): ``current-game.json``, ``current-game-2.json``…"""
    if number < 1:
        raise ValueError(f"save slots are numbered from 1, not {number}")
    folder = directory if directory is not None else data_dir()
    return folder / (SAVE_NAME if number == 1 else f"current-game-{number}.json")


def slot_of(path: Path) -> int | None:
    """The slot a save file belongs to, or None if it is not a slot's file."""
    match = _SLOT_FILE.fullmatch(path.name)
    if match is None:
        return None
    return int(match.group(1) or 1)


class SaveSlot:
    """A slot this app holds: its save file is this app's alone until ``release``."""

    def __init__(self, number: int, path: Path, fd: int | None) -> None:
        self.number = number
        self.path = path
        """Where this app's game in progress is saved."""
        self._fd = fd
        self._writes: ThreadPoolExecutor | None = None

    @property
    def held(self) -> bool:
        """False once released (or if the lock could not even be tried: see ``claim_slot``)."""
        return self._fd is not None

    @property
    def writes(self) -> Executor:
        """Where this slot's file is written, one write at a time, off the event loop.

        ``release`` waits for the writes handed over here, so a save begun
        as the app closes is on disk before another app may take the slot.
        """
        if self._writes is None:
            self._writes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="save-slot")
        return self._writes

    def release(self) -> None:
        """Let another app have this slot (and resume the game saved in it)."""
        writes, self._writes = self._writes, None
        if writes is not None:
            writes.shutdown(wait=True)
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the file drops its lock


def claim_slot(number: int | None = None, directory: Path | None = None) -> SaveSlot | None:
    """Hold slot ``number``, or the lowest slot no other app holds when ``number`` is None.

    None if ``number`` is held by another app.  If locks cannot be taken at
    all (the data directory cannot be written), slot 1 is returned unheld:
    saving there will fail the same way, and the table says so.
    """
    folder = directory if directory is not None else data_dir()
    candidates = [number] if number is not None else itertools.count(1)
    for candidate in candidates:
        path = slot_path(candidate, folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return SaveSlot(candidate if number is not None else 1, path, None)
        if try_lock(fd):
            return SaveSlot(candidate, path, fd)
        os.close(fd)
    return None


def is_held(number: int, directory: Path | None = None) -> bool:
    """Whether another app holds slot ``number`` right now."""
    slot = claim_slot(number, directory)
    if slot is None:
        return True
    slot.release()
    return False


def saved_games(
    directory: Path | None = None, *, mine: SaveSlot | None = None
) -> tuple[list[LoadedSave], list[str]]:
    """The unfinished games no other app is playing, by slot, and one-line warnings.

    ``mine`` is this app's own slot (its save is listed too).  A save that
    cannot be used is moved aside (``load_save``) and its warning returned.
    """
    folder = directory if directory is not None else data_dir()
    try:
        files = [p for p in folder.iterdir() if slot_of(p) is not None]
    except OSError:
        return [], []
    saves: list[LoadedSave] = []
    warnings: list[str] = []
    for path in sorted(files, key=lambda p: slot_of(p) or 0):
        number = slot_of(path)
        assert number is not None
        if not (mine is not None and mine.number == number) and is_held(number, folder):
            continue
        save, warning = load_save(path)
        if warning is not None:
            warnings.append(warning)
        elif save is not None:
            saves.append(save)
    return saves, warnings
