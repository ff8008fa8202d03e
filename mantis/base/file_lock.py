"""Locks on files shared by several Mantis apps open at once (terminals, browser tabs).

The system drops a process's locks when it ends, even by ``kill -9``, so a
lock never outlives the app that took it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def try_lock(fd: int) -> bool:
        """Lock the open file ``fd`` for this process if no one else holds it; never wait."""
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _wait_for_lock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # retries for about 10 s, then OSError

else:
    import fcntl

    def try_lock(fd: int) -> bool:
        """Lock the open file ``fd`` for this process if no one else holds it; never wait."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _wait_for_lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)


@contextlib.contextmanager
def held(lock_file: Path) -> Iterator[None]:
    """Hold ``lock_file``'s lock for the block, waiting for any other app to let it go.

    For read-change-write of a small shared file: the other apps' changes are
    read, not overwritten.
    """
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        _wait_for_lock(fd)
        yield
    finally:
        os.close(fd)  # closing the file drops its lock
