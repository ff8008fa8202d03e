"""A server's garbage collector: the young generation by the clock, the older ones after
their number of younger collections."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from mantis.base.clock import ManualClock
from mantis.net.server import collector


class Cycle:
    """Garbage only a collection frees: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def only_the_clock():
    """Python's own collections off (as if its count never reached a threshold, as in a
    busy server's steady state), so that what is collected is the clock's doing."""
    was_enabled = gc.isenabled()
    gc.disable()
    gc.collect()  # every generation empty, every count at 0
    yield
    if was_enabled:
        gc.enable()


async def tick(clock: ManualClock) -> None:
    """Move the clock one collection on, and wait until that collection is made."""
    await clock.until_pending(collector.YOUNG_EVERY)
    clock.advance(collector.YOUNG_EVERY)
    await asyncio.sleep(0)  # the collector wakes...
    await clock.until_pending(collector.YOUNG_EVERY)  # ...collects, and sleeps again


async def test_young_garbage_goes_at_the_next_tick(only_the_clock) -> None:
    clock = ManualClock(frozen=True)
    task = asyncio.create_task(collector.collect_on_time(clock))
    try:
        await clock.until_pending(collector.YOUNG_EVERY)
        young = weakref.ref(Cycle())
        assert young() is not None  # nothing else collects it
        await tick(clock)
        assert young() is None
    finally:
        task.cancel()


async def test_older_garbage_waits_for_the_middle_collection(only_the_clock) -> None:
    clock = ManualClock(frozen=True)
    task = asyncio.create_task(collector.collect_on_time(clock))
    try:
        await clock.until_pending(collector.YOUNG_EVERY)
        kept = Cycle()
        await tick(clock)  # it outlives a young collection: it is older now
        older = weakref.ref(kept)
        del kept
        for _ in range(collector.MIDDLE_AFTER - 1):
            await tick(clock)
            assert older() is not None  # young collections leave it
        await tick(clock)
        assert older() is None
    finally:
        task.cancel()


def test_a_full_collection_is_due_after_enough_middle_ones(only_the_clock) -> None:
    assert collector.generation_due() == 0
    for _ in range(collector.MIDDLE_AFTER):
        gc.collect(0)
    assert collector.generation_due() == 1
    for _ in range(collector.FULL_AFTER):
        gc.collect(1)
    assert collector.generation_due() == 2
    gc.collect(2)
    assert collector.generation_due() == 0


def test_python_makes_no_full_collection_before_the_clock(only_the_clock) -> None:
    """A full collection holds a server for 100 ms and more: Python's own count must not
    bring one on before the clock's schedule does."""
    thresholds = gc.get_threshold()
    gc.set_threshold(*collector.GC_THRESHOLDS)
    try:
        # Many objects moved to the oldest generation since its last collection: what
        # makes Python collect it once its count of middle collections is past threshold.
        kept = [[] for _ in range(len(gc.get_objects()))]
        while gc.get_count()[2] < collector.FULL_AFTER - 1:
            gc.collect(1)
        assert collector.generation_due() != 2  # the clock would not collect it yet
        before = [generation["collections"] for generation in gc.get_stats()]
        gc.enable()
        made = [[] for _ in range(2 * collector.GC_THRESHOLDS[0])]  # past the young threshold
        gc.disable()
        after = [generation["collections"] for generation in gc.get_stats()]
        assert after[0] > before[0]  # Python collected on its own...
        assert after[2] == before[2]  # ...but not everything
        assert kept and made
    finally:
        gc.set_threshold(*thresholds)
