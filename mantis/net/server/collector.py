"""When a server's garbage collector runs: rarely on its own, and by the clock.

Python's collector walks every object of the generations it collects, and
the event loop waits meanwhile: every move in flight waits with it.  A
server holds many long-lived objects (connections, games), so its
thresholds are raised and what is loaded at start is set aside
(``gc.freeze``): with Python's defaults a full collection took 120-190 ms
and a middle one 15-20 ms, several times a minute at 500 tables.

That alone is not enough once a server has run a while.  Python starts a
young collection when the objects made since the last one, *less the
objects freed* (of any age), pass the first threshold.  A server in a
steady state frees old objects (games that ended minutes ago) about as
fast as it makes new ones, so that count hardly moves: in
``benchmarks/server.py`` (two nodes, 500 tables, after a 90 s warm-up) the
young generation grew to about 100,000 objects between collections 10-15 s
apart, and each collection held the loop 60-120 ms.  ``collect_on_time``
collects the young generation every ``YOUNG_EVERY`` instead, while it is
small, and the older generations on a schedule of its own.
"""

from __future__ import annotations

import gc

from ...base.clock import Clock

#: Seconds between two young collections made by the clock.
YOUNG_EVERY = 0.25

#: Young collections between two middle ones made by the clock (a second): a middle
#: collection walks what the young ones kept since the last, so the more often, the
#: shorter (every 20, as Python's threshold would have it, held the loop 30-60 ms).
MIDDLE_AFTER = 4

#: Middle collections between two full ones made by the clock (about five minutes): a
#: full collection walks every object the server holds (130-300 ms at 500 tables).
FULL_AFTER = 300

#: Python's thresholds for a server: young objects before a young collection (Python's
#: default: 700), young collections before a middle one, middle ones before a full one.
#: The last is well past ``FULL_AFTER``: at 100, Python's own count would bring a full
#: collection (100-300 ms at 500 tables) after under two minutes, as soon as a crowd made
#: it collect the young generation itself; the clock's schedule comes first now.
GC_THRESHOLDS = (20_000, 20, 10 * FULL_AFTER)


def tune_garbage_collector() -> None:
    """Collect less often, and never what is loaded so far (call once, at start)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def generation_due() -> int:
    """The oldest generation the clock's next collection takes in."""
    _, young_collections, middle_collections = gc.get_count()
    if middle_collections >= FULL_AFTER:
        return 2
    return 1 if young_collections >= MIDDLE_AFTER else 0


def collections_made() -> int:
    """Collections of any generation made so far (Python's own and ``gc.collect``'s)."""
    return sum(generation["collections"] for generation in gc.get_stats())


async def collect_on_time(clock: Clock, every: float = YOUNG_EVERY) -> None:
    """Every ``every`` seconds, a collection while the young generation is small, unless
    Python made one meanwhile (run as a task for as long as the server runs)."""
    made = collections_made()
    while True:
        await clock.sleep(every)
        # While a server grows (a crowd sitting down), Python's own count collects
        # often enough: one more collection would only lengthen the pauses.
        if collections_made() == made:
            gc.collect(generation_due())
        made = collections_made()
