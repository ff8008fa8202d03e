"""The directory's quick-play matching: one set of tests for every ``Directory``.

``directory`` opens a fresh one of each kind (the in-process one here; a
shared one joins the parameters where it exists).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from mantis.net.directory import Directory, LocalDirectory
from mantis.players.clock import ManualClock


@pytest.fixture(params=["local"])
async def directory(request) -> AsyncIterator[Directory]:
    opened = LocalDirectory(ManualClock())
    try:
        yield opened
    finally:
        await opened.close()


async def test_quick_play_seats_people_at_the_oldest_table_with_room_then_opens_another(
    directory,
) -> None:
    assert await directory.quick_seat(3, "AAAA") == ("AAAA", True)  # none yet: a new one
    assert await directory.quick_seat(2, "BBBB") == ("BBBB", True)  # another size
    assert await directory.quick_seat(3, "CCCC") == ("AAAA", False)
    assert await directory.quick_seat(3, "DDDD") == ("AAAA", False)  # its third seat
    assert await directory.quick_seat(3, "EEEE") == ("EEEE", True)  # AAAA is full
    assert await directory.quick_seat(3, "FFFF") == ("EEEE", False)
    await directory.quick_free("AAAA", 3, 1)  # someone left AAAA's waiting room
    assert await directory.quick_seat(3, "GGGG") == ("AAAA", False)  # the oldest first
    assert await directory.quick_seat(3, "HHHH") == ("EEEE", False)
    await directory.quick_free("BBBB", 2, 0)  # BBBB started with a bot: no longer offered
    # Someone who may not open a table (their address has its fill) is seated where
    # there is room, or nowhere.
    assert await directory.quick_seat(2, None) is None
    assert await directory.quick_seat(2, "JJJJ") == ("JJJJ", True)
    assert await directory.quick_seat(2, None) == ("JJJJ", False)


async def test_people_asking_at_once_fill_one_table_before_another_opens(directory) -> None:
    seats = await asyncio.gather(*(directory.quick_seat(4, f"T{n:03d}") for n in range(10)))
    tables: dict[str, int] = {}
    for code, _ in seats:
        tables[code] = tables.get(code, 0) + 1
    assert sorted(tables.values()) == [2, 4, 4]  # never two tables with room at once
    assert sum(opened for _, opened in seats) == 3
