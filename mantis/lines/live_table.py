"""A table followed in lines: its stream said at a person's pace, and a prompt on each turn
played here.

The game itself is followed by ``follow.LiveGame``, as the app's board
follows it: messages are fed in and said one by one as its gate lets them
through, each saying whose turn it is, that a card is being turned, or that
the game is over.  When a seat played here is to move, the decision is
asked at a prompt; its answer goes to the game's ``MoveSink`` (the local
seat, or the server).  What a command says always fits where the game
stands: no odds, advice or "your turn" while a card is being turned or
another seat is to move, no "game over" before the end.  The commands
every table has (look, odds, coach, log, pause...) are answered here; local
and online play add their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence

from ..base.clock import SYSTEM_CLOCK, Clock
from ..engine import (
    SCORE,
    Action,
    CardRevealed,
    ExtraTurn,
    GameOver,
    Steal,
    Stolen,
    TurnStarted,
    View,
    steal,
)
from ..follow.live_game import Ended, LiveGame, Turning, TurnOf
from ..follow.moves import MoveSink
from ..follow.preferences import Preferences
from ..home import SPEEDS
from ..table.messages import Fault, KeepFailed, Left, Message, Opening, StreamError, Talk, TimedOut
from ..table.names import YOU, clean_name
from ..table.narration import opening_line, possessive
from ..table.position import PublicPosition
from . import wording
from .commands import Command
from .console import Console

#: Moves ``log`` says again unless told how many.
LOG_MOVES = 5


def seat_names(backlog: Sequence[Message], you: int | None = None) -> list[str]:
    """The names the lines call the seats by (``you``'s seat: "You")."""
    opening = backlog[0]
    if not isinstance(opening, Opening):
        raise ValueError("a table starts from its opening")
    names = [clean_name(seat.name) or f"Seat {i + 1}" for i, seat in enumerate(opening.seats)]
    if you is not None and you < len(names):
        names[you] = YOU
    return names


def _nothing(seat: int) -> str:
    return ""


def _never(seat: int) -> bool:
    return False


def _no_clock() -> int | None:
    return None


class LiveTable:
    """One live table's stream, said line by line, and its seats played at this prompt."""

    def __init__(
        self,
        console: Console,
        backlog: Sequence[Message],
        prefs: Preferences,
        moves: MoveSink,
        *,
        controls: Iterable[int],
        seed: int | None = None,
        paused: bool = False,
        bots: bool | None = None,
        clock: Clock = SYSTEM_CLOCK,
        about: Callable[[int], str] = _nothing,
        clock_left: Callable[[], int | None] = _no_clock,
        said_turns: Callable[[int], bool] = _never,
        waits: Callable[[int], bool] = _never,
    ) -> None:
        """``backlog`` starts with the table's opening; ``controls`` are the seats played
        here (one of them alone is "you", whatever its name); ``bots``: whether any seat
        moves by itself (default: any seat no person's).  What the table around the game
        adds: ``about`` a word more on a seat when the table is read again (a bot's level,
        a connection); ``clock_left`` the seconds the seat to move has, as the question
        says them (None: no clock); ``said_turns`` whether a turn of this seat, played
        elsewhere, is said as it starts; ``waits`` whether the question of this seat's turn
        waits (online: for the server's word on its clock, or while a bot plays the
        seat)."""
        if not backlog or not isinstance(backlog[0], Opening):
            raise ValueError("a table starts from its opening")
        self.console = console
        self.prefs = prefs
        played = tuple(controls)
        self.you = played[0] if len(played) == 1 else None
        """The one seat played here, said as "you" whatever it is called (None: several
        people at one keyboard, or none)."""
        self.names = seat_names(backlog, self.you)
        self.own_name = clean_name(backlog[0].seats[self.you].name) if self.you is not None else ""
        self.seed = seed
        self.about = about
        self.clock_left = clock_left
        self.said_turns = said_turns
        self.waits = waits
        self.state = PublicPosition()
        self.said: list[tuple[int, str]] = []
        """Every move and notice said so far: (the move it belongs to, the line)."""
        self.played_on: dict[int, str] = {}
        """Per seat whose person left, the bot that plays it on (the result is the seat's)."""
        self.unasked = False
        """A turn played here is awaited, its question not asked yet (``waits``)."""
        self.over = asyncio.Event()
        """Set once the end of the game has been said."""
        self._misfit = False
        self._fold(backlog[0])
        self.game = LiveGame(
            self.state,
            moves,
            played,
            prefs,
            clock=clock,
            paused=paused,
            bots=bots,
            covered=False,  # lines are never covered: nothing waits for a screen
            on_hold=self._held,
        )
        for message in backlog[1:]:
            self._fold(message)

    @property
    def controls(self) -> frozenset[int]:
        return self.game.controls

    @property
    def asking(self) -> int | None:
        """The seat played here asked for its move now (whether or not its question is out)."""
        return self.game.asking

    @property
    def brief(self) -> bool:
        return self.prefs.settings.lines_brief

    # ------------------------------------------------------------------ the stream

    def opening_lines(self) -> list[str]:
        """What is said first: the table, and where the game stands if it is under way."""
        opening = self.state.opening
        assert opening is not None
        seed = wording.seed_words(self.seed)
        if self.state.turn:
            deal = "" if seed is None else f", seed {seed}"
            first = (
                f"Game resumed after move {self.state.turn}{deal}: {len(self.names)} players, "
                f"first to {opening.target} scored cards wins."
            )
        else:
            first = wording.heard(opening_line(opening.target, opening.first, self.names, seed))
        lines = [first]
        seats = "; ".join(self._seat_words(seat) for seat in range(len(self.names)))
        lines.append(f"Seats: {seats}.")
        if self.state.turn:
            lines.append(wording.scores_line(self.state.view(), self.names))
        return lines

    def _seat_words(self, seat: int) -> str:
        words = [str(seat + 1), wording.who(self.names[seat])]
        if seat == self.you and self.own_name and self.own_name != YOU:
            words.append(self.own_name)
        if self.about(seat):
            words.append(self.about(seat))
        return ", ".join(words)

    def feed(self, message: Message) -> None:
        """Queue a message of the stream to be said."""
        self.game.feed(message)

    async def ready(self) -> None:
        """Return once everything fed has been said and the next seat may be asked."""
        await self.game.ready()

    async def show(self, after: Callable[[Message], None] | None = None) -> None:
        """Say fed messages one by one as the gate lets them through (runs until cancelled);
        ``after``: what the table around the game adds once each is said."""
        while True:
            message = await self.game.next()
            try:
                self.take(message)
            except StreamError as exc:
                if not self._misfit:
                    self._misfit = True
                    self.console.say(f"A message that does not fit the table was skipped: {exc}")
                continue
            if after is not None:
                after(message)

    def begin(self) -> None:
        """Start on the position folded so far: ask at once if a seat played here is to move."""
        phase = self.game.begin()
        if isinstance(phase, Ended):
            self.over.set()
        elif isinstance(phase, TurnOf) and phase.here:
            self.ask()

    def take(self, message: Message) -> None:
        """Say one message of the stream, and ask if it makes a turn played here."""
        if isinstance(message, CardRevealed | GameOver) or (
            isinstance(message, TimedOut) and message.seat == self.asking
        ):
            self._answered()  # the question is moot: its move is made (here, or by a bot)
        self._fold(message, say=True)
        phase = self.game.shown(message)
        if isinstance(phase, TurnOf) and isinstance(message, TurnStarted):
            if phase.here:
                self.ask()
            elif self.said_turns(phase.seat):
                self.console.say(wording.turn_line(self.state.view(), self.names, brief=self.brief))
        elif isinstance(message, GameOver):
            self.console.say(
                *wording.result_lines(message, self.names, self.seed, played_on=self.played_on),
                ring=True,
            )
            self.over.set()

    def _answered(self) -> None:
        """The turn being asked was played (here, or for this seat by a bot)."""
        self.unasked = False
        if self.console.prompting:
            self.console.settle()

    def _fold(self, message: Message, *, say: bool = False) -> None:
        self.state.apply(message)
        if isinstance(message, Left):  # the seat's result is no longer its person's
            self.played_on[message.seat] = message.bot
        line = self._line(message)
        if line is None:
            return
        # A notice that replaces a move is said before it, under that move's number.
        ahead = isinstance(message, Fault | TimedOut)
        self.said.append((self.state.turn + ahead, line))
        if say:
            ring = isinstance(message, Stolen) and message.target == self.you
            self.console.say(line, ring=ring)

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
            message.seat in self.game.controls or self.said_turns(message.seat)
        ):
            return None  # the turn said next says it: "Your extra turn", "Bea's extra turn"
        return wording.move_line(message, self.names, brief=self.brief)

    # ------------------------------------------------------------------ the prompt

    def ask(self, *, ring: bool = True) -> None:
        """Ask the seat to move here for its move: the whole question (again)."""
        seat = self.asking
        if seat is None:
            return
        if self.waits(seat):
            self.unasked = True
            return
        self.unasked = False
        view = self.state.view()
        settings = self.prefs.settings
        if settings.coach:
            self.console.say(wording.coach_line(view, self.names))
        self.console.prompt(
            wording.decision(
                view,
                self.names,
                odds=settings.show_odds,
                more=settings.lines_more,
                clock=self.clock_left(),
                brief=self.brief,
            ),
            wording.question_keys(view, self.names, brief=self.brief),
            ring=ring,
        )

    @property
    def question_open(self) -> bool:
        """A turn played here is asked at the prompt now."""
        return self.asking is not None and not self.unasked

    def reprompt(self, *, whole: bool = False) -> None:
        """After an answer that was no move, if a question is open: the moves' keys alone
        ("s, 2 or 3"), the rest having been said just before; ``whole``: all of it."""
        if not self.question_open:
            return
        if whole:
            self.ask(ring=False)
            return
        view = self.state.view()
        question = wording.question_keys(view, self.names, brief=self.brief)
        self.console.prompt(question, question)

    # ------------------------------------------------------------------ commands

    def handle(self, command: Command) -> None:
        """Answer a command every table has; anything else gets one line of what is possible."""
        word = command.word
        say = self.console.say
        if word in ("score", "steal"):
            self._move(command)
            return
        whole = False
        if word == "repeat":
            if not self.question_open:
                say(self.status())
            whole = True
        elif word == "look":
            self._look(command.rest)
        elif word == "scores":
            say(wording.scores_line(self.state.view(), self.names))
        elif word == "odds":
            whole = self._switch(command, "show_odds", self._odds_lines)
        elif word == "more":
            whole = self._switch(command, "lines_more", self._option_lines)
        elif word == "coach":
            whole = self._switch(command, "coach", self._coach_lines)
        elif word == "brief":
            whole = self._switch(command, "lines_brief", None)
        elif word == "bell":
            self._switch(command, "bell", None)
        elif word == "log":
            self._log(command.rest)
        elif word == "last":
            self._log("1")
        elif word == "pause":
            self._pause()
        elif word == "next":
            if self.game.paused:
                self.game.step()
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
            return f"{command.rest} is not a command: help lists them."
        return f"{command.word.capitalize()} does nothing here: help lists what does."

    def now(self) -> str:
        """Where the game stands, in a line: whose turn, a card being turned, the end."""
        phase = self.game.phase
        if isinstance(phase, Ended):
            return "The game is over."
        mover = possessive(self.names[phase.seat], start=True)
        if isinstance(phase, Turning):
            return f"{mover} card is being turned."
        turn = f"{mover} {'extra turn' if phase.extra else 'turn'}"
        return f"{turn}, {wording.top_card(self.state.view())}."

    def status(self) -> str:
        """Where the table is, in a line (for an empty line typed while nobody here moves)."""
        now = self.now()
        if not isinstance(self.game.phase, Ended) and (self.game.held or self.game.paused):
            return f"{now.removesuffix('.')}; bots paused: n plays one move, p plays on."
        return now

    def _held(self) -> None:
        """The pause holds the table before a bot's move: said, so silence is understood."""
        if not self.state.over:
            mover = possessive(self.names[self.state.to_move])
            self.console.say(f"Paused before {mover} move: n plays it, p plays on.")

    def _look(self, rest: str) -> None:
        view = self.state.view()
        about = [self.about(seat) for seat in range(view.players)]
        number = rest.split(" ", 1)[0]
        if not number:
            self.console.say(*wording.table_lines(view, self.names, about, now=self.now()))
        elif number.isdigit() and 1 <= int(number) <= view.players:
            seat = int(number) - 1
            self.console.say(wording.seat_line(view, self.names, seat, about[seat]))
        else:
            self.console.say(f"Look at which seat? look, then its number, 1 to {view.players}.")

    def _log(self, rest: str) -> None:
        """The last moves again (``rest``: how many; each with its notices)."""
        count = int(rest) if rest.isdigit() else LOG_MOVES
        numbers = sorted({turn for turn, _ in self.said if turn})[-count:] if count else []
        lines = [f"Move {turn}: {line}" for turn, line in self.said if turn in numbers]
        self.console.say(*(lines or ["No moves yet."]))

    def _not_now(self) -> str | None:
        """Why the odds, the coach and ``more`` have nothing to say now (None: they have)."""
        phase = self.game.phase
        if isinstance(phase, Ended):
            return "The game is over."
        if isinstance(phase, Turning):
            mover = possessive(self.names[phase.seat])
            return f"A card is being turned for {mover} move: ask again on the next turn."
        return None

    def _odds_lines(self, view: View) -> list[str]:
        return wording.odds_lines(view, self.names, keyed=self.asking is not None)

    def _option_lines(self, view: View) -> list[str]:
        return wording.option_lines(
            view,
            self.names,
            odds=self.prefs.settings.show_odds,
            keyed=self.asking is not None,
        )

    def _coach_lines(self, view: View) -> list[str]:
        if self.asking is None:
            if view.to_move == self.you or self.names[view.to_move].lower() == "you":
                # the moment before you are asked, or a replay of your seat's turn
                return ["The coach advises when you are asked for a move."]
            mover = possessive(self.names[view.to_move])
            return [f"The coach advises on your own turns; this is {mover} turn."]
        return [wording.coach_line(view, self.names)]

    def _move(self, command: Command) -> None:
        seat = self.asking
        if seat is None:
            self.console.say(self._no_move())
            return
        view = self.state.view()
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
        self.game.play(seat, action)

    def _no_move(self) -> str:
        """Why a move typed now is no move."""
        phase = self.game.phase
        if isinstance(phase, Ended):
            return "The game is over."
        if not self.game.controls:
            return "You are watching: there is no move to make."
        mover = possessive(self.names[phase.seat], start=True)
        if isinstance(phase, Turning):
            if phase.seat in self.game.controls:
                return f"{mover} move is made: its card is being turned."
            return f"Not your turn: {mover} card is being turned."
        return f"Not your turn: {mover} turn."

    def _switch(
        self,
        command: Command,
        setting: str,
        now: Callable[[View], list[str]] | None,
    ) -> bool:
        """``odds``, ``coach``, ``more``, ``brief``, ``bell``: said now, or (``on``, ``off``)
        from now on; whether the question is asked whole again (it changed)."""
        answer = command.rest.casefold()
        title, every = SWITCHES[setting]
        if answer in ("on", "off"):
            self.prefs.change(**{setting: answer == "on"})
            self.console.say(f"{title} {answer}" + (f": {every}." if answer == "on" else "."))
            return True
        if answer:
            self.console.say(f"{title} on or {title.casefold()} off.")
            return False
        if now is None:
            state = "on" if getattr(self.prefs.settings, setting) else "off"
            self.console.say(f"{title} is {state}: {title.casefold()} on or off changes it.")
            return False
        problem = self._not_now()
        if problem is not None:
            self.console.say(problem)
        else:
            self.console.say(*now(self.state.view()))
        return False

    def _pause(self) -> None:
        if not self.game.can_pause:
            self.console.say("Nothing to pause: this table does not wait for you.")
            return
        if self.state.over:
            self.console.say("The game is over.")
            return
        self.game.toggle_pause()
        if self.game.paused:
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
            self.console.say(f"No speed {asked}: {wording.join_or(list(SPEEDS))}.")
            return
        self.console.say(f"Bot speed {speed}.")

    def stop_playing(self) -> None:
        """No seat is played here any more (the person left it): the rest is watched."""
        self._answered()
        self.game.stop_playing()


SWITCHES = {
    "show_odds": ("Odds", "each move's chance in every question"),
    "coach": ("Coach", "said before every question"),
    "lines_more": ("More", "every question says what each tank holds of the top card's colours"),
    "lines_brief": ("Brief", "each move and question in as few words as will do"),
    "bell": ("Bell", "it rings for your turn, a steal from you, a clock warning, the end"),
}
"""The switches ``odds on``, ``coach on``, ``more on``, ``brief on``, ``bell on`` turn: a
title, and what "on" does."""
