"""The directory: what a server knows across its tables (and, in a cluster, across nodes).

Table codes in use (so no two tables ever share one), every node's public
tables (``GET /tables`` and the lobby), the quick-play tables waiting for
people (so two people asking at once, on any node, sit at one table),
notes a table leaves for whichever node runs it next (an offer of another
game, when bots fill a quick-play table), and counts kept per key with an
expiry — wrong-code guesses per address, and
whatever else a limit needs counted across the whole server (tables or
connections per address, new names a day, allowances of talk and pages).
A limit's count is taken in one step with the look at it (``take_hit``,
``take_token``, ``add``): callers at once never all pass it.
Nothing here must last: a directory lost is rebuilt by the nodes as they
go on.  ``LocalDirectory`` keeps it in this process (one node);
``RedisDirectory`` shares it between nodes.
"""

from __future__ import annotations

import itertools
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from ...base.clock import Clock
from .token_bucket import TokenBucket

T = TypeVar("T")

log = logging.getLogger("mantis.server")

Listing = dict[str, Any]
"""One public table as ``GET /tables`` shows it (code, state, moves, seats)."""

#: Keys a local directory remembers at most (memory stays bounded whatever the traffic).
MAX_KEYS = 100_000


@dataclass(frozen=True, slots=True)
class Hits:
    """Events counted under a key within a window."""

    count: int
    """How many happened within the window."""
    clears_in: float
    """Seconds until the oldest of them leaves the window (0 when there are none)."""


@dataclass(frozen=True, slots=True)
class Reserved:
    """What asking for one more event under a key within a limit came to."""

    receipt: str | None
    """The event taken (``give_hit`` gives it back by this), or None: refused."""
    hits: Hits
    """The events within the window, the one taken included."""


class Directory(Protocol):
    """What spans tables: codes, the public list, counts with an expiry."""

    async def reserve_code(self, code: str) -> bool:
        """Take ``code`` for a new table; False if a table holds it already."""
        ...

    async def release_code(self, code: str) -> None:
        """The table holding ``code`` is gone: the code may be given out again."""
        ...

    async def share_listing(
        self, node: str, changed: Mapping[str, Listing], gone: Collection[str], whole: bool
    ) -> bool:
        """Change ``node``'s public tables: ``changed`` (by code) are new or changed, the
        codes in ``gone`` are listed no more; ``whole``: ``changed`` is the whole list
        (anything else is dropped).  Each share keeps the list a while longer.  False if
        the list was gone before this share (never shared, expired or forgotten): it
        holds only ``changed`` now, and should be shared whole."""
        ...

    async def listing(self, but: str | None = None) -> list[Listing]:
        """Every node's public tables (``but`` one node's: it knows its own)."""
        ...

    async def quick_seat(self, players: int, fresh: str | None) -> tuple[str, bool] | None:
        """A seat at a quick-play table of ``players`` seats, counted taken at once.

        The oldest table offered with a free seat: (its code, False); if there
        is none, ``fresh`` (a code reserved by the caller) is offered from now
        on as a new table with every seat but this one free: (``fresh``,
        True) — or, without ``fresh`` (the caller may not open a table), None.
        One step, so two people asking at once never open two tables.
        """
        ...

    async def quick_free(self, code: str, seats: int, free: int) -> None:
        """Quick-play table ``code`` (of ``seats``) has ``free`` seats now (0: not offered)."""
        ...

    async def put_note(self, key: str, text: str, ttl: float) -> None:
        """Keep ``text`` under ``key`` for ``ttl`` seconds (replacing what was there)."""
        ...

    async def note(self, key: str) -> str | None:
        """The text kept under ``key`` (None if none, or expired)."""
        ...

    async def drop_note(self, key: str) -> None:
        """Forget the text under ``key``."""
        ...

    async def hits(self, key: str, window: float) -> Hits:
        """The events under ``key`` within the last ``window`` seconds."""
        ...

    async def take_hit(self, key: str, window: float, most: int) -> Reserved:
        """One event under ``key`` now, unless ``most`` are within the last ``window``
        seconds already: checked and taken in one step, so callers at once never take
        more than ``most`` between them."""
        ...

    async def give_hit(self, key: str, receipt: str) -> None:
        """The event ``take_hit`` took (its ``receipt``) did not come to be: forget it."""
        ...

    async def take_token(self, key: str, rate: float, burst: float) -> float:
        """One token of the bucket under ``key`` (``rate`` a second, ``burst`` at most),
        checked and taken in one step: 0 if taken, else the seconds until one will be."""
        ...

    async def give_token(self, key: str, rate: float, burst: float) -> None:
        """Put back a token ``take_token`` took (what it was for did not happen)."""
        ...

    async def add(self, key: str, delta: int, ttl: float) -> int:
        """Add ``delta`` to the count under ``key``; its new value.

        The count is forgotten ``ttl`` seconds after its last change (so a
        node that dies without taking its part back does not leave it for
        good).
        """
        ...

    async def count(self, key: str) -> int:
        """The count under ``key`` (0 if none, or forgotten)."""
        ...

    async def close(self) -> None:
        """Let go of whatever the directory holds open."""
        ...


NOTE_MARGIN = 30.0
"""Seconds a note outlives what it notes (a node taking over reads it, then sees it lapsed)."""

NoteKind = Literal["offer", "fill"]
"""What a table notes: its open offer of another game, when bots fill its quick-play seats."""


