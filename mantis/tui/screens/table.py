"""The table: every seat, the draw pile, the log, and the game being played.

The game runs in an async worker on the UI's event loop.  Each decision is
awaited through ``mantis.players.table.decide``, which runs the seat's
``choose`` in a daemon thread, so neither a thinking bot nor a waiting human
ever blocks the screen.  The engine's events arrive through ``Game.subscribe``
and are shown one by one, paced so a person can follow: the drawn card is
revealed, then its outcome lands in the tanks and the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Sequence
from time import monotonic

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Button, Static

from ...engine import (
    SCORE,
    CardRevealed,
    Event,
    Game,
    GameOver,
    GameRecord,
    SeatInfo,
    Steal,
    TurnStarted,
    bot_rng,
    record_of,
    steal,
)
from ...players import HumanPlayer, Player
from ...players.coach import advise
from ...players.table import decide
from ...store.saves import autosave
from ...store.stats import StatsDB
from ..narration import fault_line, narrate, possessive
from ..pacing import Pace
from ..seating import HUMAN, make_player
from ..widgets.coach_bar import CoachBar
from ..widgets.game_log import GameLog
from ..widgets.move_button import MoveButton
from ..widgets.odds_panel import OddsPanel
from ..widgets.seat_panel import SeatPanel
from .board import BOARD_CSS, BoardScreen
from .game_over import GameOverScreen


class TableScreen(BoardScreen):
    """A table of 2 to 6 seats playing one game, from any position to the end."""

    CSS_PATH = [BOARD_CSS, "table.tcss"]

    BINDINGS = [
        Binding("s", "score", "Score"),
        Binding("1", "pick(0)", "Pick", key_display="1-6"),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(2, 7)),
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

    def __init__(self, game: Game, seats: Sequence[SeatInfo], *, paused: bool = False) -> None:
        """A table for ``game`` (new or in progress) with one ``SeatInfo`` per seat.

        ``paused`` holds bot play until the user resumes or steps.
        """
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats for a {game.players}-player game")
        super().__init__(game, seats)
        self.players: list[Player] = [make_player(seat) for seat in seats]
        self.has_bots = any(seat.kind != HUMAN for seat in seats)
        self.has_humans = any(seat.kind == HUMAN for seat in seats)
        self.paused = paused and self.has_bots
        self.waiting: int | None = None
        """The human seat whose input is awaited, if any."""
        self.targets: tuple[int, ...] = ()
        """The seats the waiting human may steal from, as the engine allows."""
        self.target: int | None = None
        """The seat picked to steal from, before the steal is confirmed."""
        self.thinking: int | None = None
        self.result: GameOver | None = None
        self._go = asyncio.Event()
        self._visible = asyncio.Event()
        self._status = ""
        self._stepping = False
        self._bindings_state: tuple[bool, ...] = ()
        self._save_failed = False
        self._save_wanted = False
        self._saver: asyncio.Task[None] | None = None
        self._save_lock = threading.Lock()

    # ------------------------------------------------------------------ layout

    def compose_bottom(self) -> ComposeResult:
        yield CoachBar(id="coach")
        with Horizontal(id="actions"):
            yield MoveButton("Score (s)", id="score", compact=True, variant="primary")
            yield MoveButton("Steal (⏎)", id="steal", compact=True, variant="warning")
            yield Static(id="hint")

    def on_mount(self) -> None:
        for button in self.query(Button):
            # Nothing on the table takes focus, so Enter always means "steal".
            button.can_focus = False
            button.display = self.has_humans
        view = self.game.view()
        # Opened part-way (a resumed game), the pile shows the last card drawn.
        self._show_pile(view)
        self._log_opening()
        if view.turn:
            self._narrate_history()
        if not self.game.over:
            self._present(
                TurnStarted(
                    view.to_move, view.top_back or 0, view.pile_size, view.turn, view.extra_turn
                )
            )
        settings = self.mantis.settings
        self.query_one(OddsPanel).display = settings.show_odds
        self.query_one(CoachBar).display = settings.coach
        self._update_insights()
        self._update_status()
        self._update_controls()
        self._run_game()

    def _narrate_history(self) -> None:
        """Log the moves already played in a game opened part-way through."""
        game = self.game
        replay = Game(game.initial_tanks, game.initial_pile, game.first, seed=game.seed)
        log = self.query_one(GameLog)

        def record(event: Event) -> None:
            line = narrate(event, self.names)
            if line is not None:
                log.add(line, turn=replay.turn)

        replay.subscribe(record)
        for seat, action in game.history:
            replay.apply(action, seat)

    def on_screen_resume(self) -> None:
        self._visible.set()

    def on_screen_suspend(self) -> None:
        # Bots wait while help, settings or the too-small notice covers the table,
        # so nobody misses a move.
        self._visible.clear()

    def _extra_bottom_rows(self) -> int:
        # The coach's line above the actions row, which wraps when narrow.
        if not self.mantis.settings.coach:
            return 0
        return 1 if self.size.width >= 100 else 2

    def on_unmount(self) -> None:
        # BoardScreen.on_unmount stops following the game's events.
        saving = self._saver is not None and not self._saver.done()
        if (self._save_wanted or saving) and not self.game.over:
            # Quitting between a move and its save: write the latest position now
            # (after any write in progress, thanks to the lock).
            with contextlib.suppress(OSError):
                self._write_save(self.record)
        if self.waiting is not None:
            # Release the thread still waiting for this human's move; the game
            # worker is gone, so the answer goes nowhere.
            player = self.players[self.waiting]
            if isinstance(player, HumanPlayer):
                player.submit(SCORE)

    # ------------------------------------------------------------------ the game

    @work(exclusive=True, group="game")
    async def _run_game(self) -> None:
        game = self.game
        self._start_bots()
        finished_here = not game.over
        if finished_here:
            # Saved at once, so a new table replaces an older save straight away.
            self._request_save()
        while not game.over:
            view = game.view()
            seat = view.to_move
            player = self.players[seat]
            if isinstance(player, HumanPlayer):
                self.waiting, self.target = seat, None
                self.targets = tuple(
                    action.target for action in view.legal_actions() if isinstance(action, Steal)
                )
                self._update_controls()
                decision = await decide(player, view, None)
                self.waiting = None
            else:
                await self._wait_while_paused()
                self.thinking = seat
                self._update_controls()
                started = monotonic()
                decision = await decide(player, view, self.mantis.bot_timeout)
                rest = self._pace().think - (monotonic() - started)
                if rest > 0:
                    await asyncio.sleep(rest)
                await self._visible.wait()
                self.thinking = None
            self.target = None
            self._update_controls()
            if decision.fault:
                self.query_one(GameLog).add(
                    fault_line(self.names[seat], decision.fault),
                    turn=view.turn + 1,
                    strong=True,
                )
            game.apply(decision.action, seat)
            await self._show_pending()
            if not game.over:
                self._request_save()
        if finished_here:
            await self._keep_finished_game()
        if self.result is None:
            # Opened on a finished game: describe the end from the public state, and
            # let the table draw once so it shows behind the result.
            assert game.winners is not None and game.reason is not None
            self._present(
                GameOver(game.winners, game.reason, game.scores, game.tank_sizes, game.turn)
            )
            await asyncio.sleep(0.05)
        self._update_controls()
        await self._visible.wait()
        self.show_result()

    @property
    def record(self) -> GameRecord:
        """The game so far as a record, with the seats' names and kinds."""
        return record_of(self.game, self.seats)

    def _request_save(self) -> None:
        """Have the game saved as it is now, without the game waiting for the disk.

        Saves run one at a time off the UI thread (each fsyncs); moves made
        while one is being written are covered by the next, which saves the
        latest position.  So fast bots never wait on the disk.
        """
        self._save_wanted = True
        if self._saver is None or self._saver.done():
            self._saver = asyncio.create_task(self._save_latest())

    async def _save_latest(self) -> None:
        while self._save_wanted:
            self._save_wanted = False
            await self._autosave()

    async def _autosave(self) -> None:
        """Save the game as it is now (off the UI thread); a failure is reported once."""
        try:
            await asyncio.to_thread(self._write_save, self.record)
        except OSError as exc:
            if not self._save_failed:  # once is enough: the game plays on regardless
                self._save_failed = True
                self.notify(f"Could not save the game: {exc}", severity="error", timeout=8)

    def _write_save(self, record: GameRecord) -> None:
        # One write at a time, so the latest position is always the one that lands.
        with self._save_lock:
            autosave(record)

    async def _saves_done(self) -> None:
        """Wait for the save being written, so a later write cannot be overtaken."""
        self._save_wanted = False
        if self._saver is not None:
            await self._saver

    async def _keep_finished_game(self) -> None:
        """Record the finished game in the statistics, then clear the save.

        Neither may break the game-over flow: failures become notifications.
        """
        await self._saves_done()  # an older save must not land after the clearing one
        record = self.record

        def store() -> None:
            with StatsDB() as db:
                db.record_game(record)

        try:
            await asyncio.to_thread(store)
        except Exception as exc:  # StatsError above all; none may cost the player the result
            self.notify(f"Statistics not updated: {exc}", severity="warning", timeout=8)
        await self._autosave()

    def show_result(self) -> None:
        """Open the game-over screen (again) once the game has ended."""
        if self.result is not None and not isinstance(self.app.screen, GameOverScreen):
            self.app.push_screen(
                GameOverScreen(self.result, self.names, self.game.seed), self._after_game
            )

    def _start_bots(self) -> None:
        for seat, player in enumerate(self.players):
            hook = getattr(player, "new_game", None)
            if callable(hook):
                try:
                    hook(seat, bot_rng(self.game.seed, seat))
                except Exception as exc:  # a plug-in's fault: say so and play on
                    self.query_one(GameLog).add(
                        f"{possessive(self.names[seat], start=True)} bot failed to start "
                        f"({type(exc).__name__}: {exc})"
                    )

    async def _show_pending(self) -> None:
        """Show the events of the last move, lingering on the drawn card."""
        for event in self._take_pending():
            self._present(event)
            if isinstance(event, CardRevealed):
                reveal = self._pace().reveal
                if reveal:
                    await asyncio.sleep(reveal)

    def _human_to_move(self, seat: int) -> bool:
        return self.seats[seat].kind == HUMAN

    def _present(self, event: Event) -> None:
        """Bring every widget up to date with one event."""
        if isinstance(event, GameOver):
            self.result = event
        super()._present(event)
        if isinstance(event, TurnStarted | GameOver):
            self._update_insights()
        self._update_status()

    def _pace(self) -> Pace:
        return self.mantis.pace

    async def _wait_while_paused(self) -> None:
        await self._visible.wait()
        while self.paused:
            self._go.clear()
            self._update_controls()
            await self._go.wait()
            if self._stepping:
                self._stepping = False
                return

    def _after_game(self, choice: str | None) -> None:
        self.mantis.after_game(choice or "stay", self)

    # ------------------------------------------------------------------ controls

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        human = self.waiting is not None
        human_actions = ("score", "pick", "cycle", "cancel", "steal")
        if action in human_actions and (self.game.over or not self.has_humans):
            return False
        if action in ("score", "pick", "cycle", "cancel"):
            return True if human else None
        if action == "steal":
            return True if human and self.target is not None else None
        if action == "result":
            return self.result is not None
        if action == "pause":
            return bool(self.has_bots and not self.game.over)
        if action == "step":
            # Shown only while paused, to leave the footer room at 80 columns.
            if not (self.has_bots and self.paused):
                return False
            return True if not human and not self.game.over else None
        return True

    def _update_insights(self) -> None:
        """Bring the odds panel and the coach up to the current position (if shown)."""
        super()._update_insights()
        coach = self.query_one(CoachBar)
        if coach.display:
            # The expert decides in well under a millisecond: no need to leave the loop.
            view = self.game.view()
            coach.show(advise(view, self.names), self.names[view.to_move])

    def action_toggle_coach(self) -> None:
        shown = not self.mantis.settings.coach
        self.mantis.update_settings(self.mantis.settings.with_changes(coach=shown))
        self.apply_insight_settings()

    def apply_insight_settings(self) -> None:
        """Show or hide the odds panel and the coach as the settings say."""
        self.query_one(CoachBar).display = self.mantis.settings.coach
        super().apply_insight_settings()

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
        if seat >= self.game.players:
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
        self.paused = not self.paused
        if not self.paused:
            self._go.set()
        self._update_controls()

    def action_step(self) -> None:
        if self.paused:
            self._stepping = True
            self._go.set()

    def action_speed(self) -> None:
        self.mantis.cycle_speed()
        self._update_status()

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

    def _submit_for_human(self, action: object) -> None:
        seat = self.waiting
        if seat is None:
            return
        player = self.players[seat]
        assert isinstance(player, HumanPlayer)
        self.waiting = None
        self._set_target(None)
        player.submit(action)  # type: ignore[arg-type]

    def _set_target(self, seat: int | None) -> None:
        self.target = seat
        for panel in self.panels:
            panel.mark(target=panel.seat == seat)
        self._update_controls()

    def _update_controls(self) -> None:
        human = self.waiting
        score = self.query_one("#score", Button)
        steal_button = self.query_one("#steal", Button)
        hint = self.query_one("#hint", Static)
        if score.disabled != (human is None):
            score.disabled = human is None
        if steal_button.disabled != (human is None or self.target is None):
            steal_button.disabled = human is None or self.target is None
        for panel in self.panels:
            panel.set_pickable(human is not None and panel.seat in self.targets)
        if self.target is not None:
            steal_button.label = f"Steal from {self.names[self.target]} (⏎)"
        else:
            steal_button.label = "Steal (⏎)"
        if self.game.over:
            text = "Game over."
        elif human is not None:
            if self.target is None:
                keys = ",".join(str(seat + 1) for seat in self.targets)
                text = f"Steal: pick {keys} or click a seat, then ⏎"
            else:
                text = f"⏎ steals from {self.names[self.target]} · esc cancels"
        elif self.paused:
            text = "Bots paused · n: next move · p: resume"
        elif self.thinking is not None:
            text = f"{self.names[self.thinking]} is thinking…"
        else:
            text = ""
        hint.update(text)
        bindings_state = (human is None, self.target is None, self.paused, self.game.over)
        if bindings_state != self._bindings_state:
            # Refreshing bindings rebuilds the footer: only when something changed.
            self._bindings_state = bindings_state
            self.refresh_bindings()
        self._update_status()

    def _update_status(self) -> None:
        game = self.game
        parts = [
            "MANTIS",
            f"seed {game.seed if game.seed is not None else '-'}",
            f"move {game.turn}",
            f"target {game.target}",
            f"speed {self.mantis.speed}",
        ]
        if self.paused:
            parts.append("PAUSED")
        text = " · ".join(parts)
        if text != self._status:
            self._status = text
            self.query_one("#status", Static).update(text)
