"""Names held by keys and ratings in the server's store, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from mantis.engine import SCORE
from mantis.rating.levels import level_rating
from mantis.rating.scale import Rating
from mantis.rating.update import rate
from mantis.store.player_ratings import (
    Bound,
    GameRating,
    NameClaim,
    PairDay,
    RatedStart,
    Unbound,
)
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


async def hold(store: TableStore, name: str, key_hash: str, at: datetime = NOW) -> Bound | Unbound:
    return await store.bind_name(claim(name, key_hash, at))


async def a_game(store: TableStore, code: str) -> int:
    table = await store.create_table(code, TableRules(), host=0, seats=SEATS)
    return await store.start_game(table, 7)


async def test_names_are_held_by_the_first_key(table_store) -> None:
    store = table_store.store
    assert await store.name_holders("ann", "ann", NOW - RELEASE) == []
    assert await hold(store, "Ann", "key-1") == Bound("ann", True)
    assert await hold(store, "ANN", "key-2") is Unbound.TAKEN
    assert await hold(store, "ann", "key-1") == Bound("ann", False)  # held already
    store = await table_store.reopen()
    assert await store.name_holders("ann", "ann", NOW - RELEASE) == [("ann", "key-1")]
    [ann] = (await store.players(["ann", "nobody"])).values()
    assert (ann.name, ann.rating, ann.games) == ("Ann", Rating(), 0)
    assert await store.verifier(key_id("key-1")) == "key-1"
    assert await store.verifier(key_id("key-2")) is None


async def test_new_names_bound_at_once_for_one_key_stop_at_its_days_allowance(
    table_store,
) -> None:
    store = table_store.store
    await hold(store, "Old", "key-1", NOW - 2 * DAY)  # taken before the day: not counted

    def limited(name: str, key_hash: str = "key-1") -> NameClaim:
        return replace(claim(name, key_hash), most_new=3, new_since=NOW - DAY)

    names = ("Ada", "Bo", "Cy", "Dee", "Ed", "Flo", "Gus", "Hal")
    other = await table_store.opener()  # a second server on the same data (another node)
    try:
        bound = await asyncio.gather(
            *((store, other)[n % 2].bind_name(limited(name)) for n, name in enumerate(names))
        )
    finally:
        await other.close()
    assert sorted(str(b) for b in bound).count(str(Unbound.USED_UP)) == 5
    assert [b.new for b in bound if isinstance(b, Bound)] == [True] * 3
    assert await store.new_names("key-1", NOW - DAY) == 3
    # A name the key holds is never a new one; another key has its own allowance.
    held = next(b for b in bound if isinstance(b, Bound))
    assert await store.bind_name(limited(held.name_key.title())) == Bound(held.name_key, False)
    assert await store.bind_name(limited("Tina", "key-2")) == Bound("tina", True)
    # Refused names were never held: anyone may take them.
    refused = {n.lower() for n in names} - {b.name_key for b in bound if isinstance(b, Bound)}
    for name in refused:
        assert await hold(store, name, "key-3") == Bound(name, True)


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
        assert await hold(store, name, "key-2") is Unbound.TAKEN, name
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
    assert await hold(store, "Bea", "key-2", later) is Unbound.TAKEN
    # A name with a rated game is never free again.
    game = await a_game(store, "ABCD")
    await store.finish_game(game, 0, [], "{}", GameRating(("ann", "bea"), (0,)))
    far = later + 100 * DAY
    assert await hold(store, "Ann", "key-3", far) is Unbound.TAKEN
    assert await hold(store, "Bea", "key-3", far) is Unbound.TAKEN


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
    assert await hold(store, "Ann", "old") is Unbound.TAKEN
    assert await hold(store, "ann", "new") == Bound("ann", False)
    assert (await store.load("ABCD")).seats[0].key_hash == "new"
    assert table


async def test_rated_games_count_for_a_pair_of_people_from_their_start(table_store) -> None:
    store = table_store.store
    ann, bea, cy = (key_id(f"key-{name}") for name in ("ann", "bea", "cy"))
    since = NOW - DAY

    def starting(game: int, *pairs: tuple[str, str]) -> RatedStart:
        return RatedStart(game, pairs, since, 3, NOW)

    games = [await a_game(store, code) for code in ("ABCD", "EFGH", "IJKL", "MNPQ", "RSTV")]
    other = await table_store.opener()  # a second server on the same data (another node)
    try:
        counted = await asyncio.gather(
            *(
                (store, other)[n % 2].count_rated(starting(game, (ann, bea)))
                for n, game in enumerate(games)
            )
        )
    finally:
        await other.close()
    # Five games of one pair started at once: three count, the others are told why not.
    assert counted.count(None) == 3
    assert [c for c in counted if c is not None] == [PairDay(ann, bea, 3)] * 2
    assert await store.pair_games(bea, ann, since) == 3  # (in any order; being played)
    first = games[counted.index(None)]
    assert await store.count_rated(starting(first, (bea, ann))) is None  # (resumed)
    assert await store.pair_games(ann, bea, since) == 3
    await store.finish_game(first, 0, [], "{}")  # it ended unrated: given back
    assert await store.pair_games(ann, bea, since) == 2
    # Three people: counted for every pair, or (one pair at its limit) for none.
    three = await a_game(store, "WXYZ")
    assert await store.count_rated(starting(three, (ann, cy), (ann, bea))) is None
    four = await a_game(store, "BCDF")
    over = await store.count_rated(starting(four, (cy, ann), (bea, ann)))
    assert over == PairDay(bea, ann, 3) and await store.pair_games(ann, cy, since) == 1
    # Past a day from their start, they count no more; a rotated key's games are the new
    # key's.
    assert await store.pair_games(ann, bea, NOW - DAY / 2) == 3
    assert await store.pair_games(ann, bea, NOW + timedelta(seconds=1)) == 0
    await hold(store, "Ann", "key-ann")
    assert await store.rekey("key-ann", "key-new") == 1
    new = key_id("key-new")
    assert await store.pair_games(bea, new, since) == 3
    assert await store.pair_games(ann, bea, since) == 0
    assert await store.pair_games(new, cy, since) == 1


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
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6


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
    assert await hold(store, "ALlCE", "key-3") is Unbound.TAKEN
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
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6


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


async def _rated_v5(store: TableStore) -> None:
    """Ann and Bea's rated games as a v5 store kept them: one yesterday, one two days ago."""
    for name in ("Ann", "Bea"):
        await hold(store, name, "key-" + name)
    for code in ("ABCD", "EFGH"):
        game = await a_game(store, code)
        await store.finish_game(game, 0, [], "{}", GameRating(("ann", "bea"), (0,)))


