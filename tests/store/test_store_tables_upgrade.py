"""A server's data from before table rules and turn clocks (schema v2) is upgraded.

Each store upgrades in its own words (a SQLite file, a PostgreSQL database),
so these are not among the shared store tests.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from mantis.engine import SCORE
from mantis.store.table_rules import TableRules
from mantis.store.tables_interface import RoomPhase, StoredSeat
from mantis.store.tables_schema import SCHEMA_VERSION
from mantis.store.tables_sqlite import SqliteTableStore

# The tables as schema v2 wrote them (user_version 2).
V2_SCHEMA = """
CREATE TABLE tables (
    id INTEGER PRIMARY KEY, code TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'playing', 'over')),
    private INTEGER NOT NULL, host INTEGER NOT NULL, away_bot TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX live_codes ON tables (code) WHERE state != 'over';
CREATE INDEX tables_by_code ON tables (code);
CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables (id), seat INTEGER NOT NULL,
    name TEXT NOT NULL, kind TEXT NOT NULL, bot TEXT, token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL REFERENCES tables (id),
    number INTEGER NOT NULL, seed INTEGER NOT NULL, started_at TEXT NOT NULL,
    finished_at TEXT, record TEXT, UNIQUE (table_id, number),
    CHECK ((finished_at IS NULL) = (record IS NULL))
);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id), turn INTEGER NOT NULL,
    seat INTEGER NOT NULL, target INTEGER, PRIMARY KEY (game_id, turn)
);
CREATE TABLE notices (
    id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games (id),
    turn INTEGER NOT NULL, body TEXT NOT NULL
);
INSERT INTO tables VALUES (1, 'BDFH', 'playing', 0, 0, 'greedy', '2026-01-01T00:00:00.000+00:00');
INSERT INTO seats VALUES (1, 0, 'Ann', 'human', NULL, 'ann-hash');
INSERT INTO seats VALUES (1, 1, 'Ada', 'bot', 'expert', NULL);
INSERT INTO games VALUES (7, 1, 1, 42, '2026-01-01T00:00:00.000+00:00', NULL, NULL);
INSERT INTO moves VALUES (7, 0, 1, NULL);
PRAGMA user_version = 2;
"""


async def test_a_v2_file_keeps_its_game_and_gains_the_rules_as_they_were(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(V2_SCHEMA)
    store = SqliteTableStore(path)
    try:
        table = await store.load("BDFH")
        assert table is not None and table.state is RoomPhase.PLAYING
        # No clock, talk on, not quick: how every table played before.
        assert table.rules == TableRules()
        assert table.seats == (
            StoredSeat("Ann", "human", None, "ann-hash"),
            StoredSeat("Ada", "bot", "expert"),
        )
        assert table.game.id == 7 and table.game.moves == ((1, SCORE),)
        assert table.game.deadline is None
        await store.add_moves(7, 1, [(0, SCORE)])  # and it goes on
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6


async def test_a_v2_postgresql_database_gains_the_rules_as_they_were(pg_url: str) -> None:
    import asyncpg

    from mantis.store.tables_pg import PgTableStore

    store = await PgTableStore.open(pg_url)
    table_id = await store.create_table(
        "BDFH", TableRules(), host=0, seats=(StoredSeat("Ann", "human"),)
    )
    await store.close()
    # Back to v2, as cluster's first PostgreSQL server left it.
    db = await asyncpg.connect(pg_url)
    try:
        await db.execute(
            "DROP TABLE game_ratings; DROP TABLE players;"
            "ALTER TABLE tables DROP COLUMN clock, DROP COLUMN talk, DROP COLUMN quick,"
            " DROP COLUMN rated;"
            "ALTER TABLE seats DROP COLUMN left_game, DROP COLUMN player, DROP COLUMN key_hash,"
            " DROP COLUMN network;"
            "ALTER TABLE games DROP COLUMN deadline_turn, DROP COLUMN deadline;"
            "UPDATE mantis_schema SET version = 2"
        )
    finally:
        await db.close()
    store = await PgTableStore.open(pg_url)
    try:
        table = await store.load("BDFH")
        assert table is not None and table.id == table_id
        assert table.rules == TableRules()
        assert table.seats == (StoredSeat("Ann", "human"),)
        game_id = await store.start_game(table_id, 5)
        await store.set_deadline(game_id, 0, datetime(2030, 1, 1, tzinfo=UTC))
        assert (await store.load("BDFH")).game.deadline[0] == 0
    finally:
        await store.close()
