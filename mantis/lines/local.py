"""Games played here in lines: a new table or a saved one, played to the end, then what next.

As in the app: the game is saved after every move in a save slot this
program holds alone (``home.save_slots``), a saved game no other program
is playing is offered back at the next start (``--resume`` takes the newest
at once), and a finished game goes into the statistics, with each person's
rating before and after it.  ``quit`` leaves at any moment and loses
nothing.  After a game, as the app's game-over screen offers: again (a new
deal, the same seats), rematch (the same deal), replay, review, a new table
(its seats typed as ``--seats`` takes them), or quit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from ..base.clock import SYSTEM_CLOCK, Clock
from ..engine import GameRecord, SeatInfo
from ..follow.moves import SeatsHere
from ..follow.preferences import Preferences
from ..home.save_slots import SaveSlot, claim_slot, saved_games, slot_of
from ..home.saves import LoadedSave
from ..table import LocalKeeper, Table, dealt, seats_of
from ..table.history import new_seed
from ..table.narration import join_names
from ..table.seating import SeatingError, make_players, seats_from_text
from . import wording
from .commands import Command, read_command
from .console import INTERRUPTED, Console
from .help import help_lines, level_words
from .live_table import LiveTable
from .replay import Replay

QUIT = "quit"

#: What the end of a game asks (a key each, as the app's game-over screen has them).
WHAT_NEXT = "What next? a again, r rematch, v replay, e review, n new table, q quit."
NEXT_KEYS = "a, r, v, e, n or q"


@dataclass(frozen=True, slots=True)
class Start:
    """How a run begins: these seats (a new deal), or a saved game."""

    seats: tuple[SeatInfo, ...] | None = None
    seed: int | None = None
    resume: bool = False
    """Take the newest saved game at once."""


class LocalGames:
    """Games played here, one after another, until the person quits."""

    def __init__(
        self, console: Console, prefs: Preferences, *, clock: Clock = SYSTEM_CLOCK
    ) -> None:
        self.console = console
        self.prefs = prefs
        self.clock = clock
        self.slot: SaveSlot | None = None
        self.live: LiveTable | None = None
        """The game played last (or being played)."""
        self.replaying: Replay | None = None
        """The replay being said, if one is (a finished game's, asked for after it)."""

    def farewell(self) -> str:
        """What is said as the program ends at once (Ctrl+C): where the game stands."""
        live = self.live
        if live is None or live.state.over:
            return "Stopped."
        return self.saved_line(live)

    @staticmethod
    def saved_line(live: LiveTable) -> str:
        """ "Game saved after move 14: mantis play --lines offers it again."."""
        return f"Game saved after move {live.state.turn}: mantis play --lines offers it again."

    async def run(self, start: Start) -> int:
        """Play from ``start`` until the person quits; the exit status."""
        self.console.say("Mantis in lines. Type help at any prompt for the commands.")
        self.console.idle = True
        try:
            record = await self._first(start)
            while record is not None:
                record = await self.play(record)
        finally:
            self.console.idle = False  # nothing more is read: no prompt after the last line
            if self.slot is not None:
                self.slot.release()
        return 0

    # ------------------------------------------------------------------ the first game

    async def _first(self, start: Start) -> GameRecord | None:
        """The game to play first: the one asked for, a saved one, or a new deal."""
        self.slot = claim_slot()
        assert self.slot is not None  # some slot is always free
        if start.seats is not None:
            return dealt(start.seats, start.seed if start.seed is not None else new_seed())
        if start.seed is None:
            saves, warnings = saved_games(self.slot.path.parent, mine=self.slot)
            for warning in warnings:
                self.console.say(warning)
            if start.resume and not saves:
                self.console.say("No saved game to resume: a new game.")
            if saves:
                save = max(saves, key=_saved_at) if start.resume else await self._offer(saves)
                if save is QUIT:
                    return None
                if isinstance(save, LoadedSave):
                    return self._take_slot(save)
        seats = self.prefs.settings.last_seats or default_seats()
        return dealt(seats, start.seed if start.seed is not None else new_seed())

    async def _offer(self, saves: Sequence[LoadedSave]) -> LoadedSave | str | None:
        """Offer the saved games: one to resume, None for a new game, or ``QUIT``."""
        ordered = sorted(saves, key=_saved_at, reverse=True)
        for number, save in enumerate(ordered, start=1):
            self.console.say(f"Saved game {number}: {describe_save(save)}.")
        if len(ordered) == 1:
            question = "r resumes it, n starts a new game."
        else:
            question = f"1 to {len(ordered)} resumes that game, n starts a new game."
        keys = "r or n" if len(ordered) == 1 else f"1 to {len(ordered)} or n"
        while True:
            self.console.prompt(question, keys)
            line = await self.console.line()
            if line is None:
                return QUIT
            answer = line.strip().casefold()
            if answer in ("r", "resume", "y", "yes") or (answer == "" and len(ordered) == 1):
                return ordered[0]
            if answer.isdigit() and 1 <= int(answer) <= len(ordered):
                return ordered[int(answer) - 1]
            if answer in ("n", "new", "no"):
                return None
            if answer in ("q", "quit", "exit"):
                return QUIT
            self.console.say(f"{line.strip()} is not an answer here: {question}")

    def _take_slot(self, save: LoadedSave) -> GameRecord | None:
        """Play the saved game on in its own slot; None if another program holds it."""
        number = slot_of(save.path)
        mine = self.slot
        if number is None or mine is None or mine.number == number:
            return save.record
        slot = claim_slot(number, save.path.parent)
        if slot is None:
            self.console.say("That game is open in another window: a new game instead.")
            return dealt(seats_of(save.record), new_seed())
        mine.release()
        self.slot = slot
        return save.record

    # ------------------------------------------------------------------ one game

    async def play(self, record: GameRecord) -> GameRecord | None:
        """Play ``record`` from where it stands to the end; the game the person chose to
        play next (None: they quit)."""
        assert self.slot is not None
        try:
            players = make_players(seats_of(record))
        except SeatingError as exc:
            self.console.say(f"Cannot play this game: {exc}.")
            return None
        keeper = LocalKeeper(save_path=self.slot.path, writes=self.slot.writes)
        table = Table(
            record,
            players,
            keeper=keeper,
            bot_timeout=self.prefs.bot_timeout,
            clock=self.clock,
        )
        humans = [s for s, seat in enumerate(table.seats) if seat.kind == "human"]
        live = LiveTable(
            self.console,
            tuple(table.messages),
            self.prefs,
            SeatsHere(table.players),
            controls=humans,
            seed=table.seed,
            clock=self.clock,
            about=lambda seat: _what_sits(table.seats[seat]),
        )
        self.live = live
        unsubscribe = table.subscribe(live.feed, live.ready, backlog=False)
        self.console.say(*live.opening_lines())
        running = asyncio.ensure_future(table.run())
        showing = asyncio.ensure_future(live.show())
        live.begin()
        try:
            while not live.over.is_set():
                line = await self.console.line_or(live.over)
                if line is INTERRUPTED:
                    break
                command = read_command(line) if isinstance(line, str) else Command(QUIT)
                if command.word == QUIT:
                    self.console.idle = False  # the last line: no prompt after it
                    self.console.settle()
                    self.console.say(self.saved_line(live))
                    return None
                if command.word == "help":
                    self.console.say(*help_lines(playing=True))
                    live.reprompt()
                elif command.word in ("again", "rematch", "review", "replay", "new"):
                    self.console.say("That comes once the game is over.")
                    live.reprompt()
                else:
                    live.handle(command)
            await running
            finished = keeper.finished
            if finished is not None and finished.ratings:
                changes = [(c.name, c.before.shown, c.after.shown) for c in finished.ratings]
                self.console.say(wording.ratings_text(changes))
            return await self._after(live, table.record)
        finally:
            unsubscribe()
            for task in (showing, running):
                task.cancel()
            await asyncio.gather(showing, running, return_exceptions=True)

    async def _after(self, live: LiveTable, record: GameRecord) -> GameRecord | None:
        """What next, once the game is over: the next game to play, or None to quit."""
        question = WHAT_NEXT
        while True:
            self.console.prompt(question, NEXT_KEYS)
            question = NEXT_KEYS  # the whole question once; after an answer, its keys
            line = await self.console.line()
            if line is None:
                return None
            command = read_command(line)
            word = command.word
            if word in ("again", "yes"):
                return dealt(seats_of(record), new_seed())
            if word == "rematch":
                return record.from_start()
            if word == QUIT:
                return None
            if word in ("new", "next"):
                seats = await self._new_seats()
                if seats is not None:
                    self.prefs.change(last_seats=seats)
                    return dealt(seats, new_seed())
            elif word == "review":
                from .review import say_review

                person = min(live.controls, default=None)
                await say_review(self.console, record, None if person is None else [person])
            elif word == "replay":
                self.replaying = Replay(self.console, self.prefs, record, clock=self.clock)
                try:
                    await self.replaying.run()
                finally:
                    self.replaying = None
                self.console.idle = True
            elif word == "help":
                self.console.say(*help_lines(playing=False))
            elif word in ("look", "scores", "log", "last", "brief", "bell"):
                live.handle(command)
            elif word == "repeat":
                question = WHAT_NEXT
            else:
                self.console.say(f"{line.strip()} is not an answer here: help explains them.")

    async def _new_seats(self) -> tuple[SeatInfo, ...] | None:
        """The seats of a new table, typed as ``--seats`` takes them (None: none after all)."""
        self.console.say(
            "Type the seats with a comma between them: human for you, then bots, "
            f"{level_words()}; such as human, greedy, expert. "
            "Enter alone goes back."
        )
        while True:
            self.console.prompt("Seats:", "Seats:")
            line = await self.console.line()
            if line is None or not line.strip():
                return None
            try:
                return seats_from_text(line)
            except SeatingError as exc:
                self.console.say(f"No table: {exc}.")


def _what_sits(seat: SeatInfo) -> str:
    return f"{seat.bot} bot" if seat.kind == "bot" else ""


def default_seats() -> tuple[SeatInfo, ...]:
    """You and two bots of the second level (as the setup screen offers a new player)."""
    from ..players.registry import level_choices
    from ..table.seating import default_names

    levels = level_choices()
    bot = levels[min(1, len(levels) - 1)][1] if levels else "random"
    kinds = ["human", "bot", "bot"]
    names = default_names(kinds)
    return tuple(
        SeatInfo(name, "human" if kind == "human" else "bot", None if kind == "human" else bot)
        for name, kind in zip(names, kinds, strict=True)
    )


def describe_save(save: LoadedSave) -> str:
    """ "3 players, you, Bea and Cal, after move 14, saved on 30 November at 03:40 UTC"."""
    record = save.record
    names = ["you" if seat.name == "You" else seat.name for seat in seats_of(record)]
    when = ""
    if save.saved_at is not None:
        when = f", saved on {save.saved_at:%-d %B} at {save.saved_at:%H:%M} UTC"
    return f"{record.players} players, {join_names(names)}, after move {len(record.actions)}{when}"


def _saved_at(save: LoadedSave) -> float:
    return save.saved_at.timestamp() if save.saved_at is not None else 0.0
