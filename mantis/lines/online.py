"""A server's table in lines: its games, its talk, its clock, its people.

The table is followed by ``follow.OnlineTable`` (its one reader and one
sender, each finished game kept once), whose every change is said as it
comes: the waiting room (``WaitingRoom``: the seats, the host's bots, open
seats and start), the game's stream at a person's pace (``LiveTable``),
what people say, who drops and comes back, the turn clock (in the
question, at half time and at 5 seconds left), offers of another game,
ratings.  A seat played here is asked at the prompt and its move sent as an
intent naming its turn; the server runs the game.  At a table with a turn
clock the question waits for the server's word on the clock, so it always
says the time.  ``leave`` leaves the game for good (after a yes; any other
command keeps the seat and is done as usual) and keeps listening until it
ends, so its record still reaches this computer's statistics.  ``quit``
keeps the seat: joining again takes it back.
"""

from __future__ import annotations

import asyncio
from typing import assert_never

from ..base.clock import SYSTEM_CLOCK, Clock
from ..engine import CardRevealed, GameOver
from ..follow import changes
from ..follow.changes import Change
from ..follow.moves import SeatOnline
from ..follow.offers import closed_line, offer_line
from ..follow.online_table import OnlineTable
from ..follow.people import people_line
from ..follow.preferences import Preferences
from ..follow.presence import WORDS
from ..follow.seat_ratings import rating_changes
from ..net import protocol
from ..net.client import TableConnection
from ..net.protocol.codes import shown_code
from ..table import Away, Message, Talk
from ..table.names import YOU
from . import wording
from .commands import Command, read_command
from .console import INTERRUPTED, Console
from .help import help_lines
from .live_table import LiveTable
from .replay import Replay
from .turn_clock import TurnClockCall, seconds_left
from .waiting_room import WaitingRoom

#: The question of leaving, and its keys.
LEAVE = (
    "Leave this game for good? A bot plays your seat to the end, it counts as a loss, and "
    "you cannot take the seat back. yes leaves, no stays."
)
LEAVE_KEYS = "yes or no"


def spelt(code: str) -> str:
    """A table's code, letter by letter for a screen reader: "K X Q D"."""
    return " ".join(c for c in shown_code(code) if c.isalnum())


