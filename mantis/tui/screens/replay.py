"""Watching a recorded game: step forward and back, jump to either end, autoplay.

The record is read move by move into its public stream (``table.moves_of``),
and the board is fed from it exactly as a live table feeds it: stepping
forward shows the next move's messages (same widgets, same log sentences);
stepping back folds the stream again up to that move, which is cheap, and
sets the widgets from that position.

Opened from a game's review, it shows beside the pile each option's chance
of winning at the decision on screen (``OptionChances``), and ``[``/``]``
step to the previous or next labelled decision of the seats reviewed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.widgets import Static

from ...base.clock import SYSTEM_CLOCK, Clock
from ...engine import GameRecord
from ...table import PublicPosition, moves_of
from .. import plain
from ..preferences import Preferences
from ..widgets.game_log import GameLog
from ..widgets.odds_panel import OddsPanel
from .board import BOARD_CSS, BoardScreen

if TYPE_CHECKING:  # a review (and its panel) is loaded only when a review opens the replay
    from ...review import GameReview


def position_words(position: int, end: int) -> str:
    """Where a replay stands, as moves are counted everywhere (from 1): "after move 15 of
    29", whose next decision is move 16; "at the deal (29 moves)" before any."""
    if position == 0:
        return f"at the deal ({end} move{'' if end == 1 else 's'})"
    return f"after move {position} of {end}"


#: Seconds between moves when autoplaying, slowest first.
AUTOPLAY_DELAYS = (2.0, 1.0, 0.5, 0.25, 0.1)
DEFAULT_DELAY_INDEX = 2


