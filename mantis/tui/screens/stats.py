"""Each human player's results: their rating and its history, win rates overall, per bot
level and table size, streaks, and a chart of results over time."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ...follow.stats_report import (
    CHART_GAMES,
    CHART_LEAST,
    RECENT,
    load_player_stats,
    rating_chart,
    results_chart,
    results_heading,
)
from ...home.stats import PlayerStats, StatsError, Tally
from ...players.registry import LEVELS, level_label
from .. import plain
from ..stats_reading import BUSY_NOTE, StatsBusy, read_patiently
from ..widgets.chart import Chart
from ..widgets.key_footer import KeyFooter


def _percent(tally: Tally) -> str:
    return f"{round(100 * tally.win_rate)}%"


def _breakdown(rows: list[tuple[str, Tally]]) -> Text:
    """Aligned rows: label, "won 3 of 5", "60%"."""
    width = max((len(label) for label, _ in rows), default=0)
    return plain.rich(
        "\n".join(
            f"{label:<{width}}  won {t.wins:>3} of {t.games:>3}  {_percent(t):>4}"
            for label, t in rows
        ),
        lines=True,
    )


def level_order(bot: str) -> tuple[int, str]:
    """Sort key: the UI's levels easiest first, then any other bot by name."""
    names = [name for _, name in LEVELS]
    return (names.index(bot) if bot in names else len(names), bot)


def _results_line(stats: PlayerStats) -> Text:
    """The latest results as W and L (colour never carries them alone), then the dates."""
    results = stats.results[-RECENT:]
    text = Text(no_wrap=True, overflow="ellipsis")
    for i, (_, won) in enumerate(results):
        if i:
            text.append(" ")
        text.append("W" if won else "L", style="bold green" if won else "dim")
    if results:
        first, last = results[0][0], results[-1][0]
        text.append("\n")
        text.append(f"from {first:%Y-%m-%d} to {last:%Y-%m-%d}", style="dim")
    return text


class StatsScreen(Screen[None]):
    """Statistics per human player, read from the statistics database in a worker."""

    DEFAULT_CSS = """
    StatsScreen {
        align: center top;
    }
    #stats {
        width: 78;
        max-width: 100%;
        height: 1fr;
        padding: 0 2;
    }
    #stats .title {
        text-style: bold;
        color: $accent;
        margin: 1 0 0 0;
    }
    #stats .player {
        text-style: bold;
        margin-top: 1;
        border-bottom: solid $foreground 30%;
        width: 1fr;
    }
    #stats .head {
        color: $foreground-muted;
        margin-top: 1;
    }
    """

    BINDINGS = [Binding("escape,q", "close", "Close")]

    def __init__(self) -> None:
        super().__init__()
        self.loaded = False
        """Whether the figures (or why there are none) are shown yet."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats", can_focus=True):
            yield Static("MANTIS · statistics", classes="title")
            yield Static("Reading the statistics…", id="loading", classes="note")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._read()

    @work(thread=True, exclusive=True, group="stats-read")
    def _read(self) -> list[PlayerStats] | StatsError | None:
        """The figures, read off the UI thread (a locked database would freeze it)."""
        return read_patiently(self, load_player_stats)

    def on_stats_busy(self, _: StatsBusy) -> None:
        self.query_one("#loading", Static).update(BUSY_NOTE)

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "stats-read" and event.state == WorkerState.SUCCESS:
            result = event.worker.result
            if result is not None:
                await self._show(result)

    async def _show(self, result: list[PlayerStats] | StatsError) -> None:
        widgets: list[Widget] = []
        if isinstance(result, StatsError):
            plain.notify(self, str(result), severity="error", timeout=10)
            widgets.append(
                Static(plain.content(f"The statistics cannot be read: {result}"), classes="note")
            )
        elif not result:
            widgets.append(
                Static(
                    "No games recorded yet: finish a game and it will show up here.",
                    classes="note",
                )
            )
        else:
            for stats in result:
                widgets.extend(self._player(stats))
        await self.query_one("#loading").remove()
        await self.query_one("#stats", VerticalScroll).mount_all(widgets)
        self.loaded = True

    def _player(self, stats: PlayerStats) -> ComposeResult:
        overall = stats.overall
        yield Static(plain.content(stats.name), classes="player")
        summary = Text()
        plural = "" if overall.games == 1 else "s"
        summary.append(f"{overall.games} game{plural} · {overall.wins} won · ")
        summary.append(f"{_percent(overall)} ", style="bold")
        summary.append(f"win rate · streak {stats.current_streak} now, best {stats.best_streak}")
        yield Static(summary)
        yield from self._rating(stats)
        yield Static("Against each bot level (a game counts for every bot at it)", classes="head")
        if stats.vs_bots:
            by_level = sorted(stats.vs_bots, key=lambda item: level_order(item[0]))
            yield Static(_breakdown([(level_label(bot), t) for bot, t in by_level]))
        else:
            yield Static("no games against bots", classes="note")
        if stats.vs_people:
            yield Static("Against each person (online, or at one keyboard)", classes="head")
            yield Static(_breakdown(list(stats.vs_people)))
        yield Static("By table size", classes="head")
        yield Static(_breakdown([(f"{n} players", t) for n, t in stats.by_players]))
        results = [won for _, won in stats.results]
        if len(results) < CHART_LEAST:
            yield Static("The one game so far", classes="head")
        else:
            heading = results_heading(len(results))
            yield Static(f"{heading[:1].upper()}{heading[1:]}, and each result", classes="head")
            yield Chart(*results_chart(results), classes="chart")
        yield Static(_results_line(stats))

    def _rating(self, stats: PlayerStats) -> ComposeResult:
        """The person's rating with its ±, then the rating after each rated game as a chart."""
        rating = stats.rating
        if rating is None:
            yield Static(
                "No rating yet: games here against bots or at one keyboard are rated.",
                classes="note rating",
            )
            return
        games = len(stats.ratings)
        line = Text("Rating ")
        line.append(f"{rating.shown:,} ± {rating.plus_minus:,}", style="bold")
        if rating.provisional:
            line.append(" provisional", style="italic")
        line.append(f" · after {games} rated game{'' if games == 1 else 's'}")
        yield Static(line, classes="rating")
        points = stats.ratings[-CHART_GAMES:]
        shown = len(points)
        latest = "each rated game" if games == shown else f"each of the last {shown} rated games"
        yield Static(f"Rating after {latest}, between its ± (small dots)", classes="head")
        yield Chart(*rating_chart(points), classes="chart rating-chart")

    def action_close(self) -> None:
        self.dismiss(None)
