"""The plain HTTP pages a table server answers on its WebSocket port.

``GET /status`` (the server's figures; on a cluster every live node's added
up), ``/tables`` (the public tables, a page at a time) and ``/leaderboard``
(``leaderboard_pages``).  The two costly ones are within each address
group's share (``HTTP_RATE``, ``HTTP_BURST``), one across a cluster (kept in
the directory, taken in one step); a WebSocket upgrade passes on to the
server.

``PlainPages`` is handed what it reads: the rooms this process runs, the
other nodes' public tables and figures (each a call that answers even with
Redis away), the store (for the leaderboard), the clock and how to tell a
request's address group.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Awaitable, Callable, Mapping
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from ....base.clock import Clock
from ....store.tables_interface import RoomPhase, TableStore
from ..directory import Directory, Listing
from ..limits.addresses import ClientAddresses
from ..limits.allowances import SharedAllowances
from ..room.room import Room
from .leaderboard_pages import LeaderboardPages
from .plain_http import respond

#: Plain pages (``/tables``, ``/leaderboard``) one address group may ask for: two a
#: second on average, twenty at once (a page of a big leaderboard is a costly read).
HTTP_RATE, HTTP_BURST = 2.0, 20.0
#: Seconds a refused page is held back at most (its wait, or this).
PAGE_HOLD_MOST = 2.0
#: Public tables in one page of ``GET /tables``.
PAGE_SIZE = 50
#: Seconds the order of the public tables is reused for ``GET /tables`` pages.
LISTING_AGE = 1.0

_TEXT = "text/plain; charset=utf-8"
_PAGE_NUMBER = re.compile("[0-9]{1,8}")
"""A page number as a query writes it: ASCII digits, at most eight."""


class PlainPages:
    """``/status``, ``/tables`` and ``/leaderboard``, and what each keeps between requests."""

    def __init__(
        self,
        rooms: Mapping[str, Room],
        store: TableStore,
        directory: Directory,
        clock: Clock,
        addresses: ClientAddresses,
        *,
        status: Callable[[], Awaitable[dict[str, Any]]],
        listed_elsewhere: Callable[[], Awaitable[list[Listing]]],
    ) -> None:
        """Pages of ``rooms`` (those of this process); ``status``: ``/status``'s figures;
        ``listed_elsewhere``: the other nodes' public tables (none if there are none)."""
        self.rooms = rooms
        self.clock = clock
        self.addresses = addresses
        self.status = status
        self.listed_elsewhere = listed_elsewhere
        self.leaders = LeaderboardPages(store, clock)
        self.asked = SharedAllowances(directory, "pages:", HTTP_RATE, HTTP_BURST, clock)
        """Plain pages each address group may ask for."""
        self._order: list[Room | Listing] = []
        self._order_at: float | None = None

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        """``/status``, ``/tables`` and ``/leaderboard`` for browsers and scripts (the costly
        two within each address group's share); WebSocket upgrades pass."""
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        path, _, query = request.path.partition("?")
        if path not in ("/status", "/tables", "/leaderboard"):
            text = b"Not found: try /status, /tables or /leaderboard\n"
            return respond(request, HTTPStatus.NOT_FOUND, text, _TEXT)
        if path != "/status":
            group = self.addresses.group(
                str(connection.remote_address[0]) if connection.remote_address else "",
                request.headers.get_all("X-Forwarded-For"),
            )
            wait = await self.asked.take(group)
            if wait > 0:
                # Answered once the wait is over: asking again at once only waits longer.
                await self.clock.sleep(min(wait, PAGE_HOLD_MOST))
                wait = max(1, math.ceil(wait))
                said = f"Too many requests from your address: try again in {wait} s\n"
                return respond(
                    request,
                    HTTPStatus.TOO_MANY_REQUESTS,
                    said.encode(),
                    _TEXT,
                    [("Retry-After", str(wait))],
                )
        if path == "/tables":
            return await self._tables_page(request, query)
        if path == "/leaderboard":
            page = await self.leaders.page(_page_number(query))
            if page.hold:
                await self.clock.sleep(page.hold)
            return respond(request, page.status, page.body, page.content_type, list(page.headers))
        body = await self.status()
        return respond(request, HTTPStatus.OK, json.dumps(body).encode(), "application/json")

    async def _tables_page(self, request: Request, query: str) -> Response:
        """One page of the public tables (``?page=N``, from 1): ``PAGE_SIZE`` at most.

        The order of the tables is taken at most once a ``LISTING_AGE``, and a
        page is built from its own tables only: a request costs the same with
        ten tables or ten thousand, and play never waits for a whole list.
        """
        number = _page_number(query)
        if number < 1:
            text = b"Bad request: page is a whole number from 1\n"
            return respond(request, HTTPStatus.BAD_REQUEST, text, _TEXT)
        order = await self._listing_order()
        start = (number - 1) * PAGE_SIZE
        page = [
            entry.listing() if isinstance(entry, Room) else entry
            for entry in order[start : start + PAGE_SIZE]
        ]
        count = max(1, -(-len(order) // PAGE_SIZE))
        links = [f'</tables?page={number + 1}>; rel="next"'] if number < count else []
        if number > 1:
            links.append(f'</tables?page={min(number - 1, count)}>; rel="prev"')
        headers = [("X-Total-Count", str(len(order))), ("X-Page-Size", str(PAGE_SIZE))]
        if links:
            headers.append(("Link", ", ".join(links)))
        body = json.dumps(page).encode()
        return respond(request, HTTPStatus.OK, body, "application/json", headers)

    async def _listing_order(self) -> list[Room | Listing]:
        """Every public table in the order pages show them (taken anew once it is stale)."""
        now = self.clock.now()
        if self._order_at is None or now - self._order_at >= LISTING_AGE:
            here: list[Room | Listing] = [
                room for room in self.rooms.values() if not room.rules.private and room.table_id
            ]
            elsewhere = await self.listed_elsewhere()
            # (sorted is stable: within a rank, this node's oldest first, then the others')
            self._order, self._order_at = sorted([*here, *elsewhere], key=_listing_rank), now
        return self._order


def _page_number(query: str) -> int:
    """The ``page`` a query asks for (1 if none; 0 if it is not a whole number from 1).

    ASCII digits only: ``str.isdigit`` is true for ``²`` and ``١`` too, which ``int``
    refuses or reads as another number."""
    pages = parse_qs(query).get("page", ["1"])
    return int(pages[-1]) if _PAGE_NUMBER.fullmatch(pages[-1]) else 0


def _listing_rank(entry: Room | Listing) -> int:
    """Where a table (here, or another node's listing) comes in the list: seats to take
    first, then games on, then over."""
    if isinstance(entry, Room):
        state, open_seat = entry.phase_name.value, any(not seat.taken for seat in entry.seats)
    else:
        state, open_seat = entry["state"], any(not seat["taken"] for seat in entry["seats"])
    if state == RoomPhase.WAITING.value:
        return 0 if open_seat else 1
    return 2 if state == RoomPhase.PLAYING.value else 3