class ReplayScreen(BoardScreen):
    """One recorded game, at any position from the deal to the end."""

    CSS_PATH = [BOARD_CSS, "replay.tcss"]

    BINDINGS = [
        Binding("right,l", "step(1)", "Next", key_display="→"),
        Binding("left,h", "step(-1)", "Back", key_display="←"),
        Binding("home,g", "jump(0)", "Start", key_display="home"),
        Binding("end,G", "jump(-1)", "End", key_display="end"),
        Binding("space", "play", "Play", key_display="space"),
        Binding("plus,equals_sign", "speed(1)", "Speed", key_display="+-"),
        Binding("minus", "speed(-1)", "Slower", show=False),
        Binding("o", "toggle_odds", "Odds"),
        # Said on the status line when there are labelled decisions: the footer is full.
        Binding("right_square_bracket", "labelled(1)", "Next labelled", show=False),
        Binding("left_square_bracket", "labelled(-1)", "Previous", show=False),
        Binding("escape,q", "close", "Close", key_display="esc"),
    ]

    def __init__(
        self,
        record: GameRecord,
        prefs: Preferences,
        *,
        title: str = "",
        clock: Clock = SYSTEM_CLOCK,
        review: GameReview | None = None,
        at: int = 0,
        focus: tuple[int, ...] = (),
    ) -> None:
        """A replay of ``record``, called ``title`` on its status line; autoplay on ``clock``.

        With ``review`` (of this record), each decision's options are shown with
        their chances, opening at move ``at``; the labelled decisions of the
        ``focus`` seats (default: every seat) are stepped through with ``[``/``]``.
        """
        self.moves = moves_of(record)
        """The record's stream by move: the opening, then each action's messages."""
        super().__init__(self.moves[0], prefs)
        self.record = record
        self.seed = record.seed
        self.title_text = title
        self.position = 0
        """Actions played in the position on screen."""
        self.playing = False
        self.delay_index = DEFAULT_DELAY_INDEX
        self.clock = clock
        self.review = review
        self.opening_at = at
        self.labelled = (
            tuple(
                d.move
                for d in review.decisions
                if d.label is not None and (not focus or d.seat in focus)
            )
            if review is not None
            else ()
        )
        """The positions of the labelled decisions ``[``/``]`` step through."""

    @property
    def end(self) -> int:
        return len(self.moves) - 1

    # ------------------------------------------------------------------ layout

    def compose_bottom(self) -> ComposeResult:
        yield Static(id="progress")

    def on_mount(self) -> None:
        if self.review is not None:
            from ..widgets.option_chances import OptionChances

            self.add_class("-reviewed")
            self.query_one("#side").mount(OptionChances(id="chances"))
        self._log_stream(self.messages)
        self.query_one(OddsPanel).display = self.prefs.settings.show_odds
        self._show_position()
        self._update_status()
        if self.opening_at:
            self.call_after_refresh(self.goto, self.opening_at)

    # ------------------------------------------------------------------ moving

    def goto(self, position: int) -> None:
        """Show the position after ``position`` actions (clamped to the game)."""
        position = max(0, min(self.end, position))
        if position == self.position:
            return
        if position > self.position:
            for move in self.moves[self.position + 1 : position + 1]:
                for message in move:
                    self._present(message)
            self.position = position
        else:
            self.position = position
            shown = [message for move in self.moves[: position + 1] for message in move]
            self.messages = shown
            self.state = PublicPosition.of(shown)
            self.query_one(GameLog).rewind(position)
            self._show_position()
        self._update_insights()
        self._update_status()

    def _update_status(self) -> None:
        record = self.record
        seed = "-" if record.seed is None else str(record.seed)
        parts = ["REVIEW" if self.review is not None else "REPLAY"]
        if self.title_text:
            parts.append(self.title_text)
        parts += [f"seed {seed}", position_words(self.position, self.end)]
        if self.labelled:
            parts.append("[ ] labelled decisions")
        self.query_one("#status", Static).update(plain.content(" · ".join(parts)))
        state = "▶ playing" if self.playing else "❚❚ paused"
        delay = AUTOPLAY_DELAYS[self.delay_index]
        filled = round(24 * self.position / self.end) if self.end else 24
        bar = "█" * filled + "░" * (24 - filled)
        self.query_one("#progress", Static).update(
            f"{bar} {position_words(self.position, self.end)} · {state} · {delay:g} s a move"
        )

    def _extra_bottom_rows(self) -> int:
        # A reviewed game's chances panel (a row per option, the verdict, its border)
        # sits under the pile: the seats give up the rows it takes when they can.
        return self.state.players + 3 if self.review is not None else 0

    def _update_insights(self) -> None:
        """The odds (if shown) and, in a reviewed game, each option's chance here."""
        super()._update_insights()
        if self.review is None:
            return
        from ..widgets.option_chances import OptionChances

        try:
            chances = self.query_one(OptionChances)
        except NoMatches:
            return  # mounted just after the board's first fill
        decisions = self.review.decisions
        if self.position < len(decisions):
            chances.show(decisions[self.position], self.names)
        else:
            chances.show(None, self.names, note="The game is over.")

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "labelled":
            return bool(self.labelled)
        return True

    def action_labelled(self, step: int) -> None:
        """On to the next (``step`` 1) or previous (-1) labelled decision."""
        self._stop()
        if step > 0:
            ahead = [m for m in self.labelled if m > self.position]
        else:
            ahead = [m for m in reversed(self.labelled) if m < self.position]
        if ahead:
            self.goto(ahead[0])
        else:
            self.notify("No further labelled decision that way.", timeout=3)

    def action_step(self, step: int) -> None:
        self._stop()
        self.goto(self.position + step)

    def action_jump(self, where: int) -> None:
        self._stop()
        self.goto(self.end if where < 0 else where)

    def action_play(self) -> None:
        if self.playing:
            self._stop()
        else:
            if self.position >= self.end:
                self.goto(0)
            self.playing = True
            self._autoplay()
        self._update_status()

    def action_speed(self, step: int) -> None:
        self.delay_index = max(0, min(len(AUTOPLAY_DELAYS) - 1, self.delay_index + step))
        if self.playing:
            self._autoplay()  # again, at the new speed
        self._update_status()

    def action_close(self) -> None:
        self._stop()
        self.dismiss(None)

    @work(exclusive=True, group="autoplay")
    async def _autoplay(self) -> None:
        """Move on one move per delay (on the screen's clock) until the end or a pause."""
        while self.playing and self.position < self.end:
            await self.clock.sleep(AUTOPLAY_DELAYS[self.delay_index])
            self.goto(self.position + 1)
        self._stop()

    def _stop(self) -> None:
        self.workers.cancel_group(self, "autoplay")
        if self.playing:
            self.playing = False
            self._update_status()
