"""The line mode's settings: the app's own settings file, with this run's overrides.

The odds, the coach and the bots' speed are the same settings the app
keeps (``store.settings``): switched on in one front end, they are on in
the other.  A change is saved at once; a settings file that cannot be
written is said in one line, and the change holds for this run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..players.decision import DEFAULT_BOT_TIMEOUT
from ..store import Settings, load_settings, save_settings
from ..table.pacing import Pace, next_speed, pace_for


class LinePreferences:
    """The settings of this run: as saved, plus ``--speed`` and ``--bot-timeout``."""

    def __init__(
        self,
        settings: Settings,
        *,
        speed: str | None = None,
        bot_timeout: float | None = None,
        warn: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.settings = settings
        self.speed = speed or settings.speed
        self.bot_timeout = bot_timeout or settings.bot_timeout or DEFAULT_BOT_TIMEOUT
        self._warn = warn

    @classmethod
    def load(
        cls,
        *,
        speed: str | None = None,
        bot_timeout: float | None = None,
        warn: Callable[[str], None] = lambda _: None,
    ) -> LinePreferences:
        """The saved settings (a file that cannot be read: the defaults, and a warning)."""
        settings, warning = load_settings()
        if warning is not None:
            warn(warning)
        return cls(settings, speed=speed, bot_timeout=bot_timeout, warn=warn)

    @property
    def pace(self) -> Pace:
        """The delays in force: a bot's least thinking time, a card's linger."""
        return pace_for(self.speed)

    def change(self, **changes: Any) -> None:
        """Change some settings and save them (a failure is said, never raised)."""
        self.settings = self.settings.with_changes(**changes)
        if "speed" in changes:
            self.speed = changes["speed"]
        try:
            save_settings(self.settings)
        except OSError as exc:
            self._warn(f"Could not save settings: {exc}")

    def next_speed(self) -> str:
        """The next bot speed (slow, normal, fast, instant, then slow), kept."""
        self.change(speed=next_speed(self.speed))
        return self.speed
