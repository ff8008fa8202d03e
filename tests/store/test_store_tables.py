"""The table server's store: one set of tests that every ``TableStore`` passes.

Each test runs on every backend (``table_store`` opens a fresh, empty one;
``reopen`` closes it and opens the same data again, as a restarted server
or another node would).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from mantis.engine import SCORE, steal
from mantis.store.table_rules import TableRules
from mantis.store.tables_interface import RoomPhase, StoreConflict, StoredSeat, StoreError

SEATS = (
    StoredSeat("Ann", "human", None, "ann-hash"),
    StoredSeat("", "human"),
    StoredSeat("Ada", "bot", "greedy"),
)
HOUR = timedelta(hours=1)


async def new_table(store, code: str = "BDFH", seats=SEATS, private: bool = False) -> int:
    rules = TableRules(private=private, away_bot="expert")
    return await store.create_table(code, rules, host=0, seats=seats)


async def test_a_new_table_waits_with_its_seats_and_is_found_by_its_code(table_store) -> None:
    store = table_store.store
    table_id = await new_table(store, private=True)
    table = await store.load("BDFH")
    assert table is not None and table.id == table_id
    assert table.state is RoomPhase.WAITING and table.game is None
    assert (table.code, table.host) == ("BDFH", 0)
    assert table.rules == TableRules(private=True, away_bot="expert")
    assert table.seats == SEATS
    assert await store.load("KLMP") is None
    # The waiting room changes: the seats are replaced, in order.
    seated = (SEATS[0], StoredSeat("Bea", "human", None, "bea-hash"))
    await store.set_seats(table_id, seated)
    assert (await store.load("BDFH")).seats == seated


async def test_a_game_keeps_its_seed_moves_and_notices_in_order_and_its_record_at_the_end(
    table_store,
) -> None:
    store = table_store.store
    table_id = await new_table(store)
    game_id = await store.start_game(table_id, 2**62 + 5)  # seeds take 63 bits
    await store.add_moves(game_id, 0, [(1, SCORE)])
    await store.add_notice(game_id, 1, '{"type":"away","seat":1,"bot":"expert"}')
    await store.add_moves(game_id, 1, [(2, steal(0)), (0, SCORE)])
    await store.add_notice(game_id, 3, '{"type":"back","seat":1}')
    table = await store.load("BDFH")
    assert table.state is RoomPhase.PLAYING
    game = table.game
    assert (game.id, game.number, game.seed) == (game_id, 1, 2**62 + 5)
    assert game.moves == ((1, SCORE), (2, steal(0)), (0, SCORE))
    assert [turn for turn, _ in game.notices] == [1, 3]
    assert game.record is None and game.finished_at is None
    assert await store.records() == []
    await store.finish_game(game_id, 3, [(1, SCORE)], '{"record": 1}')
    table = await store.load("BDFH")
    assert table.state is RoomPhase.OVER
    assert table.game.moves[-1] == (1, SCORE) and len(table.game.moves) == 4
    assert table.game.record == '{"record": 1}' and table.game.finished_at is not None
    assert await store.records() == ['{"record": 1}']


async def test_a_table_plays_again_after_its_game_and_keeps_every_game(table_store) -> None:
    store = table_store.store
    table_id = await new_table(store)
    first = await store.start_game(table_id, 1)
    await store.add_moves(first, 0, [(0, SCORE)])
    await store.finish_game(first, 1, [], "first record")
    second = await store.start_game(table_id, 2)  # over -> playing again
    assert second != first
    table = await store.load("BDFH")
    assert table.state is RoomPhase.PLAYING
    assert (table.game.id, table.game.number, table.game.seed) == (second, 2, 2)
    assert table.game.moves == () and table.game.notices == ()
    await store.add_moves(second, 0, [(1, steal(2))])  # moves are the game's own: from 0 again
    await store.finish_game(second, 1, [], "second record")
    assert await store.records() == ["first record", "second record"]


async def test_a_table_only_moves_along_its_life_and_a_refused_write_changes_nothing(
    table_store,
) -> None:
    store = table_store.store
    table_id = await new_table(store)
    with pytest.raises(StoreError):
        await store.add_moves(999, 0, [(0, SCORE)])  # no such game
    game_id = await store.start_game(table_id, 7)
    with pytest.raises(StoreError):
        await store.start_game(table_id, 8)  # a game is on already
    await store.add_moves(game_id, 0, [(0, SCORE)])
    with pytest.raises(StoreError):
        await store.add_moves(game_id, 0, [(1, SCORE), (2, SCORE)])  # move 0 again
    table = await store.load("BDFH")
    assert table.state is RoomPhase.PLAYING and table.game.seed == 7
    assert table.game.moves == ((0, SCORE),)
    await store.finish_game(game_id, 1, [], "record")
    with pytest.raises(StoreError):
        await store.finish_game(game_id, 1, [], "again")
    assert await store.records() == ["record"]


async def test_no_two_live_tables_share_a_code_but_a_finished_ones_code_comes_back(
    table_store,
) -> None:
    store = table_store.store
    old = await new_table(store)
    with pytest.raises(StoreError):
        await new_table(store)  # BDFH is waiting
    game = await store.start_game(old, 1)
    with pytest.raises(StoreError):
        await new_table(store)  # ...and now playing
    await store.finish_game(game, 0, [], "record")
    again = await new_table(store)  # over: its code may go to a new table
    assert again != old
    assert (await store.load("BDFH")).id == again


async def test_the_live_tables_are_those_waiting_playing_or_lately_over(table_store) -> None:
    store = table_store.store
    waiting = await new_table(store, "BBBB")
    playing = await new_table(store, "DDDD")
    await store.start_game(playing, 1)
    over = await new_table(store, "FFFF")
    await store.finish_game(await store.start_game(over, 2), 0, [], "record")
    live = await store.load_live(HOUR)
    assert [t.id for t in live] == [waiting, playing, over]
    assert [t.state for t in live] == [RoomPhase.WAITING, RoomPhase.PLAYING, RoomPhase.OVER]
    # "Over since a day from now": no finished table counts as lately over.
    assert [t.id for t in await store.load_live(-timedelta(days=1))] == [waiting, playing]


async def test_a_waiting_table_is_dropped_but_a_started_one_never(table_store) -> None:
    store = table_store.store
    waiting = await new_table(store, "BBBB")
    started = await new_table(store, "DDDD")
    await store.start_game(started, 1)
    await store.drop_waiting(waiting)
    await store.drop_waiting(started)
    assert await store.load("BBBB") is None
    assert (await store.load("DDDD")).state is RoomPhase.PLAYING
    assert await new_table(store, "BBBB")  # its code is free again


async def test_writes_made_at_once_all_last_and_a_reopened_store_has_them(table_store) -> None:
    store = table_store.store
    ids = await asyncio.gather(*(new_table(store, f"T{n:03d}") for n in range(40)))
    games = await asyncio.gather(*(store.start_game(table_id, n) for n, table_id in enumerate(ids)))

    async def play(game_id: int) -> None:
        for turn in range(5):
            await store.add_moves(game_id, turn, [(turn % 3, SCORE)])

    await asyncio.gather(*(play(game_id) for game_id in games))
    store = await table_store.reopen()
    live = await store.load_live(HOUR)
    assert len(live) == 40
    for n, table in enumerate(live):
        assert table.code == f"T{n:03d}" and table.game.seed == n
        assert table.game.moves == tuple((turn % 3, SCORE) for turn in range(5))


async def test_closing_twice_is_fine(table_store) -> None:
    await new_table(table_store.store)
    await table_store.store.close()
    await table_store.store.close()


async def test_live_codes_are_those_of_the_live_tables(table_store) -> None:
    store = table_store.store
    await new_table(store, "BBBB")
    playing = await new_table(store, "DDDD")
    await store.start_game(playing, 1)
    over = await new_table(store, "FFFF")
    await store.finish_game(await store.start_game(over, 2), 0, [], "record")
    assert await store.live_codes(HOUR) == ["BBBB", "DDDD", "FFFF"]
    assert await store.live_codes(-timedelta(days=1)) == ["BBBB", "DDDD"]


async def test_a_move_kept_twice_is_a_conflict_and_flush_waits_for_every_write(
    table_store,
) -> None:
    store = table_store.store
    game = await store.start_game(await new_table(store), 1)
    writes = [asyncio.create_task(store.add_moves(game, t, [(0, SCORE)])) for t in range(20)]
    await asyncio.sleep(0)  # (each write is asked for)
    await store.flush()
    assert all(write.done() for write in writes)  # every write asked for before is done
    await asyncio.gather(*writes)
    with pytest.raises(StoreConflict):  # another node kept move 3 already
        await store.add_moves(game, 3, [(1, SCORE)])
    assert len((await store.load("BDFH")).game.moves) == 20


async def test_a_tables_rules_and_a_seat_whose_person_left_are_kept(table_store) -> None:
    store = table_store.store
    plain = await new_table(store, "BBBB")
    rules = TableRules(away_bot="casual", clock=30, talk=False, quick=True, rated=True)
    quick = await store.create_table("DDDD", rules, host=0, seats=SEATS)
    assert (plain, quick) != (0, 0)
    table = await store.load("BBBB")
    assert table.rules == TableRules(away_bot="expert")  # the defaults
    table = await store.load("DDDD")
    assert table.rules == rules
    gone = (SEATS[0], StoredSeat("Bea", "human", None, "bea-hash", left=True), SEATS[2])
    await store.set_seats(quick, gone)
    store = await table_store.reopen()
    table = await store.load("DDDD")
    assert table.seats == gone and table.seats[1].left and not table.seats[0].left
    assert table.rules == rules


async def test_a_games_turn_clock_deadline_is_kept_replaced_and_gone_once_over(
    table_store,
) -> None:
    store = table_store.store
    table_id = await new_table(store)
    game_id = await store.start_game(table_id, 3)
    assert (await store.load("BDFH")).game.deadline is None
    first = datetime(2030, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
    await store.set_deadline(game_id, 0, first)
    assert (await store.load("BDFH")).game.deadline == (0, first)
    await store.add_moves(game_id, 0, [(1, SCORE)])
    later = first + timedelta(seconds=31)
    await store.set_deadline(game_id, 1, later)  # one turn timed at a time
    store = await table_store.reopen()  # a restart, or another node taking the table
    assert (await store.load("BDFH")).game.deadline == (1, later)
    with pytest.raises(StoreError):
        await store.set_deadline(999, 0, later)  # no such game
    await store.finish_game(game_id, 1, [], "record")
    assert (await store.load("BDFH")).game.deadline is None
    with pytest.raises(StoreError):
        await store.set_deadline(game_id, 2, later)  # the game is over


async def test_the_tables_a_key_holds_a_seat_at_are_the_live_ones_it_did_not_leave(
    table_store,
) -> None:
    store = table_store.store

    def seats(key: str, *, left: bool = False) -> tuple[StoredSeat, ...]:
        mine = StoredSeat("Ann", "human", None, "t", left=left, player="ann", key_hash=key)
        return (mine, StoredSeat("Bea", "human", None, "u", key_hash="bea-key"), SEATS[2])

    waiting = await new_table(store, "BBBB", seats("ann-key"))
    playing = await new_table(store, "DDDD", seats("ann-key"))
    await store.start_game(playing, 1)
    over = await new_table(store, "FFFF", seats("ann-key"))
    await store.finish_game(await store.start_game(over, 2), 0, [], "record")
    await new_table(store, "HHHH", seats("ann-key", left=True))  # she left it for good
    await new_table(store, "KKKK", seats("cal-key"))  # another key's
    held = await store.tables_held("ann-key", 10)
    assert [t.id for t in held] == [playing, waiting]  # the newest first
    assert held[0].state is RoomPhase.PLAYING and held[0].game is not None
    assert [t.code for t in await store.tables_held("bea-key", 10)] == [
        "KKKK",
        "HHHH",
        "DDDD",
        "BBBB",
    ]
    assert [t.code for t in await store.tables_held("bea-key", 2)] == ["KKKK", "HHHH"]
    assert await store.tables_held("nobody", 10) == []
