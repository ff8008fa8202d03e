"""The client side of online play: one place at a server table, kept across dropped connections.

``TableConnection.open()`` connects, says its hello (``create``, ``join``,
``watch`` or ``quick``) and waits for ``welcome`` (or raises ``OnlineError``
with one clear line).  From then on ``events()`` yields what the server says,
in order, and never ends on a dropped connection: it reconnects by itself
(back-off capped at 5 s, on the ``Clock`` it is handed), joins again with the
seat's token, and yields only the part of the
stream it had not seen.  An intent sent while the connection is down is sent
again once it is back; the server ignores a repeat, so it is never played
twice.  A refusal that says when to try again (``retry_after``: too many
wrong codes from this address, say) is waited out, then tried again.  It
speaks protocol version 6: besides the stream it hears the turn clock, offers
of another game, talk and ratings, times a round trip to the server
(``next_ping``: a ``RoundTrip`` event), asks who is at the table (``who``,
answered ``people``), and it proves it holds this app's
player key for the server (``key_proof``) without ever sending it.  What it
keeps of each kind the server says, and the event it yields, is one ``match``
over the protocol's union (``_heard``), as is what it keeps of each request
it sends (``_sending``): a kind left out of either is a type error (mypy).
``key_rotation.rotate_key`` replaces that key by a new one, at the server and here;
where the key holds seats (version 6's ``my_tables``) is asked on a connection
of its own (``games_in_progress``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import assert_never

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ...base.clock import SYSTEM_CLOCK, Clock, within
from ...engine import CardRevealed, GameOver, TurnStarted
from ...home.player_keys import KeyFileError, PlayerKeys
from ...home.seat_tokens import SeatTokens
from ...table import Message, Recorded
from .. import protocol
from ..protocol import key_proof

#: Seconds between reconnection attempts: doubling, never more than 5.
BACKOFF_START, BACKOFF_MAX = 0.25, 5.0
#: Seconds to wait for the server to answer the opening message.
OPEN_TIMEOUT = 10.0
VERIFIER_ASKED = "verifier_asked"
"""The client's own error: a server that knows this app's key asked for its verifier."""
#: Errors after which reconnecting cannot help (unless the server says when it may).
FINAL_ERRORS = frozenset(
    {
        protocol.VERSION,
        protocol.UNKNOWN_CODE,
        protocol.BAD_TOKEN,
        protocol.TABLE_FULL,
        protocol.SEAT_IN_USE,
        protocol.BAD_SEATS,
        protocol.TOO_MANY_GUESSES,
        protocol.BAD_MESSAGE,
        protocol.SEAT_LEFT,
        protocol.TOO_MANY_TABLES,
        protocol.NAME_TAKEN,
        protocol.SAME_PLAYER,
        protocol.TOO_MANY_NAMES,
        protocol.BAD_PROOF,
        protocol.UNKNOWN_KEY,
        "key_file",
        VERIFIER_ASKED,
    }
)
#: The longest wait a server's ``retry_after`` is taken for (a bigger one: this long).
MAX_RETRY_AFTER = 300.0


class OnlineError(Exception):
    """Online play cannot go on: ``code`` says why for programs, the text for people.

    ``retry_after``: the server said the same request may be answered otherwise
    after that many seconds (None: it did not say).
    """

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.retry_after = retry_after

    @property
    def final(self) -> bool:
        """Whether trying again cannot help (it can when the server said when to)."""
        return self.code in FINAL_ERRORS and self.retry_after is None


@dataclass(frozen=True, slots=True)
class Dropped:
    """The connection dropped; the next attempt is in ``retry_in`` seconds."""

    retry_in: float
    reason: str


@dataclass(frozen=True, slots=True)
class Reconnected:
    """The connection is back, the seat taken again."""


@dataclass(frozen=True, slots=True)
class RoundTrip:
    """The server answered this client's ``ping`` after ``seconds``."""

    seconds: float


@dataclass(frozen=True, slots=True)
class StreamUpdate:
    """New messages of the table's stream (``reset``: start the board again from these)."""

    messages: tuple[Message, ...]
    reset: bool = False


