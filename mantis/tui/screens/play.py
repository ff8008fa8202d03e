"""A board being played on: the live stream shown at a person's pace, and the move controls.

The game is followed as the line mode follows it (``follow.LiveGame``):
messages arrive through ``feed`` (from the local table driver, or from a
server) and are shown one by one as its ``PacingGate`` lets them through: a
bot's move waits until it has "thought" for the pace's thinking time, and
the drawn card lingers before its outcome lands.  ``ready`` is what a local
driver awaits before it asks the next seat, so the table never runs ahead
of what the person has seen.  Each message shown says whose turn it is, or
that a card is being turned, or that the game is over.

The seats this keyboard plays are ``controls``; when one of them is to move,
the Score and Steal controls come alive and hand the move to the game's
``MoveSink`` (``follow.moves``): the local table's seat, or the server.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Button, Static

from ...base.clock import SYSTEM_CLOCK, Clock
from ...engine import SCORE, Action, GameOver, Steal, TurnStarted, steal
from ...engine.seat_count import MAX_SEATS
from ...follow.live_game import LiveGame, TurnOf
from ...follow.moves import MoveSink
from ...table import Message as StreamMessage
from ...table import StreamError
from .. import plain
from ..preferences import Preferences
from ..widgets.coach_bar import CoachBar
from ..widgets.move_button import MoveButton
from ..widgets.odds_panel import OddsPanel
from ..widgets.seat_panel import SeatPanel
from .board import BoardScreen
from .game_over_choice import LOCAL_CHOICES, GameOverChoice

if TYPE_CHECKING:
    from ...home.local_ratings import RatingChange
    from .game_over import GameOverScreen

# The coach (hidden unless asked for) is imported when first needed, not
# before the board's first frame.


class PlayScreen(BoardScreen):
    """A live table: the stream shown as it comes, and moves for the seats played here."""

    BINDINGS = [
        Binding("s", "score", "Score"),
        Binding("1", "pick(0)", "Pick", key_display=f"1-{MAX_SEATS}"),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(2, MAX_SEATS + 1)),
        Binding("left,up", "cycle(-1)", "Pick", show=False),
        Binding("right,down", "cycle(1)", "Pick", show=False),
        Binding("enter", "steal", "Steal"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("p", "pause", "Pause"),
        Binding("n", "step", "Step"),
        Binding("f", "speed", "Speed"),
        Binding("r", "result", "Result"),
        Binding("o", "toggle_odds", "Odds", show=False),
        Binding("c", "toggle_coach", "Coach", show=False),
    ]

    result_choices: tuple[GameOverChoice, ...] = LOCAL_CHOICES
    """What the game-over screen offers."""

    class Chosen(Message):
        """The game is over and the person chose what comes next (never ``STAY``)."""

        def __init__(self, board: PlayScreen, choice: GameOverChoice) -> None:
            super().__init__()
            self.board = board
            self.choice = choice

    def __init__(
        self,
        backlog: Sequence[StreamMessage],
        prefs: Preferences,
        moves: MoveSink,
        *,
        controls: Iterable[int],
        paused: bool = False,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        """A live board from ``backlog``; ``controls`` are the seats played at this keyboard.

        Their moves go to ``moves``; ``paused`` holds bot play until resumed or
        stepped (when ``moves`` can be held); ``clock`` times the pace.
        """
        super().__init__(backlog, prefs)
        self.live = LiveGame(
            self.state, moves, controls, prefs, clock=clock, paused=paused, on_hold=self._held
        )
        """The game followed: its pace, its phase, the moves of the seats played here."""
        self.controls = self.live.controls
        self.has_bots = self.live.has_bots
        self.has_humans = bool(self.controls)
        self.waiting: int | None = None
        """The seat played here that is to move now, if any."""
        self.targets: tuple[int, ...] = ()
        """The seats the waiting seat may steal from, as the rules allow."""
        self.target: int | None = None
        """The seat picked to steal from, before the steal is confirmed."""
        self.thinking: int | None = None
        """A seat played elsewhere (a bot, a person online) whose move is awaited."""
        self.result: GameOver | None = None
        self._status = ""
        self._misfit = False
        self._bindings_state: tuple[bool, ...] = ()

    # ------------------------------------------------------------------ layout

    def compose_bottom(self) -> ComposeResult:
        yield CoachBar(id="coach")
        with Horizontal(id="actions"):
            yield MoveButton("Score (s)", id="score", compact=True, variant="primary")
            yield MoveButton("Steal (⏎)", id="steal", compact=True, variant="warning")
            yield Static(id="hint")

    def on_mount(self) -> None:
        for button in self.query(MoveButton):
            button.display = self.has_humans
        # Hidden panels first: the odds and the coach's advice (the expert's weights,
        # its decision) are only worked out when shown.
        settings = self.prefs.settings
        self.query_one(OddsPanel).display = settings.show_odds
        self.query_one(CoachBar).display = settings.coach
        self._show_position()  # with the insights
        self._log_stream(self.messages)
        self.live.begin()
        self._follow_turn(self.state.view().to_move)
        self._update_status()
        self._update_controls()
        self._show_live()
        self.start()
        over = self.game_over
        if over is not None:
            # Opened on a finished game: let the board draw once, then show the result.
            self.result = over
            self.call_after_refresh(self._result_when_visible)

    def start(self) -> None:
        """Start whatever feeds this board (called once it is on screen)."""

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # StyledAtMount's handler runs too (Textual calls each class's own).
        self.live.uncover()

    def on_screen_suspend(self) -> None:
        # Moves wait while help, settings or the too-small notice covers the table,
        # so nobody misses one.
        self.live.cover()

    def _extra_bottom_rows(self) -> int:
        # The coach's line above the actions row, which wraps when narrow.
        if not self.prefs.settings.coach:
            return 0
        return 1 if self.size.width >= 100 else 2

    def _human_to_move(self, seat: int) -> bool:
        return seat in self.controls

    # ------------------------------------------------------------------ the live stream

    def feed(self, message: StreamMessage) -> None:
        """Queue a message of the stream to be shown (from any coroutine on the app's loop)."""
        self.live.feed(message)

    async def ready(self) -> None:
        """Return once everything fed has been shown and the next seat may be asked.

        A seat played elsewhere waits, besides, while the board is covered and
        while bot play is paused (a step lets one move through).
        """
        await self.live.ready()

    @property
    def paused(self) -> bool:
        """Bot play is paused: the table asks no bot until a step or a resume."""
        return self.live.paused

    @property
    def held(self) -> bool:
        """The table is held by the pause right now."""
        return self.live.held

    @work(exclusive=True, group="board")
    async def _show_live(self) -> None:
        """Show fed messages one by one, as the gate lets them through."""
        while True:
            message = await self.live.next()
            self._show(message)
            if isinstance(message, GameOver):
                self._update_controls()
                await self._result_when_visible()

    def _show(self, message: StreamMessage) -> None:
        """Present one message; one that does not fit the table is skipped and said once."""
        try:
            self._present(message)
        except NoMatches:
            return  # the board is being taken down while a message arrived: nothing to show
        except StreamError as exc:
            if not self._misfit:
                self._misfit = True
                plain.notify(
                    self,
                    f"A message that does not fit the table was skipped: {exc}",
                    severity="error",
                    timeout=10,
                )

    async def _result_when_visible(self) -> None:
        await self.live.uncovered()
        self.show_result()

    def _present(self, message: StreamMessage) -> None:
        super()._present(message)
        phase = self.live.shown(message)
        if isinstance(phase, TurnOf) and isinstance(message, TurnStarted):
            self._follow_turn(phase.seat)
        elif phase is not None:  # a card being turned, or the end: nothing to answer
            if isinstance(message, GameOver):
                self.result = message
            if self.waiting is not None or self.thinking is not None:
                self.waiting = self.thinking = self.target = None
                self._update_controls()
        if isinstance(message, TurnStarted | GameOver):
            self._update_insights()
        self._update_status()

    def pickable_at_start(self) -> tuple[int, ...]:
        # What _follow_turn will find: the panels are made flagged rather than restyled.
        view = self.state.view()
        if view.over or view.to_move not in self.controls:
            return ()
        return self._steal_targets(view.to_move)

    def _steal_targets(self, seat: int) -> tuple[int, ...]:
        """The seats ``seat`` may steal from now, as the rules allow."""
        return tuple(
            a.target for a in self.state.view(seat).legal_actions() if isinstance(a, Steal)
        )

    def _follow_turn(self, seat: int) -> None:
        """A turn started (or the board opened on one): whose controls come alive."""
        self.waiting = self.thinking = self.target = None
        if not self.state.over:
            if seat in self.controls:
                self.waiting = seat
                self.targets = self._steal_targets(seat)
            else:
                self.thinking = seat
        for panel in self.panels:
            panel.mark(target=False)
        self._update_controls()

    # ------------------------------------------------------------------ moves

    def _submit_for_human(self, action: Action) -> None:
        seat = self.waiting
        if seat is None:
            return
        self.waiting = None
        self._set_target(None)
        self.live.play(seat, action)

    def show_result(self) -> None:
        """Open the game-over screen (again) once the game has ended."""
        # Imported when a game ends, not before the table's first frame.
        from .game_over import GameOverScreen

        if self.result is not None and not isinstance(self.app.screen, GameOverScreen):
            self.app.push_screen(self.result_screen(self.result), self._after_game)

    def result_screen(self, result: GameOver) -> GameOverScreen:
        """The game-over screen for ``result`` (a subclass may offer more on it)."""
        from .game_over import GameOverScreen

        return GameOverScreen(
            result,
            self.names,
            self.seed,
            choices=self.result_choices,
            note=self.result_note(),
            ratings=self.result_ratings(),
            played_on=self.played_on(),
        )

    def _after_game(self, choice: GameOverChoice | None) -> None:
        if choice is not None and choice is not GameOverChoice.STAY:
            self.post_message(self.Chosen(self, choice))

    def result_note(self) -> str | None:
        """The game-over screen's small print (None: moves, seed and what Rematch does)."""
        return None

    def result_ratings(self) -> tuple[RatingChange, ...]:
        """Each person's rating before and after this game, as recorded (none: not rated)."""
        return ()

    # ------------------------------------------------------------------ controls

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        human = self.waiting is not None
        over = self.state.over
        human_actions = ("score", "pick", "cycle", "cancel", "steal")
        if action in human_actions and (over or not self.has_humans):
            return False
        if action in ("score", "pick", "cycle", "cancel"):
            return True if human else None
        if action == "steal":
            return True if human and self.target is not None else None
        if action == "result":
            return self.result is not None
        if action == "pause":
            return self.live.can_pause and not over
        if action == "step":
            # Shown only while paused, to leave the footer room at 80 columns.
            if not (self.has_bots and self.paused):
                return False
            return True if not human and not over else None
        return True

    def _update_insights(self) -> None:
        """Bring the odds panel and the coach up to the current position (if shown)."""
        super()._update_insights()
        coach = self.query_one(CoachBar)
        if coach.display:
            # The expert decides in well under a millisecond: no need to leave the loop.
            from ...players.coach import advise

            view = self.state.view()
            coach.show(advise(view, self.names), self.names[view.to_move])

    def action_toggle_coach(self) -> None:
        self.prefs.change(coach=not self.prefs.settings.coach)

    def follow_preferences(self, prefs: Preferences) -> None:
        """Show or hide the odds panel and the coach as the settings say."""
        self.query_one(CoachBar).display = prefs.settings.coach
        super().follow_preferences(prefs)
        self._update_status()  # the speed may have changed

    def action_result(self) -> None:
        self.show_result()

    def action_score(self) -> None:
        self._submit_for_human(SCORE)

    def action_steal(self) -> None:
        if self.target is not None:
            self._submit_for_human(steal(self.target))

    def action_pick(self, seat: int) -> None:
        if self.waiting is None:
            return
        if seat >= self.state.players:
            self.notify(f"There is no seat {seat + 1} at this table.", severity="warning")
        elif seat not in self.targets:
            self.notify("You cannot steal from yourself: pick another seat.", severity="warning")
        else:
            self._set_target(seat)

    def action_cycle(self, step: int) -> None:
        if self.waiting is None or not self.targets:
            return
        if self.target in self.targets:
            index = (self.targets.index(self.target) + step) % len(self.targets)
        else:
            index = 0 if step > 0 else len(self.targets) - 1
        self._set_target(self.targets[index])

    def action_cancel(self) -> None:
        if self.target is not None:
            self._set_target(None)

    def action_pause(self) -> None:
        self.live.toggle_pause()
        self._update_controls()

    def action_step(self) -> None:
        self.live.step()

    def action_speed(self) -> None:
        speed = self.prefs.next_speed()
        self.notify(f"Bot speed: {speed}", timeout=2)

    @on(SeatPanel.Picked)
    def _on_seat_picked(self, message: SeatPanel.Picked) -> None:
        if self.waiting is not None and message.seat in self.targets:
            self._set_target(message.seat)

    @on(Button.Pressed, "#score")
    def _on_score_pressed(self) -> None:
        self.action_score()

    @on(Button.Pressed, "#steal")
    def _on_steal_pressed(self) -> None:
        self.action_steal()

    def _set_target(self, seat: int | None) -> None:
        self.target = seat
        for panel in self.panels:
            panel.mark(target=panel.seat == seat)
        self._update_controls()

    def _held(self) -> None:
        """The pause holds the table before a bot's move: the controls say so."""
        self._update_controls()

    def _update_controls(self) -> None:
        human = self.waiting
        try:
            score = self.query_one("#score", Button)
            steal_button = self.query_one("#steal", Button)
            hint = self.query_one("#hint", Static)
        except NoMatches:
            return  # the board is being taken down (the app is closing): nothing to update
        if score.disabled != (human is None):
            score.disabled = human is None
        if steal_button.disabled != (human is None or self.target is None):
            steal_button.disabled = human is None or self.target is None
        for panel in self.panels:
            panel.set_pickable(human is not None and panel.seat in self.targets)
        if self.target is not None:
            steal_button.label = plain.content(f"Steal from {self.names[self.target]} (⏎)")
        else:
            steal_button.label = "Steal (⏎)"
        hint.update(plain.content(self._hint()))
        bindings_state = (human is None, self.target is None, self.paused, self.state.over)
        if bindings_state != self._bindings_state:
            # Refreshing bindings rebuilds the footer: only when something changed.
            self._bindings_state = bindings_state
            self.refresh_bindings()
        self._update_status()

    def _hint(self) -> str:
        """The line beside the buttons: what to do now, or what the table waits for."""
        human = self.waiting
        if self.state.over:
            return "Game over."
        if human is not None:
            if self.target is None:
                keys = ",".join(str(seat + 1) for seat in self.targets)
                return f"Steal: pick {keys} or click a seat, then ⏎"
            return f"⏎ steals from {self.names[self.target]} · esc cancels"
        if self.paused:
            return "Bots paused · n: next move · p: resume"
        if self.thinking is not None:
            return f"{self.names[self.thinking]} is thinking…"
        return ""

    def status_parts(self) -> list[str]:
        """The status line's parts (a subclass's own, then the move and the target)."""
        return ["MANTIS", self.move_part(), f"target {self.state.target}"]

    def move_part(self) -> str:
        """The move, numbered as the log numbers it: the one being played while its card is
        still to turn ("move 3" after two), else the last one played."""
        state = self.state
        return f"move {state.turn + (1 if state.top_back is not None else 0)}"

    def _update_status(self) -> None:
        text = " · ".join(self.status_parts())
        if text != self._status:
            self._status = text
            self.query_one("#status", Static).update(plain.content(text))
