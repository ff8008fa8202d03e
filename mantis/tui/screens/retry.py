"""Retrying a mistake: the board at a position where the person went wrong, to play again.

A table's board (``PlayScreen``) opened on the public stream up to that
decision, with the same controls as in a game, and no coach; the odds panel
(each option's chance of coming off, the top card's faces) stays hidden
until the position is answered, since it all but names the answer.  The answer goes
to the drill (``mantis.review.retry``), which accepts a choice within 2
points of the best; the screen says so, with the best option and each
option's chance.  A refused answer may be tried again, or the answer shown.
``n`` asks the app for the next position (``Next``); Esc goes back to the
review.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static

from ...base.clock import SYSTEM_CLOCK, Clock
from ...engine import Action
from ...players.coach import percent
from ...review import GameReview
from ...review.report import loss_points
from ...review.retry import ACCEPTED_WITHIN, Answer, Drill
from ...table import moves_of
from ..preferences import Preferences
from ..widgets.coach_bar import CoachBar
from ..widgets.odds_panel import OddsPanel
from ..widgets.option_chances import OptionChances, option_name
from ..widgets.turn_banner import TurnBanner
from .board import BOARD_CSS, BoardScreen
from .play import PlayScreen


class _Answers:
    """Where the retry board's move goes: to the screen, to be judged."""

    can_hold = False

    def __init__(self, answered: Callable[[Action], None]) -> None:
        self.answered = answered

    def play(self, seat: int, turn: int, action: Action) -> None:
        self.answered(action)


def _doing(action: Action, names: list[str]) -> str:
    """ "scoring" or "stealing from Cal"."""
    label = option_name(action, names)
    return "scoring" if label == "Score" else f"stealing from {label.removeprefix('Steal ')}"


