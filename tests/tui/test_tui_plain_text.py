"""Nothing from outside the app is markup: what a server, a file or the system says shows as it is.

Markup (``[/x]`` crashed the app, ``[@click=app.quit]Ann[/]`` quit it when
clicked) and escape sequences go in through the real paths: a real
``TableServer`` whose rooms say what a hostile server would (the test edits
them, as such a server's owner could), and files on disk for the local
screens.  Each screen is then read as a person sees it (the screen's text):
the app has not crashed, still runs, and shows the text as it was sent,
brackets included, escape characters as their visible pictures (␛).
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import sys
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable
from tuikit import shown, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from netkit import WAIT, create, play_my_turns, running_server, welcome  # noqa: E402

from mantis.base.paths import settings_path  # noqa: E402
from mantis.engine import SCORE, Game, GameRecord, SeatInfo, record_of  # noqa: E402
from mantis.follow.people import people_line  # noqa: E402
from mantis.home import Settings, save_settings  # noqa: E402
from mantis.home.save_slots import slot_path  # noqa: E402
from mantis.home.saves import save_game  # noqa: E402
from mantis.home.stats import StatsDB  # noqa: E402
from mantis.net import protocol  # noqa: E402
from mantis.net.client import TableConnection  # noqa: E402
from mantis.net.server.problems import Problem  # noqa: E402
from mantis.table import Away, Fault, KeepFailed  # noqa: E402
from mantis.table.names import clean_name  # noqa: E402
from mantis.tui import (
    first_screens,  # noqa: E402
    plain,  # noqa: E402
)
from mantis.tui.app import MantisApp  # noqa: E402
from mantis.tui.screens.game_over import GameOverScreen  # noqa: E402
from mantis.tui.screens.lobby import LobbyScreen  # noqa: E402
from mantis.tui.screens.online_play import OnlinePlayScreen  # noqa: E402
from mantis.tui.screens.past_games import PastGamesScreen  # noqa: E402
from mantis.tui.screens.replay import ReplayScreen  # noqa: E402
from mantis.tui.screens.stats import StatsScreen  # noqa: E402
from mantis.tui.screens.waiting_room import WaitingRoomScreen  # noqa: E402

SIZE = (110, 32)
#: What a hostile server names its seats, and calls its table.
HOST = "[@click=app.quit]Ann[/]"
BOT = "[/x]"
CODE = "[b]KQD"  # found on the server as BKQD, shown as sent
#: What it says when it refuses, and in the stream's notices.
SAYS = "no [/x] table [@click=app.quit]here[/] \x1b[2J\x1b]0;owned\x07 [b]"
SAYS_SHOWN = plain.visible(SAYS)
REASON = "[/x] crashed \x1b[31m[@click=app.quit]hard[/]"


def screen_text(pilot: Pilot) -> str:
    """Every character the screen shows now, as a person reads it (row after row)."""
    svg = pilot.app.export_screenshot()
    texts = re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S)
    return "".join(html.unescape(re.sub(r"<[^>]+>", "", t)) for t in texts).replace("\xa0", " ")


async def shows(pilot: Pilot, *texts: str) -> str:
    """Wait until the screen shows every one of ``texts``; the screen's text then."""
    deadline = time.monotonic() + WAIT
    while not all(t in screen_text(pilot) for t in texts) and time.monotonic() < deadline:
        await pilot.pause(0.05)  # a screenshot costs a little: look now and then
    if not all(t in screen_text(pilot) for t in texts):
        missing = [t for t in texts if t not in screen_text(pilot)]
        raise AssertionError(f"not on screen: {missing}\n{screen_text(pilot)}")
    return screen_text(pilot)


async def toasts(pilot: Pilot, *texts: str) -> None:
    """Wait until a notification shows each of ``texts`` (a toast wraps its lines)."""

    def shown() -> str:
        return "\n".join(str(toast.render()) for toast in pilot.app.screen.query("Toast"))

    await wait_for(pilot, lambda: all(t in shown() for t in texts))


def still_running(app: MantisApp) -> bool:
    return app.is_running and app.return_code is None


