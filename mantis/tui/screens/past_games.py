"""The list of finished games, newest first; any of them opens in the replay or the review."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import Worker, WorkerState

from ...engine import GameRecord
from ...home.stats import PastGame, StatsDB, StatsError, default_stats_path
from ...table.credit import A_BOT, credited_names, stand_ins_of
from ...table.narration import join_names
from .. import plain
from ..stats_reading import BUSY_NOTE, StatsBusy, read_patiently
from ..widgets.key_footer import KeyFooter

#: Games listed at most (the newest).
LIMIT = 500


def _seats(game: PastGame) -> str:
    """ "You, Ann (expert)", and where an online game was played: "online KXQD: …"."""
    seats = ", ".join(
        seat.name if seat.kind == "human" else f"{seat.name} ({seat.bot})" for seat in game.seats
    )
    return f"{_where(game)}: {seats}" if game.origin is not None else seats


def winner_text(game: PastGame, played_on: dict[int, str]) -> str:
    """Who won, as every result says it: "Ann", "Ann and Bea (shared)", "Ann's seat (played
    by greedy)" where Ann had left (``played_on``: the bot that played each such seat)."""
    names = credited_names(
        [seat.name for seat in game.seats],
        {seat: played_on.get(seat, A_BOT) for seat in game.left},
    )
    winner = join_names([names[w] for w in game.winners])
    return winner + (" (shared)" if len(game.winners) > 1 else "")


def _played_on(db: StatsDB, game_id: int) -> dict[int, str]:
    """Which bot played on for each person who left game ``game_id`` (none said if its
    record cannot be read: the list still shows the game)."""
    try:
        return stand_ins_of(db.game_record(game_id))
    except StatsError:
        return {}


def _where(game: PastGame) -> str:
    """ "online KXQD" for a game played at a server's table."""
    parts = (game.origin or "").split()
    return f"online {parts[1]}" if len(parts) > 1 else "online"


def _plain(text: str) -> Text:
    """A cell shown as it is: a table reads a plain string as markup, and names are not."""
    return plain.rich(text, no_wrap=True, end="")


class PastGamesScreen(Screen[None]):
    """Number, date, seats, winner and length of every recorded game (read in a worker);
    Enter replays one, ``e`` reviews it.  The number is the game's name on the command line
    (``mantis review --past N``, ``mantis games export N``)."""

    DEFAULT_CSS = """
    PastGamesScreen {
        align: center top;
    }
    #past {
        width: 110;
        max-width: 100%;
        height: 1fr;
        padding: 0 1;
    }
    #past .title {
        text-style: bold;
        color: $accent;
        margin: 1 0;
    }
    #past DataTable {
        height: 1fr;
    }
    """

    BINDINGS = [
        Binding("enter", "open", "Replay"),
        Binding("e", "review", "Review"),
        Binding("escape,q", "close", "Close"),
    ]

    class Open(Message):
        """Replay this past game (read from the statistics database)."""

        def __init__(self, record: GameRecord, title: str) -> None:
            super().__init__()
            self.record = record
            self.title = title

    class Review(Message):
        """Review this past game (read from the statistics database)."""

        def __init__(self, record: GameRecord, title: str, *, online: bool) -> None:
            super().__init__()
            self.record = record
            self.title = title
            self.online = online
            """Played at a server's table (its person is the one this app plays online as)."""

    def __init__(self) -> None:
        super().__init__()
        self.games: list[PastGame] = []
        self.played_on: dict[int, dict[int, str]] = {}
        """Per game with a seat whose person left, the bot that played each such seat on."""
        self.loaded = False
        """Whether the list (or why there is none) is shown yet."""

    def compose(self) -> ComposeResult:
        with Vertical(id="past"):
            yield Static(
                "MANTIS · past games (Enter replays one, e reviews it; "
                "from a shell: mantis review --past N)",
                classes="title",
            )
            yield Static("Reading the past games…", id="loading", classes="note")
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("No.", "Finished (UTC)", "Seats", "Winner", "Moves")
        table.focus()
        self._read()

    @work(thread=True, exclusive=True, group="past-read")
    def _read(self) -> tuple[list[PastGame], dict[int, dict[int, str]]] | StatsError | None:
        """The games, and which bot played on for each person who left one (read off the
        UI thread: a locked database would freeze it)."""

        def past_games() -> tuple[list[PastGame], dict[int, dict[int, str]]]:
            if not default_stats_path().exists():  # listing never creates the database
                return [], {}
            with StatsDB() as db:
                games = db.past_games(LIMIT)
                # Only a game someone left needs its record read, for who played on.
                played_on = {g.id: _played_on(db, g.id) for g in games if g.left}
                return games, played_on

        return read_patiently(self, past_games)

    def on_stats_busy(self, _: StatsBusy) -> None:
        self.query_one("#loading", Static).update(BUSY_NOTE)

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state != WorkerState.SUCCESS or event.worker.result is None:
            return
        if event.worker.group == "past-read":
            await self._show(event.worker.result)
        elif event.worker.group == "past-open":
            self._opened(*event.worker.result)

    async def _show(
        self, result: tuple[list[PastGame], dict[int, dict[int, str]]] | StatsError
    ) -> None:
        if isinstance(result, StatsError):
            plain.notify(self, str(result), severity="error", timeout=10)
        else:
            self.games, self.played_on = result
        table = self.query_one(DataTable)
        for game in self.games:
            winner = winner_text(game, self.played_on.get(game.id, {}))
            table.add_row(
                Text(str(game.id), justify="right"),
                f"{game.finished_at:%Y-%m-%d %H:%M}",
                _plain(_seats(game)),
                _plain(winner),
                str(game.turns),
                key=str(game.id),
            )
        if not self.games:
            self.query_one(".title", Static).update(
                "MANTIS · past games: none yet (finished games show up here)"
            )
        await self.query_one("#loading").remove()
        self.loaded = True

    @on(DataTable.RowSelected)
    def _on_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.open_game(int(event.row_key.value))

    def action_open(self) -> None:
        table = self.query_one(DataTable)
        if self.games and 0 <= table.cursor_row < len(self.games):
            self.open_game(self.games[table.cursor_row].id)

    def action_review(self) -> None:
        table = self.query_one(DataTable)
        if self.games and 0 <= table.cursor_row < len(self.games):
            self.open_game(self.games[table.cursor_row].id, review=True)

    @work(thread=True, exclusive=True, group="past-open")
    def open_game(
        self, game_id: int, *, review: bool = False
    ) -> tuple[int, GameRecord | StatsError, bool]:
        """Read game ``game_id`` (off the UI thread), then open it in the replay screen
        (``review``: in the review)."""
        try:
            with StatsDB() as db:
                return game_id, db.game_record(game_id), review
        except StatsError as exc:
            return game_id, exc, review

    def _opened(self, game_id: int, record: GameRecord | StatsError, review: bool) -> None:
        if isinstance(record, StatsError):
            plain.notify(self, str(record), severity="error", timeout=10)
            return
        game = next((g for g in self.games if g.id == game_id), None)
        title = f"{game.finished_at:%Y-%m-%d %H:%M}" if game is not None else f"game {game_id}"
        if review:
            online = game is not None and game.origin is not None
            self.post_message(self.Review(record, title, online=online))
        else:
            self.post_message(self.Open(record, title))

    def action_close(self) -> None:
        self.dismiss(None)
