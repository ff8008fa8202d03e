"""One place at a server's table, followed: one reader, one sender, typed changes, games kept.

``OnlineTable`` owns the table's connection (``net.client.TableConnection``)
for its whole life, whichever front end shows it.  It is its one reader: a
single task iterates the connection's events from the moment the table is
``start``-ed until it is closed, and tells each as a typed change
(``follow.changes``), with its data, to the front end that follows the table
(``tell``, which hears every change) and to whoever listens besides (a
screen showing the table: ``listen``).  It is its one sender: every intent
(a move, talk, the host's controls, another game, leaving) goes through
``send`` and is written, in order, by a single task.

Every finished game goes into this computer's past games and statistics
(``home.finished``) once, with its origin (the server, the table's code and
the seed), including one this person left: leaving sends the word and keeps
reading until the game's record comes.  How the tasks run is the front
end's: it hands a ``Runner`` (the app runs them as its workers).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, assert_never

from ..base.clock import within
from ..net import protocol
from ..net.client import (
    Dropped,
    Event,
    OnlineError,
    Reconnected,
    RoundTrip,
    StreamUpdate,
    TableConnection,
)
from ..net.protocol.codes import shown_code
from ..table import Message, Recorded
from . import changes
from .changes import Change

#: Seconds what was said may take to go out before the connection is closed anyway
#: (a server that stopped reading must not keep a closed table open), on the connection's
#: clock.
SEND_BEFORE_CLOSING = 5.0


class Running(Protocol):
    """A task a ``Runner`` started: it can be stopped."""

    def cancel(self) -> object: ...


Runner = Callable[[Coroutine[Any, Any, None], str], Running]
"""How a front end runs the table's tasks: the work, and a name for it."""


def run_task(work: Coroutine[Any, Any, None], name: str) -> Running:
    """Run ``work`` as a plain asyncio task (a front end without workers of its own)."""
    return asyncio.ensure_future(work)


Listener = Callable[[Change], bool]
"""Hears a change; False once it no longer listens (a closed screen)."""


