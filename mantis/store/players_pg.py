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
    PairDay,
    RatedStart,
    StoredPlayer,
    Unbound,
    held_by_another,
    held_under,
    rating_moves,
)
from .tables_schema import PLAYER_COLUMNS, key_id

#: The first of the two keys of a lock on one player key's new names (the second is the
#: key's id, hashed): a space of its own, apart from the locks on how names look.
NEW_NAMES_LOCK = 7215393


async def bind_name(db: Any, claim: NameClaim) -> Bound | Unbound:
    """Hold the name ``claim`` asks for, unless another key holds it, or it would be one new
    name too many for the key."""
    # One bind of a key at a time, across nodes, when its new names are counted: binds
    # sent together cannot all see the count before any adds to it.  (Always this lock
    # first, then the look's: two binds never wait on each other in a circle.)
    if claim.most_new is not None:
        await db.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2))", NEW_NAMES_LOCK, claim.key_hash
        )
    # One bind of a look at a time, across nodes: two names that clash only in
    # capitals ("AIice" and "Alice") must not both be held.
    await db.execute("SELECT pg_advisory_xact_lock(hashtext($1))", claim.capitals)
    rows = await _clashing(db, claim.low, claim.capitals)
    released = [r for r in rows if _released(r, claim.released_before, claim.key_hash)]
    for row in released:
        await db.execute("DELETE FROM players WHERE name_key = $1 AND games = 0", row["name_key"])
    pairs = [(r["name_key"], r["key_hash"]) for r in rows if r not in released]
    if held_by_another(pairs, claim.low, claim.key_hash):
        return Unbound.TAKEN
    if pairs:
        held = held_under(pairs, claim.low)
        await db.execute("UPDATE players SET last_seen = $1 WHERE name_key = $2", claim.at, held)
        return Bound(held, False)
    most, since = claim.most_new, claim.new_since
    if (
        most is not None
        and since is not None
        and await new_names(db, claim.key_hash, since) >= most
    ):
        return Unbound.USED_UP
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
    return Bound(claim.low, True) if done == "INSERT 0 1" else Unbound.TAKEN


async def new_names(db: Any, key_hash: str, since: datetime) -> int:
    """Names the key ``key_hash`` came to hold since ``since``."""
    count: int = await db.fetchval(
        "SELECT count(*) FROM players WHERE key_id = $1 AND created_at >= $2",
        key_id(key_hash),
        since,
    )
    return int(count)


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
    old, new = key_id(old_hash), key_id(new_hash)
    await db.execute(  # (its rated games' pairs are the new key's, lower key first)
        "UPDATE rated_pairs SET "
        "first_key = CASE WHEN first_key = $1 THEN $2 ELSE first_key END, "
        "second_key = CASE WHEN second_key = $1 THEN $2 ELSE second_key END "
        "WHERE first_key = $1 OR second_key = $1",
        old,
        new,
    )
    await db.execute(
        "UPDATE rated_pairs SET first_key = second_key, second_key = first_key "
        "WHERE (first_key = $1 OR second_key = $1) AND first_key > second_key",
        new,
    )
    return int(done.split()[-1])


async def pair_games(db: Any, first: str, second: str, since: datetime) -> int:
    """Rated games two people (their keys' ids) played together, started since ``since``
    (those being played too)."""
    low, high = sorted((first, second))
    count: int = await db.fetchval(
        "SELECT count(*) FROM rated_pairs WHERE first_key = $1 AND second_key = $2 "
        "AND started_at >= $3",
        low,
        high,
        since,
    )
    return int(count)


#: The first of the two keys of a lock on one pair of people's rated games.
PAIR_LOCK = 7215394


async def count_rated(db: Any, game: RatedStart) -> PairDay | None:
    """Count ``game`` for each of its pairs unless one has ``game.most`` games since
    ``game.since`` (that pair, then); a game counted already is counted as it was (None)."""
    game_id, since = game.game_id, game.since
    # One count of a pair at a time, across nodes (locked in one order: never a circle).
    for low, high in sorted({tuple(sorted(pair)) for pair in game.pairs}):
        await db.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2))", PAIR_LOCK, f"{low}:{high}"
        )
    if await db.fetchval("SELECT 1 FROM rated_pairs WHERE game_id = $1 LIMIT 1", game_id):
        return None
    await db.execute(  # (older than the day and finished: they count for nothing any more)
        "DELETE FROM rated_pairs WHERE started_at < $1 AND game_id IN "
        "(SELECT id FROM games WHERE finished_at IS NOT NULL)",
        since,
    )
    rows = []
    for first, second in game.pairs:
        together = await pair_games(db, first, second, since)
        if together >= game.most:
            return PairDay(first, second, together)
        rows.append((game_id, *sorted((first, second)), game.at))
    await db.executemany(
        "INSERT INTO rated_pairs (game_id, first_key, second_key, started_at) "
        "VALUES ($1, $2, $3, $4)",
        rows,
    )
    return None


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
