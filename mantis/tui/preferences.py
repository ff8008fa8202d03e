"""The settings every screen shares, and news of their changes.

The app owns one ``Preferences`` (``follow.Preferences``: as saved, with this
session's overrides, saved on change) and hands it to the screens that read
or change settings (a board's odds panel and coach, the bot speed, the
lobby's remembered server).  Each change is published on ``changed``,
so every open screen follows it (as Textual's theme signal works), without
anyone walking the screen stack.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from textual.dom import DOMNode
from textual.signal import Signal

from ..follow.preferences import Preferences as RunPreferences
from ..home import Settings
from ..table.pacing import Pace, pace_for


class Preferences(RunPreferences):
    """The session's settings, published to the screens on every change.

    ``still`` (tests and screenshots) plays without any delay, animation or
    blinking cursor, whatever is saved.  ``warn`` says a one-line problem to
    the user (a settings file that cannot be written).
    """

    def __init__(
        self,
        settings: Settings,
        owner: DOMNode,
        *,
        path: str | os.PathLike[str] | None = None,
        still: bool = False,
        speed: str | None = None,
        bot_timeout: float | None = None,
        warn: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.still = still
        self.changed: Signal[Preferences] = Signal(owner, "preferences-changed")
        """Published after every change, with these preferences."""
        super().__init__(
            settings,
            path=path,
            speed="instant" if still else speed,
            bot_timeout=bot_timeout,
            warn=warn,
        )

    @property
    def animations(self) -> bool:
        """Whether anything moves on screen (never while ``still``)."""
        return self.settings.animations and not self.still

    @property
    def pace(self) -> Pace:
        """The delays a live table uses right now (none without animations)."""
        return pace_for(self.speed, animations=self.animations)

    def after_change(self) -> None:
        self.changed.publish(self)
