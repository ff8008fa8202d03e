"""What the app's controllers may ask of the app: the ``Shell`` they are handed.

The controllers (``LocalGames``, ``OnlinePlay``, ``Reviews``) are handed the
app as a ``Shell``: its screen stack, its workers, its notifications and
message queue, and the few things every
controller may ask for by name (the setup screen, a replay, a review, a new
game).  None of them imports the app, and none reaches another controller
through it: a review asked for after a game goes through ``open_review``.
``MantisApp`` is the one shell; a test may hand a controller another.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .plain import Notifies

if TYPE_CHECKING:
    from textual.message import Message
    from textual.screen import Screen
    from textual.worker import Worker

    from ..engine import GameRecord
    from ..review import GameReview


class Shell(Notifies, Protocol):
    """The app as its controllers see it (its ``notify`` too, as ``plain.notify`` uses it)."""

    # ------------------------------------------------------------ screens

    @property
    def screen(self) -> Screen[Any]:
        """The screen on top."""
        ...

    @property
    def screen_stack(self) -> Sequence[Screen[Any]]:
        """Every screen up, the one on top last."""
        ...

    def push_screen(
        self, screen: Screen[Any], callback: Callable[[Any], None] | None = None
    ) -> object:
        """Show ``screen`` over the others (``callback``: with its result, once dismissed)."""
        ...

    def switch_screen(self, screen: Screen[Any]) -> object:
        """Show ``screen`` in place of the one on top."""
        ...

    def pop_screen(self) -> object:
        """Close the screen on top."""
        ...

    # ------------------------------------------------------------ work and word

    def run_worker(
        self,
        work: Awaitable[Any],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
    ) -> Worker[Any]:
        """Run ``work`` on the app's loop for as long as the app runs (or until cancelled)."""
        ...

    def post_message(self, message: Message) -> bool:
        """Queue ``message`` for the app to handle."""
        ...

    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
        """Call ``callback`` on the app's loop once the messages waiting are handled."""
        ...

    def exit(self, result: Any = None, return_code: int = 0) -> None:
        """End the app."""
        ...

    # ------------------------------------------------------------ what a controller asks for

    def show_setup(self, seed: int | None = None) -> object:
        """Push the setup screen (with ``seed`` typed in)."""
        ...

    def open_replay(
        self,
        record: GameRecord,
        *,
        title: str = "",
        then: Callable[[None], None] | None = None,
        review: GameReview | None = None,
        at: int = 0,
        focus: tuple[int, ...] = (),
    ) -> None:
        """Show ``record`` in the replay screen (see ``MantisApp.open_replay``)."""
        ...

    def open_review(
        self, record: GameRecord, *, title: str = "", person: int | None = None
    ) -> None:
        """Review the finished ``record`` for ``person``'s seat."""
        ...

    def new_game(self) -> None:
        """Leave any table for the setup screen."""
        ...