class TableNotes:
    """One table's notes in a directory, by kind: the directory away loses a note only
    (said in the log), never the table."""

    def __init__(self, directory: Directory, code: str) -> None:
        self.directory = directory
        self.code = code

    def _key(self, kind: NoteKind) -> str:
        return f"{kind}:{self.code}"

    async def put(self, kind: NoteKind, text: str, lasts: float) -> None:
        """Keep ``text`` for what lasts ``lasts`` seconds more (and ``NOTE_MARGIN``)."""
        await self._noted(self.directory.put_note(self._key(kind), text, lasts + NOTE_MARGIN))

    async def read(self, kind: NoteKind) -> str | None:
        return await self._noted(self.directory.note(self._key(kind)))

    async def drop(self, kind: NoteKind) -> None:
        await self._noted(self.directory.drop_note(self._key(kind)))

    async def _noted(self, work: Awaitable[T]) -> T | None:
        try:
            return await work
        except Exception as exc:
            log.warning("table %s: a note was lost (the directory is away: %s)", self.code, exc)
            return None


class LocalDirectory:
    """The directory of a server that is one process: plain dictionaries, on ``clock``."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._codes: set[str] = set()
        self._listings: dict[str, dict[str, Listing]] = {}
        self._hits: dict[str, deque[tuple[float, str]]] = {}
        """key -> (when, receipt) of each event, oldest first."""
        self._counts: dict[str, tuple[int, float]] = {}
        """key -> (count, when it is forgotten)."""
        self._quick: dict[str, tuple[int, int]] = {}
        """Quick-play tables offered, oldest first: code -> (seats, free seats)."""
        self._notes: dict[str, tuple[str, float]] = {}
        """key -> (text, when it is forgotten)."""
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        """key -> its allowance, least recently used first."""
        self._receipts = itertools.count(1)

    async def reserve_code(self, code: str) -> bool:
        if code in self._codes:
            return False
        self._codes.add(code)
        return True

    async def release_code(self, code: str) -> None:
        self._codes.discard(code)

    async def share_listing(
        self, node: str, changed: Mapping[str, Listing], gone: Collection[str], whole: bool
    ) -> bool:
        kept = node in self._listings
        if whole or not kept:
            self._listings[node] = {}
        tables = self._listings[node]
        tables.update(changed)
        for code in gone:
            tables.pop(code, None)
        return kept

    async def listing(self, but: str | None = None) -> list[Listing]:
        found = (tables for node, tables in self._listings.items() if node != but)
        return [table for tables in found for table in tables.values()]

    async def quick_seat(self, players: int, fresh: str | None) -> tuple[str, bool] | None:
        for code, (seats, free) in self._quick.items():
            if seats == players and free > 0:
                self._quick[code] = (seats, free - 1)
                return code, False
        if fresh is None:
            return None
        self._quick[fresh] = (players, players - 1)
        return fresh, True

    async def quick_free(self, code: str, seats: int, free: int) -> None:
        if free <= 0:
            self._quick.pop(code, None)
        else:
            self._quick[code] = (seats, free)  # (one offered again comes last: the newest)

    async def put_note(self, key: str, text: str, ttl: float) -> None:
        if len(self._notes) > MAX_KEYS:
            now = self.clock.now()
            self._notes = {k: v for k, v in self._notes.items() if v[1] > now}
        self._notes[key] = (text, self.clock.now() + ttl)

    async def note(self, key: str) -> str | None:
        entry = self._notes.get(key)
        if entry is None or entry[1] <= self.clock.now():
            self._notes.pop(key, None)
            return None
        return entry[0]

    async def drop_note(self, key: str) -> None:
        self._notes.pop(key, None)

    def _remember(self, key: str) -> str:
        if len(self._hits) > MAX_KEYS:
            self._hits.clear()
        receipt = str(next(self._receipts))
        self._hits.setdefault(key, deque()).append((self.clock.now(), receipt))
        return receipt

    async def hits(self, key: str, window: float) -> Hits:
        return self._within(key, window)

    def _within(self, key: str, window: float) -> Hits:
        events = self._hits.get(key)
        if not events:
            return Hits(0, 0.0)
        now = self.clock.now()
        while events and events[0][0] <= now - window:
            events.popleft()
        if not events:
            del self._hits[key]
            return Hits(0, 0.0)
        return Hits(len(events), events[0][0] + window - now)

    async def take_hit(self, key: str, window: float, most: int) -> Reserved:
        # No await between the look and the take: nothing else runs in between.
        hits = self._within(key, window)
        if hits.count >= most:
            return Reserved(None, hits)
        receipt = self._remember(key)
        return Reserved(receipt, self._within(key, window))

    async def give_hit(self, key: str, receipt: str) -> None:
        events = self._hits.get(key)
        if events:
            kept = deque(event for event in events if event[1] != receipt)
            if kept:
                self._hits[key] = kept
            else:
                del self._hits[key]

    def _bucket(self, key: str, rate: float, burst: float) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(rate, burst, self.clock.now())
            if len(self._buckets) > MAX_KEYS:  # (one forgotten starts full: it only allows more)
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket

    async def take_token(self, key: str, rate: float, burst: float) -> float:
        bucket, now = self._bucket(key, rate, burst), self.clock.now()
        return 0.0 if bucket.allow(now) else bucket.wait(now)

    async def give_token(self, key: str, rate: float, burst: float) -> None:
        self._bucket(key, rate, burst).give_back()

    async def add(self, key: str, delta: int, ttl: float) -> int:
        if len(self._counts) > MAX_KEYS:
            self._forget_expired()
        value = await self.count(key) + delta
        self._counts[key] = (value, self.clock.now() + ttl)
        return value

    async def count(self, key: str) -> int:
        entry = self._counts.get(key)
        if entry is None:
            return 0
        if entry[1] <= self.clock.now():
            del self._counts[key]
            return 0
        return entry[0]

    def _forget_expired(self) -> None:
        now = self.clock.now()
        self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
        if len(self._counts) > MAX_KEYS:
            self._counts.clear()

    async def close(self) -> None:
        pass
