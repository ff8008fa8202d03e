"""Games played here: dealing a table, the save slot it saves in, resuming, what comes after.

Each app holds a save slot of its own (``home.save_slots``), so apps open
at once never write the same save.  A new table is dealt from its seats and
a seed; a saved game is opened at its saved position and saves on in its
slot; at the end the game-over choice deals again, replays or leaves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import plain

# The table, the store's files and the screens are imported when first used:
# the setup screen's first frame needs none of them (benchmarks/startup.py).
if TYPE_CHECKING:
    from ..base.clock import Clock
    from ..engine import GameRecord, SeatInfo
    from ..home.save_slots import SaveSlot
    from ..home.saves import LoadedSave
    from ..table import Table
    from .preferences import Preferences
    from .screens.game_over_choice import GameOverChoice
    from .screens.local_play import LocalPlayScreen
    from .screens.setup import SetupScreen
    from .shell import Shell


class LocalGames:
    """The app's games played here, against bots or at one keyboard."""

    def __init__(self, shell: Shell, prefs: Preferences, clock: Clock) -> None:
        self.shell = shell
        self.prefs = prefs
        self.clock = clock
        self._slot: SaveSlot | None = None

    # ------------------------------------------------------------ the save slot

    @property
    def save_slot(self) -> SaveSlot:
        """Where this app saves its game in progress: a slot no other app open now writes."""
        if self._slot is None:
            from ..home.save_slots import claim_slot

            self._slot = claim_slot()
            assert self._slot is not None  # some slot is always free
        return self._slot

    def unfinished_board(self) -> LocalPlayScreen | None:
        """The table of a game here that is not over, if one is up (under other screens too)."""
        from .screens.local_play import LocalPlayScreen

        for screen in self.shell.screen_stack:
            if isinstance(screen, LocalPlayScreen) and not screen.state.over:
                return screen
        return None

    def keep_aside(self) -> None:
        """Keep the game in progress where it is saved: this app saves its next game in a
        slot of its own, and the kept one is offered again (now, or by the next app)."""
        from ..home.save_slots import claim_slot

        old = self._slot
        if old is None:
            return
        new = claim_slot(None, old.path.parent)  # (the lowest free one: not this app's)
        if new is None:
            return
        self._slot = new
        old.release()

    def release(self) -> None:
        """Let another app have this app's slot (the app is closing)."""
        if self._slot is not None:
            self._slot.release()

    # ------------------------------------------------------------ tables

    def make_table(
        self, record: GameRecord, upto: int | None = None, *, slot: SaveSlot | None = None
    ) -> Table:
        """A table for ``record`` at ``upto`` actions: its seats' players, saving in ``slot``.

        ``SeatingError`` (naming the seat) if a seat's bot cannot be made.
        """
        from ..table import LocalKeeper, Table, seats_of
        from ..table.seating import make_players

        players = make_players(seats_of(record))
        held = slot or self.save_slot
        keeper = LocalKeeper(save_path=held.path, writes=held.writes)
        return Table(
            record,
            players,
            upto=upto,
            keeper=keeper,
            bot_timeout=self.prefs.bot_timeout,
            clock=self.clock,
        )

    def board(self, table: Table, *, paused: bool = False) -> LocalPlayScreen:
        from .screens.local_play import LocalPlayScreen

        return LocalPlayScreen(table, self.prefs, paused=paused)

    def start(
        self,
        seats: Sequence[SeatInfo],
        seed: int | None = None,
        *,
        paused: bool = False,
        remember: bool = True,
    ) -> None:
        """Deal a new game (a fresh seed unless given) and show its table.

        ``SeatingError`` (naming the seat) if a seat's bot cannot be made:
        nothing is shown and nothing is remembered then.
        """
        from ..table import dealt
        from ..table.history import new_seed

        if seed is None:
            seed = new_seed()
        board = self.board(self.make_table(dealt(seats, seed)), paused=paused)
        if remember:
            self.prefs.change(last_seats=tuple(seats))
        self.show(board)

    def start_from_setup(self, message: SetupScreen.Start) -> None:
        """Start the table the setup screen asks for; a seat that cannot sit is said there."""
        from ..table.seating import SeatingError

        try:
            self.start(message.seats, message.seed)
        except SeatingError as exc:
            message.setup.show_error(exc)

    def open(self, record: GameRecord, upto: int | None = None, *, paused: bool = False) -> None:
        """Show the table of ``record`` after ``upto`` of its actions (default: all)."""
        if record.seats is None:
            raise ValueError("a table needs the record's seats")
        self.show(self.board(self.make_table(record, upto), paused=paused))

    def show(self, board: LocalPlayScreen) -> None:
        """Put ``board`` up: in place of the setup screen or a finished table, else on top."""
        shell = self.shell
        if len(shell.screen_stack) == 1:
            # Opened on a table: nothing but the app's blank screen to cover (and
            # the setup screen's module need not be loaded to know that).
            shell.push_screen(board)
            return
        from .screens.local_play import LocalPlayScreen
        from .screens.setup import SetupScreen

        if isinstance(shell.screen, SetupScreen | LocalPlayScreen):
            shell.switch_screen(board)
        else:
            shell.push_screen(board)

    # ------------------------------------------------------------ resuming

    def offer_resume(self, now: bool, *, asked: bool = False) -> None:
        """Look for unfinished games no other app is playing: resume one (``now``) or offer to
        (``asked``: a person asked, and is told if there is none)."""
        from ..home.save_slots import saved_games, slot_of

        mine = self.save_slot  # held first, so no app starting meanwhile takes the same one
        saves, warnings = saved_games(mine.path.parent, mine=mine)
        for warning in warnings:
            # An unreadable save was moved aside; the player sets up a new game.
            plain.notify(self.shell, warning, severity="warning", timeout=10)
        if not saves:
            if (now or asked) and not warnings:
                self.shell.notify("No saved game to resume: set up a new one.", timeout=6)
        elif now:
            self.resume(max(saves, key=_saved_at))
        else:
            from .screens.resume import ResumeScreen

            def chosen(save: LoadedSave | None) -> None:
                if save is not None:
                    self.resume(save)

            replaced = saves[0] if slot_of(saves[0].path) == mine.number else None
            self.shell.push_screen(ResumeScreen(saves, replaced=replaced), chosen)

    def resume(self, save: LoadedSave) -> None:
        """Open the table on the saved game, at the saved position, saving on in its slot."""
        from ..home.save_slots import claim_slot, slot_of
        from ..table.seating import SeatingError

        number = slot_of(save.path)
        mine = self._slot
        slot = mine if mine is not None and mine.number == number else None
        if slot is None and number is not None:
            slot = claim_slot(number, save.path.parent)
            if slot is None:
                self.shell.notify(
                    "That game is open in another window or tab.", severity="warning", timeout=8
                )
                return
        try:
            board = self.board(self.make_table(save.record, slot=slot))
        except SeatingError as exc:
            if slot is not None and slot is not mine:
                slot.release()
            plain.notify(
                self.shell, f"Cannot resume the saved game: {exc}", severity="error", timeout=10
            )
            return
        if slot is not None and slot is not mine:
            if mine is not None:
                mine.release()  # its own save, if any, is offered to the next app again
            self._slot = slot
        self.show(board)

    # ------------------------------------------------------------ after the game

    def after_game(self, choice: GameOverChoice, board: LocalPlayScreen) -> None:
        """Act on the game-over choice: again, rematch, replay, review, new, quit."""
        from .screens.game_over_choice import GameOverChoice

        if choice is GameOverChoice.AGAIN:
            self.start(board.seats, remember=False)
        elif choice is GameOverChoice.REMATCH:
            self.show(self.board(self.make_table(board.record.from_start())))
        elif choice is GameOverChoice.REPLAY:
            self.shell.open_replay(board.record, title="this game")
        elif choice is GameOverChoice.REVIEW:
            # The person at this keyboard (the first, when several take turns at it).
            person = min(board.controls, default=None)
            self.shell.open_review(board.record, title="this game", person=person)
        elif choice is GameOverChoice.NEW:
            self.shell.new_game()
        elif choice is GameOverChoice.QUIT:
            self.shell.exit(0)


def _saved_at(save: LoadedSave) -> float:
    return save.saved_at.timestamp() if save.saved_at is not None else 0.0