class RetryScreen(PlayScreen):
    """One position of a drill: the board before the decision, waiting for the person's choice."""

    CSS_PATH = [BOARD_CSS, "play.tcss", "retry.tcss"]

    BINDINGS = [
        Binding("a", "answer", "Show answer"),
        Binding("n", "next", "Next position"),
        Binding("escape", "cancel", "Back", key_display="esc"),
        Binding("q", "close", "Back", show=False),
    ]

    class Next(Message):
        """On to the drill's next position (or back to the review after the last)."""

        def __init__(self, review: GameReview, drill: Drill) -> None:
            super().__init__()
            self.review = review
            self.drill = drill

    def __init__(
        self,
        review: GameReview,
        drill: Drill,
        prefs: Preferences,
        *,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        """The drill's current position of ``review``'s game (the drill says which)."""
        decision = drill.current
        if decision is None:
            raise ValueError("the drill's round is over: no position to retry")
        self.review = review
        self.drill = drill
        self.decision = decision
        self.number = drill.index + 1
        """The position's place in the round, from 1."""
        moves = moves_of(review.record)
        backlog = [message for move in moves[: decision.move + 1] for message in move]
        super().__init__(
            backlog,
            prefs,
            _Answers(self._answered),
            controls=(decision.seat,),
            clock=clock,
        )
        self.answered: Answer | None = None
        """The latest answer, if any."""
        self.solved = False
        """The answer is found (accepted, or shown)."""

    # ------------------------------------------------------------------ layout

    def compose_bottom(self) -> ComposeResult:
        yield Static(id="verdict")
        yield from super().compose_bottom()

    def on_mount(self) -> None:
        # (The board's own on_mount handlers run after this one, as Textual calls each.)
        chances = OptionChances(id="chances")
        chances.display = False  # until an answer is given
        self.query_one("#side").mount(chances)
        self.call_after_refresh(self._prompt)

    def _prompt(self) -> None:
        decision = self.decision
        label = decision.label or "mistake"
        article = "an" if label == "inaccuracy" else "a"
        text = Text()
        text.append(f"Move {decision.move + 1}: ", style="bold")
        text.append(
            f"{article} {label} in the game (−{loss_points(decision.loss)} points). "
            f"Find a choice within {ACCEPTED_WITHIN:g} points of the best. "
            "a shows the answer."
        )
        self._say(text)

    def _extra_bottom_rows(self) -> int:
        # The verdict above the buttons (it wraps when narrow), and the chances panel
        # under the pile after an answer (a row per option, the verdict, its border).
        verdict = 1 if self.size.width >= 100 else 2
        return verdict + self.state.players + 3

    def _say(self, text: Text) -> None:
        self.query_one("#verdict", Static).update(text)

    # ------------------------------------------------------------------ answers

    def _answered(self, action: Action) -> None:
        """Judge the person's choice and say what it was worth."""
        answer = self.drill.answer(action)
        self.answered = answer
        best = self.decision.best_option
        names = self.names
        text = Text()
        if answer.accepted:
            self.solved = True
            first = self.decision.move in self.drill.solved
            text.append("✓ Accepted: ", style="bold green")
            if answer.option == self.decision.best:
                text.append(f"{_doing(action, names)} ({percent(best.win)}) is the best choice. ")
            else:
                mine = self.decision.options[answer.option]
                text.append(
                    f"{_doing(action, names)} ({percent(mine.win)}) is within "
                    f"{loss_points(answer.loss)} points of the best, "
                    f"{_doing(best.action, names)} ({percent(best.win)}). "
                )
            if not first:
                text.append("(Not counted as solved: the first answer counts.) ", style="dim")
            text.append(self._onwards())
            self._reveal()
            self._follow_turn_done("✓ ACCEPTED")
        else:
            text.append("✗ Not this one: ", style="bold red")
            text.append(
                f"{_doing(action, names)} gives up {loss_points(answer.loss)} points of winning "
                "chance. Choose again, or a shows the answer."
            )
            self._follow_turn(self.decision.seat)  # the controls come alive again
        self._say(text)
        self._update_status()

    def _follow_turn_done(self, verdict: str) -> None:
        """The position is done with (``verdict``, for the banner): no more choices (the
        buttons go), on to the next."""
        self.waiting = self.target = None
        onwards = "next position" if self.number < len(self.drill.round) else "back to the review"
        self.query_one(TurnBanner).show_done(f"{verdict} · n: {onwards}")
        self._update_controls()
        # The verdict says what comes next: the row of buttons and hint gives its room
        # to the chances under the pile.
        self.query_one("#actions").display = False
        self.refresh_bindings()

    def _reveal(self) -> None:
        # The odds, if they are on, are no secret now.
        self.query_one(OddsPanel).display = self.prefs.settings.show_odds
        self._update_insights()
        chances = self.query_one(OptionChances)
        answer = self.answered.option if self.answered is not None else None
        chances.show(self.decision, self.names, answer=answer)
        chances.display = True

    def action_answer(self) -> None:
        if self.solved:
            return
        if self.answered is None:
            self.drill.give_up()
        self.solved = True
        best = self.decision.best_option
        text = Text()
        text.append("The answer: ", style="bold")
        text.append(f"{_doing(best.action, self.names)} ({percent(best.win)}). {self._onwards()}")
        self._say(text)
        self._reveal()
        self._follow_turn_done("■ THE ANSWER")
        self._update_status()

    def _onwards(self) -> str:
        """What ``n`` does from here: the next position, or back after the round's last."""
        if self.number < len(self.drill.round):
            return "n: next position."
        return "n: back to the review (the last of this round)."

    def action_next(self) -> None:
        if self.solved:
            self.post_message(self.Next(self.review, self.drill))

    def action_cancel(self) -> None:
        if self.target is not None:
            super().action_cancel()
        else:
            self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)

    # ------------------------------------------------------------------ what is shown

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("pause", "step", "speed", "result", "toggle_coach"):
            return False
        if action == "next":
            return self.solved
        if self.solved and action in ("score", "pick", "cycle", "steal"):
            return False
        if action == "answer":
            return not self.solved
        if action == "toggle_odds":
            return self.solved
        if action == "cancel":
            return True  # Esc drops a picked target, else goes back: never greyed out
        return super().check_action(action, parameters)

    def _update_insights(self) -> None:
        # The coach would give the answer away, and so would the odds until it is given.
        if not self.solved:
            self.query_one(OddsPanel).display = False
        BoardScreen._update_insights(self)

    def follow_preferences(self, prefs: Preferences) -> None:
        super().follow_preferences(prefs)
        self.query_one(CoachBar).display = False

    def status_parts(self) -> list[str]:
        drill = self.drill
        return [
            "RETRY YOUR MISTAKES",
            f"position {self.number} of {len(drill.round)}",
            f"solved {len(drill.solved)} of {drill.total}",
            f"move {self.decision.move + 1}",
        ]
