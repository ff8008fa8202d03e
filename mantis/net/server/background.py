"""Tasks a server runs in the background, cancelled when it stops."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


class Background:
    """The tasks a server set going and holds (each forgotten once done)."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` in the background (cancelled with the rest by ``cancel``)."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def cancel(self) -> None:
        """The server is stopping: every task still running is cancelled."""
        for task in list(self.tasks):
            task.cancel()