def hostile(server, code: str) -> object:
    """The room ``code`` of ``server``, made to say what a hostile server would."""
    room = server.rooms.pop(code)
    room.code = CODE
    server.rooms["BKQD"] = room
    room.seats[0].name = HOST
    room.seats[-1].name = BOT
    return room


async def test_a_hostile_server_neither_crashes_nor_steers_the_online_screens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_server(tmp_path / "server") as (server, url):
        host = await create(url, ("human", "open", "greedy"), "Ann")
        room = hostile(server, welcome(host).code)
        save_settings(
            Settings(speed="instant", animations=False, server=url, online_name="Bea"),
            settings_path(),
        )
        app = MantisApp(still=True)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.press("o")
            await wait_for(pilot, lambda: shown(app, LobbyScreen))
            lobby = app.screen
            lobby.action_refresh()
            # The lobby's list: the code and every name as sent.
            await shows(pilot, CODE, HOST, BOT)
            # Its answer to a join is a refusal full of markup: shown as it is.
            real_find = server.openings._find

            async def refuse(*_: object) -> Problem:
                return Problem(protocol.UNKNOWN_CODE, SAYS)

            monkeypatch.setattr(server.openings, "_find", refuse)
            table = lobby.query_one("#tables", DataTable)
            # A click on the link-like name picks the row and steers nothing; Enter joins.
            await pilot.click(table, offset=(30, 1))
            assert still_running(app) and table.cursor_row == 0
            await pilot.press("enter")
            await shows(pilot, SAYS_SHOWN)
            assert "\x1b" not in screen_text(pilot) and still_running(app)
            monkeypatch.setattr(server.openings, "_find", real_find)
            await pilot.press("enter")
            # The waiting room: its title, how to share it, each seat.
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            await shows(pilot, f"online table {CODE}", f"mantis join {url} {CODE}", HOST, BOT)
            await pilot.click("#room-seats", offset=(10, 1))  # the host's row
            assert still_running(app)
            server.sender.send(room.seats[1].connection, protocol.Error(protocol.BAD_SEATS, SAYS))
            await shows(pilot, SAYS_SHOWN)
            # The game: the board names seats as every name is cleaned (no brackets
            # survive), and says the code, the notices and the errors as they are sent.
            await host.send(protocol.Start())
            await wait_for(pilot, lambda: shown(app, OnlinePlayScreen))
            board = app.screen
            await shows(pilot, f"online {CODE}", f"1 {clean_name(HOST)} · human", "3 x · greedy")
            assert board.names == [clean_name(HOST), "You", clean_name(BOT)]
            await room.table.announce(Away(2, "[/x][b]bot"))
            await room.table.announce(Fault(2, REASON))
            await room.table.announce(KeepFailed("save", REASON))
            await wait_for(pilot, lambda: isinstance(board.messages[-1], KeepFailed))
            await shows(
                pilot,
                "x is away: [/x][b]bot plays for x",
                plain.visible(f"x's bot {REASON};"),
            )
            await toasts(pilot, plain.visible(f"Could not save the game: {REASON}"))
            server.sender.send(room.seats[1].connection, protocol.Error(protocol.NOT_NOW, SAYS))
            await toasts(pilot, SAYS_SHOWN)
            # Who is here: the names as sent (markup in them shown, never applied).
            people = protocol.People((HOST,), (BOT,), 2)
            server.sender.send(room.seats[1].connection, people)
            await toasts(pilot, plain.visible(people_line(people)))
            for panel in ("#seat-0", "#seat-2", "#log", "#status"):
                await pilot.click(panel)
            assert "\x1b" not in screen_text(pilot) and still_running(app)
        await host.close()


