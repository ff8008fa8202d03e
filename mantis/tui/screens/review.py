"""A finished game reviewed: per seat what the choices cost and what the cards did, the
chances over the game, and every decision, any of which opens on the board.

The analysis (``mantis.review.review_game``) runs in a thread worker when
the screen opens; until it is done the screen says it is reviewing.  One
seat is in focus (the person who played, as a rule): its decisions are
listed and marked on the chart, and its mistakes are the ones retried;
``s`` moves the focus to the next seat and ``a`` lists every seat's.
Opening a decision and retrying mistakes are asked of the app (``Jump``,
``Retry``), which shows the board for them.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker, WorkerState

from ...engine import GameRecord
from ...follow.review_chart import chances_chart, move_number, seat_colour
from ...review import Decision, GameReview, review_game
from ...review.report import (
    ADJUSTED_MEANS,
    LUCK_MEANS,
    adjusted_points,
    result_word,
    signed_points,
    verdict,
)
from ...review.retry import Drill, mistakes_of
from ...table.names import clean_name
from ...table.narration import possessive
from .. import plain
from ..widgets.chart import Chart
from ..widgets.option_chances import LABEL_STYLES, option_name


def seat_names(record: GameRecord) -> list[str]:
    """The seats' names as a board shows them (cleaned, "Seat 2" where a record has none)."""
    seats = record.seats or ()
    names = [clean_name(seat.name) for seat in seats]
    return [
        (names[s] if s < len(names) and names[s] else f"Seat {s + 1}")
        for s in range(record.players)
    ]


MINUS = "−"
"""The minus sign the losses have."""


