"""The list of finished games, newest first; any of them opens in the replay screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ...store.stats import PastGame, StatsDB, StatsError, default_stats_path
from ..narration import join_names

if TYPE_CHECKING:
    from ..app import MantisApp

#: Games listed at most (the newest).
LIMIT = 500


def _seats(game: PastGame) -> str:
    """ "You, Ann (expert)", and where an online game was played: "online KXQD: …"."""
    seats = ", ".join(
        seat.name if seat.kind == "human" else f"{seat.name} ({seat.bot})" for seat in game.seats
    )
    return f"{_where(game)}: {seats}" if game.origin is not None else seats


def _where(game: PastGame) -> str:
    """ "online KXQD" for a game played at a server's table."""
    parts = (game.origin or "").split()
    return f"online {parts[1]}" if len(parts) > 1 else "online"


class PastGamesScreen(Screen[None]):
    """Date, seats, winner and length of every recorded game; Enter replays one."""

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
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.games: list[PastGame] = []

    @property
    def mantis(self) -> MantisApp:
        return cast("MantisApp", self.app)

    def compose(self) -> ComposeResult:
        with Vertical(id="past"):
            yield Static("MANTIS · past games (Enter replays one)", classes="title")
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Finished (UTC)", "Seats", "Winner", "Moves")
        try:
            if default_stats_path().exists():  # listing never creates the database
                with StatsDB() as db:
                    self.games = db.past_games(LIMIT)
        except StatsError as exc:
            self.notify(str(exc), severity="error", timeout=10)
        for game in self.games:
            winner = join_names(list(game.winner_names))
            if len(game.winners) > 1:
                winner += " (shared)"
            table.add_row(
                f"{game.finished_at:%Y-%m-%d %H:%M}",
                _seats(game),
                winner,
                str(game.turns),
                key=str(game.id),
            )
        if not self.games:
            self.query_one(".title", Static).update(
                "MANTIS · past games: none yet (finished games show up here)"
            )
        table.focus()

    @on(DataTable.RowSelected)
    def _on_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.open_game(int(event.row_key.value))

    def action_open(self) -> None:
        table = self.query_one(DataTable)
        if self.games and 0 <= table.cursor_row < len(self.games):
            self.open_game(self.games[table.cursor_row].id)

    def open_game(self, game_id: int) -> None:
        """Open game ``game_id`` in the replay screen."""
        try:
            with StatsDB() as db:
                record = db.game_record(game_id)
        except StatsError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        game = next((g for g in self.games if g.id == game_id), None)
        title = f"{game.finished_at:%Y-%m-%d %H:%M}" if game is not None else f"game {game_id}"
        self.mantis.open_replay(record, title=title)

    def action_close(self) -> None:
        self.dismiss(None)
