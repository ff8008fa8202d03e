"""Players on SQLite: names held by player keys, their ratings, each rated game's changes.

Each query is a function of the server's SQLite connection, run by
``SqliteTableStore`` in its writer's thread (a write, committed with the
others waiting) or its reader's (a read): the rows are the ones the
PostgreSQL store keeps (``players_pg``), in SQLite's words.
"""

from __future__ import annotations

import hmac
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from ..rating.scale import Rating
from .player_ratings import (
    RATING_COLUMNS,
    Bound,
    GameRating,
    NameClaim,
    PairDay,
    RatedStart,
    StoredPlayer,
    Unbound,
    held_by_another,
    held_under,
    rating_moves,
)
from .tables_schema import PLAYER_COLUMNS, iso_time, key_id


def rate(db: sqlite3.Connection, game_id: int, rating: GameRating, when: str) -> None:
    people = [s for s in rating.seats if isinstance(s, str)]
    current = {p.name_key: p.rating for p in players(db, people).values()}
    for move in rating_moves(current, rating):
        db.execute(
            "UPDATE players SET mu = ?, sigma = ?, games = games + 1, wins = wins + ?, "
            "rated_at = ? WHERE name_key = ?",
            (move.after.mu, move.after.sigma, int(move.won), when, move.player),
        )
        db.execute(
            f"INSERT INTO game_ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            move.row(game_id),
        )


def bind_name(db: sqlite3.Connection, claim: NameClaim) -> Bound | Unbound:
    """Hold the name ``claim`` asks for, unless another key holds it, or it would be one new
    name too many for the key (the writer's one transaction: nothing runs in between)."""
    rows = _clashing(db, claim.low, claim.capitals)
    released = [r for r in rows if _released(r, claim.released_before, claim.key_hash)]
    db.executemany(
        "DELETE FROM players WHERE name_key = ? AND games = 0", [(r[0],) for r in released]
    )
    pairs = [(r[0], r[1]) for r in rows if r not in released]
    if held_by_another(pairs, claim.low, claim.key_hash):
        return Unbound.TAKEN
    at = iso_time(claim.at)
    if pairs:
        held = held_under(pairs, claim.low)
        db.execute("UPDATE players SET last_seen = ? WHERE name_key = ?", (at, held))
        return Bound(held, False)
    most, since = claim.most_new, claim.new_since
    if most is not None and since is not None and new_names(db, claim.key_hash, since) >= most:
        return Unbound.USED_UP
    db.execute(
        "INSERT INTO players (name_key, name, key_hash, created_at, key_up, key_id, last_seen)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (claim.low, claim.name, claim.key_hash, at, claim.capitals, key_id(claim.key_hash), at),
    )
    return Bound(claim.low, True)


def new_names(db: sqlite3.Connection, key_hash: str, since: datetime) -> int:
    """Names the key ``key_hash`` came to hold since ``since``."""
    (count,) = db.execute(
        "SELECT count(*) FROM players WHERE key_id = ? AND created_at >= ?",
        (key_id(key_hash), iso_time(since)),
    ).fetchone()
    return int(count)


def _clashing(
    db: sqlite3.Connection, low: str, capitals: str
) -> list[tuple[str, str, int, str | None]]:
    """(name_key, key_hash, games, last_seen) of each name clashing with these keys."""
    return db.execute(
        "SELECT name_key, key_hash, games, last_seen FROM players WHERE name_key = ? OR key_up = ?",
        (low, capitals),
    ).fetchall()


def name_holders(
    db: sqlite3.Connection, low: str, capitals: str, released_before: datetime
) -> list[tuple[str, str]]:
    rows = _clashing(db, low, capitals)
    return [(r[0], r[1]) for r in rows if not _released(r, released_before, None)]


def verifier(db: sqlite3.Connection, key_id: str) -> str | None:
    row = db.execute("SELECT key_hash FROM players WHERE key_id = ? LIMIT 1", (key_id,)).fetchone()
    return None if row is None else str(row[0])


def rekey(db: sqlite3.Connection, old_hash: str, new_hash: str) -> int:
    cursor = db.execute(
        "UPDATE players SET key_hash = ?, key_id = ? WHERE key_hash = ?",
        (new_hash, key_id(new_hash), old_hash),
    )
    db.execute("UPDATE seats SET key_hash = ? WHERE key_hash = ?", (new_hash, old_hash))
    for statement in _PAIRS_REKEYED:
        db.execute(statement, {"old": key_id(old_hash), "new": key_id(new_hash)})
    return cursor.rowcount


