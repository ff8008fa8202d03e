"""Hand-made finished games with fixed dates, for the statistics and past-games screens.

"You" (human) sits in various seats, against bots of several
levels, so the figures cover wins, losses, levels and table sizes; the dates
are fixed so snapshots never change.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import positions

from mantis.engine import GameRecord, SeatInfo
from mantis.home.stats import StatsDB

# (players, seed, score chance, seat of "You", bots for the other seats)
# The seeds were found by searching: "You" wins games 1, 2, 5, 7 (a shared win
# at deck-out) and 8, and every other game ends at the target.
GAMES = (
    (3, 8, 0.5, 1, ("random", "casual")),
    (2, 7, 0.5, 0, ("expert",)),
    (3, 1, 0.4, 0, ("greedy", "greedy")),
    (4, 2, 0.45, 0, ("casual", "random", "expert")),
    (2, 9, 0.6, 1, ("expert",)),
    (3, 9, 0.5, 0, ("casual", "greedy")),
    (4, 573, 0.2, 1, ("random", "casual", "greedy")),
    (3, 5, 0.5, 0, ("expert", "casual")),
)
NAMES = ("Ann", "Bea", "Cal")


def finished_records() -> list[tuple[GameRecord, datetime]]:
    """Each hand-made game with its seats and the date it finished."""
    games = []
    for day, (players, seed, chance, you, bots) in enumerate(GAMES, start=1):
        others = iter(zip(NAMES, bots, strict=False))
        seats = []
        for seat in range(players):
            if seat == you:
                seats.append(SeatInfo("You", "human"))
            else:
                name, bot = next(others)
                seats.append(SeatInfo(name, "bot", bot))
        record = replace(positions.played(players, seed, chance), seats=tuple(seats))
        games.append((record, datetime(2026, 3, day * 3, 18, 30, tzinfo=UTC)))
    return games


def seed_stats() -> None:
    """Record every hand-made game in the (test's) statistics database."""
    with StatsDB() as db:
        for record, when in finished_records():
            db.record_game(record, finished_at=when)
