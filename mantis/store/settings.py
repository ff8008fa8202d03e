"""The user's settings, kept as JSON in the config directory.

Loading never fails: a missing file gives the defaults, and a damaged file or
a bad value gives the defaults for what could not be read plus a one-line
warning for the UI to show.  Saving is atomic, so a crash mid-write leaves
the old file intact.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..engine.seat_count import MAX_SEATS, MIN_SEATS, valid_seat_count
from ..engine.seats import RecordError, SeatInfo, seats_from_json
from .atomic import remove_stale_temp_files, write_text_atomic
from .paths import settings_path

SPEEDS = ("slow", "normal", "fast", "instant")
"""How fast bots move, slowest first."""

DEFAULT_THEME = "textual-dark"
MAX_BOT_TIMEOUT = 600.0
DEFAULT_SERVER = "ws://127.0.0.1:8765"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the app remembers between runs."""

    speed: str = "normal"
    animations: bool = True
    theme: str = DEFAULT_THEME
    bot_timeout: float | None = None
    """Seconds a bot may think before its seat scores instead (None until the user sets
    it: a table's own default, ``players.decision.DEFAULT_BOT_TIMEOUT``)."""
    show_odds: bool = False
    """Show the exact odds of every action at the table."""
    coach: bool = False
    """Show which action the strongest bot would take, and why."""
    last_seats: tuple[SeatInfo, ...] = field(default_factory=tuple)
    """The seats of the last table set up, to offer again (the seed is not
    kept: a remembered seed would quietly deal the same game every time)."""
    server: str = DEFAULT_SERVER
    """The table server the online lobby connects to."""
    online_name: str = ""
    """The name to sit down with online ("" until one is typed)."""
    online_seats: tuple[str, ...] = ("open", "greedy")
    """The other seats of the last online table created: "open" or a bot level."""
    online_clock: int | None = None
    """The turn clock of the last online table created: seconds per move (None: none)."""
    online_talk: bool = True
    """Whether the last online table created let its people talk."""
    quick_players: int = 3
    """The table size asked for the last time "Play now" was pressed."""
    show_talk: bool = True
    """Show what people say at online tables (hidden lines are kept, and come back)."""
    lines: bool = False
    """Play in lines of text (for screen readers and braille displays) unless told otherwise;
    ``MANTIS_LINES`` in the environment overrides it."""
    lines_more: bool = False
    """The line mode's question on each turn says what each tank holds of the top card's
    colours (``more on``), not only each move's key."""
    lines_brief: bool = False
    """The line mode says each move and asks each question in as few words as it can
    (``brief on``): for a person who knows the game and listens fast."""
    bell: bool = False
    """The line mode rings the terminal's bell for your turn, a steal from you, a clock
    warning and the end of a game (``bell on``)."""

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some fields changed."""
        return replace(self, **changes)

    def to_json(self) -> str:
        data = asdict(self)
        data["last_seats"] = [seat.to_json() for seat in self.last_seats]
        return json.dumps(data, indent=2) + "\n"


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


def _from_json(data: dict[str, Any]) -> tuple[Settings, list[str]]:
    """Settings from parsed JSON, keeping defaults for values that are not valid."""
    defaults = Settings()
    values: dict[str, Any] = {}
    bad: list[str] = []

    speed = data.get("speed", defaults.speed)
    if speed in SPEEDS:
        values["speed"] = speed
    else:
        bad.append("speed")

    animations = data.get("animations", defaults.animations)
    if isinstance(animations, bool):
        values["animations"] = animations
    else:
        bad.append("animations")

    # Files written before these switches existed simply lack them: defaults apply.
    for flag in (
        "show_odds",
        "coach",
        "online_talk",
        "show_talk",
        "lines",
        "lines_more",
        "lines_brief",
        "bell",
    ):
        value = data.get(flag, getattr(defaults, flag))
        if isinstance(value, bool):
            values[flag] = value
        else:
            bad.append(flag)

    theme = data.get("theme", defaults.theme)
    if isinstance(theme, str) and theme:
        values["theme"] = theme
    else:
        bad.append("theme")

    timeout = data.get("bot_timeout", defaults.bot_timeout)
    if timeout is None:
        values["bot_timeout"] = None
    elif (
        isinstance(timeout, int | float)
        and not isinstance(timeout, bool)
        and 0 < timeout <= MAX_BOT_TIMEOUT
    ):
        values["bot_timeout"] = float(timeout)
    else:
        bad.append("bot_timeout")

    for text in ("server", "online_name"):
        value = data.get(text, getattr(defaults, text))
        if isinstance(value, str) and len(value) <= 200:
            values[text] = value
        else:
            bad.append(text)

    online = data.get("online_seats", list(defaults.online_seats))
    if (
        isinstance(online, list)
        and MIN_SEATS - 1 <= len(online) <= MAX_SEATS - 1
        and all(isinstance(spec, str) and len(spec) <= 20 for spec in online)
    ):
        values["online_seats"] = tuple(online)
    else:
        bad.append("online_seats")

    clock = data.get("online_clock", defaults.online_clock)
    if clock is None or (type(clock) is int and 5 <= clock <= 3600):
        values["online_clock"] = clock
    else:
        bad.append("online_clock")

    players = data.get("quick_players", defaults.quick_players)
    if type(players) is int and valid_seat_count(players):
        values["quick_players"] = players
    else:
        bad.append("quick_players")

    seats = _remembered_seats(data.get("last_seats", []))
    if seats is None:
        bad.append("last_seats")
    else:
        values["last_seats"] = seats
    return Settings(**values), bad


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
