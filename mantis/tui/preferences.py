"""The settings every screen shares: as saved, with this session's overrides, and news of changes.

The app owns one ``Preferences`` and hands it to the screens that read or
change settings (a board's odds panel and coach, the bot speed, the lobby's
remembered server).  A change is saved at once and published on ``changed``,
so every open screen follows it (as Textual's theme signal works), without
anyone walking the screen stack.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from textual.dom import DOMNode
from textual.signal import Signal

from ..players.decision import DEFAULT_BOT_TIMEOUT
from ..store import Settings, save_settings
from ..table.pacing import Pace, next_speed, pace_for


class Preferences:
    """The session's settings: what is saved, plus ``--speed`` and ``--bot-timeout`` overrides.

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
        self.settings = settings
        """The settings as saved on disk."""
        self.path = path
        self.still = still
        self.speed = "instant" if still else (speed or settings.speed)
        """The bot speed of this session (``--speed``, else the saved one)."""
        self.bot_timeout = bot_timeout or settings.bot_timeout or DEFAULT_BOT_TIMEOUT
        """The bots' time budget of this session (``--bot-timeout``, else the saved one)."""
        self.changed: Signal[Preferences] = Signal(owner, "preferences-changed")
        """Published after every change, with these preferences."""
        self._warn = warn

    @property
    def animations(self) -> bool:
        """Whether anything moves on screen (never while ``still``)."""
        return self.settings.animations and not self.still

    @property
    def pace(self) -> Pace:
        """The delays a live table uses right now."""
        return pace_for(self.speed, animations=self.animations)

    @property
    def current(self) -> Settings:
        """The settings in effect, overrides included (what the settings form edits)."""
        return self.settings.with_changes(speed=self.speed, bot_timeout=self.bot_timeout)

    def change(self, **changes: Any) -> None:
        """Change some settings, save them, and tell every subscriber.

        A changed speed or time budget replaces this session's override too.
        A failed save is said (``warn``), never raised: the change still holds.
        """
        self.settings = self.settings.with_changes(**changes)
        if "speed" in changes:
            self.speed = changes["speed"]
        if "bot_timeout" in changes:
            self.bot_timeout = changes["bot_timeout"]
        try:
            save_settings(self.settings, self.path)
        except OSError as exc:
            self._warn(f"Could not save settings: {exc}")
        self.changed.publish(self)

    def adopt(self, settings: Settings) -> None:
        """Take every value of ``settings`` (the settings form's result)."""
        changed = {
            name: getattr(settings, name)
            for name in settings.__dataclass_fields__
            if getattr(settings, name) != getattr(self.current, name)
        }
        self.change(**changed)

    def next_speed(self) -> str:
        """Switch to the next bot speed, remember it, and return it."""
        self.change(speed=next_speed(self.speed))
        return self.speed
