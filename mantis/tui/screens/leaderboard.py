"""A server's leaderboard: its rated players, best first, a page at a time.

Handed the server's address and a way to fetch a page (``GET
/leaderboard``), it shows rank, name, rating with its ±, games and wins;
``[`` and ``]`` (or ``pageup``/``pagedown``) turn the page, ``ctrl+r``
reads it again, ``escape`` goes back.  A server that cannot say is one line
on the screen.  The order is the server's: by the low end of the rating
(rating − ±), then games played.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ...net.client import OnlineError
from ...net.client.server_lists import LeaderPage
from .. import plain
from ..widgets.key_footer import KeyFooter

Fetch = Callable[[int], Awaitable[LeaderPage]]
"""Page N (from 1) of the leaderboard; ``OnlineError`` if the server cannot say."""


class LeaderboardScreen(Screen[None]):
    """One server's leaderboard."""

    DEFAULT_CSS = """
    LeaderboardScreen {
        align: center top;
    }
    #leaders-box {
        width: 80;
        max-width: 100%;
        height: 1fr;
        padding: 0 1;
    }
    #leaders-title {
        text-style: bold;
        color: $accent;
        margin: 1 0 0 0;
    }
    #leaders-note {
        color: $foreground-muted;
        margin-bottom: 1;
    }
    #leaders {
        height: 1fr;
    }
    #leaders-page {
        height: 1;
    }
    """

    BINDINGS = [
        Binding("right_square_bracket,pagedown", "turn_page(1)", "Next page"),
        Binding("left_square_bracket,pageup", "turn_page(-1)", "Previous page"),
        Binding("ctrl+r", "refresh", "Refresh"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, server: str, fetch: Fetch) -> None:
        super().__init__()
        self.server = server
        self.fetch = fetch
        self.page = 1
        self.pages = 1

    def compose(self) -> ComposeResult:
        with Vertical(id="leaders-box"):
            yield Static(plain.content(f"MANTIS · leaderboard · {self.server}"), id="leaders-title")
            yield Static(
                plain.content(
                    "Rated games only · best first by the low end of the rating (rating − ±)"
                ),
                id="leaders-note",
            )
            yield DataTable(id="leaders", cursor_type="row", zebra_stripes=True)
            yield Static(id="leaders-page")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("#", key="rank")
        table.add_column("Name", key="name")
        table.add_column("Rating", key="rating")
        table.add_column("Games", key="games")
        table.add_column("Wins", key="wins")
        table.focus()
        self.action_refresh()

    def action_refresh(self) -> None:
        self._load()

    def action_turn_page(self, step: int) -> None:
        page = min(max(1, self.page + step), self.pages)
        if page != self.page:
            self.page = page
            self._load()

    def action_back(self) -> None:
        self.dismiss(None)

    @work(exclusive=True, group="leaderboard")
    async def _load(self) -> None:
        footer = self.query_one("#leaders-page", Static)
        try:
            got = await self.fetch(self.page)
        except OnlineError as exc:
            footer.update(plain.content(f"The leaderboard could not be read: {exc}"))
            return
        if got.page > got.pages:  # players went away: the last page there is now
            self.page = got.pages
            self._load()
            return
        self.page, self.pages = got.page, got.pages
        table = self.query_one(DataTable)
        table.clear()
        for leader in got.leaders:
            rating = f"{leader.rating:,} ± {leader.plus_minus:,}"
            if leader.provisional:
                rating += " provisional"
            cells = (str(leader.rank), leader.name, rating, str(leader.games), str(leader.wins))
            table.add_row(*(plain.rich(cell) for cell in cells))
        if not got.leaders:
            footer.update(plain.content("Nobody has played a rated game on this server yet."))
            return
        pager = " · [ and ] turn the page" if got.pages > 1 else ""
        footer.update(plain.content(f"page {got.page} of {got.pages} · {got.total} players{pager}"))
