"""``GET /leaderboard``: the players rated on a server, a page at a time, within its share.

A page deep in a big board is the costliest read a server makes, and anyone
may ask for any page.  So: a page is read from the store at most once every
``LEADERBOARD_AGE`` seconds (the most recent ``PAGES_KEPT`` pages are kept,
least recently asked for dropped first; several asking for a page being
read wait for that one read); the number of players is known (read at most
that often too), so a page past the last is refused without a query; and
the store reads on a connection of its own (``TableStore.leaderboard``), so
a page never waits behind a move's commit, nor holds one up.  The server
also limits how often one address group asks (``HTTP_RATE``), and however
many ask, it reads at most ``READS_PER_SECOND`` pages it does not hold a
second (a page deep in a board of 300,000 takes some 50 ms of a core): past
that, ``503`` with ``Retry-After``, and the pages it holds are still served.
A refusal is answered once its wait is over (``Page.hold``): a client that
asks again at once, as fast as it can, waits as it should have, rather than
costing the server a flood of refusals.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections import OrderedDict
from dataclasses import dataclass, replace
from http import HTTPStatus

from ....base.clock import Clock
from ....store.tables_interface import StoreError, TableStore
from ..token_bucket import TokenBucket

#: Players in one page.
LEADERBOARD_PAGE = 50
#: Seconds a page (and the number of players) is reused: a page costs a read at most this
#: often, and a rating that moved shows within this long.
LEADERBOARD_AGE = 5.0
#: Pages kept for reuse at most.
PAGES_KEPT = 100
#: Pages read from the store a second at most, however many ask (and at once).
READS_PER_SECOND, READS_BURST = 4.0, 8.0
#: Seconds a refusal is held back at most.
HOLD_MOST = 2.0


class _Busy(Exception):
    """No read is left this second: try again in ``wait`` seconds."""

    def __init__(self, wait: float) -> None:
        super().__init__(wait)
        self.wait = wait


@dataclass(frozen=True, slots=True)
class Page:
    """An answer: its status, its body and its headers."""

    status: HTTPStatus
    body: bytes
    content_type: str
    headers: tuple[tuple[str, str], ...] = ()
    hold: float = 0.0
    """Seconds to hold the answer back (a refusal waits out its wait: asking again at once
    costs the asker the wait, not the server a flood of refusals)."""


def _text(status: HTTPStatus, line: str, headers: tuple[tuple[str, str], ...] = ()) -> Page:
    return Page(status, (line + "\n").encode(), "text/plain; charset=utf-8", headers)


class LeaderboardPages:
    """Pages of ``store``'s leaderboard, kept a while (on ``clock``)."""

    def __init__(self, store: TableStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._pages: OrderedDict[int, tuple[float, bytes]] = OrderedDict()
        self._reading: dict[int, asyncio.Future[bytes]] = {}
        self._total: tuple[float, int] | None = None
        """When the number of players was last read, and what it was."""
        self._reads = TokenBucket(READS_PER_SECOND, READS_BURST, clock.now())

    async def page(self, number: int) -> Page:
        """Page ``number`` (from 1; 0: not a page number) of the leaderboard."""
        if number < 1:
            return _text(HTTPStatus.BAD_REQUEST, "Bad request: page is a whole number from 1")
        try:
            total = await self._count()
            pages = max(1, -(-total // LEADERBOARD_PAGE))
            counted = (("X-Total-Count", str(total)), ("X-Page-Size", str(LEADERBOARD_PAGE)))
            if number > pages:
                return _text(
                    HTTPStatus.NOT_FOUND,
                    f"Not found: the leaderboard has {pages} page{'s' * (pages != 1)}",
                    counted,
                )
            body = await self._body(number)
        except _Busy as busy:
            wait = str(max(1, math.ceil(busy.wait)))
            answer = _text(
                HTTPStatus.SERVICE_UNAVAILABLE,
                f"The leaderboard is busy: try again in {wait} s",
                (("Retry-After", wait),),
            )
            return replace(answer, hold=min(busy.wait, HOLD_MOST))
        except StoreError as exc:
            return _text(
                HTTPStatus.SERVICE_UNAVAILABLE, f"The server's store cannot answer now: {exc}"
            )
        links = [f'</leaderboard?page={number + 1}>; rel="next"'] if number < pages else []
        if number > 1:
            links.append(f'</leaderboard?page={number - 1}>; rel="prev"')
        headers = counted + ((("Link", ", ".join(links)),) if links else ())
        return Page(HTTPStatus.OK, body, "application/json", headers)

    async def _count(self) -> int:
        now = self.clock.now()
        if self._total is None or now - self._total[0] >= LEADERBOARD_AGE:
            _, total = await self.store.leaderboard(0, 0)
            self._total = (now, total)
        return self._total[1]

    async def _body(self, number: int) -> bytes:
        now = self.clock.now()
        kept = self._pages.get(number)
        if kept is not None and now - kept[0] < LEADERBOARD_AGE:
            self._pages.move_to_end(number)
            return kept[1]
        reading = self._reading.get(number)
        if reading is not None:
            return await asyncio.shield(reading)
        if not self._reads.allow(now):
            raise _Busy(self._reads.wait(now))
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._reading[number] = future
        try:
            body = await self._read(number)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # (read: nobody else may be waiting)
            raise
        finally:
            del self._reading[number]
        future.set_result(body)
        self._pages[number] = (now, body)
        self._pages.move_to_end(number)
        while len(self._pages) > PAGES_KEPT:
            self._pages.popitem(last=False)
        return body

    async def _read(self, number: int) -> bytes:
        start = (number - 1) * LEADERBOARD_PAGE
        players, total = await self.store.leaderboard(start, LEADERBOARD_PAGE)
        self._total = (self.clock.now(), total)
        rows = [
            {
                "rank": start + i + 1,
                "name": player.name,
                "games": player.games,
                "wins": player.wins,
                "low": player.rating.low,
                **player.rating.to_json(),
            }
            for i, player in enumerate(players)
        ]
        return json.dumps(rows).encode()
