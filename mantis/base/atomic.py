"""Writing a file atomically: readers see the old file or the new one, never half of one.

Every file the app writes (settings, saves, seat tokens, game records) goes
through here: the text goes to a temp file in the same directory, is synced
to disk, then renamed over the target in one step.

A new file gets the mode the user's umask gives (as ``open(path, "w")``
would), a file being replaced keeps its mode, and a path that is a symbolic
link is written through: its target gets the text and the link stays.

A writer killed between creating its temp file and the rename leaves the
temp file behind; ``remove_stale_temp_files`` clears those once they are
older than any live writer's could be.
"""

from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

STALE_AFTER = 3600.0
"""Seconds after its last change that a temp file is taken for a dead writer's.

A live writer changes its temp file from creation to rename within the time
it takes to write and sync one file: milliseconds for a save, seconds for
a record file of many thousands of games on a slow disk.  An hour is far
beyond that, and beyond the clock skew of a network file system, so
nothing a running Mantis is still writing is ever removed.
"""

#: ``.{name}.{8 letters}.tmp``: this writer's temp names, and ``tempfile.mkstemp``'s before it.
_TEMP_NAME = re.compile(r"\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.tmp")
_PRIVATE = 0o600
_ATTEMPTS = 100


def write_text_atomic(path: str | os.PathLike[str], text: str, *, private: bool = False) -> None:
    """Write ``text`` to ``path`` so that readers see the old or the new file, never half.

    ``private`` files (secrets such as seat tokens) are readable by their
    owner only, whatever the umask.  ``OSError`` if it cannot be written;
    the old file is then left as it was.
    """
    target = Path(os.path.realpath(path))  # through any links: the link stays a link
    target.parent.mkdir(parents=True, exist_ok=True)
    keep = _PRIVATE if private else _mode_of(target)
    fd, tmp = _create_temp(target, _PRIVATE if private else 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            if keep is not None and hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), keep)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    remove_stale_temp_files(target.parent, name=target.name)


def remove_stale_temp_files(
    directory: str | os.PathLike[str], *, name: str | None = None, older_than: float = STALE_AFTER
) -> int:
    """Remove the temp files dead writers left in ``directory``; how many were removed.

    Only regular files named as this module names its temp files (for target
    ``name`` only, if given) and unchanged for ``older_than`` seconds go.
    A file that cannot be removed is left for next time.
    """
    try:
        entries = list(os.scandir(directory))
    except OSError:  # no directory yet, or not ours to read: nothing to clean
        return 0
    cutoff = time.time() - older_than
    removed = 0
    for entry in entries:
        match = _TEMP_NAME.fullmatch(entry.name)
        if match is None or (name is not None and match["name"] != name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def _mode_of(target: Path) -> int | None:
    """The permission bits of the file being replaced; None for a new file."""
    try:
        info = target.stat()
    except OSError:
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def _create_temp(target: Path, mode: int) -> tuple[int, Path]:
    """A new temp file beside ``target``, created with ``mode`` less the umask (as ``open``)."""
    import secrets  # here: every launch reads its settings through this module, few write

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(_ATTEMPTS):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, flags, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temp file name beside {target}")