class OnlineGames:
    """One server table followed in lines, from its waiting room to the last game."""

    def __init__(
        self,
        console: Console,
        prefs: Preferences,
        connection: TableConnection,
        *,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.console = console
        self.prefs = prefs
        self.clock = clock
        self.table = OnlineTable(connection, self.heard)
        self.live: LiveTable | None = None
        self.replaying: Replay | None = None
        """The replay being said, if one is (the game just played, asked for after it)."""
        self.turn_clock = TurnClockCall(self._warned, clock)
        self.ended = asyncio.Event()
        """The connection ended for good (the server said why)."""
        self.seated = connection.seat is not None
        self._showing: asyncio.Task[None] | None = None
        self.waiting = WaitingRoom(console, self.table)
        self._rated_said: set[str] = set()
        self._asked_to_leave = False
        self._dropped = False

    # ------------------------------------------------------------------ running

    async def run(self) -> int:
        """Follow the table until the person quits or the server ends it; the exit status."""
        self.console.say(*self._welcome())
        self.console.idle = True
        self.table.start()
        try:
            while not self.ended.is_set():
                line = await self.console.line_or(self.ended)
                if line is INTERRUPTED:
                    break
                command = read_command(line) if isinstance(line, str) else Command("quit")
                if command.word == "quit":
                    self.console.idle = False  # the last line: no prompt after it
                    self.console.settle()
                    self.console.say(self._farewell())
                    return 0
                await self.command(command)
            return 1
        finally:
            self.console.idle = False
            if self._showing is not None:
                self._showing.cancel()
            self.turn_clock.stop()
            await self.table.shut()

    def _farewell(self) -> str:
        if self.seated and self.live is not None and not self.live.state.over:
            return (
                "Your seat stays yours: mantis join --lines "
                f"{self.table.url} {self.table.code} takes it back."
            )
        return "Goodbye."

    def _welcome(self) -> list[str]:
        code = self.table.code or "?"
        lines = [f"Table {shown_code(code)}, spelt {spelt(code)}, on {self.table.url}."]
        if self.table.seat is None:
            lines.append("You are watching.")
        if self.table.stream:
            return lines
        return lines + self.waiting.lines()

    # ------------------------------------------------------------------ what the table tells

    def heard(self, change: Change) -> None:
        """Say one change of the table."""
        match change:
            case changes.GameBegan(stream=stream, another=another):
                self._open_game(stream, another)
            case changes.StreamGrew(game=game, messages=messages):
                if self.live is not None and game == self.table.game:
                    for message in messages:
                        self.live.feed(message)
            case changes.SeatsChanged(room=room, presence=presence):
                if room is not None:
                    self.waiting.changed(room)
                self._presence_changed(presence)
                self._ratings()
            case changes.ClockRuns(clock=clock):
                self._clock_heard(clock)
            case changes.OfferChanged(offer=offer, closed=closed):
                if closed is not None:
                    self.console.say(self._closed(closed))
                elif offer is not None:
                    self._offered(offer)
            case changes.Said(said=said):
                talk = Talk(said.seat, said.name, said.text)
                self.console.say(wording.talk_text(talk, self._names()))
            case changes.Refused(text=text):
                text = text.rstrip(".")
                self.console.say(f"{text[:1].upper()}{text[1:]}.")
            case changes.People(people=people):
                self.console.say(people_line(people))
            case changes.RoundTrip(seconds=seconds):
                self.console.say(f"Round trip to the server: {seconds * 1000:.0f} ms.")
            case changes.Dropped():
                # Said once: the client tries again by itself, until it is back.
                if not self._dropped:
                    self._dropped = True
                    self.console.say("Connection lost: reconnecting.")
            case changes.Reconnected():
                self._dropped = False
                self.console.say("Back online.")
            case changes.Stopped(reason=reason):
                self.console.settle()
                self.console.say(f"Online play stopped: {reason}")
                self.ended.set()
            case changes.GameKept(left=left):
                if left:
                    self.console.say(
                        "The game you left is over: it is in your past games, as a loss."
                    )
            case changes.NotKept(reason=reason):
                self.console.say(f"{reason.rstrip('.')}.")
            case _:  # a kind of change left out is a type error (mypy), not a silence
                assert_never(change)

    def _presence_changed(self, presence: tuple[str, ...]) -> None:
        old, self.waiting.presence = self.waiting.presence, presence
        names = self._names()
        live = self.live
        me = self.table.seat
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

    def _clock_heard(self, clock: protocol.Clock) -> None:
        mine = self.seated and clock.seat == self.table.seat
        room = self.waiting.room
        total = None if room is None or room.clock is None else float(room.clock)
        self.turn_clock.heard(clock.turn, clock.seat, clock.remaining, mine=mine, total=total)
        live = self.live
        if live is not None and live.unasked and live.asking == clock.seat:
            live.ask()  # the question waited for this word: it says the time now

    def _warned(self, text: str) -> None:
        live = self.live
        if live is not None and live.question_open:
            self.console.say(text, ring=True)

    def _names(self) -> list[str]:
        if self.live is not None:
            return self.live.names
        room = self.waiting.room
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(room.seats)] if room else []
        if self.table.seat is not None and self.table.seat < len(names):
            names[self.table.seat] = YOU
        return names

    def _open_game(self, stream: tuple[Message, ...], another: bool) -> None:
        if self._showing is not None:
            self._showing.cancel()
        seat = self.table.seat if self.seated else None
        live = LiveTable(
            self.console,
            stream[:1],
            self.prefs,
            SeatOnline(self.table.send),
            controls=() if seat is None else (seat,),
            clock=self.clock,
            about=self._about,
            clock_left=lambda: self.turn_clock.seconds(live.state.turn),
            said_turns=lambda s: self._person(s) and s != seat,
            waits=lambda s: self._waits(live, s),
        )
        self.live = live
        self.console.settle()  # the question of the last game's end is moot
        if another:
            self.console.say("Another game at this table.")
        self.console.say(*live.opening_lines())
        for message in stream[1:]:
            live.feed(message)
        live.begin()
        self._showing = asyncio.ensure_future(live.show(after=self._after))

    def _after(self, message: Message) -> None:
        """What online play adds once a message of the game is said."""
        live = self.live
        if live is None:
            return
        seat = self.table.seat
        if isinstance(message, CardRevealed | GameOver):
            # The move said answers the clock of its turn; the next turn's clock may have
            # been heard already (the stream is said at a person's pace).
            self.turn_clock.stop(before=live.state.turn)
        if isinstance(message, Away) and message.seat == seat:
            self.console.say("Type back to play your own turns again.")
        if isinstance(message, GameOver):
            self._ratings()
            self.console.prompt(self._what_next(), self._next_keys())

    def _what_next(self) -> str:
        if self.seated:
            return "What next? a another game, v replay, e review, q quit."
        return "What next? v replay, e review, q quit."

    def _next_keys(self) -> str:
        return "a, v, e or q" if self.seated else "v, e or q"

    def _waits(self, live: LiveTable, seat: int) -> bool:
        """Whether the question of ``seat``'s turn waits: while a bot plays the seat (its
        person away), or at a clocked table until the server said the time for this turn."""
        if seat < len(self.waiting.presence) and self.waiting.presence[seat] == "away":
            return True
        room = self.waiting.room
        if room is None or room.clock is None:
            return False
        return not (self.turn_clock.turn == live.state.turn and self.turn_clock.seat == seat)

    def _person(self, seat: int) -> bool:
        room = self.waiting.room
        return room is not None and seat < len(room.seats) and room.seats[seat].kind == "human"

    def _about(self, seat: int) -> str:
        room = self.waiting.room
        words = []
        if room is not None and seat < len(room.seats) and room.seats[seat].kind == "bot":
            words.append(f"{room.seats[seat].bot} bot")
        presence = self.waiting.presence[seat] if seat < len(self.waiting.presence) else ""
        if presence in WORDS and presence != "here" and seat != self.table.seat:
            words.append(WORDS[presence])  # a person's connection, said when it is not up
        rating = self.waiting.rating(seat)
        if rating:
            words.append(f"rated {rating}")
        return ", ".join(words)

    def _offered(self, offer: protocol.Offer) -> None:
        me = self.table.seat if self.seated else None
        line = offer_line(offer, self._names(), me)
        self.console.say(f"{line}; {offer.lapses_in:.0f} seconds to answer.")

    def _closed(self, closed: protocol.OfferClosed) -> str:
        names = [wording.who(name).capitalize() for name in self._names()]
        return closed_line(closed, names)

    def _ratings(self) -> None:
        live = self.live
        if live is None:
            self.waiting.say_why()
            return
        record = self.table.record
        if not live.state.over or record is None or record in self._rated_said:
            return
        found = rating_changes(self.table.ratings, live.names)
        if found:
            self._rated_said.add(record)
            self.console.say(wording.ratings_text(found))

    # ------------------------------------------------------------------ what the person says

    async def command(self, command: Command) -> None:
        """Act on one typed command."""
        live = self.live
        if self._asked_to_leave:
            self._asked_to_leave = False
            if command.word == "yes":
                self._leave()
                return
            self.console.say("You stay.")
            if command.word in ("no", "repeat"):
                if live is not None:
                    live.reprompt()
                return
            # Any other command (a move's key, say) is done as usual.
        if live is None:
            if not self._everywhere(command):
                self.waiting.command(command)
        elif live.state.over:
            await self._after_game(command, live)
        else:
            self._in_game(command, live)

    def _everywhere(self, command: Command) -> bool:
        """``help``, ``ping``, ``who`` and ``talk``, which work anywhere; whether ``command``
        was one."""
        if command.word == "help":
            self._help()
        elif command.word == "ping":
            self.table.ping()
        elif command.word == "who":
            self.table.who()
        elif command.word == "talk":
            if not command.rest:
                self.console.say("Say what? talk, then your words: talk good game.")
            else:
                self.table.send(protocol.Say(command.rest))
        else:
            return False
        return True

    def _in_game(self, command: Command, live: LiveTable) -> None:
        """A game under way: what online play adds to the commands every table has."""
        word = command.word
        if self._everywhere(command):
            pass
        elif word == "clock":
            left = self.turn_clock.seconds(live.state.turn)
            self.console.say(
                f"{seconds_left(left).capitalize()}." if left is not None else "No clock runs now."
            )
        elif word == "back":
            self.table.send(protocol.ImBack())
        elif word == "leave":
            if not self.seated:
                self.console.say("Nothing to leave: you are watching; q quits.")
            else:
                self._asked_to_leave = True
                self.console.prompt(LEAVE, LEAVE_KEYS)
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
        if live is not None:
            if live.state.over:
                self.console.prompt(self._next_keys(), self._next_keys())
            else:
                live.reprompt()

    async def _after_game(self, command: Command, live: LiveTable) -> None:
        """The answers to the end of a game: another game, decline, replay, review."""
        word = command.word
        keys = self._next_keys()
        if self._everywhere(command):
            return
        if word in ("again", "yes") and self.seated:
            self.table.send(protocol.Again())
            self.console.ask_after(keys)  # the server's answer is said first
            return
        if word == "no" and self.seated and self.table.offer is not None:
            self.table.send(protocol.Decline())
            self.console.ask_after(keys)
            return
        if word == "no" and self.seated:
            self.console.say("Nobody offers another game: nothing to decline.")
        elif word in ("review", "replay"):
            await self._look_back(word)
            return
        if word == "repeat":
            self.console.prompt(self._what_next(), keys)
            return
        elif word in ("look", "scores", "log", "last", "brief", "bell"):
            live.handle(command)
        else:
            what = command.rest or command.word
            self.console.say(f"{what} is not an answer here: help explains them.")
        self.console.prompt(keys, keys)

    async def _look_back(self, word: str) -> None:
        """``replay`` or ``review`` the game just played."""
        text = self.table.record
        keys = self._next_keys()
        if text is None:
            self.console.say("The game's record has not come yet.")
            self.console.prompt(keys, keys)
            return
        from ..engine import RecordError
        from ..table.outside_records import read_outside_record

        try:
            record = read_outside_record(text)  # (the server's: checked and cleaned)
        except RecordError as exc:
            self.console.say(f"The game's record could not be read: {exc}.")
            self.console.prompt(keys, keys)
            return
        if word == "replay":
            self.replaying = Replay(self.console, self.prefs, record, clock=self.clock)
            try:
                await self.replaying.run()
            finally:
                self.replaying = None
        else:
            from .review import say_review

            seat = self.table.seat
            await say_review(self.console, record, None if seat is None else [seat])
        self.console.prompt(keys, keys)

    def _leave(self) -> None:
        live = self.live
        self.table.leave_game(listening=True)
        self.seated = False
        if live is not None:
            live.stop_playing()
        self.console.say(
            "You left the game. It is said on to its end and kept in your statistics; q quits now."
        )
