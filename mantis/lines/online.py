"""A server's table in lines: its games, its talk, its clock, its people.

What the connection (``net.client.TableConnection``) hears is said as it
comes: the waiting room (``WaitingRoom``: the seats, the host's bots, open
seats and start), the game's stream at a person's pace (``LiveTable``),
what people say, who drops and comes back, the turn clock (in the
question, and once at 10 s left), offers of another game, ratings.  A seat
played here is asked at the prompt and its move sent as an intent naming
its turn; the server runs the game.  At a table with a turn clock the
question waits for the server's word on the clock, so it always says the
time.  ``leave`` leaves the game for good (after a yes) and keeps
listening until it ends, so its record still reaches this computer's
statistics, as every finished game does (``store.finished``).  ``quit``
keeps the seat: joining again takes it back.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from ..engine import Action, CardRevealed, GameOver
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
from ..net.client.presence import WORDS
from ..net.client.seat_ratings import rating_changes
from ..net.protocol.codes import shown_code
from ..players.clock import SYSTEM_CLOCK, Clock
from ..table import Away, Message, Recorded, Talk
from ..table.names import YOU
from ..table.narration import join_names
from . import wording
from .commands import Command, read_command
from .console import INTERRUPTED, Console
from .help import help_lines
from .live_table import LiveTable, seat_names
from .preferences import LinePreferences
from .turn_clock import TurnClockCall
from .waiting_room import WaitingRoom


class SeatOnline:
    """This seat's moves: sent to the server as intents naming the turn they answer."""

    can_hold = False

    def __init__(self, connection: TableConnection) -> None:
        self.connection = connection

    async def play(self, seat: int, turn: int, action: Action) -> None:
        await self.connection.send(protocol.Act(turn, action))


def spelt(code: str) -> str:
    """A table's code, letter by letter for a screen reader: "K X Q D"."""
    return " ".join(c for c in shown_code(code) if c.isalnum())


