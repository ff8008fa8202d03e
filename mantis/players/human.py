"""A seat played by a person: the UI submits the action, ``choose`` waits for it."""

from __future__ import annotations

import queue

from ..engine import Action, View


class HumanPlayer:
    """A human seat.  ``submit`` (from the UI, any thread) answers ``choose``."""

    def __init__(self) -> None:
        self._actions: queue.Queue[Action] = queue.Queue()
        self.waiting_view: View | None = None

    def submit(self, action: Action) -> None:
        """Hand the seat's next action over from the UI."""
        self._actions.put(action)

    def choose(self, view: View) -> Action:
        self.waiting_view = view
        try:
            return self._actions.get()
        finally:
            self.waiting_view = None
