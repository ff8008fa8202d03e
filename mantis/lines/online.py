"""A server's table in lines: its waiting room, its games, its talk, its clock, its people.

What the connection (``net.client.TableConnection``) hears is said as it
comes: who sits down, the game's stream at a person's pace (``LiveTable``),
what people say, who drops and comes back, the turn clock (at the prompt,
and once at 10 s left), offers of another game.  A seat played here is
asked at the prompt and its move sent as an intent naming its turn; the
server runs the game.  ``leave`` leaves the game for good (after a yes) and
keeps listening until it ends, so its record still reaches this computer's
statistics, as every finished game does (``store.finished``).  ``quit``
keeps the seat: joining again takes it back.
"""

from __future__ import annotations

import asyncio
import contextlib

from ..engine import Action, CardRevealed, GameOver
from ..net import protocol
from ..net.client import Dropped, OnlineError, Reconnected, StreamUpdate, TableConnection
from ..net.codes import shown_code
from ..net.presence import WORDS
from ..net.seat_ratings import rating_changes, seat_rating
from ..players.clock import SYSTEM_CLOCK, Clock
from ..table import Away, Message, Recorded, Talk
from ..table.names import YOU
from ..table.narration import join_names, talk_line
from . import wording
from .commands import Command, read_command
from .console import INTERRUPTED, Console
from .live_table import LiveTable, seat_names
from .local import help_lines
from .preferences import LinePreferences
from .turn_clock import TurnClockCall


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
        self._room: protocol.RoomState | None = connection.room
        self._presence: tuple[str, ...] = connection.presence
        self._kept: set[str] = set()
        self._rated_said: set[str] = set()
        self._asked_to_leave = False
        self._clock_said: int | None = None

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
        where = f"Table {shown_code(code)}, spelt {spelt(code)}, on {connection.url}."
        lines = [where]
        if connection.seat is None:
            lines.append("You are watching.")
        if connection.stream:
            return lines
        return lines + self._room_lines()

    def _room_lines(self) -> list[str]:
        room = self._room
        if room is None:
            return []
        seats = []
        for seat, state in enumerate(room.seats):
            if state.kind == "bot":
                what = f"{state.bot} bot"
            elif state.taken:
                what = "you" if seat == self.connection.seat else state.name
            else:
                what = "open"
            extra = ", host" if seat == room.host else ""
            rating = seat_rating(self.connection.ratings, room, seat)
            seats.append(f"{seat + 1}, {what}{extra}{f', rated {rating}' if rating else ''}")
        lines = [f"Seats: {'; '.join(seats)}."]
        if room.clock is not None:
            lines.append(f"A turn clock of {room.clock} seconds a move.")
        if room.state == "waiting":
            missing = sum(1 for s in room.seats if s.kind == "human" and not s.taken)
            if missing:
                lines.append(
                    f"Waiting for {wording.plural(missing, 'more person')}.".replace(
                        "persons", "people"
                    )
                )
            if self.connection.seat == room.host:
                lines.append("Type start once every seat is taken; others join with the code.")
            else:
                lines.append("The host starts the game.")
        return lines

    # ------------------------------------------------------------------ what the server says

    def dispatch(self, event: object) -> None:
        """Say one event of the connection."""
        if isinstance(event, StreamUpdate):
            self._keep_finished(event.messages)
            if self.live is None or event.reset:
                self._open_game(bool(event.reset and self.live is not None))
            else:
                for message in event.messages:
                    self.live.feed(message)
        elif isinstance(event, protocol.RoomState):
            self._room_changed(event)
        elif isinstance(event, protocol.Presence):
            self._presence_changed(event.seats)
        elif isinstance(event, protocol.Clock):
            mine = event.seat == self.connection.seat
            self.turn_clock.heard(event.turn, event.seat, event.remaining, mine=mine)
            live = self.live
            # Asked before the server's word on the clock came: said now, once.
            if (
                mine
                and live is not None
                and live.asking == event.seat
                and live.state.turn == event.turn
                and self._clock_said != event.turn
            ):
                self.console.say(f"{self._clock_text(event.turn).capitalize()}.")
        elif isinstance(event, protocol.Said):
            names = self._names()
            self.console.say(talk_line(Talk(event.seat, event.name, event.text), names))
        elif isinstance(event, protocol.Offer):
            self._offered(event)
        elif isinstance(event, protocol.OfferClosed):
            self.console.say(self._closed(event))
        elif isinstance(event, protocol.Ratings):
            self._ratings()
        elif isinstance(event, protocol.Error):
            self.console.say(f"{event.message}.".replace("..", "."))
        elif isinstance(event, Dropped):
            self.console.say(
                f"Connection lost, {event.reason}: trying again in {event.retry_in:g} s."
            )
        elif isinstance(event, Reconnected):
            self.console.say("Back online.")

    def _names(self) -> list[str]:
        if self.live is not None:
            return self.live.names
        room = self._room
        names = [s.name for s in room.seats] if room is not None else []
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
        live.clock_text = lambda: self._clock_text(live.state.turn)
        live.said_turns = lambda s: self._person(s) and s != seat
        self.live = live
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
            if self.seated:
                self.console.say("a: offer another game; e: review; q: quit.")

    def _clock_text(self, turn: int) -> str:
        """The time left for ``turn`` ("30 seconds to move"), noted as said."""
        text = self.turn_clock.text(turn)
        if text:
            self._clock_said = turn
        return text

    def _person(self, seat: int) -> bool:
        room = self._room
        return room is not None and seat < len(room.seats) and room.seats[seat].kind == "human"

    def _about(self, seat: int) -> str:
        room = self._room
        words = []
        if room is not None and seat < len(room.seats) and room.seats[seat].kind == "bot":
            words.append(f"{room.seats[seat].bot} bot")
        presence = self._presence[seat] if seat < len(self._presence) else ""
        if presence in WORDS and seat != self.connection.seat:
            words.append(WORDS[presence])
        rating = seat_rating(self.connection.ratings, room, seat)
        if rating:
            words.append(f"rated {rating}")
        return ", ".join(words)

    def _room_changed(self, room: protocol.RoomState) -> None:
        old, self._room = self._room, room
        if room.state != "waiting" or old is None:
            return
        for seat, (was, now) in enumerate(zip(old.seats, room.seats, strict=False)):
            if now.kind == "human" and now.taken and not was.taken:
                self.console.say(f"{now.name} sat down in seat {seat + 1}.")
            elif was.kind == "human" and was.taken and not now.taken:
                self.console.say(f"Seat {seat + 1} is open again.")
        if len(room.seats) != len(old.seats) or any(
            a.kind != b.kind or a.bot != b.bot for a, b in zip(old.seats, room.seats, strict=False)
        ):
            self.console.say(*self._room_lines())

    def _presence_changed(self, presence: tuple[str, ...]) -> None:
        old, self._presence = self._presence, presence
        if self.live is None:
            return
        names = self.live.names
        for seat, (was, now) in enumerate(zip(old, presence, strict=False)):
            if seat == self.connection.seat or seat >= len(names) or was == now:
                continue
            if now == "gone":
                self.console.say(f"{names[seat]} is offline.")
            elif now == "here" and was == "gone":
                self.console.say(f"{names[seat]} is online again.")

    def _offered(self, offer: protocol.Offer) -> None:
        names = self._names()
        me = self.connection.seat
        left = f"{offer.lapses_in:.0f} seconds"
        if me is not None and self.seated and me not in offer.accepted:
            self.console.say(
                f"{names[offer.by]} offers another game: a accepts, d declines, {left}."
            )
        else:
            waiting = [names[s] for s in range(len(names)) if s not in offer.accepted]
            who = "You" if offer.by == me else names[offer.by]
            self.console.say(
                f"{who} asked for another game, waiting for {join_names(waiting)}, {left}."
            )

    def _closed(self, closed: protocol.OfferClosed) -> str:
        names = self._names()
        who = "" if closed.seat is None else names[closed.seat]
        if closed.reason == "declined":
            return f"{who} declined another game."
        if closed.reason == "left":
            return f"{who} left the table: no other game."
        return "Nobody answered: the offer of another game lapsed."

    def _ratings(self) -> None:
        live = self.live
        record = self.connection.record
        if live is None or not live.state.over or record is None or record in self._rated_said:
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
        from ..engine.record import parse_record
        from ..store.finished import record_finished
        from ..store.stats import StatsError

        try:
            record = parse_record(text)
            origin = f"{self.connection.url} {self.connection.code} {record.seed}"
            await asyncio.to_thread(record_finished, record, origin)
        except (RecordError, StatsError) as exc:
            self.console.say(f"Statistics not updated: {exc}.")

    # ------------------------------------------------------------------ what the person says

    async def command(self, command: Command) -> None:
        """Act on one typed command."""
        word = command.word
        live = self.live
        send = self.connection.send
        if self._asked_to_leave:
            self._asked_to_leave = False
            if word == "yes":
                await self._leave()
            else:
                self.console.say("You stay.")
                if live is not None:
                    live.reprompt()
            return
        if word == "help":
            over = live is not None and live.state.over
            self.console.say(*help_lines(playing=not over, online=True, seated=self.seated))
        elif word == "talk":
            if not command.rest:
                self.console.say("Say what? talk, then your words: talk good game.")
            else:
                await send(protocol.Say(command.rest))
        elif word == "clock":
            turn = live.state.turn if live is not None else -1
            self.console.say(
                f"{self.turn_clock.text(turn).capitalize()}."
                if self.turn_clock.text(turn)
                else "No clock runs for this move."
            )
        elif word == "start":
            await send(protocol.Start())
        elif word == "back":
            await send(protocol.ImBack())
        elif word == "leave":
            if not self.seated or live is None or live.state.over:
                self.console.say("Nothing to leave: q quits.")
            else:
                self._asked_to_leave = True
                self.console.say(
                    "Leave this game for good? A bot plays your seat to the end, it counts "
                    "as a loss, and you cannot take the seat back. yes leaves, anything else stays."
                )
        elif word in ("again", "yes") and live is not None and live.state.over and self.seated:
            await send(protocol.Again())
        elif word == "no" and live is not None and live.state.over and self.seated:
            await send(protocol.Decline())
        elif word == "review" and live is not None and live.state.over:
            record = self.connection.record
            if record is not None:
                from ..engine.record import parse_record
                from .review import say_review

                seat = self.connection.seat
                await say_review(
                    self.console, parse_record(record), None if seat is None else [seat]
                )
        elif live is None:
            if word == "look":
                self.console.say(*self._room_lines())
            elif word != "repeat":
                self.console.say("The game has not started: help lists the commands.")
        else:
            live.handle(command)

    async def _leave(self) -> None:
        live = self.live
        await self.connection.send(protocol.Leave())
        self.seated = False
        if live is not None:
            live.controls = frozenset()
            live.gate.controls = frozenset()
            live.asking = None
            self.console.settle()
        self.console.say(
            "You left the game. It is said on to its end and kept in your statistics; q quits now."
        )