async def test_a_hostile_table_watched_to_its_end_is_kept_cleaned_in_past_games_and_stats(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "server") as (server, url):
        host = await create(url, ("human", "greedy"), "Ann")
        hostile(server, welcome(host).code)
        await host.send(protocol.Start())
        await host.until(lambda: host.stream, "the opening")
        watching = TableConnection(url, protocol.Watch(protocol.PROTOCOL_VERSION, "BKQD"))
        await watching.open()
        app = MantisApp(first_screens.Online(watching), still=True)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await wait_for(pilot, lambda: shown(app, OnlinePlayScreen))
            await shows(pilot, f"watching {CODE}")
            playing = asyncio.create_task(play_my_turns(host, 0))
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=120)
            await asyncio.wait_for(playing, 60)
            await shows(pilot, f"table {CODE} on {url}", clean_name(HOST))
            # Its record is in past games, to replay, its names cleaned as a server cleans
            # the name a person sits under (before it was kept: whatever shows it later).
            await wait_for(pilot, lambda: _past_games() == 1)
            await pilot.press("v")
            await wait_for(pilot, lambda: shown(app, ReplayScreen))
            await shows(pilot, f"REPLAY · table {CODE}")
            app.push_screen(PastGamesScreen())
            await wait_for(pilot, lambda: getattr(app.screen, "loaded", False))
            text = await shows(pilot, clean_name(HOST), f"{clean_name(BOT)} (greedy)")
            assert HOST not in text and BOT not in text
            await pilot.press("enter")  # replays it
            await wait_for(pilot, lambda: shown(app, ReplayScreen))
            await shows(pilot, clean_name(HOST))
            app.push_screen(StatsScreen())
            await wait_for(pilot, lambda: getattr(app.screen, "loaded", False))
            assert HOST not in await shows(pilot, clean_name(HOST))
            assert still_running(app)
        await host.close()
        await watching.close()


def _past_games() -> int:
    with StatsDB() as db:
        return len(db.past_games())


# ---------------------------------------------------------------------- local files


SEATS = (SeatInfo(HOST, "human"), SeatInfo(BOT, "bot", "random"))
#: A finished game's seats: two people and a bot whose spec is markup too.
FINISHED = (SeatInfo(HOST, "human"), SeatInfo(BOT, "human"), SeatInfo("Cal", "bot", "[b]bot"))


def _game(seats: tuple[SeatInfo, ...], moves: int | None = None) -> GameRecord:
    """A game of ``seats`` named with markup: ``moves`` scores in, or played to its end."""
    game, played = Game.new(len(seats), 7), 0
    while not game.over and (moves is None or played < moves):
        game.play(SCORE)
        played += 1
    return record_of(game, seats)


async def test_files_and_system_messages_show_as_they_are(tmp_path: Path, monkeypatch) -> None:
    # A home folder whose path holds markup: every message naming a file says it.
    home = tmp_path / "[/x][@click=app.quit]home[/]"
    monkeypatch.setenv("MANTIS_HOME", str(home))
    settings_file = settings_path()
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"speed": "[/x]"}))  # a bad value: warned about
    # A saved game and a finished one whose seats are named with markup.
    save_game(_game(SEATS, 4), slot_path(1, home / "data"))
    with StatsDB() as db:
        db.record_game(_game(FINISHED), origin=f"ws://x {CODE} 7")
    app = MantisApp(first_screens.Setup(resume=first_screens.Resume.OFFER), still=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        # The settings warning names the file; the resume offer names the seats.
        await toasts(pilot, f"Ignored bad settings in {settings_file}")
        await shows(pilot, f"2 players: {HOST} and {BOT}")
        await pilot.press("r")  # resumed: the board calls the seats by their cleaned names
        # (After 4 moves: the 5th is being played.)
        await shows(pilot, f"1 {clean_name(HOST)} · human", "2 x · random", "move 5")
        await pilot.press("ctrl+p")
        await pilot.press("escape")
        app.push_screen(PastGamesScreen())
        await wait_for(pilot, lambda: getattr(app.screen, "loaded", False))
        await shows(pilot, f"online {CODE}: {HOST}, {BOT}, Cal ([b]bot)")
        app.push_screen(StatsScreen())
        await wait_for(pilot, lambda: getattr(app.screen, "loaded", False))
        await shows(pilot, HOST, "[b]bot  won")
        # Each player's chart is tall: the second player is further down.
        app.screen.query_one("#stats").scroll_end(animate=False)
        await shows(pilot, f"{BOT}  won")
        assert still_running(app)
