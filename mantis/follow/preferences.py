"""The settings of a run, whatever front end shows the table: as saved, with this run's
overrides, every change saved at once.

The odds, the coach, the bots' speed and the rest are the settings the app
and the line mode share (``home.settings``): switched on in one, they are
on in the other.  ``--speed`` and ``--bot-timeout`` override the saved
values for this run; changing either replaces the override too.  A settings
file that cannot be written is said in one line (``warn``) and the change
holds for this run.  A run that must leave the saved settings alone (a
replay) changes them for itself only (``saving=False``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..home import Settings, load_settings, save_settings
from ..players.decision import DEFAULT_BOT_TIMEOUT
from ..table.pacing import Pace, next_speed, pace_for


class Preferences:
    """The settings in force: what is saved, plus ``--speed`` and ``--bot-timeout``."""

    def __init__(
        self,
        settings: Settings,
        *,
        path: str | os.PathLike[str] | None = None,
        speed: str | None = None,
        bot_timeout: float | None = None,
        warn: Callable[[str], None] = lambda _: None,
        saving: bool = True,
    ) -> None:
        self.settings = settings
        """The settings as saved (as this run has them, when it does not save)."""
        self.path = path
        self.speed = speed or settings.speed
        """The bot speed of this run (``--speed``, else the saved one)."""
        self.bot_timeout = bot_timeout or settings.bot_timeout or DEFAULT_BOT_TIMEOUT
        """The bots' time budget of this run (``--bot-timeout``, else the saved one)."""
        self.saving = saving
        """Whether a change is saved for the runs to come (a replay's is not)."""
        self._warn = warn

    @classmethod
    def load(
        cls,
        *,
        speed: str | None = None,
        bot_timeout: float | None = None,
        warn: Callable[[str], None] = lambda _: None,
        saving: bool = True,
    ) -> Preferences:
        """The saved settings (a file that cannot be read: the defaults, and a warning)."""
        settings, warning = load_settings()
        if warning is not None:
            warn(warning)
        return cls(settings, speed=speed, bot_timeout=bot_timeout, warn=warn, saving=saving)

    @property
    def pace(self) -> Pace:
        """The delays a live table uses right now: a bot's least thinking time, a card's
        linger."""
        return pace_for(self.speed)

    @property
    def current(self) -> Settings:
        """The settings in effect, overrides included (what a settings form edits)."""
        return self.settings.with_changes(speed=self.speed, bot_timeout=self.bot_timeout)

    def change(self, **changes: Any) -> None:
        """Change some settings and save them (a failure is said, never raised), then tell
        whoever follows them (``after_change``)."""
        self.settings = self.settings.with_changes(**changes)
        if "speed" in changes:
            self.speed = changes["speed"]
        if "bot_timeout" in changes:
            self.bot_timeout = changes["bot_timeout"] or DEFAULT_BOT_TIMEOUT
        if self.saving:
            try:
                save_settings(self.settings, self.path)
            except OSError as exc:
                self._warn(f"Could not save settings: {exc}")
        self.after_change()

    def after_change(self) -> None:
        """Called after every change (a front end that shows settings in several places
        tells them here)."""

    def adopt(self, settings: Settings) -> None:
        """Take every value of ``settings`` (a settings form's result)."""
        changed = {
            name: getattr(settings, name)
            for name in settings.__dataclass_fields__
            if getattr(settings, name) != getattr(self.current, name)
        }
        self.change(**changed)

    def next_speed(self) -> str:
        """Switch to the next bot speed (slow, normal, fast, instant, then slow), kept."""
        self.change(speed=next_speed(self.speed))
        return self.speed
