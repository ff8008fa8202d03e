"""The user's settings, kept as JSON in the config directory.

Loading never fails: a missing file gives the defaults, and a damaged file or
a bad value gives the defaults for what could not be read plus a one-line
warning for the UI to show.  Saving is atomic, so a crash mid-write leaves
the old file intact.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..base.atomic import remove_stale_temp_files, write_text_atomic
from ..base.paths import settings_path
from ..engine.seat_count import MAX_SEATS, MIN_SEATS, valid_seat_count
from ..engine.seats import RecordError, SeatInfo, seats_from_json
from ..engine.turn_clock_range import MAX_CLOCK, MIN_CLOCK
from .setting_kinds import (
    BadSetting,
    Declared,
    Made,
    Number,
    OneOf,
    Switch,
    Text,
    declared,
    setting,
)

SPEEDS = ("slow", "normal", "fast", "instant")
"""How fast bots move, slowest first."""

DEFAULT_THEME = "textual-dark"
MAX_BOT_TIMEOUT = 600.0
DEFAULT_SERVER = "ws://127.0.0.1:8765"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the app remembers between runs.

    Each field is declared once, with its kind (bounds or choices) and, if the app's
    settings form shows it, its label (``setting_kinds``): the file is read and checked,
    and the form built and saved, by these declarations, the form's in this order.
    """

    speed: str = setting("normal", OneOf(SPEEDS), "Bot speed")
    animations: bool = setting(True, Switch(), "Animations")
    theme: str = setting(DEFAULT_THEME, OneOf(), "Theme")
    """Any name in the file; the form offers the app's themes."""
    show_odds: bool = setting(False, Switch(), "Odds panel (o)")
    """Show the exact odds of every action at the table."""
    coach: bool = setting(False, Switch(), "Coach (c)")
    """Show which action the strongest bot would take, and why."""
    show_talk: bool = setting(True, Switch(), "Table talk online (h)")
    """Show what people say at online tables (hidden lines are kept, and come back)."""
    lines: bool = setting(False, Switch(), "Line mode")
    """Play in lines of text (for screen readers and braille displays) unless told otherwise;
    ``MANTIS_LINES`` in the environment overrides it."""
    bot_timeout: float | None = setting(
        None,
        Number(0, MAX_BOT_TIMEOUT, above_low=True, optional=True, unit="seconds"),
        "Bot time budget (s)",
        about="the bot time budget",
    )
    """Seconds a bot may think before its seat scores instead (None until the user sets
    it: a table's own default, ``players.decision.DEFAULT_BOT_TIMEOUT``)."""
    last_seats: tuple[SeatInfo, ...] = setting(
        (),
        Made(
            lambda data: _remembered_seats(data),
            "must be a table that can be set up again",
            lambda seats: [seat.to_json() for seat in seats],
        ),
    )
    """The seats of the last table set up, to offer again (the seed is not
    kept: a remembered seed would quietly deal the same game every time)."""
    server: str = setting(DEFAULT_SERVER, Text())
    """The table server the online lobby connects to."""
    online_name: str = setting("", Text())
    """The name to sit down with online ("" until one is typed)."""
    online_seats: tuple[str, ...] = setting(
        ("open", "greedy"),
        Made(lambda data: _online_seats(data), f"must be {MIN_SEATS - 1} to {MAX_SEATS - 1} seats"),
    )
    """The other seats of the last online table created: "open" or a bot level."""
    online_clock: int | None = setting(
        None, Number(MIN_CLOCK, MAX_CLOCK, whole=True, optional=True, unit="seconds")
    )
    """The turn clock of the last online table created: seconds per move (None: none)."""
    online_talk: bool = setting(True, Switch())
    """Whether the last online table created let its people talk."""
    quick_players: int = setting(3, Number(MIN_SEATS, MAX_SEATS, whole=True))
    """The table size asked for the last time "Play now" was pressed."""
    lines_more: bool = setting(False, Switch(), "Line mode: more")
    """The line mode's question on each turn says what each tank holds of the top card's
    colours (``more on``), not only each move's key."""
    lines_brief: bool = setting(False, Switch(), "Line mode: brief")
    """The line mode says each move and asks each question in as few words as it can
    (``brief on``): for a person who knows the game and listens fast."""
    bell: bool = setting(False, Switch(), "Line mode: bell")
    """The line mode rings the terminal's bell for your turn, a steal from you, a clock
    warning and the end of a game (``bell on``)."""

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some fields changed."""
        return replace(self, **changes)

    def to_json(self) -> str:
        declarations = declared(type(self))
        data = {name: d.kind.write(getattr(self, name)) for name, d in declarations.items()}
        return json.dumps(data, indent=2) + "\n"


SETTINGS: dict[str, Declared] = declared(Settings)
"""Every setting by name, in order, with its kind and its form label (if any)."""


LINES_VARIABLE = "MANTIS_LINES"
"""The environment variable that makes the line mode the default (1) or not (0)."""


def lines_by_default(settings: Settings | None = None) -> bool:
    """Whether a command plays in lines when it is not told: ``MANTIS_LINES`` (1 or 0) if
    set, else the ``lines`` setting (``settings``, or the saved ones)."""
    value = os.environ.get(LINES_VARIABLE, "").strip().casefold()
    if value in ("1", "yes", "true", "on"):
        return True
    if value in ("0", "no", "false", "off"):
        return False
    if settings is None:
        settings, _ = load_settings()
    return settings.lines


def load_settings(path: str | os.PathLike[str] | None = None) -> tuple[Settings, str | None]:
    """The settings in ``path`` (default: the user's file) and a warning, if any."""
    target = Path(path) if path is not None else settings_path()
    remove_stale_temp_files(target.parent)  # left by a writer killed mid-save
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), None
    except (OSError, UnicodeDecodeError) as exc:
        return Settings(), f"Could not read settings {target} ({exc}); using defaults."
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return Settings(), f"Settings file {target} is damaged; using defaults."
    if not isinstance(data, dict):
        return Settings(), f"Settings file {target} is damaged; using defaults."
    settings, bad = _from_json(data)
    if bad:
        return settings, f"Ignored bad settings in {target}: {', '.join(bad)}."
    return settings, None


