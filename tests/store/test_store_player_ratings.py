"""Names held by keys and ratings in the server's store, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from mantis.engine import SCORE
from mantis.rating.levels import level_rating
from mantis.rating.scale import Rating
from mantis.rating.update import rate
from mantis.store.player_ratings import GameRating
from mantis.store.table_store import StoredSeat, TableStore
from mantis.store.tables_db import SCHEMA_VERSION, SqliteTableStore

SEATS = (StoredSeat("Ann", "human"), StoredSeat("Bea", "human"), StoredSeat("Ada", "bot", "greedy"))


async def a_game(store: TableStore, code: str) -> int:
    table = await store.create_table(code, private=False, host=0, away_bot="greedy", seats=SEATS)
    return await store.start_game(table, 7)


async def test_names_are_held_by_the_first_key(table_store) -> None:
    store = table_store.store
    assert await store.name_holder("ann") is None
    assert await store.bind_name("ann", "Ann", "key-1") == "key-1"
    assert await store.bind_name("ann", "ANN", "key-2") == "key-1"
    store = await table_store.reopen()
    assert await store.name_holder("ann") == "key-1"
    [ann] = (await store.players(["ann", "nobody"])).values()
    assert (ann.name, ann.rating, ann.games) == ("Ann", Rating(), 0)


async def test_a_rated_games_end_moves_its_players_as_the_update_does(
    table_store,
) -> None:
    store = table_store.store
    for name in ("Ann", "Bea"):
        await store.bind_name(name.lower(), name, "key-" + name)
    greedy = level_rating("greedy", 3)
    assert greedy is not None
    rating = GameRating(("ann", "bea", greedy), (1,))
    first = await a_game(store, "ABCD")
    await store.finish_game(first, 0, [(0, SCORE)], "{}", rating)
    # Two games ending at once, on two tables, both with Ann: both count.
    second, third = await a_game(store, "EFGH"), await a_game(store, "IJKL")
    await asyncio.gather(
        store.finish_game(second, 0, [], "{}", GameRating(("ann", greedy, "bea"), (0,))),
        store.finish_game(third, 0, [], "{}", GameRating(("ann", "bea"), (0, 1))),
    )
    store = await table_store.reopen()
    players = await store.players(["ann", "bea"])
    assert (players["ann"].games, players["ann"].wins) == (3, 2)
    assert (players["bea"].games, players["bea"].wins) == (3, 2)
    board, total = await store.leaderboard(0, 10)
    assert total == 2 and {p.name for p in board} == {"Ann", "Bea"}
    # An unrated game moves nothing.
    fourth = await a_game(store, "MNPQ")
    await store.finish_game(fourth, 0, [], "{}")
    assert (await store.players(["ann"]))["ann"].games == 3


async def test_the_first_game_matches_the_update_exactly(table_store) -> None:
    store = table_store.store
    for name in ("Ann", "Bea"):
        await store.bind_name(name.lower(), name, "key-" + name)
    greedy = level_rating("greedy", 3)
    assert greedy is not None
    game = await a_game(store, "ABCD")
    await store.finish_game(game, 0, [], "{}", GameRating(("ann", "bea", greedy), (1,)))
    ann, bea, _ = rate([Rating(), Rating(), greedy], [1])
    players = await store.players(["ann", "bea"])
    assert players["ann"].rating.mu == ann.mu and players["bea"].rating.sigma == bea.sigma


async def test_a_v3_file_gains_players_and_ratings(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    store = SqliteTableStore(path)
    await store.create_table("ABCD", private=False, host=0, away_bot="greedy", seats=SEATS[:1])
    await store.close()
    with sqlite3.connect(path) as db:  # back to v3: no players, no ratings, no rated table
        db.executescript(
            "DROP TABLE game_ratings; DROP TABLE players;"
            "ALTER TABLE tables DROP COLUMN rated;"
            "ALTER TABLE seats DROP COLUMN player; ALTER TABLE seats DROP COLUMN key_hash;"
            "PRAGMA user_version = 3;"
        )
    store = SqliteTableStore(path)
    try:
        table = await store.load("ABCD")
        assert table is not None and not table.rated and table.seats == SEATS[:1]
        assert await store.bind_name("ann", "Ann", "k") == "k"
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4


async def test_a_v3_postgresql_database_gains_players_and_ratings(pg_url: str) -> None:
    import asyncpg

    from mantis.store.tables_pg import PgTableStore

    store = await PgTableStore.open(pg_url)
    await store.create_table("ABCD", private=False, host=0, away_bot="greedy", seats=SEATS[:1])
    await store.close()
    db = await asyncpg.connect(pg_url)
    try:
        await db.execute(
            "DROP TABLE game_ratings; DROP TABLE players; ALTER TABLE tables DROP COLUMN rated;"
            "ALTER TABLE seats DROP COLUMN player, DROP COLUMN key_hash;"
            "UPDATE mantis_schema SET version = 3"
        )
    finally:
        await db.close()
    store = await PgTableStore.open(pg_url)
    try:
        table = await store.load("ABCD")
        assert table is not None and not table.rated and table.seats == SEATS[:1]
        assert await store.bind_name("ann", "Ann", "k") == "k"
    finally:
        await store.close()
