"""A seat played by a person: the UI submits the action, the table waits for it."""

from __future__ import annotations

import asyncio
import queue
import threading

from ..engine import Action, View


class HumanPlayer:
    """A person's seat.  ``submit`` (from the UI, any thread) answers the table.

    The table awaits ``choose_async``, which holds no thread while the person
    thinks; ``choose`` is the same wait for a caller that runs seats in
    threads of its own.  An action submitted before the table asks is kept
    for the next question.
    """

    def __init__(self) -> None:
        self._actions: queue.SimpleQueue[Action] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future[Action]] | None = None
        self.waiting_view: View | None = None
        """The view the person is being asked about, while the table waits."""

    def submit(self, action: Action) -> None:
        """Hand the seat's next action over."""
        with self._lock:
            waiter, self._waiter = self._waiter, None
        if waiter is None:
            self._actions.put(action)
            return
        loop, future = waiter

        def settle() -> None:
            if not future.done():
                future.set_result(action)
            else:  # the table stopped waiting: keep the action for the next question
                self._actions.put(action)

        loop.call_soon_threadsafe(settle)

    async def choose_async(self, view: View) -> Action:
        """Wait, on the caller's event loop, for the person's action."""
        try:
            return self._actions.get_nowait()
        except queue.Empty:
            pass
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Action] = loop.create_future()
        with self._lock:
            self._waiter = (loop, future)
        self.waiting_view = view
        try:
            return await future
        finally:
            self.waiting_view = None
            with self._lock:
                if self._waiter is not None and self._waiter[1] is future:
                    self._waiter = None

    def choose(self, view: View) -> Action:
        """Block this thread until the person's action arrives."""
        self.waiting_view = view
        try:
            return self._actions.get()
        finally:
            self.waiting_view = None
