"""Checking what a headless run is asked to play: table size, game count, bot specs.

``simulate`` and ``tournament`` take the same kinds of settings; both check
them here, so a bad value gets the same one-line message from either.
"""

from __future__ import annotations

from ..engine.seat_count import SEAT_RANGE, valid_seat_count
from ..players import PlayerSpecError, bot_factory


class RunSettingsError(Exception):
    """A bad setting for a run, reported in one line (exit status 2)."""


def check_table(players: int, games: int) -> None:
    """``RunSettingsError`` unless 2 to 6 players and at least one game."""
    if not valid_seat_count(players):
        raise RunSettingsError(f"--players must be {SEAT_RANGE}, not {players}")
    if games < 1:
        raise RunSettingsError(f"--games must be at least 1, not {games}")


def split_bots(text: str) -> list[str]:
    """The bot specs of a ``--bots`` value, each one checked to load."""
    specs = [s.strip() for s in text.split(",")]
    if any(not s for s in specs):
        raise RunSettingsError(f"--bots has an empty name: {text!r}")
    for spec in dict.fromkeys(specs):
        try:
            bot_factory(spec)
        except PlayerSpecError as exc:
            raise RunSettingsError(str(exc)) from None
    return specs
