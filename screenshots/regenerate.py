"""Regenerate the SVG screenshots of Mantis's main screens into this directory.

Run from the repository root: ``.venv/bin/python screenshots/regenerate.py``.
Positions come from ``tests/tui/positions.py`` (games reopened from records
at exact moves), so the pictures match the snapshot tests and never change
unless the app does.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [
    str(ROOT),
    str(ROOT / "tests"),
    str(ROOT / "tests" / "tui"),
    str(ROOT / "tests" / "web"),
]

import history  # noqa: E402
import onlinekit  # noqa: E402
import positions  # noqa: E402
import tuikit  # noqa: E402
import webkit  # noqa: E402

from mantis.base.paths import settings_path  # noqa: E402
from mantis.engine import SeatInfo  # noqa: E402
from mantis.home import Settings, save_settings  # noqa: E402
from mantis.home.stats import default_stats_path  # noqa: E402
from mantis.tui import first_screens  # noqa: E402
from mantis.tui.app import MantisApp  # noqa: E402
from mantis.tui.screens import lobby  # noqa: E402
from mantis.tui.screens.game_over import GameOverScreen  # noqa: E402
from mantis.tui.screens.retry import RetryScreen  # noqa: E402
from mantis.tui.screens.review import ReviewScreen  # noqa: E402

Prepare = Callable[[MantisApp, object], Awaitable[None]]


async def _settle(app: MantisApp, pilot: object) -> None:
    await pilot.pause()  # type: ignore[attr-defined]


async def _still(app: MantisApp, pilot: object) -> None:
    """Wait until the screen stops changing (a log still scrolling, a panel filling in).

    On a busy machine one pause is not always enough: the picture is taken once
    three frames in a row come out the same.
    """
    await pilot.wait_for_scheduled_animations()  # type: ignore[attr-defined]
    same, last = 0, app.export_screenshot()
    for _ in range(500):
        await pilot.pause(0.01)  # type: ignore[attr-defined]
        now = app.export_screenshot()
        same = same + 1 if now == last else 0
        if same == 3:
            return
        last = now
    raise RuntimeError("the screen never settled")


async def _game_over(app: MantisApp, pilot: object) -> None:
    for _ in range(200):
        if isinstance(app.screen, GameOverScreen):
            break
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def _win_rated(app: MantisApp, pilot: object) -> None:
    """Make the last move, a winning score: the game is recorded and rated, then shown over."""
    await tuikit.wait_for_human(pilot)  # type: ignore[arg-type]
    await pilot.press("s")  # type: ignore[attr-defined]
    await _game_over(app, pilot)


def _with_history(make: Callable[[], MantisApp]) -> Callable[[], MantisApp]:
    """``make``'s app, over a statistics database holding the tests' hand-made games."""

    def made() -> MantisApp:
        history.seed_stats()
        return make()

    return made


async def _statistics(app: MantisApp, pilot: object) -> None:
    await pilot.press("t")  # type: ignore[attr-defined]
    for _ in range(200):
        if getattr(app.screen, "loaded", False):
            break
        await pilot.pause(0.02)  # type: ignore[attr-defined]


async def _help(app: MantisApp, pilot: object) -> None:
    await pilot.press("f1")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def _replay_steps(app: MantisApp, pilot: object) -> None:
    await pilot.press(*["right"] * 9)  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def _pick_target(app: MantisApp, pilot: object) -> None:
    await pilot.press("4")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


def _review() -> MantisApp:
    """The review of a game with two mistakes of "You", as the game-over screen opens it."""
    record = positions.with_mistakes()
    return MantisApp(lambda app: app.reviews.open(record, title="this game", person=0), still=True)


async def _until(app: MantisApp, pilot: object, ready: Callable[[], object]) -> None:
    for _ in range(1000):
        if ready():
            return
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    raise RuntimeError("the screen never got ready")


async def _reviewed(app: MantisApp, pilot: object) -> None:
    await _until(app, pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review)


async def _review_retry(app: MantisApp, pilot: object) -> None:
    """The first mistake retried, answered by a choice within 2 points of the best."""
    await _reviewed(app, pilot)
    await pilot.press("r")  # type: ignore[attr-defined]
    await _until(
        app, pilot, lambda: isinstance(app.screen, RetryScreen) and app.screen.waiting == 0
    )
    await pilot.press("2", "enter")  # type: ignore[attr-defined]  # steal from Ann
    await _until(app, pilot, lambda: getattr(app.screen, "solved", False))


def _table(position: positions.Position) -> Callable[[], MantisApp]:
    record, upto = position
    return lambda: MantisApp(first_screens.Position(record, upto), still=True)


def _with_insights(position: positions.Position) -> Callable[[], MantisApp]:
    """A table with the odds panel and the coach switched on."""
    record, upto = position

    def make() -> MantisApp:
        save_settings(Settings(show_odds=True, coach=True), settings_path())
        return MantisApp(first_screens.Position(record, upto), still=True)

    return make


def _replay() -> MantisApp:
    save_settings(Settings(show_odds=True), settings_path())
    record = replace(positions.played(3, 4, 0.5), seats=positions.seats("hrr", "You,Ann,Bea"))
    return MantisApp(first_screens.Replay(record, "sample game"), still=True)


def _setup() -> MantisApp:
    remembered = (
        SeatInfo("You", "human"),
        SeatInfo("Ann", "bot", "random"),
        SeatInfo("Bea", "bot", "random"),
    )
    save_settings(Settings(last_seats=remembered), settings_path())
    return MantisApp(still=True)


async def _open_lobby(app: MantisApp, pilot: object) -> None:
    lobby.list_tables = onlinekit.listed_tables  # a fixed list: no real server in the picture
    await pilot.press("o")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def _open_leaderboard(app: MantisApp, pilot: object) -> None:
    from mantis.tui.screens.leaderboard import LeaderboardScreen

    lobby.list_tables = onlinekit.listed_tables
    lobby.leaderboard = onlinekit.leaders  # a fixed board: no real server in the picture
    await pilot.press("o")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.press("ctrl+l")  # type: ignore[attr-defined]
    await _until(
        app,
        pilot,
        lambda: (
            isinstance(app.screen, LeaderboardScreen)
            and "page 1 of" in str(app.screen.query_one("#leaders-page").render())
        ),
    )


SHOTS: list[tuple[str, Callable[[], MantisApp], tuple[int, int], Prepare]] = [
    ("setup", _setup, (80, 24), _settle),
    ("table-2-players", _table(positions.extra_turn()), (80, 24), _settle),
    ("table-4-players", _table(positions.mid_game(4)), (100, 30), _settle),
    ("table-4-players-steal", _table(positions.mid_game(4)), (80, 24), _pick_target),
    ("table-6-players-large", _table(positions.mid_game(6)), (120, 40), _settle),
    (
        "game-over",
        _with_history(_table(positions.last_move(3, 4, you_win=True))),
        (80, 24),
        _win_rated,
    ),
    ("game-over-shared-win", _table(positions.shared_win()), (80, 24), _game_over),
    ("help", _table(positions.mid_game(4)), (80, 24), _help),
    ("statistics", _with_history(lambda: MantisApp(still=True)), (80, 30), _statistics),
    ("table-odds-and-coach", _with_insights(positions.mid_game(4)), (100, 30), _settle),
    ("table-odds-and-coach-large", _with_insights(positions.mid_game(6)), (120, 40), _settle),
    ("replay", _replay, (100, 30), _replay_steps),
    ("review", _review, (100, 30), _reviewed),
    ("review-retry", _review, (100, 30), _review_retry),
    ("online-lobby", _setup, (80, 24), _open_lobby),
    ("online-waiting-room", onlinekit.waiting_room_app, (80, 24), _settle),
    ("online-table-away", lambda: onlinekit.online_table_app(away=True), (100, 30), _settle),
    (
        "online-table-clock-and-talk",
        lambda: onlinekit.clocked_table_app(7.0, talk=("nice steal!", "your move :)")),
        (100, 30),
        _settle,
    ),
    ("online-play-now", onlinekit.quick_waiting_app, (80, 24), _settle),
    ("online-game-over-another-game", onlinekit.offered_again_app, (80, 24), _settle),
    ("online-leaderboard", _setup, (80, 24), _open_leaderboard),
]


async def _shoot(name: str, make: Callable[[], MantisApp], size, prepare: Prepare) -> Path:
    app = make()
    async with app.run_test(size=size) as pilot:
        await prepare(app, pilot)
        await _still(app, pilot)
        app.save_screenshot(f"{name}.svg", str(HERE))
    return HERE / f"{name}.svg"


async def _shoot_browser() -> Path | None:
    """``mantis web`` in headless Chromium: a table dealt from a fixed seed, as a PNG."""
    if webkit.chromium() is None:
        print("no Chromium found: browser.png not redrawn (apt-get install chromium)")
        return None
    save_settings(
        Settings(speed="instant", animations=False, last_seats=_setup().settings.last_seats),
        settings_path(),
    )
    async with webkit.web_server() as server, webkit.browser() as chrome:
        tab = await webkit.Tab.open(chrome, server.url, size=(1100, 660))
        await tab.shows("MANTIS · set up a table")
        await tab.click_text("random", row_with="Seed")  # the seed: the same deal every time
        await tab.type("11")
        await tab.shows("Seed     11")
        await tab.start_against_bots()
        await tab.score()
        await tab.shows("move 3 ", "YOUR TURN", "R red", "f1 Help", "palette")  # both bots moved
        await tab.page.screenshot(path=str(HERE / "browser.png"))  # type: ignore[attr-defined]
        await tab.close()
    return HERE / "browser.png"


async def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        # Never read or touch the user's own settings.
        os.environ["MANTIS_HOME"] = home
        os.environ.pop("NO_COLOR", None)
        for name, make, size, prepare in SHOTS:
            # Each shot starts from default settings (some shots switch the odds on)
            # and no statistics (some shots record games).
            save_settings(Settings(), settings_path())
            default_stats_path().unlink(missing_ok=True)
            path = await _shoot(name, make, size, prepare)
            print(path.relative_to(ROOT))
        save_settings(Settings(), settings_path())
        browser_shot = await _shoot_browser()
        if browser_shot is not None:
            print(browser_shot.relative_to(ROOT))


if __name__ == "__main__":
    asyncio.run(main())
