"""The lists a table server gives over plain HTTP: its public tables and its leaderboard.

``list_tables`` reads ``GET /tables?page=N``, ``leaderboard`` reads
``GET /leaderboard?page=N``, each a page at a time (a server that does not
say how many there are, an older one, has one page); either raises
``OnlineError`` with one line if the server cannot say.
"""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from dataclasses import dataclass

import msgspec

from . import OnlineError, check_url, why


class ListedSeat(msgspec.Struct, frozen=True):
    name: str
    kind: str
    taken: bool


class ListedTable(msgspec.Struct, frozen=True):
    """A public table as the server lists it (``GET /tables``)."""

    code: str
    state: str
    moves: int
    seats: tuple[ListedSeat, ...]
    clock: int | None = None
    """Seconds a person has per move (None: no turn clock; a server of version 1 says none)."""
    quick: bool = False

    @property
    def open_seats(self) -> int:
        return sum(1 for seat in self.seats if not seat.taken)


@dataclass(frozen=True, slots=True)
class TablePage:
    """One page of a server's public tables (``GET /tables?page=N``)."""

    tables: tuple[ListedTable, ...]
    page: int
    """This page's number, from 1."""
    pages: int
    """How many pages there are now (at least 1)."""
    total: int
    """Public tables on the server now."""


class Leader(msgspec.Struct, frozen=True):
    """A player on a server's leaderboard (``GET /leaderboard``)."""

    rank: int
    name: str
    rating: int
    plus_minus: int
    provisional: bool
    games: int
    wins: int = 0


@dataclass(frozen=True, slots=True)
class LeaderPage:
    """One page of a server's leaderboard."""

    leaders: tuple[Leader, ...]
    page: int
    pages: int
    total: int
    """Players on the leaderboard now."""


_listing = msgspec.json.Decoder(list[ListedTable])
_leaders = msgspec.json.Decoder(list[Leader])


async def _page(
    url: str, path: str, page: int, timeout: float
) -> tuple[bytes, int | None, int | None]:
    """A page of a server's plain-HTTP list: its body, and the total and page size it says."""
    address = check_url(url).replace("ws://", "http://", 1).replace("wss://", "https://", 1)

    def fetch() -> tuple[bytes, str | None, str | None]:
        where = f"{address}{path}?page={page}"
        with urllib.request.urlopen(where, timeout=timeout) as reply:  # noqa: S310
            data: bytes = reply.read(1 << 20)
            return data, reply.headers.get("X-Total-Count"), reply.headers.get("X-Page-Size")

    try:
        data, total_header, size_header = await asyncio.to_thread(fetch)
    except urllib.error.HTTPError as exc:
        raise OnlineError(
            "unreachable", f"{url} is not a Mantis server (HTTP {exc.code})"
        ) from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise OnlineError("unreachable", f"cannot reach {url}: {why(reason)}") from None
    return data, _count(total_header), _count(size_header)


async def list_tables(url: str, page: int = 1, timeout: float = 5.0) -> TablePage:
    """Page ``page`` of the server's public tables; ``OnlineError`` (one line) if it cannot say.

    A server that does not say how many there are (an older one) has one page.
    """
    data, total, size = await _page(url, "/tables", page, timeout)
    try:
        tables = tuple(_listing.decode(data))
    except (msgspec.ValidationError, msgspec.DecodeError):
        raise OnlineError("bad_reply", f"{url} did not answer like a Mantis server") from None
    if total is None or not size:
        return TablePage(tables, 1, 1, len(tables))
    return TablePage(tables, page, max(1, -(-total // size)), total)


async def leaderboard(url: str, page: int = 1, timeout: float = 5.0) -> LeaderPage:
    """Page ``page`` of the server's leaderboard; ``OnlineError`` (one line) if it cannot say
    (a server from before ratings has none)."""
    data, total, size = await _page(url, "/leaderboard", page, timeout)
    try:
        leaders = tuple(_leaders.decode(data))
    except (msgspec.ValidationError, msgspec.DecodeError):
        raise OnlineError("bad_reply", f"{url} did not answer like a Mantis server") from None
    if total is None or not size:
        return LeaderPage(leaders, 1, 1, len(leaders))
    return LeaderPage(leaders, page, max(1, -(-total // size)), total)


def _count(header: str | None) -> int | None:
    """A header's whole number (None if there is none, or it is not one)."""
    if header is None or not header.strip().isdigit() or len(header.strip()) > 9:
        return None
    return int(header.strip())