class OnlineTable:
    """A place at one server table: its seat there, or a spectator's view."""

    def __init__(
        self,
        connection: TableConnection,
        tell: Callable[[Change], object],
        *,
        run: Runner = run_task,
    ) -> None:
        """``tell`` hears every change of the table, for as long as it is read."""
        self.connection = connection
        self._tell_owner = tell
        self._run = run
        self.game = 0
        """Games whose stream began while this table was followed (the one on show: the
        last)."""
        self.talk: list[protocol.Said] = []
        """The lines said at the table since the game on show began (or since arriving)."""
        self.left = False
        """This person left the game for good; the table is read until its record comes."""
        self._listeners: list[Listener] = []
        self._outbox: asyncio.Queue[protocol.TableRequest] = asyncio.Queue()
        self._kept: set[str] = set()
        """The records of the games kept so far (a table may play several)."""
        self._tasks: list[Running] = []
        self._closed = False
        self._close_once_kept = False

    # ------------------------------------------------------------------ what it holds

    @property
    def url(self) -> str:
        return self.connection.url

    @property
    def code(self) -> str | None:
        return self.connection.code

    @property
    def shown_code(self) -> str:
        """The table's code as people read it ("?" before the server named it)."""
        return shown_code(self.connection.code or "?")

    @property
    def seat(self) -> int | None:
        """This seat (None: a spectator)."""
        return self.connection.seat

    @property
    def room(self) -> protocol.RoomState | None:
        return self.connection.room

    @property
    def presence(self) -> tuple[str, ...]:
        return self.connection.presence

    @property
    def ratings(self) -> protocol.Ratings | None:
        return self.connection.ratings

    @property
    def offer(self) -> protocol.Offer | None:
        return self.connection.offer

    @property
    def stream(self) -> tuple[Message, ...]:
        """The stream of the game on show, as far as it came."""
        return tuple(self.connection.stream)

    @property
    def record(self) -> str | None:
        """The game on show's record line, once it is over and recorded."""
        return self.connection.record

    def clock_left(self) -> tuple[protocol.Clock, float] | None:
        """The turn clock running for the position held, and its seconds left (if any)."""
        return self.connection.clock_left()

    def offer_left(self) -> float:
        """Seconds until the open offer of another game lapses (0 if none)."""
        return self.connection.offer_left()

    def bots_left(self) -> float | None:
        """Seconds until bots take a quick-play table's open seats (None: no countdown)."""
        return self.connection.bots_left()

    def listen(self, listener: Listener) -> None:
        """Tell ``listener`` every change from now on, until it says it no longer listens
        (or this person leaves the game)."""
        self._listeners.append(listener)

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Start reading the connection and writing what is sent (once)."""
        if self._tasks or self._closed:
            return
        self._tasks = [self._run(self._read(), "table reader"), self._run(self._write(), "sender")]

    def send(self, intent: protocol.TableRequest) -> None:
        """Say ``intent`` to the table (after everything sent before it)."""
        if not self._closed:
            self._outbox.put_nowait(intent)

    def ping(self) -> None:
        """Time a round trip to the server (told as ``RoundTrip``)."""
        self.send(self.connection.next_ping())

    def who(self) -> None:
        """Ask who is at the table (told as ``People``)."""
        self.send(protocol.Who())

    def leave_game(self, *, listening: bool) -> None:
        """Leave the game for good (a bot plays the seat to its end); the table is read on
        until the game's record comes, to keep it.  ``listening``: the listeners hear the
        rest of the game; else they hear nothing more, and the table closes once the game
        is kept."""
        if self.left or self._closed:
            return
        self.send(protocol.Leave())
        self.left = True
        if not listening:
            self._listeners.clear()
            self._close_once_kept = True
            if self.connection.record is not None:  # over meanwhile: nothing to wait for
                self.close()

    def close(self) -> None:
        """Leave the table (a seat stays this person's: joining again takes it back)."""
        if self._closed:
            return
        self._closed = True
        self._listeners.clear()
        self._run(self._close(), "close")

    async def shut(self) -> None:
        """``close``, and return once the connection is closed."""
        if not self._closed:
            self._closed = True
            self._listeners.clear()
            await self._close()

    async def _close(self) -> None:
        with contextlib.suppress(TimeoutError):  # what was said goes first
            await within(self.connection.clock, SEND_BEFORE_CLOSING, self._outbox.join())
        await self.connection.close()
        # The reader ends as the connection closes (or would try to reconnect, were it
        # waiting to): nobody reads this connection again, and nothing more is written.
        for task in self._tasks:
            task.cancel()

    # ------------------------------------------------------------------ the reader

    async def _read(self) -> None:
        """Every event of the connection, for its whole life (the only reader it has)."""
        try:
            async for event in self.connection.events():
                self._take(event)
                if self._close_once_kept and self.connection.record is not None:
                    break
        except OnlineError as exc:
            self._tell(changes.Stopped(str(exc)))
        finally:
            if self._close_once_kept:
                self.close()

    def _take(self, event: Event) -> None:
        """Tell ``event`` as a change (every kind ``Event`` has: one left out fails mypy)."""
        match event:
            case StreamUpdate():
                self._stream_grew(event)
            case protocol.RoomState() | protocol.Presence() | protocol.Ratings():
                self._tell(changes.SeatsChanged(self.room, self.presence, self.ratings))
            case protocol.Clock():
                self._tell(changes.ClockRuns(event))
            case protocol.Offer() | protocol.OfferClosed():
                closed = event if isinstance(event, protocol.OfferClosed) else None
                self._tell(changes.OfferChanged(self.offer, closed))
            case protocol.Said():
                self.talk.append(event)
                self._tell(changes.Said(event))
            case protocol.Error():
                self._tell(changes.Refused(event.message))
            case protocol.People():
                self._tell(changes.People(event))
            case RoundTrip() | Dropped() | Reconnected():
                self._tell(event)  # (what the connection says of itself: told as it is)
            case _:
                assert_never(event)

    def _stream_grew(self, event: StreamUpdate) -> None:
        self._keep_finished(event.messages)
        if self.game == 0 or event.reset:
            self.game += 1
            if event.reset:
                self.talk.clear()
            self._tell(changes.GameBegan(self.game, self.stream, another=self.game > 1))
        else:
            self._tell(changes.StreamGrew(self.game, event.messages))

    def _tell(self, change: Change) -> None:
        """Tell ``change`` to the front end, then to every listener (one that no longer
        listens is let go)."""
        self._tell_owner(change)
        self._listeners = [listener for listener in self._listeners if listener(change)]

    # ------------------------------------------------------------------ the writer

    async def _write(self) -> None:
        """Every intent sent, in order (the only writer the connection has)."""
        while True:
            intent = await self._outbox.get()
            try:
                await self.connection.send(intent)
            finally:
                self._outbox.task_done()

    # ------------------------------------------------------------------ keeping the games

    def _keep_finished(self, messages: tuple[Message, ...]) -> None:
        for message in messages:
            if isinstance(message, Recorded) and message.record not in self._kept:
                self._kept.add(message.record)
                self._run(self._record(message.record), "keep")

    async def _record(self, text: str) -> None:
        """Put the finished game in this computer's past games and statistics (once)."""
        from ..engine import RecordError
        from ..home.finished import record_finished
        from ..home.stats import StatsError
        from ..table.outside_records import read_outside_record

        try:
            record = read_outside_record(text)  # (the server's: checked and cleaned first)
        except RecordError as exc:
            self._tell_owner(changes.NotKept(f"The game's record could not be read: {exc}"))
            return
        origin = f"{self.connection.url} {self.connection.code} {record.seed}"
        try:
            await asyncio.to_thread(record_finished, record, origin)
        except StatsError as exc:
            self._tell_owner(changes.NotKept(f"Statistics not updated: {exc}"))
            return
        self._tell_owner(changes.GameKept(self.left, self.shown_code))