def save_settings(settings: Settings, path: str | os.PathLike[str] | None = None) -> None:
    """Write ``settings`` atomically to ``path`` (default: the user's file)."""
    write_text_atomic(path if path is not None else settings_path(), settings.to_json())


def _from_json(data: dict[str, Any], cls: type[Settings] = Settings) -> tuple[Settings, list[str]]:
    """Settings (a ``cls``) from parsed JSON, keeping defaults for values that are not
    valid (each bad one named with its rule: "online_clock (must be 5 to 3600)")."""
    values: dict[str, Any] = {}
    bad: list[str] = []
    # Files written before a setting existed simply lack it: its default applies.
    for name, declaration in declared(cls).items():
        if name not in data:
            continue
        try:
            values[name] = declaration.kind.read(data[name])
        except BadSetting as exc:
            bad.append(f"{name} ({exc})")
    return cls(**values), bad


def _online_seats(data: Any) -> tuple[str, ...] | None:
    """The other seats of an online table (a playable number of short specs), or None."""
    if (
        isinstance(data, list)
        and MIN_SEATS - 1 <= len(data) <= MAX_SEATS - 1
        and all(isinstance(spec, str) and len(spec) <= 20 for spec in data)
    ):
        return tuple(data)
    return None


def _remembered_seats(data: Any) -> tuple[SeatInfo, ...] | None:
    """The remembered table (none, or a playable number of seats); None if it cannot be
    offered again."""
    try:
        seats = seats_from_json(data)
    except RecordError:
        return None
    if seats and not valid_seat_count(len(seats)):
        return None
    # A record may keep a bot seat without its bot's name; a table to set up
    # again cannot: the setup screen has no bot to offer for that seat.
    if any(seat.kind == "bot" and seat.bot is None for seat in seats):
        return None
    return seats