_V5_DOWN = "DROP TABLE rated_pairs;"


async def test_a_v5_file_counts_the_last_days_rated_games_for_their_pairs(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.sqlite3"
    store = SqliteTableStore(path)
    await _rated_v5(store)
    await store.close()
    with sqlite3.connect(path) as db:
        old = (datetime.now(UTC) - 2 * DAY).isoformat(timespec="milliseconds")
        db.execute("UPDATE games SET finished_at = ? WHERE id = 2", (old,))
        db.executescript(_V5_DOWN + "PRAGMA user_version = 5;")
    store = SqliteTableStore(path)
    try:
        since = datetime.now(UTC) - DAY - timedelta(hours=1)
        assert await store.pair_games(key_id("key-Ann"), key_id("key-Bea"), since) == 1
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6


async def test_a_v5_postgresql_database_counts_the_last_days_rated_games_for_their_pairs(
    pg_url: str,
) -> None:
    import asyncpg

    from mantis.store.tables_pg import PgTableStore

    store = await PgTableStore.open(pg_url)
    await _rated_v5(store)
    await store.close()
    db = await asyncpg.connect(pg_url)
    try:
        await db.execute("UPDATE games SET finished_at = now() - interval '2 days' WHERE id = 2")
        await db.execute(_V5_DOWN + "UPDATE mantis_schema SET version = 5")
    finally:
        await db.close()
    store = await PgTableStore.open(pg_url)
    try:
        since = datetime.now(UTC) - DAY - timedelta(hours=1)
        assert await store.pair_games(key_id("key-Ann"), key_id("key-Bea"), since) == 1
    finally:
        await store.close()
