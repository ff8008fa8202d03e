"""A local table: the game runs here, its seats are bots and the people at this keyboard.

The table driver (``mantis.table.Table``) runs in an async worker on the UI's
event loop and publishes its public stream to this screen, which shows it
at a person's pace (``PlayScreen``) and holds the driver back until it has.
Bots think in the driver's threads, so neither a thinking bot nor a waiting
person ever blocks the screen; a person's move goes to their seat's
``HumanPlayer`` (``follow.moves.SeatsHere``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import GameRecord
from ...follow.moves import SeatsHere
from ...table import LocalKeeper, Table
from ..preferences import Preferences
from .board import BOARD_CSS
from .play import PlayScreen

if TYPE_CHECKING:
    from ...home.local_ratings import RatingChange


class LocalPlayScreen(PlayScreen):
    """A table of 2 to 6 seats playing one game here, from any position to the end."""

    CSS_PATH = [BOARD_CSS, "play.tcss"]

    class Chosen(PlayScreen.Chosen):
        """The game here is over and the person chose what comes next."""

        board: LocalPlayScreen

    def __init__(self, table: Table, prefs: Preferences, *, paused: bool = False) -> None:
        """A screen for ``table`` (new, resumed or opened at a position).

        ``paused`` holds bot play until the user resumes or steps.  The
        table's bot time budget follows the preferences, and its clock
        times the board's pace.
        """
        self.table = table
        self.seed = table.seed
        humans = [s for s, seat in enumerate(table.seats) if seat.kind == "human"]
        super().__init__(
            tuple(table.messages),
            prefs,
            SeatsHere(table.players),
            controls=humans,
            paused=paused,
            clock=table.clock,
        )
        self._unsubscribe = table.subscribe(self.feed, self.ready, backlog=False)

    @property
    def record(self) -> GameRecord:
        """The game so far as a record, with the seats' names and kinds."""
        return self.table.record

    def result_ratings(self) -> tuple[RatingChange, ...]:
        # The keeper recorded the game before the table published its end.
        keeper = self.table.keeper
        finished = keeper.finished if isinstance(keeper, LocalKeeper) else None
        return finished.ratings if finished is not None else ()

    def start(self) -> None:
        # The game (its first save, the first bot's thinking) starts once the board
        # is drawn, rather than competing with its first frame.
        self.call_after_refresh(self._run_table)

    def _run_table(self) -> None:
        self.run_worker(self.table.run(), exclusive=True, group="game")

    def on_unmount(self) -> None:
        # The driver's worker is cancelled with the screen; a save being written completes.
        self._unsubscribe()

    def follow_preferences(self, prefs: Preferences) -> None:
        self.table.bot_timeout = prefs.bot_timeout
        super().follow_preferences(prefs)

    def status_parts(self) -> list[str]:
        seed = self.seed if self.seed is not None else "-"
        parts = [
            "MANTIS",
            f"seed {seed}",
            self.move_part(),
            f"target {self.state.target}",
            f"speed {self.prefs.speed}",
        ]
        if self.paused:
            parts.append("PAUSED")
        return parts