class SeatSummary(Widget):
    """Per seat: result, accuracy, labels, luck and the luck-adjusted result, in columns.

    The seat's number is drawn in its line's colour on the chart; the seat in
    focus is marked with ▶.  Names are cut to fit the width.
    """

    DEFAULT_CSS = """
    SeatSummary {
        height: auto;
        width: 1fr;
    }
    """

    HEAD = ("Result", "Accuracy", "Inacc.", "Mistakes", "Blunders", "Luck", "Adjusted")

    def __init__(self, review: GameReview, names: list[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.review = review
        self.names = names
        self.focus_seat = 0

    def render(self) -> Text:
        widths = [max(6, len(h)) for h in self.HEAD]
        fixed = sum(widths) + 2 * len(widths)
        longest = max(len(f"▶ 1 {name}") for name in self.names)
        name_width = max(8, min(longest, self.size.width - fixed - 1))
        head = Text(f"{'Seat':<{name_width}}", style="bold", no_wrap=True)
        for title, width in zip(self.HEAD, widths, strict=True):
            head.append(f"  {title:>{width}}", style="bold")
        lines = [head]
        for seat in self.review.seats:
            s = seat.seat
            line = Text(no_wrap=True, overflow="ellipsis")
            focus = s == self.focus_seat
            label = plain.visible(self.names[s])
            room = name_width - 4
            if len(label) > room:
                label = label[: room - 1] + "…"
            line.append("▶ " if focus else "  ", style="bold")
            line.append(f"{s + 1} ", style=f"bold {seat_colour(s)}")
            line.append(f"{label:<{room}}", style="bold" if focus else "")
            accuracy = "-" if seat.accuracy is None else f"{seat.accuracy:.1f}%"
            cells = (
                result_word(self.review, s),
                accuracy,
                str(seat.inaccuracies),
                str(seat.mistakes),
                str(seat.blunders),
                signed_points(seat.luck, minus=MINUS),
                adjusted_points(seat, minus=MINUS),
            )
            for cell, width in zip(cells, widths, strict=True):
                line.append(f"  {cell:>{width}}", style="bold" if focus else "")
            lines.append(line)
        return Text("\n").join(lines)


class ReviewScreen(Screen[None]):
    """The review of one finished game (worked out in a thread when the screen opens)."""

    CSS_PATH = "review.tcss"
    VERTICAL_BREAKPOINTS = [(0, "-short"), (28, "-tall")]

    BINDINGS = [
        Binding("enter", "open", "Open on board"),
        Binding("a", "every_seat", "Every seat"),
        Binding("s", "next_seat", "Next seat"),
        Binding("r", "retry", "Retry mistakes"),
        Binding("escape,q", "close", "Close"),
    ]

    class Jump(Message):
        """Show the board at a reviewed decision, with each option's chance."""

        def __init__(
            self, review: GameReview, move: int, seats: tuple[int, ...], title: str
        ) -> None:
            super().__init__()
            self.review = review
            self.title = title
            """What the review is called (the board's status line says it)."""
            self.move = move
            """Moves played before the decision: the replay's position."""
            self.seats = seats
            """The seats whose decisions were listed (the board's marks to step through)."""

    class Retry(Message):
        """Retry the focused seat's mistakes, from where ``drill`` stands."""

        def __init__(self, review: GameReview, drill: Drill) -> None:
            super().__init__()
            self.review = review
            self.drill = drill

    def __init__(self, record: GameRecord, *, title: str = "", person: int | None = None) -> None:
        """The review of ``record``, called ``title``; ``person``: the seat who played here."""
        super().__init__()
        self.record = record
        self.title_text = title
        self.names = seat_names(record)
        self.person = person
        self.focus_seat = person if person is not None and person < record.players else 0
        self.every = person is None
        """Every seat's decisions are listed (else the focused seat's)."""
        self.review: GameReview | None = None
        self.shown: tuple[Decision, ...] = ()
        """The decisions listed, in order."""
        self.drills: dict[int, Drill] = {}
        """Per seat, its mistakes being retried."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Vertical(id="review"):
            title = "MANTIS · review" + (f" · {self.title_text}" if self.title_text else "")
            yield Static(plain.content(title), classes="title")
            yield Static(
                "Reviewing the game: every decision valued from what its player could see…",
                id="loading",
                classes="note",
            )
            yield Static(id="verdict")
            yield Static(id="summary-slot")
            yield Static(f"{LUCK_MEANS} {ADJUSTED_MEANS}", id="legend", classes="note")
            yield Chart(id="chart")
            yield Static(id="list-title")
            yield DataTable(id="decisions", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.add_class("-loading")
        self._review()

    @work(thread=True, exclusive=True, group="review")
    def _review(self) -> GameReview | str:
        """The analysis, off the UI's loop; a one-line reason if the game cannot be reviewed."""
        try:
            return review_game(self.record)
        except Exception as exc:  # a record from disk may hold anything the engine refuses
            return f"This game cannot be reviewed: {exc}"

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "review" or event.state != WorkerState.SUCCESS:
            return
        result = event.worker.result
        if isinstance(result, str):
            self.query_one("#loading", Static).update(plain.content(result))
            plain.notify(self, result, severity="error", timeout=10)
            return
        if isinstance(result, GameReview):
            await self._show(result)

    async def _show(self, review: GameReview) -> None:
        self.review = review
        summary = SeatSummary(review, self.names, id="summary")
        await self.query_one("#summary-slot").remove()
        await self.mount(summary, after="#verdict")
        await self.query_one("#loading").remove()
        self.remove_class("-loading")
        self._follow_focus()
        self.query_one(DataTable).focus()
        self.refresh_bindings()

    # ------------------------------------------------------------------ the focus

    @property
    def listed_seats(self) -> tuple[int, ...]:
        """The seats whose decisions are listed and marked."""
        review = self.review
        if review is None:
            return ()
        return tuple(range(len(review.seats))) if self.every else (self.focus_seat,)

    def _follow_focus(self) -> None:
        """Bring the verdict, the summary's mark, the chart's marks and the list to the focus."""
        review = self.review
        if review is None:
            return
        seat = self.focus_seat
        self.query_one("#verdict", Static).update(
            plain.content(verdict(review, seat, self.names[seat]))
        )
        summary = self.query_one(SeatSummary)
        summary.focus_seat = seat
        summary.refresh()
        chart = chances_chart(review, self.listed_seats, top=seat, legend=False)
        self.query_one(Chart).show(*chart)
        self._fill_list()

    def _fill_list(self) -> None:
        review = self.review
        assert review is not None
        seats = self.listed_seats
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns("Move", "Seat", "Played", "Best", "Loss", "")
        self.shown = tuple(d for d in review.decisions if d.seat in seats)
        for decision in self.shown:
            table.add_row(*self._row(decision), key=str(decision.move))
        # The cursor starts on the first labelled decision: Enter shows it at once.
        first = next((i for i, d in enumerate(self.shown) if d.label is not None), 0)
        table.move_cursor(row=first, animate=False)
        self._title_list()

    def _title_list(self) -> None:
        review = self.review
        assert review is not None
        labelled = sum(1 for d in self.shown if d.label is not None)
        whose = (
            "Every seat's" if self.every else possessive(self.names[self.focus_seat], start=True)
        )
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(plain.visible(f"{whose} decisions"), style="bold")
        text.append(f" · {labelled} labelled · ⏎ opens one on the board · ")
        text.append(self._retry_note())
        self.query_one("#list-title", Static).update(text)

    def _retry_note(self) -> str:
        review = self.review
        assert review is not None
        seat = self.focus_seat
        name = self.names[seat]
        drill = self.drills.get(seat)
        total = len(mistakes_of(review, seat))
        if not total:
            return f"{name}: nothing to retry"
        if drill is None:
            return f"r retries {total} mistake{'s' if total != 1 else ''}"
        return f"r retries: {len(drill.solved)} of {drill.total} solved"

    def _row(self, decision: Decision) -> tuple[Text, ...]:
        chosen, best = decision.chosen_option, decision.best_option
        names = self.names
        from ...players.coach import percent

        played = plain.rich(
            f"{option_name(chosen.action, names)} {percent(chosen.win)}", no_wrap=True
        )
        if decision.chosen == decision.best:
            best_cell = Text("=", style="dim")
        else:
            best_cell = plain.rich(
                f"{option_name(best.action, names)} {percent(best.win)}", no_wrap=True
            )
        if decision.label is not None:
            label = Text(decision.label, style=LABEL_STYLES[decision.label])
            loss = Text(f"−{decision.loss:.1f}", style=LABEL_STYLES[decision.label])
        elif not decision.real:
            label, loss = Text("no real choice", style="dim"), Text("")
        else:
            label = Text("")
            loss = Text("" if decision.chosen == decision.best else f"−{decision.loss:.1f}")
        seat = Text(no_wrap=True)
        seat.append(f"{decision.seat + 1} ", style=f"bold {seat_colour(decision.seat)}")
        seat.append(plain.visible(names[decision.seat]))
        move = Text(str(move_number(decision)), justify="right")
        return (move, seat, played, best_cell, loss, label)

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("open", "every_seat", "next_seat", "retry"):
            return self.review is not None
        return True

    @on(DataTable.RowSelected)
    def _on_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None and self.review is not None:
            self._jump(int(event.row_key.value))

    def action_open(self) -> None:
        table = self.query_one(DataTable)
        if self.review is not None and 0 <= table.cursor_row < len(self.shown):
            self._jump(self.shown[table.cursor_row].move)

    def _jump(self, move: int) -> None:
        assert self.review is not None
        title = self.title_text or "reviewed game"
        self.post_message(self.Jump(self.review, move, self.listed_seats, title))

    def action_every_seat(self) -> None:
        self.every = not self.every
        self._follow_focus()

    def action_next_seat(self) -> None:
        if self.review is None:
            return
        self.focus_seat = (self.focus_seat + 1) % len(self.review.seats)
        self._follow_focus()

    def action_retry(self) -> None:
        review = self.review
        if review is None:
            return
        seat = self.focus_seat
        drill = self.drills.get(seat)
        if drill is None:
            mistakes = mistakes_of(review, seat)
            if not mistakes:
                plain.notify(
                    self,
                    f"{self.names[seat]} made no inaccuracy or worse: nothing to retry.",
                    timeout=5,
                )
                return
            drill = self.drills[seat] = Drill(mistakes)
        self.post_message(self.Retry(review, drill))

    def on_screen_resume(self) -> None:
        if self.review is not None:
            self._title_list()  # a retry may have solved some

    def action_close(self) -> None:
        self.dismiss(None)
