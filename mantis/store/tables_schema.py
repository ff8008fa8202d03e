"""The table server's schema, one for both stores (SQLite and PostgreSQL).

The same tables, columns, keys and checks; only a few types are written in
each database's own words (``schema("sqlite")``, ``schema("postgresql")``):
a row id, a true/false, a moment in time, a 64-bit whole number.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Literal

from .table_rules import RULE_NAMES

SCHEMA_VERSION = 6
"""v1: one game on the table's row; v2: a row per game (a table may play several);
v3: a table's rules (its turn clock, talk, quick play), a seat whose person left, a
game's turn-clock deadline; v4: names held by player keys and their ratings (``players``),
each rated game's changes (``game_ratings``), a rated table, a seat's player; v5: a held
name's second key (its skeleton in capitals), its key's id (for proofs) and when it was
last sat under, and the network a seat was taken from; v6: the pairs of people (their
keys' ids) each rated game counts for, from the moment it starts (``rated_pairs``)."""

TABLE_COLUMNS = "id, code, state, host, " + ", ".join(RULE_NAMES)
"""A table's row as both stores read it: its id, code, state, host's seat, then its rules."""
HELD_SEAT = "SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.key_hash = {} AND NOT s.left_game"
"""A seat of table ``t`` held by a key (the placeholder: its digest) and not left."""
PLAYER_COLUMNS = "name_key, name, mu, sigma, games, wins"
"""A held name's row as both stores read it (a ``StoredPlayer``)."""

TABLES = (
    "tables",
    "seats",
    "games",
    "moves",
    "notices",
    "players",
    "game_ratings",
    "rated_pairs",
)
"""The schema's tables, each referring only to those before it."""

_TEMPLATE = """
CREATE TABLE IF NOT EXISTS tables (
    id {id},
    code TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'playing', 'over')),
    private {bool} NOT NULL,
    host INTEGER NOT NULL,
    away_bot TEXT NOT NULL,
    created_at {time} NOT NULL,
    clock INTEGER,
    talk {bool} NOT NULL DEFAULT {true},
    quick {bool} NOT NULL DEFAULT {false},
    rated {bool} NOT NULL DEFAULT {false}
);
CREATE UNIQUE INDEX IF NOT EXISTS live_codes ON tables (code) WHERE state <> 'over';
CREATE INDEX IF NOT EXISTS tables_by_code ON tables (code);
CREATE TABLE IF NOT EXISTS seats (
    table_id {ref} NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    token_hash TEXT,
    left_game {bool} NOT NULL DEFAULT {false},
    player TEXT,
    key_hash TEXT,
    network TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    id {id},
    table_id {ref} NOT NULL REFERENCES tables (id),
    number INTEGER NOT NULL,
    seed {ref} NOT NULL,
    started_at {time} NOT NULL,
    finished_at {time},
    record TEXT,
    deadline_turn INTEGER,
    deadline {time},
    UNIQUE (table_id, number),
    CHECK ((finished_at IS NULL) = (record IS NULL))
);
CREATE TABLE IF NOT EXISTS moves (
    game_id {ref} NOT NULL REFERENCES games (id),
    turn INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    target INTEGER,
    PRIMARY KEY (game_id, turn)
);
CREATE TABLE IF NOT EXISTS notices (
    id {id},
    game_id {ref} NOT NULL REFERENCES games (id),
    turn INTEGER NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notices_by_game ON notices (game_id);
{players}{pairs}"""

# v4: a name (its ``name_key``: how it looks, in lower case) held by a player key (its
# SHA-256 digest, the verifier a proof is checked against; the key itself is never
# stored), with its rating on this server.  v5: ``key_up``, the name's skeleton in
# capitals (two names clash when either key is the same), ``key_id`` (the SHA-256 of
# ``key_hash``: what a client names its key by) and ``last_seen`` (a name with no rated
# game, unused for long, is free again).
_PLAYERS = """
CREATE TABLE IF NOT EXISTS players (
    name_key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    mu {real} NOT NULL DEFAULT 25.0,
    sigma {real} NOT NULL DEFAULT 8.333333333333334,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    created_at {time} NOT NULL,
    rated_at {time},
    key_up TEXT,
    key_id TEXT,
    last_seen {time}
);
CREATE INDEX IF NOT EXISTS players_by_low ON players ((mu - 2 * sigma) DESC, games DESC, name_key)
    WHERE games > 0;
CREATE TABLE IF NOT EXISTS game_ratings (
    game_id {ref} NOT NULL REFERENCES games (id),
    player TEXT NOT NULL REFERENCES players (name_key),
    mu_before {real} NOT NULL,
    sigma_before {real} NOT NULL,
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    won {bool} NOT NULL,
    PRIMARY KEY (game_id, player)
);
{player_indexes}"""

# v6: each rated game counts, from the moment it starts, for every pair of people at it
# (their keys' ids, the first the lower): a pair's rated games in a day are its rows, and
# a game judged rated holds its rows while it is played (given back if it ends unrated).
_PAIRS = """
CREATE TABLE IF NOT EXISTS rated_pairs (
    game_id {ref} NOT NULL REFERENCES games (id),
    first_key TEXT NOT NULL,
    second_key TEXT NOT NULL,
    started_at {time} NOT NULL,
    PRIMARY KEY (game_id, first_key, second_key)
);
CREATE INDEX IF NOT EXISTS rated_pairs_by_pair ON rated_pairs (first_key, second_key, started_at);
CREATE INDEX IF NOT EXISTS rated_pairs_by_start ON rated_pairs (started_at);
"""

# Schema v5 counted a pair's games from ``game_ratings`` by name: the last day's rated
# games count for their people's keys.
_FROM_V5 = """
INSERT INTO rated_pairs (game_id, first_key, second_key, started_at)
    SELECT DISTINCT a.game_id, pa.key_id, pb.key_id, g.started_at
    FROM game_ratings a
    JOIN game_ratings b ON b.game_id = a.game_id
    JOIN players pa ON pa.name_key = a.player
    JOIN players pb ON pb.name_key = b.player
    JOIN games g ON g.id = a.game_id
    WHERE pa.key_id < pb.key_id AND g.finished_at >= {day_ago};
"""

_TYPES = {
    # SQLite: an INTEGER PRIMARY KEY is the row id; times are ISO 8601 text (UTC).
    "sqlite": {
        "id": "INTEGER PRIMARY KEY",
        "ref": "INTEGER",
        "bool": "INTEGER",
        "time": "TEXT",
        "true": "1",
        "false": "0",
        "real": "REAL",
        "day_ago": "strftime('%Y-%m-%dT%H:%M:%f', 'now', '-1 day')",
    },
    "postgresql": {
        "id": "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        "ref": "BIGINT",
        "bool": "BOOLEAN",
        "time": "TIMESTAMPTZ",
        "true": "TRUE",
        "false": "FALSE",
        "real": "DOUBLE PRECISION",
        "day_ago": "now() - interval '1 day'",
    },
}

# Schema v2 had no table rules, seats that left or deadlines: columns with defaults
# ("no clock, talk on, not quick", as every table played before).
_FROM_V2 = """
ALTER TABLE tables ADD COLUMN clock INTEGER;
ALTER TABLE tables ADD COLUMN talk {bool} NOT NULL DEFAULT {true};
ALTER TABLE tables ADD COLUMN quick {bool} NOT NULL DEFAULT {false};
ALTER TABLE seats ADD COLUMN left_game {bool} NOT NULL DEFAULT {false};
ALTER TABLE games ADD COLUMN deadline_turn INTEGER;
ALTER TABLE games ADD COLUMN deadline {time};
"""


_PLAYER_INDEXES = """
CREATE INDEX IF NOT EXISTS players_by_key_up ON players (key_up);
CREATE INDEX IF NOT EXISTS players_by_key_id ON players (key_id);
CREATE INDEX IF NOT EXISTS game_ratings_by_player ON game_ratings (player);
"""

# Schema v3 had no names held by keys, no ratings: every table unrated, every seat nobody's.
_FROM_V3 = """
ALTER TABLE tables ADD COLUMN rated {bool} NOT NULL DEFAULT {false};
ALTER TABLE seats ADD COLUMN player TEXT;
ALTER TABLE seats ADD COLUMN key_hash TEXT;
ALTER TABLE seats ADD COLUMN network TEXT;
"""

# Schema v4 held a name by one key (and no key id, no last use), and kept no seat's
# network.  The new columns are filled in after (``key_ids`` here; ``key_up`` by the
# server, which knows how names look: ``TableStore.rebuild_name_keys``).
_FROM_V4 = """
ALTER TABLE seats ADD COLUMN network TEXT;
ALTER TABLE players ADD COLUMN key_up TEXT;
ALTER TABLE players ADD COLUMN key_id TEXT;
ALTER TABLE players ADD COLUMN last_seen {time};
UPDATE players SET last_seen = coalesce(rated_at, created_at);
"""


def key_id(key_hash: str) -> str:
    """What a client names its key by: the SHA-256 of its verifier (``key_hash``), hex."""
    return hashlib.sha256(key_hash.encode()).hexdigest()


def _players(dialect: Literal["sqlite", "postgresql"]) -> str:
    return _PLAYERS.format(player_indexes=_PLAYER_INDEXES, **_TYPES[dialect])


def _pairs(dialect: Literal["sqlite", "postgresql"]) -> str:
    return _PAIRS.format(**_TYPES[dialect])


def schema(dialect: Literal["sqlite", "postgresql"]) -> str:
    """The schema's statements for one database."""
    return _TEMPLATE.format(players=_players(dialect), pairs=_pairs(dialect), **_TYPES[dialect])


def upgrade_from_v2(dialect: Literal["sqlite", "postgresql"]) -> str:
    """The statements that bring a v2 schema to this one, in one database's words."""
    return _FROM_V2.format(**_TYPES[dialect]) + upgrade_from_v3(dialect)


def upgrade_from_v3(dialect: Literal["sqlite", "postgresql"]) -> str:
    """The statements that bring a v3 schema to this one, in one database's words."""
    return _FROM_V3.format(**_TYPES[dialect]) + _players(dialect) + _pairs(dialect)


def upgrade_from_v4(dialect: Literal["sqlite", "postgresql"]) -> str:
    """The statements that bring a v4 schema to v5 (then ``key_id`` is filled in, then
    ``upgrade_from_v5``'s)."""
    return _FROM_V4.format(**_TYPES[dialect]) + _PLAYER_INDEXES


def upgrade_from_v5(dialect: Literal["sqlite", "postgresql"]) -> str:
    """The statements that bring a v5 schema to this one (every key's id known)."""
    return _pairs(dialect) + _FROM_V5.format(**_TYPES[dialect])


def iso_time(when: datetime) -> str:
    """A moment as the SQLite store keeps it: ISO text in UTC, to the millisecond."""
    return when.astimezone(UTC).isoformat(timespec="milliseconds")