class OnlineTable:
    """One server table followed in lines, from its waiting room to the last game."""

    def __init__(
        self,
        console: Console,
        prefs: LinePreferences,
        connection: TableConnection,
        *,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.console = console
        self.prefs = prefs
        self.connection = connection
        self.clock = clock
        self.live: LiveTable | None = None
        self.turn_clock = TurnClockCall(console.say, clock)
        self.ended = asyncio.Event()
        """The connection ended for good (the server said why)."""
        self.seated = connection.seat is not None
        self._showing: asyncio.Task[None] | None = None
        self.waiting = WaitingRoom(console, connection)
        self._kept: set[str] = set()
        self._rated_said: set[str] = set()
        self._asked_to_leave = False
        self._dropped = False

    # ------------------------------------------------------------------ running

    async def run(self) -> int:
        """Follow the table until the person quits or the server ends it; the exit status."""
        self.console.say(*self._welcome())
        following = asyncio.ensure_future(self._follow())
        try:
            while not self.ended.is_set():
                line = await self.console.line_or(self.ended)
                if line is INTERRUPTED:
                    break
                command = read_command(line) if isinstance(line, str) else Command("quit")
                if command.word == "quit":
                    self.console.settle()
                    if self.seated and self.live is not None and not self.live.state.over:
                        self.console.say(
                            "Your seat stays yours: mantis join --lines "
                            f"{self.connection.url} {self.connection.code} takes it back."
                        )
                    return 0
                await self.command(command)
            return 1
        finally:
            following.cancel()
            if self._showing is not None:
                self._showing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await following

    async def _follow(self) -> None:
        try:
            async for event in self.connection.events():
                self.dispatch(event)
        except OnlineError as exc:
            self.console.settle()
            self.console.say(f"Online play stopped: {exc}")
            self.ended.set()

    def _welcome(self) -> list[str]:
        connection = self.connection
        code = connection.code or "?"
        lines = [f"Table {shown_code(code)}, spelt {spelt(code)}, on {connection.url}."]
        if connection.seat is None:
            lines.append("You are watching.")
        if connection.stream:
            return lines
        return lines + self.waiting.lines()

    def _presence_changed(self, presence: tuple[str, ...]) -> None:
        old, self.waiting.presence = self.waiting.presence, presence
        names = self._names()
        live = self.live
        me = self.connection.seat
        for seat, (was, now) in enumerate(zip(old, presence, strict=False)):
            if seat >= len(names) or was == now:
                continue
            if seat == me:
                if was == "away" and live is not None and live.unasked:
                    live.ask()  # back: the question of this turn, if it is still open
                continue
            if now == "gone":
                self.console.say(f"{names[seat]} is offline.")
            elif now == "here" and was == "gone":
                self.console.say(f"{names[seat]} is online again.")

    # ------------------------------------------------------------------ what the server says

    def dispatch(self, event: Event) -> None:
        """Say one event of the connection."""
        _SAID[type(event)](self, event)

    def _stream_grew(self, event: StreamUpdate) -> None:
        self._keep_finished(event.messages)
        if self.live is None or event.reset:
            self._open_game(bool(event.reset and self.live is not None))
        else:
            for message in event.messages:
                self.live.feed(message)

    def _room_changed(self, event: protocol.RoomState) -> None:
        self.waiting.changed(event)

    def _presence(self, event: protocol.Presence) -> None:
        self._presence_changed(event.seats)

    def _clock_heard(self, event: protocol.Clock) -> None:
        mine = event.seat == self.connection.seat
        self.turn_clock.heard(event.turn, event.seat, event.remaining, mine=mine)
        live = self.live
        if live is not None and live.unasked and live.asking == event.seat:
            live.ask()  # the question waited for this word: it says the time now

    def _said(self, event: protocol.Said) -> None:
        talk = Talk(event.seat, event.name, event.text)
        self.console.say(wording.talk_text(talk, self._names()))

    def _offer_closed(self, event: protocol.OfferClosed) -> None:
        self.console.say(self._closed(event))

    def _refused(self, event: protocol.Error) -> None:
        text = event.message.rstrip(".")
        self.console.say(f"{text[:1].upper()}{text[1:]}.")

    def _round_trip(self, event: RoundTrip) -> None:
        self.console.say(f"Round trip to the server: {event.seconds * 1000:.0f} ms.")

    def _dropped_now(self, event: Dropped) -> None:
        # Said once: the client tries again by itself, sooner or later, until it is back.
        if not self._dropped:
            self._dropped = True
            self.console.say("Connection lost: reconnecting.")

    def _reconnected(self, event: Reconnected) -> None:
        self._dropped = False
        self.console.say("Back online.")

    def _names(self) -> list[str]:
        if self.live is not None:
            return self.live.names
        room = self.waiting.room
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(room.seats)] if room else []
        if self.connection.seat is not None and self.connection.seat < len(names):
            names[self.connection.seat] = YOU
        return names

    def _open_game(self, another: bool) -> None:
        stream = tuple(self.connection.stream)
        if self._showing is not None:
            self._showing.cancel()
        seat = self.connection.seat if self.seated else None
        live = LiveTable(
            self.console,
            stream[:1],
            self.prefs,
            SeatOnline(self.connection),
            controls=() if seat is None else (seat,),
            names=seat_names(stream, seat),
            clock=self.clock,
        )
        live.about = self._about
        live.clock_text = lambda: self._clock_left(live.state.turn)
        live.said_turns = lambda s: self._person(s) and s != seat
        live.waits = lambda s: self._waits(live, s)
        self.live = live
        self.console.settle()  # the question of the last game's end is moot
        if another:
            self.console.say("Another game at this table.")
        self.console.say(*live.opening_lines())
        for message in stream[1:]:
            live.feed(message)
        self._showing = asyncio.ensure_future(self._show(live))

    async def _show(self, live: LiveTable) -> None:
        """Say the game as the gate lets it through, with what online play adds to it."""
        while True:
            message = await live.gate.next()
            try:
                live.take(message)
            except Exception as exc:  # one odd message must not end the game said here
                self.console.say(f"A message that does not fit the table was skipped: {exc}")
                continue
            self._after(live, message)

    def _after(self, live: LiveTable, message: Message) -> None:
        seat = self.connection.seat
        if isinstance(message, CardRevealed | GameOver):
            # The move said answers the clock of its turn; the next turn's clock may have
            # been heard already (the stream is said at a person's pace).
            self.turn_clock.stop(before=live.state.turn)
        if isinstance(message, Away) and message.seat == seat:
            self.console.say("Type back to play your own turns again.")
        if isinstance(message, GameOver):
            self._ratings()
            self.console.prompt(self._what_next())

    def _what_next(self) -> str:
        if self.seated:
            return "What next? a another game, v replay, e review, q quit."
        return "What next? v replay, e review, q quit."

    def _waits(self, live: LiveTable, seat: int) -> bool:
        """Whether the question of ``seat``'s turn waits: while a bot plays the seat (its
        person away), or at a clocked table until the server said the time for this turn."""
        if seat < len(self.waiting.presence) and self.waiting.presence[seat] == "away":
            return True
        room = self.waiting.room
        if room is None or room.clock is None:
            return False
        return not (self.turn_clock.turn == live.state.turn and self.turn_clock.seat == seat)

    def _clock_left(self, turn: int) -> str:
        """ "30 seconds left" for the clock running for ``turn`` ("" for none)."""
        seconds = self.turn_clock.seconds(turn)
        return "" if seconds is None else f"{wording.plural(seconds, 'second')} left"

    def _person(self, seat: int) -> bool:
        room = self.waiting.room
        return room is not None and seat < len(room.seats) and room.seats[seat].kind == "human"

    def _about(self, seat: int) -> str:
        room = self.waiting.room
        words = []
        if room is not None and seat < len(room.seats) and room.seats[seat].kind == "bot":
            words.append(f"{room.seats[seat].bot} bot")
        presence = self.waiting.presence[seat] if seat < len(self.waiting.presence) else ""
        if presence in WORDS and presence != "here" and seat != self.connection.seat:
            words.append(WORDS[presence])  # a person's connection, said when it is not up
        rating = self.waiting.rating(seat)
        if rating:
            words.append(f"rated {rating}")
        return ", ".join(words)

    def _offered(self, offer: protocol.Offer) -> None:
        names = self._names()
        me = self.connection.seat
        left = f"{offer.lapses_in:.0f} seconds to answer"
        if me is not None and self.seated and me not in offer.accepted:
            self.console.say(
                f"{names[offer.by]} offers another game: a accepts, d declines; {left}."
            )
        else:
            waiting = [wording.who(names[s]) for s in range(len(names)) if s not in offer.accepted]
            asker = "You" if offer.by == me else names[offer.by]
            self.console.say(
                f"{asker} asked for another game, waiting for {join_names(waiting)}; {left}."
            )

    def _closed(self, closed: protocol.OfferClosed) -> str:
        names = self._names()
        who = "" if closed.seat is None else wording.who(names[closed.seat]).capitalize()
        if closed.reason == "declined":
            return f"{who} declined another game."
        if closed.reason == "left":
            return f"{who} left the table: no other game."
        return "Nobody answered: the offer of another game lapsed."

    def _ratings(self) -> None:
        live = self.live
        if live is None:
            self.waiting.say_why()
            return
        record = self.connection.record
        if not live.state.over or record is None or record in self._rated_said:
            return
        changes = rating_changes(self.connection.ratings, live.names)
        if changes:
            self._rated_said.add(record)
            self.console.say(wording.ratings_text(changes))

    def _keep_finished(self, messages: tuple[Message, ...]) -> None:
        for message in messages:
            if isinstance(message, Recorded) and message.record not in self._kept:
                self._kept.add(message.record)
                asyncio.ensure_future(self._record(message.record))

    async def _record(self, text: str) -> None:
        """Put the finished game in this computer's past games and statistics (once)."""
        from ..engine import RecordError
        from ..store.finished import record_finished
        from ..store.stats import StatsError
        from ..table.outside_records import read_outside_record

        try:
            record = read_outside_record(text)  # (the server's: checked and cleaned first)
            origin = f"{self.connection.url} {self.connection.code} {record.seed}"
            await asyncio.to_thread(record_finished, record, origin)
        except (RecordError, StatsError) as exc:
            self.console.say(f"Statistics not updated: {exc}.")

    # ------------------------------------------------------------------ what the person says

    async def command(self, command: Command) -> None:
        """Act on one typed command."""
        live = self.live
        if self._asked_to_leave:
            self._asked_to_leave = False
            if command.word == "yes":
                await self._leave()
            else:
                self.console.say("You stay.")
                if live is not None:
                    live.reprompt()
            return
        if live is None:
            if not await self._everywhere(command):
                await self.waiting.command(command)
        elif live.state.over:
            await self._after_game(command, live)
        else:
            await self._in_game(command, live)

    async def _everywhere(self, command: Command) -> bool:
        """``help``, ``ping``, ``who`` and ``talk``, which work anywhere; whether ``command``
        was one."""
        if command.word == "help":
            self._help()
        elif command.word == "ping":
            await self.connection.send(self.connection.next_ping())
        elif command.word == "who":
            await self.connection.send(protocol.Who())
        elif command.word == "talk":
            if not command.rest:
                self.console.say("Say what? talk, then your words: talk good game.")
            else:
                await self.connection.send(protocol.Say(command.rest))
        else:
            return False
        return True

    async def _in_game(self, command: Command, live: LiveTable) -> None:
        """A game under way: what online play adds to the commands every table has."""
        word = command.word
        if await self._everywhere(command):
            pass
        elif word == "clock":
            left = self._clock_left(live.state.turn)
            self.console.say(f"{left.capitalize()}." if left else "No clock runs for this move.")
        elif word == "back":
            await self.connection.send(protocol.ImBack())
        elif word == "leave":
            if not self.seated:
                self.console.say("Nothing to leave: you are watching; q quits.")
            else:
                self._asked_to_leave = True
                self.console.prompt(
                    "Leave this game for good? A bot plays your seat to the end, it counts "
                    "as a loss, and you cannot take the seat back. yes leaves, anything else stays."
                )
                return
        elif word in ("again", "review", "replay"):
            self.console.say("That comes once the game is over.")
        elif word in ("start", "bot", "open", "remove"):
            self.console.say("The game has started.")
        else:
            live.handle(command)
            return
        live.reprompt()

    def _help(self) -> None:
        live = self.live
        self.console.say(
            *help_lines(
                playing=live is not None and not live.state.over,
                online=True,
                seated=self.seated,
                waiting=live is None,
                host=self.waiting.hosting(),
            )
        )

    async def _after_game(self, command: Command, live: LiveTable) -> None:
        """The answers to the end of a game: another game, decline, replay, review."""
        word = command.word
        question = "a, v, e or q" if self.seated else "v, e or q"
        if await self._everywhere(command):
            pass
        elif word in ("again", "yes") and self.seated:
            await self.connection.send(protocol.Again())
        elif word == "no" and self.seated:
            await self.connection.send(protocol.Decline())
        elif word in ("review", "replay"):
            await self._look_back(word)
        elif word == "repeat":
            question = self._what_next()
        elif word in ("look", "scores", "log"):
            live.handle(command)
        else:
            what = command.rest or command.word
            self.console.say(f"{what!r} is not an answer here: help explains them.")
        self.console.prompt(question)

    async def _look_back(self, word: str) -> None:
        """``replay`` or ``review`` the game just played."""
        text = self.connection.record
        if text is None:
            self.console.say("The game's record has not come yet.")
            return
        from ..engine import RecordError
        from ..table.outside_records import read_outside_record

        try:
            record = read_outside_record(text)  # (the server's: checked and cleaned)
        except RecordError as exc:
            self.console.say(f"The game's record could not be read: {exc}.")
            return
        if word == "replay":
            from .replay import replay

            await replay(self.console, self.prefs, record, clock=self.clock)
        else:
            from .review import say_review

            seat = self.connection.seat
            await say_review(self.console, record, None if seat is None else [seat])

    async def _leave(self) -> None:
        live = self.live
        await self.connection.send(protocol.Leave())
        self.seated = False
        if live is not None:
            live.controls = frozenset()
            live.gate.controls = frozenset()
            live.asking = None
            live.unasked = False
            self.console.settle()
        self.console.say(
            "You left the game. It is said on to its end and kept in your statistics; q quits now."
        )


_SAID: dict[type, Callable[[OnlineTable, Any], None]] = {
    StreamUpdate: OnlineTable._stream_grew,
    protocol.RoomState: OnlineTable._room_changed,
    protocol.Presence: OnlineTable._presence,
    protocol.Clock: OnlineTable._clock_heard,
    protocol.Said: OnlineTable._said,
    protocol.Offer: OnlineTable._offered,
    protocol.OfferClosed: OnlineTable._offer_closed,
    protocol.Ratings: lambda table, event: table._ratings(),
    protocol.Error: OnlineTable._refused,
    protocol.People: lambda table, event: table.console.say(people_line(event)),
    RoundTrip: OnlineTable._round_trip,
    Dropped: OnlineTable._dropped_now,
    Reconnected: OnlineTable._reconnected,
}
"""What the line mode says of each event of the connection (every kind ``Event`` has)."""
