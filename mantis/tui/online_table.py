"""One place at a server table, as the app holds it: one reader, one sender, and messages.

``OnlineTable`` owns the table's connection (``net.client.TableConnection``)
for its whole life.  It is its one reader: a single worker iterates the
connection's events from the moment the table is followed until the
connection is closed, and turns each into a Textual message posted to the
screens listening (``listen``): the waiting room, then the board.  It is its
one sender: every intent (a move, talk, the host's controls, another game,
leaving) goes through ``send`` and is written, in order, by a single worker.

A screen listens from the moment it is made, and reads what came before
from the table (``stream``, ``talk`` and the room's state), so nothing is
missed and nothing is told twice; once closed, it hears nothing more.  When
a game's stream begins (the first game, or another at the same table), the
app is told (``GameStarted``) and opens a board for it.

Every finished game goes into this app's past games and statistics
(``store.finished``), including one this person left: leaving sends the
word, stops telling the screens, and keeps reading until the game's record
comes, then closes the connection and says that the game was kept.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.message_pump import MessagePump
from textual.worker import Worker

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
from ..net.client.people import people_line
from ..net.protocol.codes import shown_code
from ..table import Message as StreamMessage
from ..table import Recorded
from . import plain

if TYPE_CHECKING:
    from .shell import Shell

#: Seconds what was said may take to go out before the connection is closed anyway
#: (a server that stopped reading must not keep a closed table open).
SEND_BEFORE_CLOSING = 5.0


class OnlineTable:
    """This app's place at one server table: its seat there, or a spectator's view."""

    class Heard(Message):
        """Something the server said, for the screens showing the table (not the app)."""

        bubble = False

    class RoomChanged(Heard):
        """The seats, their connections or their ratings changed (read them off the table)."""

    class StreamGrew(Heard):
        """New messages of game ``game``'s stream, to show after the ones shown."""

        def __init__(self, game: int, messages: tuple[StreamMessage, ...]) -> None:
            super().__init__()
            self.game = game
            self.messages = messages

    class ClockHeard(Heard):
        """The turn clock runs for another turn (read it off the table)."""

    class OfferChanged(Heard):
        """An offer of another game was made, answered or closed (``closed``: why not)."""

        def __init__(self, closed: protocol.OfferClosed | None) -> None:
            super().__init__()
            self.closed = closed

    class Said(Heard):
        """Someone said a line at the table."""

        def __init__(self, said: protocol.Said) -> None:
            super().__init__()
            self.said = said

    class Refused(Heard):
        """The server said no to something this app asked (one line)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class ConnectionChanged(Heard):
        """This app's own connection: ``note`` says what is happening ("" once it is back)."""

        def __init__(self, note: str) -> None:
            super().__init__()
            self.note = note

    class GameStarted(Message):
        """A game's stream began at ``table`` (the first, or another): show its board."""

        def __init__(self, table: OnlineTable) -> None:
            super().__init__()
            self.table = table

    def __init__(self, connection: TableConnection, shell: Shell) -> None:
        self.connection = connection
        self.shell = shell
        self.game = 0
        """Games whose stream began while this app was here (the one on show: the last)."""
        self.talk: list[protocol.Said] = []
        """The lines said at the table since the game on show began (or since arriving)."""
        self.left = False
        """This person left the game for good; the table is read until its record comes."""
        self._listeners: list[MessagePump] = []
        self._outbox: asyncio.Queue[protocol.TableRequest] = asyncio.Queue()
        self._kept: set[str] = set()
        """The records of the games kept so far (a table may play several)."""
        self._workers: list[Worker[Any]] = []
        """The reader and the writer, once started."""
        self._closed = False

    # ------------------------------------------------------------------ what screens read

    @property
    def url(self) -> str:
        return self.connection.url

    @property
    def code(self) -> str | None:
        return self.connection.code

    @property
    def seat(self) -> int | None:
        """This app's seat (None: a spectator, or left)."""
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
    def stream(self) -> tuple[StreamMessage, ...]:
        """The stream of the game on show, as far as it came."""
        return tuple(self.connection.stream)

    def clock_left(self) -> tuple[protocol.Clock, float] | None:
        """The turn clock running for the position held, and its seconds left (if any)."""
        return self.connection.clock_left()

    def offer_left(self) -> float:
        """Seconds until the open offer of another game lapses (0 if none)."""
        return self.connection.offer_left()

    def listen(self, screen: MessagePump) -> None:
        """Tell ``screen`` what the server says from now on, until it closes."""
        self._listeners.append(screen)

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Start reading the connection and writing what is sent (once)."""
        if self._workers or self._closed:
            return
        self._workers = [
            self.shell.run_worker(self._read(), name="table reader", group="online"),
            self.shell.run_worker(self._write(), name="table writer", group="online"),
        ]

    def send(self, intent: protocol.TableRequest) -> None:
        """Say ``intent`` to the table (after everything sent before it)."""
        if not self._closed:
            self._outbox.put_nowait(intent)

    def leave_game(self) -> None:
        """Leave the game for good: say so, tell the screens nothing more, keep its record."""
        if self.left or self._closed:
            return
        self.send(protocol.Leave())
        self.left = True
        self._listeners.clear()
        if self.connection.record is not None:  # the game ended meanwhile: nothing to wait for
            self.close()

    def close(self) -> None:
        """Leave the table (a seat stays this app's: joining again takes it back)."""
        if self._closed:
            return
        self._closed = True
        self._listeners.clear()
        self.shell.run_worker(self._close(), group="online-close", exit_on_error=False)

    async def _close(self) -> None:
        with contextlib.suppress(TimeoutError):  # what was said goes first
            await asyncio.wait_for(self._outbox.join(), SEND_BEFORE_CLOSING)
        await self.connection.close()
        # The reader ends as the connection closes (or would try to reconnect, were it
        # waiting to): nobody reads this connection again, and nothing more is written.
        for worker in self._workers:
            worker.cancel()

    # ------------------------------------------------------------------ the reader

    async def _read(self) -> None:
        """Every event of the connection, for its whole life (the only reader it has)."""
        try:
            async for event in self.connection.events():
                self._take(event)
                if self.left and self.connection.record is not None:
                    break
        except OnlineError as exc:
            self._tell(self.ConnectionChanged(f"Online play stopped: {exc}"))
            if not self.left:
                plain.notify(
                    self.shell, f"Online play stopped: {exc}", severity="error", timeout=15
                )
        finally:
            if self.left:
                self.close()

    def _take(self, event: Event) -> None:
        _FOLLOWED[type(event)](self, event)

    def _stream_grew(self, event: StreamUpdate) -> None:
        self._keep_finished(event.messages)
        if self.game == 0 or event.reset:
            self.game += 1
            if event.reset:
                self.talk.clear()
            if not self.left and not self._closed:
                self.shell.post_message(self.GameStarted(self))
        else:
            self._tell(self.StreamGrew(self.game, event.messages))

    def _room_changed(self, event: object) -> None:
        self._tell(self.RoomChanged())

    def _clock_heard(self, event: protocol.Clock) -> None:
        self._tell(self.ClockHeard())

    def _offer_changed(self, event: protocol.Offer | protocol.OfferClosed) -> None:
        closed = event if isinstance(event, protocol.OfferClosed) else None
        self._tell(self.OfferChanged(closed))

    def _said(self, event: protocol.Said) -> None:
        self.talk.append(event)
        self._tell(self.Said(event))

    def _refused(self, event: protocol.Error) -> None:
        self._tell(self.Refused(event.message))

    def _round_trip(self, event: RoundTrip) -> None:
        if not self.left:
            self.shell.notify(f"Round trip to the server: {event.seconds * 1000:.0f} ms.")

    def _dropped(self, event: Dropped) -> None:
        self._tell(self.ConnectionChanged(f"{event.reason}: reconnecting in {event.retry_in:g} s…"))

    def _reconnected(self, event: Reconnected) -> None:
        self._tell(self.ConnectionChanged(""))
        if not self.left:
            self.shell.notify("Back online.", timeout=3)

    def ping(self) -> None:
        """Time a round trip to the server (told in a notification)."""
        self.send(self.connection.next_ping())

    def who(self) -> None:
        """Ask who is at the table (told in a notification)."""
        self.send(protocol.Who())

    def _people(self, event: protocol.People) -> None:
        if not self.left:
            self.shell.notify(people_line(event), timeout=8)

    def _tell(self, message: OnlineTable.Heard) -> None:
        """Post ``message`` to every screen listening (a closed one is let go)."""
        self._listeners = [screen for screen in self._listeners if screen.post_message(message)]

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

    def _keep_finished(self, messages: tuple[StreamMessage, ...]) -> None:
        for message in messages:
            if isinstance(message, Recorded) and message.record not in self._kept:
                self._kept.add(message.record)
                self.shell.run_worker(self._record(message.record), group="keep")

    async def _record(self, text: str) -> None:
        """Put the finished game in this app's past games and statistics (once)."""
        from ..engine import RecordError
        from ..store.finished import record_finished
        from ..store.stats import StatsError
        from ..table.outside_records import read_outside_record

        try:
            record = read_outside_record(text)  # (the server's: checked and cleaned first)
        except RecordError as exc:
            plain.notify(
                self.shell, f"The game's record could not be read: {exc}", severity="error"
            )
            return
        origin = f"{self.connection.url} {self.connection.code} {record.seed}"
        try:
            await asyncio.to_thread(record_finished, record, origin)
        except StatsError as exc:
            plain.notify(
                self.shell, f"Statistics not updated: {exc}", severity="warning", timeout=8
            )
            return
        if self.left:
            code = shown_code(self.connection.code or "?")
            plain.notify(
                self.shell,
                f"The game you left at table {code} is over: it is in your past games, "
                "counted as a loss.",
                timeout=10,
            )


_FOLLOWED: dict[type, Callable[[OnlineTable, Any], None]] = {
    StreamUpdate: OnlineTable._stream_grew,
    protocol.RoomState: OnlineTable._room_changed,
    protocol.Presence: OnlineTable._room_changed,
    protocol.Ratings: OnlineTable._room_changed,
    protocol.Clock: OnlineTable._clock_heard,
    protocol.Offer: OnlineTable._offer_changed,
    protocol.OfferClosed: OnlineTable._offer_changed,
    protocol.Said: OnlineTable._said,
    protocol.Error: OnlineTable._refused,
    protocol.People: OnlineTable._people,
    RoundTrip: OnlineTable._round_trip,
    Dropped: OnlineTable._dropped,
    Reconnected: OnlineTable._reconnected,
}
"""What the app does with each event of the connection (every kind ``Event`` has)."""