Event = (
    protocol.RoomState
    | protocol.Presence
    | protocol.Error
    | protocol.Clock
    | protocol.Offer
    | protocol.OfferClosed
    | protocol.Said
    | protocol.Ratings
    | protocol.People
    | StreamUpdate
    | RoundTrip
    | Dropped
    | Reconnected
)


def check_url(url: str) -> str:
    """``url`` if it is a WebSocket address; ``ValueError`` with one line if not."""
    if not url.startswith(("ws://", "wss://")) or len(url) < 8:
        raise ValueError(f"{url!r} is not a server address: write it as ws://HOST:PORT")
    return url.rstrip("/")


class TableConnection:
    """A connection to one server table: this app's seat there, or a spectator's view."""

    def __init__(
        self,
        url: str,
        opening: protocol.Hello,
        *,
        tokens: SeatTokens | None = None,
        keys: PlayerKeys | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        """``keys``: this app's player keys (the one for this server is sent when sitting
        down, made the first time); ``clock``: what its waits and times run on (the back-off
        between attempts to reconnect, the answers' time limits, a ping's round trip, the
        seconds left on a turn clock or an offer)."""
        self.url = check_url(url)
        self.clock = clock
        self.opening = opening
        self.tokens = tokens if tokens is not None else SeatTokens()
        self.keys = keys if keys is not None else PlayerKeys()
        self.key: str | None = None
        """This app's key for the server, once sent."""
        self.ratings: protocol.Ratings | None = None
        """Whether the table is rated, and each seat's rating, as the server last said."""
        self.code: str | None = None
        self.seat: int | None = None
        self.room: protocol.RoomState | None = None
        """The table's seats and state, as the server last said."""
        self.presence: tuple[str, ...] = ()
        """Each seat's connection, as the server last said."""
        self.stream: list[Message] = []
        """The table's public stream as far as this client has it."""
        self.turn_clock: tuple[protocol.Clock, float] | None = None
        """The turn clock the server last told of, and when it was heard (on ``clock``)."""
        self.offer: protocol.Offer | None = None
        """The offer of another game open now, if any."""
        self.people: protocol.People | None = None
        """Who sits at the table and who watches it, as the server last answered ``who``."""
        self._offer_heard = 0.0
        self._room_heard = 0.0
        """When ``room`` arrived (on ``clock``): its countdown to bots counts from then."""
        self.connected = False
        self._connection: ClientConnection | None = None
        self._unsent: protocol.Act | None = None
        """This seat's last move, until the stream shows its turn played."""
        self._played = 0
        """Moves played in ``stream`` so far."""
        self._closed = False
        self._pings: dict[int, float] = {}
        self._next_ping = 0
        """The pings not answered yet, by id: when each was sent (on ``clock``)."""

    @property
    def record(self) -> str | None:
        """The finished game's record line, once the stream has it."""
        for message in reversed(self.stream):
            if isinstance(message, Recorded):
                return message.record
        return None

    # ------------------------------------------------------------------ opening

    async def open(self) -> protocol.Welcome:
        """Connect and take the place asked for; ``OnlineError`` if that cannot be."""
        if isinstance(self.opening, protocol.Create | protocol.Join | protocol.Quick):
            try:
                self.keys.keys()  # a keys file gone bad stops online play before it starts
            except KeyFileError as exc:
                raise OnlineError("key_file", str(exc)) from None
        welcome = await self._connect()
        self.code = welcome.code
        self.seat = welcome.seat
        self.room = welcome.room
        if welcome.token is not None:
            name = welcome.room.seats[welcome.seat].name if welcome.seat is not None else ""
            self.tokens.remember(self.url, welcome.code, welcome.token, name)
            # (The seat's token alone takes it back: no proof to make again.)
            self.opening = protocol.Join(
                protocol.PROTOCOL_VERSION, welcome.code, name, welcome.token
            )
        elif isinstance(self.opening, protocol.Watch):
            self.opening = protocol.Watch(
                protocol.PROTOCOL_VERSION, welcome.code, self.opening.name
            )
        return welcome

    def _keyed(self, opening: protocol.Hello) -> protocol.Hello:
        """``opening`` naming this app's player key for the server (sitting down only): the
        key's id, proved when the server challenges (``_prove``); an older protocol's
        opening carries the key itself."""
        if not isinstance(opening, protocol.Sitting):
            return opening
        if isinstance(opening, protocol.Join) and opening.token is not None and self.key:
            return opening  # (taking a seat back: its token alone is its proof)
        if opening.key is not None:  # (given: a test, or another version's opening)
            self.key = opening.key
        else:
            try:
                self.key = self.keys.key_for(self.url)
            except (KeyFileError, ValueError) as exc:
                raise OnlineError("key_file", str(exc)) from None
        if opening.protocol < key_proof.PROVING:
            return msgspec.structs.replace(opening, key=self.key)
        player = key_proof.id_of(key_proof.verifier_of(self.key))
        return msgspec.structs.replace(opening, key=None, player=player)

    async def _connect(self) -> protocol.Welcome:
        try:
            connection = await within(
                self.clock,
                OPEN_TIMEOUT + 1,
                connect(self.url, open_timeout=OPEN_TIMEOUT, compression=None, max_size=2**22),
            )
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
            raise OnlineError("unreachable", f"cannot reach {self.url}: {why(exc)}") from None
        try:
            # The key is made (and kept) only for a server that answered: a mistyped or
            # unreachable address leaves none behind to export.
            self.opening = self._keyed(self.opening)
        except OnlineError:
            await connection.close()
            raise
        try:
            await connection.send(protocol.encode(self.opening).decode())
            message, proved = await self._answer(connection)
        except (ConnectionClosed, TimeoutError, protocol.ProtocolError) as exc:
            await connection.close()
            raise OnlineError("unreachable", f"{self.url} did not answer: {why(exc)}") from None
        except OnlineError:
            await connection.close()
            raise
        if isinstance(message, protocol.Error):
            await connection.close()
            retry = message.retry_after
            if retry is not None:
                retry = min(max(retry, 0.0), MAX_RETRY_AFTER)
            raise OnlineError(message.code, message.message, retry)
        if not isinstance(message, protocol.Welcome):
            await connection.close()
            raise OnlineError("bad_reply", f"{self.url} answered {type(message).__name__}")
        if message.protocol != protocol.PROTOCOL_VERSION:
            await connection.close()
            raise OnlineError(
                protocol.VERSION,
                f"the server speaks protocol {message.protocol}, this Mantis "
                f"{protocol.PROTOCOL_VERSION}: use the same version as the server",
            )
        self._connection = connection
        self.connected = True
        if proved and self.key is not None:
            # Seated with the key: the server holds its verifier (it was proved, or given).
            with contextlib.suppress(KeyFileError, ValueError):
                self.keys.introduced(self.url, self.key)
        return message

    async def _answer(self, connection: ClientConnection) -> tuple[protocol.ServerMessage, bool]:
        """The server's answer to the opening, and whether the key was proved on the way
        (each time the server challenges)."""
        proved = False
        while True:
            reply = await within(self.clock, OPEN_TIMEOUT, connection.recv())
            message = protocol.decode_server(reply)
            if not isinstance(message, protocol.Challenge) or self.key is None:
                return message, proved
            try:
                prove = key_proof.answer(
                    self.key, message, introduced=self.keys.knows(self.url, self.key)
                )
            except key_proof.VerifierAsked:
                raise OnlineError(VERIFIER_ASKED, verifier_asked(self.url)) from None
            except KeyFileError as exc:
                raise OnlineError("key_file", str(exc)) from None
            await connection.send(protocol.encode(prove).decode())
            proved = True

    # ------------------------------------------------------------------ talking

    async def send(self, message: protocol.TableRequest) -> None:
        """Send an intent; a move sent while disconnected goes once the connection is back."""
        self._sending(message)
        connection = self._connection
        if connection is None or not self.connected:
            return
        with contextlib.suppress(ConnectionClosed):
            await connection.send(protocol.encode(message).decode())

    def _sending(self, message: protocol.TableRequest) -> None:
        """What this client keeps of each kind of request as it sends it (most: nothing)."""
        match message:
            case protocol.Act():
                # Kept until the stream shows its turn played, and sent again after every
                # reconnection until then: a frame written into a dying connection is lost
                # without a word, and the server refuses a repeat.
                self._unsent = message
            case protocol.Ping():
                self._pings[message.id] = self.clock.now()
                for unanswered in list(self._pings)[:-4]:  # (a refused one is never answered)
                    del self._pings[unanswered]
            case protocol.Leave():
                if self.code is not None:
                    # The seat is left for good: a reconnection comes back as a spectator.
                    self._unsent = None
                    self.opening = protocol.Watch(protocol.PROTOCOL_VERSION, self.code)
                    self.seat = None
            case (
                protocol.AddBot()
                | protocol.AddOpen()
                | protocol.RemoveSeat()
                | protocol.Start()
                | protocol.Again()
                | protocol.Decline()
                | protocol.Say()
                | protocol.ImBack()
                | protocol.Who()
            ):
                pass
            case _:
                assert_never(message)

    def next_ping(self) -> protocol.Ping:
        """A fresh ``ping`` to ``send``: its ``RoundTrip`` event says how long the server
        took to answer (it answers a few at once, then one every few seconds)."""
        self._next_ping += 1
        return protocol.Ping(self._next_ping % 2**31)

    def offer_left(self, now: float | None = None) -> float:
        """Seconds until the open offer of another game lapses (0 if none), counted down
        from when the server's word arrived."""
        if self.offer is None:
            return 0.0
        moment = self.clock.now() if now is None else now
        return max(0.0, self.offer.lapses_in - (moment - self._offer_heard))

    def bots_left(self, now: float | None = None) -> float | None:
        """Seconds until bots take a quick-play table's open seats, counted down from when
        the server's word arrived (None: no such countdown runs)."""
        if self.room is None or self.room.bots_in is None:
            return None
        moment = self.clock.now() if now is None else now
        return max(0.0, self.room.bots_in - (moment - self._room_heard))

    def clock_left(self, now: float | None = None) -> tuple[protocol.Clock, float] | None:
        """The turn clock running for the position this client holds, and its seconds left.

        None when no clock runs for the turn being played (a bot's turn, a table
        without a clock, the move made).  The seconds count down from when the
        server's word arrived; they are for showing only: the server keeps time.
        """
        if self.turn_clock is None:
            return None
        clock, heard = self.turn_clock
        played = self._played
        if clock.turn != played or (self.stream and not _awaits_move(self.stream)):
            return None
        moment = self.clock.now() if now is None else now
        return clock, max(0.0, clock.remaining - (moment - heard))

    async def events(self) -> AsyncIterator[Event]:
        """What the server says, in order, reconnecting by itself until ``close``."""
        delay = BACKOFF_START
        reason = "connection lost"
        while not self._closed:
            connection = self._connection
            if connection is not None:
                try:
                    async for data in connection:
                        delay = BACKOFF_START
                        event = self._take(data)
                        if event is not None:
                            yield event
                except ConnectionClosed:
                    pass
                self.connected = False
                self._connection = None
                if self._closed:
                    return
            yield Dropped(delay, reason)
            await self.clock.sleep(delay)
            delay = min(BACKOFF_MAX, delay * 2)
            try:
                welcome = await self._connect()
            except OnlineError as exc:
                if exc.final:
                    raise
                if exc.retry_after is not None:  # the server said when: not before
                    delay, reason = max(exc.retry_after, BACKOFF_START), str(exc)
                else:
                    reason = "connection lost"
                continue
            reason = "connection lost"
            self.room = welcome.room
            self.seat = welcome.seat
            yield Reconnected()
            if self._unsent is not None:
                await self.send(self._unsent)

    def _take(self, data: str | bytes) -> Event | None:
        try:
            message = protocol.decode_server(data)
        except protocol.ProtocolError:
            return None  # a server of another build said something new: skip it
        return self._heard(message)

    def _heard(self, message: protocol.ServerMessage) -> Event | None:
        """What this client keeps of each kind the server says, and the event it yields
        (None: none)."""
        match message:
            case protocol.Stream():
                return self._merge(message)
            case protocol.RoomState():
                return self._heard_room(message)
            case protocol.Presence():
                self.presence = message.seats
                return message
            case protocol.Clock():
                self.turn_clock = (message, self.clock.now())
                return message
            case protocol.Offer():
                self.offer, self._offer_heard = message, self.clock.now()
                return message
            case protocol.OfferClosed():
                self.offer = None
                return message
            case protocol.Ratings():
                self.ratings = message
                return message
            case protocol.Pong():
                sent = self._pings.pop(message.id, None)
                return None if sent is None else RoundTrip(self.clock.now() - sent)
            case protocol.People():
                self.people = message
                return message
            case protocol.Said() | protocol.Error():
                return message
            case (
                protocol.Welcome()
                | protocol.Challenge()
                | protocol.Rekeyed()
                | protocol.YourTables()
            ):
                return None  # (answers to the hello: read by ``open``)
            case _:
                assert_never(message)

    def _heard_room(self, message: protocol.RoomState) -> Event:
        self.room, self._room_heard = message, self.clock.now()
        if message.you is not None:
            self.seat = message.you
        if message.state != "over":
            self.offer = None
        return message

    def _merge(self, stream: protocol.Stream) -> StreamUpdate | None:
        """The part of ``stream`` this client has not seen (all of it, if histories differ)."""
        have = len(self.stream)
        start = stream.start
        if start > have:
            # A gap: cannot happen on one connection; take the stream again from the top.
            if self._connection is not None:
                asyncio.get_running_loop().create_task(self._connection.close())
            return None
        overlap = min(have - start, len(stream.messages))
        if tuple(self.stream[start : start + overlap]) != stream.messages[:overlap]:
            if start != 0:
                return None
            self.stream = list(stream.messages)
            self._played = sum(1 for message in self.stream if isinstance(message, CardRevealed))
            return StreamUpdate(tuple(self.stream), reset=True)
        new = stream.messages[overlap:]
        if not new:
            return None
        self.stream.extend(new)
        self._played += sum(1 for message in new if isinstance(message, CardRevealed))
        if self._unsent is not None and self._played > self._unsent.turn:
            self._unsent = None  # that turn has been played
        return StreamUpdate(tuple(new))

    async def close(self) -> None:
        """Leave: close the connection and stop reconnecting."""
        self._closed = True
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.close()


def _awaits_move(stream: list[Message]) -> bool:
    """Whether the stream ends on a turn not answered yet (notices may follow it)."""
    for message in reversed(stream):
        if isinstance(message, TurnStarted):
            return True
        if isinstance(message, CardRevealed | GameOver):
            return False
    return False


async def take_seat(
    url: str,
    opening: protocol.Hello,
    tokens: SeatTokens | None = None,
    keys: PlayerKeys | None = None,
    *,
    clock: Clock = SYSTEM_CLOCK,
) -> TableConnection:
    """Reach the server and take the place asked for; ``OnlineError`` if it says no.

    ``clock``: what the connection's waits and times run on (``TableConnection``).

    A kept seat token the server does not know (another server at that
    address, or a new table under an old code) is forgotten, and the join
    tried again as a newcomer.
    """
    tokens = tokens if tokens is not None else SeatTokens()
    seat = TableConnection(url, opening, tokens=tokens, keys=keys, clock=clock)
    try:
        await seat.open()
    except OnlineError as exc:
        if exc.code != protocol.BAD_TOKEN or not isinstance(opening, protocol.Join):
            raise
        tokens.forget(seat.url, opening.code)
        seat = TableConnection(
            url,
            protocol.Join(opening.protocol, opening.code, opening.name, key=opening.key),
            tokens=tokens,
            keys=keys,
            clock=clock,
        )
        await seat.open()
    return seat


def verifier_asked(url: str) -> str:
    """Why nothing was sent to a server that asked for the verifier it had: one line."""
    return (
        f"{url} asked for your key's verifier again: nothing was sent (it may not be the "
        "server asking: mantis key reintroduce --help)"
    )


def why(exc: BaseException | str) -> str:
    """One line saying why a connection failed."""
    if isinstance(exc, str):
        return exc
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (is `mantis serve` running there?)"
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text
