"""Players on PostgreSQL: names held by player keys, their ratings, each rated game's changes.

Each query is a function of one connection (``asyncpg``'s), run by ``PgTableStore``
as a write (in a batch's transaction) or as a read: the rows are the ones the
SQLite store keeps (``players_sqlite``), in PostgreSQL's words.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from ..rating.scale import Rating
from .player_ratings import (
    RATING_COLUMNS,
    Bound,
    GameRating,
    NameClaim,
    StoredPlayer,
    held_by_another,
    held_under,
    rating_moves,
)
from .tables_schema import PLAYER_COLUMNS, key_id


async def bind_name(db: Any, claim: NameClaim) -> Bound | None:
    """Hold the name ``claim`` asks for, unless another key holds it (None)."""
    # One bind of a look at a time, across nodes: two names that clash only in
    # capitals ("AIice" and "Alice") must not both be held.
    await db.execute("SELECT pg_advisory_xact_lock(hashtext($1))", claim.capitals)
    rows = await _clashing(db, claim.low, claim.capitals)
    released = [r for r in rows if _released(r, claim.released_before, claim.key_hash)]
    for row in released:
        await db.execute("DELETE FROM players WHERE name_key = $1 AND games = 0", row["name_key"])
    pairs = [(r["name_key"], r["key_hash"]) for r in rows if r not in released]
    if held_by_another(pairs, claim.low, claim.key_hash):
        return None
    if pairs:
        held = held_under(pairs, claim.low)
        await db.execute("UPDATE players SET last_seen = $1 WHERE name_key = $2", claim.at, held)
        return Bound(held, False)
    done = await db.execute(
        "INSERT INTO players (name_key, name, key_hash, created_at, key_up, key_id, "
        "last_seen) VALUES ($1, $2, $3, $4, $5, $6, $4) ON CONFLICT (name_key) DO NOTHING",
        claim.low,
        claim.name,
        claim.key_hash,
        claim.at,
        claim.capitals,
        key_id(claim.key_hash),
    )
    return Bound(claim.low, True) if done == "INSERT 0 1" else None


async def name_holders(
    db: Any, low: str, capitals: str, released_before: datetime
) -> list[tuple[str, str]]:
    """Each held name clashing with these keys, and its holder's digest."""
    rows = await _clashing(db, low, capitals)
    return [(r["name_key"], r["key_hash"]) for r in rows if not _released(r, released_before)]


async def verifier(db: Any, key_id: str) -> str | None:
    """The digest of the key named ``key_id``, if it holds a name."""
    found: str | None = await db.fetchval(
        "SELECT key_hash FROM players WHERE key_id = $1 LIMIT 1", key_id
    )
    return found


async def rekey(db: Any, old_hash: str, new_hash: str) -> int:
    """Every name and seat of the key ``old_hash`` is ``new_hash``'s; how many names."""
    done = await db.execute(
        "UPDATE players SET key_hash = $1, key_id = $2 WHERE key_hash = $3",
        new_hash,
        key_id(new_hash),
        old_hash,
    )
    await db.execute("UPDATE seats SET key_hash = $1 WHERE key_hash = $2", new_hash, old_hash)
    return int(done.split()[-1])


async def pair_games(db: Any, first: str, second: str, since: datetime) -> int:
    """Rated games both players took part in, finished since ``since``."""
    count: int = await db.fetchval(
        "SELECT count(*) FROM game_ratings AS a "
        "JOIN game_ratings AS b ON b.game_id = a.game_id "
        "JOIN games AS g ON g.id = a.game_id "
        "WHERE a.player = $1 AND b.player = $2 AND g.finished_at >= $3",
        first,
        second,
        since,
    )
    return int(count)


async def rebuild_name_keys(db: Any, capitals: Callable[[str], str]) -> int:
    """Give each held name without its second key one; how many."""
    rows = await db.fetch("SELECT name_key, name FROM players WHERE key_up IS NULL")
    keys = [(capitals(row["name"]), row["name_key"]) for row in rows]
    if keys:
        await db.executemany("UPDATE players SET key_up = $1 WHERE name_key = $2", keys)
    return len(keys)


async def players(db: Any, keys: Sequence[str], lock: bool = False) -> dict[str, StoredPlayer]:
    """The held names among ``keys`` (``lock``: their rows locked until the transaction ends)."""
    rows = await db.fetch(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE name_key = ANY($1::text[])"
        + (" ORDER BY name_key FOR UPDATE" if lock else ""),
        list(keys),
    )
    return {row["name_key"]: _player(row) for row in rows}


async def leaderboard(db: Any, offset: int, limit: int) -> tuple[list[StoredPlayer], int]:
    """Players with a rated game, best first, from ``offset``; and how many there are."""
    rows = await db.fetch(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE games > 0 "
        "ORDER BY mu - 2 * sigma DESC, games DESC, name_key LIMIT $1 OFFSET $2",
        limit,
        offset,
    )
    total = await db.fetchval("SELECT count(*) FROM players WHERE games > 0")
    return [_player(row) for row in rows], int(total)


async def rate(db: Any, game_id: int, rating: GameRating, when: datetime) -> None:
    """Move the game's players' ratings, read and written in the game's own transaction (the
    rows locked: another node finishing a game of theirs waits for this one)."""
    people = [s for s in rating.seats if isinstance(s, str)]
    current = {p.name_key: p.rating for p in (await players(db, people, lock=True)).values()}
    for move in rating_moves(current, rating):
        await db.execute(
            "UPDATE players SET mu = $1, sigma = $2, games = games + 1, wins = wins + $3, "
            "rated_at = $4 WHERE name_key = $5",
            move.after.mu,
            move.after.sigma,
            int(move.won),
            when,
            move.player,
        )
        await db.execute(
            f"INSERT INTO game_ratings ({RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            *move.row(game_id),
        )


def _player(row: Any) -> StoredPlayer:
    return StoredPlayer(
        row["name_key"],
        row["name"],
        Rating(float(row["mu"]), float(row["sigma"])),
        int(row["games"]),
        int(row["wins"]),
    )


async def _clashing(db: Any, low: str, capitals: str) -> list[Any]:
    """Each held name clashing with these keys: its key, holder, games and last use."""
    rows: list[Any] = await db.fetch(
        "SELECT name_key, key_hash, games, last_seen FROM players "
        "WHERE name_key = $1 OR key_up = $2",
        low,
        capitals,
    )
    return rows


def _released(row: Any, released_before: datetime, keeper: str | None = None) -> bool:
    """Whether a held name is free again: no rated game, nobody sat under it since
    ``released_before`` (never a name ``keeper`` holds)."""
    if row["games"] or row["last_seen"] is None:
        return False
    if keeper is not None and hmac.compare_digest(row["key_hash"], keeper):
        return False
    return bool(row["last_seen"] < released_before)
