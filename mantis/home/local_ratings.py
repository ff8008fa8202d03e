"""Each person's rating at this computer, kept in the statistics database.

Every finished game played in this app is rated when it is recorded: each
person at the table (a name in any case, as the statistics know them)
moves by ``mantis.rating.update``, and every bot sits at its level's anchor
for that table size and never moves.  The rating after each game is kept
with the game (table ``ratings``), so a person's history is their row per
rated game, oldest first, and a game's change is its rows.

A game is rated when every seat is a person or a built-in level, at least
one seat is a person and nobody holds two seats.  Online games (those with
an origin) are not rated here: the server they were played on rates them.

Ratings follow the games' order (``finished_at``, then id).  A game that
arrives earlier than games already rated (its clock said so) has every
rating worked out again in order, so the chain is always the same as if
the games had come in order.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..rating.levels import level_rating
from ..rating.scale import Rating
from ..rating.update import rate

CREATE = (
    """
    CREATE TABLE ratings (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        player TEXT NOT NULL,           -- the person (seats.player: the name in any case)
        mu_before REAL NOT NULL,        -- OpenSkill's mean and uncertainty before the game
        sigma_before REAL NOT NULL,
        mu REAL NOT NULL,               -- ... and after it
        sigma REAL NOT NULL,
        PRIMARY KEY (game_id, player)
    )
    """,
    "CREATE INDEX ratings_by_player ON ratings (player)",
)
"""The ``ratings`` table (schema v5)."""


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One person's rating before and after one game."""

    name: str
    """As spelt at that game."""
    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A person's rating after one of their rated games."""

    game_id: int
    finished_at: datetime
    rating: Rating


SeatRow = tuple[str, str, str, str | None, bool]
"""A stored seat as a rating reads it: (player key, name, kind, bot, won)."""

RatingRow = tuple[int, str, float, float, float, float]
"""A row of ``ratings``: game, player, mu and sigma before, mu and sigma after."""


def _stored_games(
    db: sqlite3.Connection, game_id: int | None = None
) -> Iterator[tuple[int, int, list[SeatRow]]]:
    """``(game id, players, seats)`` of this app's games in order (only ``game_id`` if given)."""
    only = "" if game_id is None else "AND g.id = ? "
    rows = db.execute(
        "SELECT g.id, g.players, s.player, s.name, s.kind, s.bot, s.won "
        "FROM games AS g JOIN seats AS s ON s.game_id = g.id "
        f"WHERE g.origin IS NULL {only}ORDER BY g.finished_at, g.id, s.seat",
        () if game_id is None else (game_id,),
    )
    for key, group in itertools.groupby(rows, key=lambda r: r[0]):
        seats = list(group)
        yield key, seats[0][1], [(p, n, k, b, bool(w)) for _, _, p, n, k, b, w in seats]


def _seating(players: int, seats: Sequence[SeatRow]) -> list[str | Rating] | None:
    """Per seat, a person's key or a bot level's anchor; None if the game is not rated."""
    out: list[str | Rating] = []
    for player, _, kind, bot, _ in seats:
        if kind == "human":
            out.append(player)
        elif (
            kind == "bot" and bot is not None and (anchor := level_rating(bot, players)) is not None
        ):
            out.append(anchor)
        else:
            return None  # a seat of unknown kind, or a bot with no anchor (a plug-in)
    people = [s for s in out if isinstance(s, str)]
    if not people or len(set(people)) != len(people) or len(out) != players:
        return None
    return out


def _rate_one(
    current: dict[str, Rating], game_id: int, players: int, seats: Sequence[SeatRow]
) -> list[RatingRow]:
    """The rows a game adds to ``ratings`` (none if it is not rated); ``current`` moves on."""
    placed = _seating(players, seats)
    winners = [i for i, seat in enumerate(seats) if seat[4]]
    if placed is None or not winners:
        return []
    before = [current.get(s, Rating()) if isinstance(s, str) else s for s in placed]
    after = rate(before, winners)
    rows = []
    for who, old, new in zip(placed, before, after, strict=True):
        if isinstance(who, str):
            current[who] = new
            rows.append((game_id, who, old.mu, old.sigma, new.mu, new.sigma))
    return rows


def _insert(db: sqlite3.Connection, rows: Iterable[RatingRow]) -> None:
    db.executemany(
        "INSERT INTO ratings (game_id, player, mu_before, sigma_before, mu, sigma) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )


def rerate(db: sqlite3.Connection) -> None:
    """Work out every rating again from every stored game, in order (inside a transaction)."""
    db.execute("DELETE FROM ratings")
    current: dict[str, Rating] = {}
    for game_id, players, seats in _stored_games(db):
        _insert(db, _rate_one(current, game_id, players, seats))


def rate_stored_game(db: sqlite3.Connection, game_id: int) -> None:
    """Rate a game just stored (inside the transaction that stored it)."""
    when = db.execute("SELECT finished_at FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    later = db.execute(
        "SELECT 1 FROM ratings AS r JOIN games AS g ON g.id = r.game_id "
        "WHERE (g.finished_at, g.id) > (?, ?) LIMIT 1",
        (when, game_id),
    ).fetchone()
    if later is not None:
        rerate(db)
        return
    for _, players, seats in _stored_games(db, game_id):  # none for an online game
        current = {
            seat[0]: rating
            for seat in seats
            if seat[2] == "human" and (rating := _latest(db, seat[0])) is not None
        }
        _insert(db, _rate_one(current, game_id, players, seats))


def _latest(db: sqlite3.Connection, player: str) -> Rating | None:
    row = db.execute(
        "SELECT r.mu, r.sigma FROM ratings AS r JOIN games AS g ON g.id = r.game_id "
        "WHERE r.player = ? ORDER BY g.finished_at DESC, g.id DESC LIMIT 1",
        (player,),
    ).fetchone()
    return Rating(row[0], row[1]) if row is not None else None


def rating_change(db: sqlite3.Connection, game_id: int) -> tuple[RatingChange, ...]:
    """Each person's rating before and after game ``game_id``, in seat order (empty if unrated)."""
    rows = db.execute(
        "SELECT s.name, r.mu_before, r.sigma_before, r.mu, r.sigma "
        "FROM ratings AS r JOIN seats AS s ON s.game_id = r.game_id AND s.player = r.player "
        "WHERE r.game_id = ? AND s.kind = 'human' ORDER BY s.seat",
        (game_id,),
    ).fetchall()
    return tuple(
        RatingChange(name, Rating(mu0, sigma0), Rating(mu, sigma))
        for name, mu0, sigma0, mu, sigma in rows
    )
