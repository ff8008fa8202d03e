"""A table followed in lines: its stream said at a person's pace, and a prompt on each turn
played here.

The messages of a live table (the local driver's, or a server's) are fed in
and said one by one as the ``PacingGate`` lets them through, exactly as the
app's board shows them: a bot's move after its thinking time, nothing ahead
of what was said.  ``ready`` is what a local driver awaits before asking the
next seat.  When a seat played here is to move, the decision is asked at a
prompt; its answer goes to the table's ``MoveSink`` (the local seat, or the
server).  The commands every table has (look, odds, coach, log, pause...)
are answered here; local and online play add their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from ..engine import (
    SCORE,
    Action,
    CardRevealed,
    ExtraTurn,
    GameOver,
    Steal,
    TurnStarted,
    View,
    steal,
)
from ..players.clock import SYSTEM_CLOCK, Clock
from ..store import SPEEDS
from ..table import (
    KeepFailed,
    Left,
    Message,
    Opening,
    PublicPosition,
    StreamError,
    Talk,
    TimedOut,
)
from ..table.names import YOU, clean_name
from ..table.narration import narrate, opening_line, possessive
from ..table.pacing import PacingGate
from . import wording
from .commands import Command
from .console import Console
from .preferences import LinePreferences

#: Moves ``log`` says again unless told how many.
LOG_LINES = 5


class MoveSink(Protocol):
    """Where the moves of the seats played here go (as the app's board has it)."""

    can_hold: bool
    """Whether the table waits for what is said here, so pausing bot play can hold it."""

    async def play(self, seat: int, turn: int, action: Action) -> None:
        """Play ``action`` for ``seat``, answering the turn after ``turn`` actions."""
        ...


def seat_names(backlog: Sequence[Message], you: int | None = None) -> list[str]:
    """The names the lines call the seats by (``you``'s seat: "You")."""
    opening = backlog[0]
    assert isinstance(opening, Opening)
    names = [clean_name(seat.name) or f"Seat {i + 1}" for i, seat in enumerate(opening.seats)]
    if you is not None and you < len(names):
        names[you] = YOU
    return names


class LiveTable:
    """One live table's stream, said line by line, and its seats played at this prompt."""

    def __init__(
        self,
        console: Console,
        backlog: Sequence[Message],
        prefs: LinePreferences,
        moves: MoveSink,
        *,
        controls: Iterable[int],
        names: Sequence[str] | None = None,
        seed: int | None = None,
        paused: bool = False,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        """``backlog`` starts with the table's opening; ``controls`` are the seats played here."""
        if not backlog or not isinstance(backlog[0], Opening):
            raise ValueError("a table starts from its opening")
        self.console = console
        self.prefs = prefs
        self.moves = moves
        self.controls = frozenset(controls)
        self.names = list(names) if names is not None else seat_names(backlog)
        self.seed = seed
        self.state = PublicPosition()
        self.said: list[tuple[int, str]] = []
        """Every move and notice said so far: (moves played then, the line)."""
        self.played_on: dict[int, str] = {}
        """Per seat whose person left, the bot that plays it on (the result is the seat's)."""
        self.asking: int | None = None
        """The seat played here whose move is awaited at the prompt."""
        self.over = asyncio.Event()
        """Set once the end of the game has been said."""
        self.about: Callable[[int], str] = lambda seat: ""
        """A word more on a seat when the table is read again (a bot's level, a connection)."""
        self.clock_text: Callable[[], str] = lambda: ""
        """The time the seat to move has, as the prompt says it ("" for none)."""
        self.said_turns: Callable[[int], bool] = lambda seat: False
        """Whether a turn of this seat (played elsewhere) is said as it starts."""
        self.waits: Callable[[int], bool] = lambda seat: False
        """Whether the question of this seat's turn waits (online: for the server's word on
        its clock, so the question says the time; or while a bot plays the seat)."""
        self.unasked = False
        """A turn played here is awaited, its question not asked yet (``waits``)."""
        self._misfit = False
        self.has_bots = any(seat.kind != "human" for seat in backlog[0].seats)
        self.gate: PacingGate[Message] = PacingGate(
            self.controls,
            pace=lambda: self.prefs.pace,
            free=lambda: self.state.over or self.state.to_move in self.controls,
            clock=clock,
            can_hold=moves.can_hold,
            paused=paused and self.has_bots,
            on_hold=self._held,
        )
        self.gate.uncover()  # lines are never covered: nothing waits for a screen
        for message in backlog:
            self._fold(message)

    # ------------------------------------------------------------------ the stream

    def opening_lines(self) -> list[str]:
        """What is said first: the table, and where the game stands if it is under way."""
        opening = self.state.opening
        assert opening is not None
        lines = [wording.heard(opening_line(opening.target, opening.first, self.names, self.seed))]
        seats = "; ".join(
            f"{seat + 1}, {wording.who(name)}"
            + (f", {self.about(seat)}" if self.about(seat) else "")
            for seat, name in enumerate(self.names)
        )
        lines.append(f"Seats: {seats}.")
        if self.state.turn:
            lines.append(f"Resumed after move {self.state.turn}.")
            lines.append(wording.scores_line(self.state.view(), self.names))
        return lines

    def feed(self, message: Message) -> None:
        """Queue a message of the stream to be said."""
        self.gate.feed(message)

    async def ready(self) -> None:
        """Return once everything fed has been said and the next seat may be asked."""
        await self.gate.ready()

    async def show(self) -> None:
        """Say fed messages one by one as the gate lets them through (runs until cancelled)."""
        while True:
            message = await self.gate.next()
            try:
                self.take(message)
            except StreamError as exc:
                if not self._misfit:
                    self._misfit = True
                    self.console.say(f"A message that does not fit the table was skipped: {exc}")

    def begin(self) -> None:
        """Start on the position folded so far: ask at once if a seat played here is to move."""
        view = self.state.view()
        if view.over:
            self.over.set()
        else:
            self.gate.turn_shown()
            if view.to_move in self.controls:
                self.ask()

    def take(self, message: Message) -> None:
        """Say one message of the stream, and ask if it makes a turn played here."""
        if isinstance(message, TimedOut) and message.seat == self.asking:
            self._answered()  # a bot answers the question: it is not asked again
        self._fold(message, say=True)
        if isinstance(message, TurnStarted):
            self.gate.turn_shown()
            if message.seat in self.controls:
                self.ask()
            elif self.said_turns(message.seat):
                mover = possessive(self.names[message.seat], start=True)
                turn = "extra turn" if message.extra else "turn"
                back = wording.colours(message.top_back)
                self.console.say(f"{mover} {turn}, top card {back}.")
        elif isinstance(message, CardRevealed):
            self._answered()
        elif isinstance(message, GameOver):
            self._answered()
            self.console.say(
                *wording.result_lines(message, self.names, self.seed, played_on=self.played_on)
            )
            self.over.set()

    def _answered(self) -> None:
        """The turn being asked was played (here, or for this seat by a bot)."""
        self.asking = None
        self.unasked = False
        self.console.settle()

    def _fold(self, message: Message, *, say: bool = False) -> None:
        self.state.apply(message)
        if isinstance(message, Left):  # the seat's result is no longer its person's
            self.played_on[message.seat] = message.bot
        line = self._line(message)
        if line is None:
            return
        self.said.append((self.state.turn, line))
        if say:
            self.console.say(line)

    def _line(self, message: Message) -> str | None:
        if isinstance(message, Opening):
            return None  # said by opening_lines, with the seats
        if isinstance(message, KeepFailed):
            if message.what == "save":
                return f"Could not save the game: {message.reason}."
            return f"Statistics not updated: {message.reason}."
        if isinstance(message, Talk):
            return None  # talk is heard beside the stream (online)
        if isinstance(message, GameOver):
            return None  # said whole by result_lines
        if isinstance(message, ExtraTurn) and (
            message.seat in self.controls or self.said_turns(message.seat)
        ):
            return None  # the turn said next says it: "Your extra turn", "Bea's extra turn"
        line = narrate(message, self.names)
        return None if line is None else wording.heard(line)

    # ------------------------------------------------------------------ the prompt

    def ask(self) -> None:
        """Ask the seat to move here for its move: the whole question (again)."""
        view = self.state.view()
        if view.over or view.to_move not in self.controls:
            return
        self.asking = view.to_move
        if self.waits(view.to_move):
            self.unasked = True
            return
        self.unasked = False
        settings = self.prefs.settings
        if settings.coach:
            self.console.say(wording.coach_line(view, self.names))
        self.console.prompt(
            wording.decision(
                view,
                self.names,
                odds=settings.show_odds,
                more=settings.lines_more,
                clock=self.clock_text(),
            )
        )

    def reprompt(self, *, whole: bool = False) -> None:
        """After an answer that was no move, if a question is open: the moves' keys alone
        ("s, 2 or 3"), the rest having been said just before; ``whole``: all of it."""
        if self.asking is None or self.unasked:
            return
        if whole:
            self.ask()
            return
        view = self.state.view()
        mover = self.names[self.asking]
        keys = wording.choices(view)
        self.console.prompt(keys if mover == YOU else f"{mover}: {keys}")

    # ------------------------------------------------------------------ commands

    def handle(self, command: Command) -> None:
        """Answer a command every table has; anything else gets one line of what is possible."""
        word = command.word
        view = self.state.view()
        say = self.console.say
        if word in ("score", "steal"):
            self._move(command)
            return
        whole = False
        if word == "repeat":
            if self.asking is None or self.unasked:
                say(self.status())
            whole = True
        elif word == "look":
            say(
                *wording.table_lines(view, self.names, [self.about(s) for s in range(view.players)])
            )
        elif word == "scores":
            say(wording.scores_line(view, self.names))
        elif word == "odds":
            whole = self._switch(command, "show_odds", wording.odds_lines)
        elif word == "more":
            whole = self._switch(command, "lines_more", self._option_lines)
        elif word == "coach":
            whole = self._switch(command, "coach", lambda v, n: [wording.coach_line(v, n)])
        elif word == "log":
            count = int(command.rest) if command.rest.isdigit() else LOG_LINES
            said = self.said[-count:] if count else []
            lines = [f"Move {turn}: {line}" if turn else line for turn, line in said]
            say(*(lines or ["No moves yet."]))
        elif word == "pause":
            self._pause()
        elif word == "next":
            if self.gate.paused:
                self.gate.step()
            else:
                say("Bots are not paused: p pauses them.")
        elif word == "speed":
            self._speed(command.rest)
        else:
            say(self.possible(command))
        self.reprompt(whole=whole)

    def possible(self, command: Command) -> str:
        """One line for a command that does nothing here: what is possible instead (the
        question that follows names the moves)."""
        if command.word == "unknown":
            return f"{command.rest!r} is not a command: help lists them."
        return f"{command.word.capitalize()} does nothing here: help lists what does."

    def status(self) -> str:
        """Where the table is, in a line (for an empty line typed while nobody here moves)."""
        view = self.state.view()
        if view.over:
            return "The game is over."
        mover = self.names[view.to_move]
        turn = f"{possessive(mover, start=True)} turn"
        if self.gate.held or self.gate.paused:
            return f"{turn}, bots paused: n plays one move, p plays on."
        return f"{turn}."

    def _held(self) -> None:
        """The pause holds the table before a bot's move: said, so silence is understood."""
        view = self.state.view()
        if not view.over:
            mover = possessive(self.names[view.to_move])
            self.console.say(f"Paused before {mover} move: n plays it, p plays on.")

    def _move(self, command: Command) -> None:
        view = self.state.view()
        seat = self.asking
        if seat is None:
            if view.over:
                self.console.say("The game is over.")
            else:
                mover = possessive(self.names[view.to_move], start=True)
                self.console.say(f"Not your turn: {mover} turn.")
            return
        action: Action = SCORE
        if command.word == "steal":
            target = command.seat
            legal = [a.target for a in view.legal_actions() if isinstance(a, Steal)]
            if target is None or target not in legal:
                if target is not None and target == seat:
                    problem = "You cannot steal from yourself."
                elif target is not None and 0 <= target < view.players:
                    problem = f"Seat {target + 1} cannot be stolen from."
                elif target is not None:
                    problem = f"There is no seat {target + 1}."
                else:
                    problem = "Steal from whom? Type the seat's number."
                self.console.say(problem)
                self.reprompt()
                return
            action = steal(target)
        self._answered()
        asyncio.get_running_loop().create_task(self.moves.play(seat, view.turn, action))

    def _switch(
        self,
        command: Command,
        setting: str,
        now: Callable[[View, Sequence[str]], list[str]],
    ) -> bool:
        """``odds``, ``coach`` or ``more``: said now, or (``on``, ``off``) at every turn; whether
        the question is asked whole again (it changed)."""
        answer = command.rest.casefold()
        if answer in ("on", "off"):
            self.prefs.change(**{setting: answer == "on"})
            title, every = SWITCHES[setting]
            self.console.say(f"{title} {answer}" + (f": {every}." if answer == "on" else "."))
            return True
        view = self.state.view()
        if view.over:
            self.console.say("The game is over.")
        else:
            self.console.say(*now(view, self.names))
        return False

    def _option_lines(self, view: View, names: Sequence[str]) -> list[str]:
        return wording.option_lines(view, names, odds=self.prefs.settings.show_odds)

    def _pause(self) -> None:
        if not (self.moves.can_hold and self.has_bots):
            self.console.say("Nothing to pause: this table does not wait for you.")
            return
        if self.state.over:
            self.console.say("The game is over.")
            return
        self.gate.toggle_pause()
        if self.gate.paused:
            self.console.say("Bots paused.")
        else:
            self.console.say("Bots play on.")

    def _speed(self, asked: str) -> None:
        wanted = asked.casefold()
        if not wanted:
            speed = self.prefs.next_speed()
        elif wanted in SPEEDS:
            self.prefs.change(speed=wanted)
            speed = wanted
        else:
            self.console.say(f"No speed {asked!r}: {wording.join_or(list(SPEEDS))}.")
            return
        self.console.say(f"Bot speed {speed}.")


SWITCHES = {
    "show_odds": ("Odds", "each move's chance in every question"),
    "coach": ("Coach", "said before every question"),
    "lines_more": ("More", "every question says what each tank holds of the top card's colours"),
}
"""The switches ``odds on``, ``coach on``, ``more on`` turn: a title, and what "on" does."""