# A key replaced: its rated games' pairs are the new key's (kept lower key first).
_PAIRS_REKEYED = (
    "UPDATE rated_pairs SET "
    "first_key = CASE WHEN first_key = :old THEN :new ELSE first_key END, "
    "second_key = CASE WHEN second_key = :old THEN :new ELSE second_key END "
    "WHERE first_key = :old OR second_key = :old",
    "UPDATE rated_pairs SET first_key = second_key, second_key = first_key "
    "WHERE (first_key = :new OR second_key = :new) AND first_key > second_key",
)


def pair_games(db: sqlite3.Connection, first: str, second: str, since: datetime) -> int:
    low, high = sorted((first, second))
    (count,) = db.execute(
        "SELECT count(*) FROM rated_pairs WHERE first_key = ? AND second_key = ? "
        "AND started_at >= ?",
        (low, high, iso_time(since)),
    ).fetchone()
    return int(count)


def count_rated(db: sqlite3.Connection, game: RatedStart) -> PairDay | None:
    """Count ``game`` for each of its pairs unless one has ``game.most`` games since
    ``game.since`` (that pair, then); a game counted already is counted as it was (None).
    The writer's one transaction: nothing runs between the counts and the rows."""
    game_id, since = game.game_id, game.since
    if db.execute("SELECT 1 FROM rated_pairs WHERE game_id = ? LIMIT 1", (game_id,)).fetchone():
        return None
    db.execute(  # (older than the day and finished: they count for nothing any more)
        "DELETE FROM rated_pairs WHERE started_at < ? AND game_id IN "
        "(SELECT id FROM games WHERE finished_at IS NOT NULL)",
        (iso_time(since),),
    )
    rows = []
    for first, second in game.pairs:
        together = pair_games(db, first, second, since)
        if together >= game.most:
            return PairDay(first, second, together)
        rows.append((game_id, *sorted((first, second)), iso_time(game.at)))
    db.executemany(
        "INSERT INTO rated_pairs (game_id, first_key, second_key, started_at) VALUES (?, ?, ?, ?)",
        rows,
    )
    return None


def rebuild_name_keys(db: sqlite3.Connection, capitals: Callable[[str], str]) -> int:
    rows = db.execute("SELECT name_key, name FROM players WHERE key_up IS NULL")
    keys = [(capitals(name), name_key) for name_key, name in rows.fetchall()]
    db.executemany("UPDATE players SET key_up = ? WHERE name_key = ?", keys)
    return len(keys)


def players(db: sqlite3.Connection, name_keys: Sequence[str]) -> dict[str, StoredPlayer]:
    keys = list(dict.fromkeys(name_keys))
    if not keys:
        return {}
    marks = ", ".join("?" * len(keys))
    rows = db.execute(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE name_key IN ({marks})", keys
    ).fetchall()
    return {row[0]: _player(row) for row in rows}


def leaderboard(db: sqlite3.Connection, offset: int, limit: int) -> tuple[list[StoredPlayer], int]:
    rows = db.execute(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE games > 0 "
        "ORDER BY mu - 2 * sigma DESC, games DESC, name_key LIMIT ? OFFSET ?",
        (limit, offset),
    ).fetchall()
    (total,) = db.execute("SELECT count(*) FROM players WHERE games > 0").fetchone()
    return [_player(row) for row in rows], int(total)


def _player(row: tuple[Any, ...]) -> StoredPlayer:
    name_key, name, mu, sigma, games, wins = row
    return StoredPlayer(name_key, name, Rating(float(mu), float(sigma)), int(games), int(wins))


def _released(
    row: tuple[str, str, int, Any], released_before: datetime, keeper: str | None
) -> bool:
    """Whether a held name is free again: no rated game, and nobody sat under it since
    ``released_before`` (never a name ``keeper`` holds: they may sit under it again)."""
    _, key_hash, games, last_seen = row
    if games or last_seen is None or keeper is not None and hmac.compare_digest(key_hash, keeper):
        return False
    seen = last_seen if isinstance(last_seen, datetime) else datetime.fromisoformat(last_seen)
    return seen < released_before
