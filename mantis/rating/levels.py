"""The built-in bot levels' ratings: fixed anchors that games never move.

``levels.json`` (next to this module) holds, for every built-in level, the
rating that bot-vs-bot tournaments imply at each table size (2 to 6 seats)
and over all sizes together, with its uncertainty and the games it comes
from.  ``python -m training.rate_levels`` makes it again from the seed it
records.  At each size, and overall, the levels' mean ``mu`` is 25: the
average level is rated 1,500, as is a new person.

A game rates a person against the levels at *its* table size, since a
level's strength depends on it (random play is nearly hopeless at six seats).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import msgspec

from .scale import Fitted, Rating

LEVELS_FILE = "levels.json"


class LevelTable(msgspec.Struct, frozen=True):
    """Every level's anchor: overall and per table size, and how they were made."""

    seed: int
    games_per_lineup: int
    overall: dict[str, Fitted]
    by_players: dict[int, dict[str, Fitted]]
    games: dict[int, int]
    """Games played per table size."""

    def to_json(self) -> dict[str, Any]:
        return {
            "made_by": f"python -m training.rate_levels --games {self.games_per_lineup} "
            f"--seed {self.seed}",
            "seed": self.seed,
            "games_per_lineup": self.games_per_lineup,
            "overall": _levels_json(self.overall),
            "by_players": {
                str(n): {"games": self.games[n], **_levels_json(levels)}
                for n, levels in sorted(self.by_players.items())
            },
        }


def _levels_json(levels: dict[str, Fitted]) -> dict[str, Any]:
    return {
        "levels": {
            name: {"mu": round(f.rating.mu, 6), "sigma": round(f.rating.sigma, 6), "games": f.games}
            for name, f in levels.items()
        }
    }


def _levels_from(data: dict[str, Any]) -> dict[str, Fitted]:
    return {
        name: Fitted(Rating(float(v["mu"]), float(v["sigma"])), int(v["games"]))
        for name, v in data["levels"].items()
    }


def parse_levels(text: str) -> LevelTable:
    """A level table from its JSON (``ValueError`` if it is not one)."""
    try:
        data = json.loads(text)
        return LevelTable(
            seed=int(data["seed"]),
            games_per_lineup=int(data["games_per_lineup"]),
            overall=_levels_from(data["overall"]),
            by_players={int(n): _levels_from(v) for n, v in data["by_players"].items()},
            games={int(n): int(v["games"]) for n, v in data["by_players"].items()},
        )
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a level table: {exc}") from None


@functools.cache
def level_table() -> LevelTable:
    """The shipped anchors (read once)."""
    # Read beside this module: importlib.resources would cost the setup screen's first
    # frame more than the file itself (the package is always installed unzipped).
    return parse_levels(Path(__file__).with_name(LEVELS_FILE).read_text("utf-8"))


def level_rating(level: str, players: int | None = None) -> Rating | None:
    """A built-in level's rating at a table of ``players`` seats (or overall); None if unknown.

    A bot that is not a built-in level (a plug-in) has no anchor.
    """
    table = level_table()
    levels = table.overall if players is None else table.by_players.get(players, {})
    fitted = levels.get(level)
    return fitted.rating if fitted is not None else None


def rating_text(level: str, players: int | None = None) -> str:
    """The level's rating at ``players`` seats (or overall) as people read it: "1,678"
    ("" for a bot that is no built-in level)."""
    rating = level_rating(level, players)
    return "" if rating is None else f"{rating.shown:,}"
