"""Names held by keys and ratings in the server's store, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from mantis.engine import SCORE
from mantis.rating.levels import level_rating
from mantis.rating.scale import Rating
from mantis.rating.update import rate
from mantis.store.player_ratings import Bound, GameRating, NameClaim
from mantis.store.table_rules import TableRules
from mantis.store.tables_interface import StoredSeat, TableStore
from mantis.store.tables_schema import SCHEMA_VERSION, key_id
from mantis.store.tables_sqlite import SqliteTableStore
from mantis.table.names import NameKeys, capitals_key

SEATS = (StoredSeat("Ann", "human"), StoredSeat("Bea", "human"), StoredSeat("Ada", "bot", "greedy"))
NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
DAY = timedelta(days=1)
#: Names with no rated game are free again after this long unused (the server's rule).
RELEASE = timedelta(days=14)


def claim(name: str, key_hash: str, at: datetime = NOW) -> NameClaim:
    keys = NameKeys.of(name)
    return NameClaim(keys.low, keys.capitals, name, key_hash, at, at - RELEASE)


async def hold(store: TableStore, name: str, key_hash: str, at: datetime = NOW) -> Bound | None:
    return await store.bind_name(claim(name, key_hash, at))


async def a_game(store: TableStore, code: str) -> int:
    table = await store.create_table(code, TableRules(), host=0, seats=SEATS)
    return await store.start_game(table, 7)


async def test_names_are_held_by_the_first_key(table_store) -> None:
    store = table_store.store
    assert await store.name_holders("ann", "ann", NOW - RELEASE) == []
    assert await hold(store, "Ann", "key-1") == Bound("ann", True)
    assert await hold(store, "ANN", "key-2") is None
    assert await hold(store, "ann", "key-1") == Bound("ann", False)  # held already
    store = await table_store.reopen()
    assert await store.name_holders("ann", "ann", NOW - RELEASE) == [("ann", "key-1")]
    [ann] = (await store.players(["ann", "nobody"])).values()
    assert (ann.name, ann.rating, ann.games) == ("Ann", Rating(), 0)
    assert await store.verifier(key_id("key-1")) == "key-1"
    assert await store.verifier(key_id("key-2")) is None


async def test_look_alikes_clash_on_either_key_and_the_holder_keeps_its_first_spelling(
    table_store,
) -> None:
    store = table_store.store
    for name in ("Alice", "Ian", "Bill", "Olga"):
        assert await hold(store, name, "key-1") is not None
    for name, held in (("AIice", "alice"), ("lan", "ian"), ("BiII", "bill"), ("0lga", "olga")):
        keys = NameKeys.of(name)
        holders = await store.name_holders(keys.low, keys.capitals, NOW - RELEASE)
        assert holders == [(held, "key-1")]
        assert await hold(store, name, "key-2") is None, name
        # Its holder sitting under a look-alike holds it under the name it first held.
        assert await hold(store, name, "key-1") == Bound(held, False), name
    assert await hold(store, "Rob", "key-2") == Bound("rob", True)
    assert await hold(store, "Bob", "key-3") == Bound("bob", True)


async def test_a_name_with_no_rated_game_is_free_again_after_a_while_unused(table_store) -> None:
    store = table_store.store
    assert await hold(store, "Ann", "key-1", NOW) is not None
    assert await hold(store, "Bea", "key-1", NOW) is not None
    await store.bind_name(claim("Bea", "key-1", NOW + 10 * DAY))  # sat under again: kept
    later = NOW + RELEASE + DAY
    assert await store.name_holders("ann", "ann", later - RELEASE) == []
    assert await hold(store, "ANN", "key-2", later) == Bound("ann", True)
    assert await hold(store, "Bea", "key-2", later) is None
    # A name with a rated game is never free again.
    game = await a_game(store, "ABCD")
    await store.finish_game(game, 0, [], "{}", GameRating(("ann", "bea"), (0,)))
    far = later + 100 * DAY
    assert await hold(store, "Ann", "key-3", far) is None
    assert await hold(store, "Bea", "key-3", far) is None


async def test_a_key_rotated_holds_every_name_and_seat_of_the_old_one(table_store) -> None:
    store = table_store.store
    for name in ("Ann", "Ada 2"):
        await hold(store, name, "old")
    table = await store.create_table(
        "ABCD",
        TableRules(),
        host=0,
        seats=(StoredSeat("Ann", "human", None, "t", player="ann", key_hash="old"),),
    )
    assert await store.rekey("old", "new") == 2
    store = await table_store.reopen()
    assert await store.verifier(key_id("old")) is None
    assert await store.verifier(key_id("new")) == "new"
    assert await hold(store, "Ann", "old") is None
    assert await hold(store, "ann", "new") == Bound("ann", False)
    assert (await store.load("ABCD")).seats[0].key_hash == "new"
    assert table


async def test_games_a_pair_played_together_are_counted_since_a_moment(table_store) -> None:
    store = table_store.store
    for name in ("Ann", "Bea", "Cy"):
        await hold(store, name, "key-" + name)
    before = datetime.now(UTC) - timedelta(seconds=5)
    for code, seats in (
        ("ABCD", ("ann", "bea")),
        ("EFGH", ("bea", "ann")),
        ("IJKL", ("ann", "cy")),
    ):
        game = await a_game(store, code)
        await store.finish_game(game, 0, [], "{}", GameRating(seats, (0,)))
    assert await store.pair_games("ann", "bea", before) == 2
    assert await store.pair_games("bea", "ann", before) == 2
    assert await store.pair_games("ann", "cy", before) == 1
    assert await store.pair_games("bea", "cy", before) == 0
    assert await store.pair_games("ann", "bea", datetime.now(UTC) + DAY) == 0


async def test_a_seat_weighing_nothing_keeps_its_rating_and_a_half_weight_moves_half(
    table_store,
) -> None:
    store = table_store.store
    for name in ("Ann", "Bea"):
        await hold(store, name, "key-" + name)
    game = await a_game(store, "ABCD")
    await store.finish_game(game, 0, [], "{}", GameRating(("ann", "bea"), (0,), weights=(0.0, 0.5)))
    players = await store.players(["ann", "bea"])
    full = rate([Rating(), Rating()], [0])
    assert players["ann"].rating == Rating() and players["ann"].games == 1
    assert players["bea"].rating.mu == pytest.approx((Rating().mu + full[1].mu) / 2)
    assert players["bea"].rating.sigma == pytest.approx((Rating().sigma + full[1].sigma) / 2)


async def test_a_rated_games_end_moves_its_players_as_the_update_does(
    table_store,
) -> None:
    store = table_store.store
    for name in ("Ann", "Bea"):
        await hold(store, name, "key-" + name)
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
        await hold(store, name, "key-" + name)
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
    await store.create_table("ABCD", TableRules(), host=0, seats=SEATS[:1])
    await store.close()
    with sqlite3.connect(path) as db:  # back to v3: no players, no ratings, no rated table
        db.executescript(
            "DROP TABLE game_ratings; DROP TABLE players;"
            "ALTER TABLE tables DROP COLUMN rated;"
            "ALTER TABLE seats DROP COLUMN player; ALTER TABLE seats DROP COLUMN key_hash;"
            "ALTER TABLE seats DROP COLUMN network;"
            "PRAGMA user_version = 3;"
        )
    store = SqliteTableStore(path)
    try:
        table = await store.load("ABCD")
        assert table is not None and not table.rules.rated and table.seats == SEATS[:1]
        assert await hold(store, "Ann", "k") == Bound("ann", True)
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5


async def test_a_v3_postgresql_database_gains_players_and_ratings(pg_url: str) -> None:
    import asyncpg

    from mantis.store.tables_pg import PgTableStore

    store = await PgTableStore.open(pg_url)
    await store.create_table("ABCD", TableRules(), host=0, seats=SEATS[:1])
    await store.close()
    db = await asyncpg.connect(pg_url)
    try:
        await db.execute(
            "DROP TABLE game_ratings; DROP TABLE players; ALTER TABLE tables DROP COLUMN rated;"
            "ALTER TABLE seats DROP COLUMN player, DROP COLUMN key_hash, DROP COLUMN network;"
            "UPDATE mantis_schema SET version = 3"
        )
    finally:
        await db.close()
    store = await PgTableStore.open(pg_url)
    try:
        table = await store.load("ABCD")
        assert table is not None and not table.rules.rated and table.seats == SEATS[:1]
        assert await hold(store, "Ann", "k") == Bound("ann", True)
    finally:
        await store.close()


# What a v4 store held: two names of two keys that clash only in capitals ("AIice" came
# before the second key), and a name with a rated game.
_V4_DOWN = (
    "DROP INDEX players_by_key_up; DROP INDEX players_by_key_id; "
    "DROP INDEX game_ratings_by_player; "
    "ALTER TABLE players DROP COLUMN key_up; ALTER TABLE players DROP COLUMN key_id; "
    "ALTER TABLE players DROP COLUMN last_seen; ALTER TABLE seats DROP COLUMN network;"
)


_V4_ROWS = (
    "INSERT INTO players (name_key, name, key_hash, created_at) VALUES "
    "('alice', 'Alice', 'key-1', '2026-02-28T00:00:00+00:00'), "
    "('aiice', 'AIice', 'key-2', '2026-02-28T00:00:00+00:00'), "
    "('bea', 'Bea', 'key-1', '2026-02-28T00:00:00+00:00');"
)


async def _after_v4(store: TableStore) -> None:
    assert await store.rebuild_name_keys(capitals_key) == 3
    assert await store.rebuild_name_keys(capitals_key) == 0
    # Both old holders keep their names; a third look-alike is nobody's to take.
    assert await hold(store, "AIice", "key-2") == Bound("aiice", False)
    assert await hold(store, "Alice", "key-1") == Bound("alice", False)
    assert await hold(store, "ALlCE", "key-3") is None
    assert await store.verifier(key_id("key-1")) == "key-1"
    assert (await store.players(["bea"]))["bea"].name == "Bea"


async def test_a_v4_file_gains_the_second_keys_and_key_ids(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    await SqliteTableStore(path).close()
    with sqlite3.connect(path) as db:
        db.executescript(_V4_DOWN + _V4_ROWS + "PRAGMA user_version = 4;")
    store = SqliteTableStore(path)
    try:
        await _after_v4(store)
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5


async def test_a_v4_postgresql_database_gains_the_second_keys_and_key_ids(pg_url: str) -> None:
    import asyncpg

    from mantis.store.tables_pg import PgTableStore

    await (await PgTableStore.open(pg_url)).close()
    db = await asyncpg.connect(pg_url)
    try:
        await db.execute(_V4_DOWN + _V4_ROWS + "UPDATE mantis_schema SET version = 4")
    finally:
        await db.close()
    store = await PgTableStore.open(pg_url)
    try:
        await _after_v4(store)
    finally:
        await store.close()
