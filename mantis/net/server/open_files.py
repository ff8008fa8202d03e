"""The open-file limit: raised as far as allowed, and the connection cap set below it.

Every connection is a file descriptor.  A process starts with the soft
limit its shell gave it (often 1,024), and past it ``accept`` fails: new
clients time out, and asyncio logs a traceback for every failed accept.
So a server raises its soft limit to the hard one when it starts, and
caps its connections below what that allows, leaving room for what else
it opens (its database, its listening sockets, its bots' threads, the
sockets it closes at once for being over a limit).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...base.printable import echo

#: Descriptors kept for everything but connections.
RESERVE = 64
#: Sockets a server takes past its connection cap, to tell them ``server_full``
#: (and to close at once) rather than leave them to time out.
OVERFLOW = 16
#: The highest soft limit asked for when the hard one is unlimited.
CEILING = 1 << 20


@dataclass(frozen=True, slots=True)
class OpenFiles:
    """The open-file limit after raising it, and the connections it leaves room for."""

    soft: int
    hard: int | None
    """None: unlimited."""
    connections: int

    def line(self) -> str:
        """The one line a server says about it at start."""
        hard = "unlimited" if self.hard is None else f"{self.hard:,}"
        return (
            f"mantis: up to {self.connections:,} connections "
            f"(open files: {self.soft:,} allowed, hard limit {hard})"
        )


def fit_open_files(wanted: int) -> OpenFiles:
    """Raise the soft open-file limit to the hard one; the connection cap that fits in it."""
    try:
        import resource
    except ImportError:  # not on this platform (Windows): nothing to raise or read
        return OpenFiles(0, None, wanted)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = CEILING if hard == resource.RLIM_INFINITY else hard
    if soft == resource.RLIM_INFINITY or soft >= target:
        target = soft
    else:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            target = soft  # not allowed higher: work within what there is
    usable = CEILING if target == resource.RLIM_INFINITY else target
    room = max(1, usable - RESERVE - OVERFLOW)
    return OpenFiles(
        int(usable), None if hard == resource.RLIM_INFINITY else int(hard), min(wanted, room)
    )


def quiet_accept_errors(
    every: float = 60.0, clock: Callable[[], float] | None = None
) -> Callable[[Any, dict[str, Any]], None]:
    """An event-loop exception handler: a failed ``accept`` is one line a minute, no traceback.

    (Should the descriptors run out all the same, asyncio would otherwise log a
    traceback for each failed accept, many a second.)  Everything else goes to
    the loop's default handler.
    """
    import time

    now = clock or time.monotonic
    last = [-every]

    def handle(loop: Any, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        if not message.startswith("socket.accept() out of system resource"):
            loop.default_exception_handler(context)
            return
        if now() - last[0] >= every:
            last[0] = now()
            exc = context.get("exception")
            why = getattr(exc, "strerror", None) or str(exc)
            echo(f"mantis: warning: cannot accept connections: {why}", file=sys.stderr, lines=False)

    return handle
