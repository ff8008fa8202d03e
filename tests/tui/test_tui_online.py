"""Online play through the app's own screens: a real server on loopback, and pictures."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import onlinekit
import pytest
from screenkit import assert_table_whole, snapshot_lines
from tuikit import Heard, shown, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from netkit import join, play_my_turns, running_server  # noqa: E402
from textual.widgets import Input  # noqa: E402

from mantis.base.clock import ManualClock  # noqa: E402
from mantis.base.paths import settings_path  # noqa: E402
from mantis.cli import main  # noqa: E402
from mantis.home import Settings, load_settings, save_settings  # noqa: E402
from mantis.home.seat_tokens import SeatTokens  # noqa: E402
from mantis.home.stats import StatsDB, default_stats_path  # noqa: E402
from mantis.net import protocol  # noqa: E402
from mantis.net.client import TableConnection  # noqa: E402
from mantis.table import Away  # noqa: E402
from mantis.tui import first_screens  # noqa: E402
from mantis.tui.app import MantisApp  # noqa: E402
from mantis.tui.screens import lobby as lobby_module  # noqa: E402
from mantis.tui.screens.game_over import GameOverChoice, GameOverScreen  # noqa: E402
from mantis.tui.screens.lobby import LobbyScreen  # noqa: E402
from mantis.tui.screens.online_play import OnlinePlayScreen  # noqa: E402
from mantis.tui.screens.review import ReviewScreen  # noqa: E402
from mantis.tui.screens.setup import SetupScreen  # noqa: E402
from mantis.tui.screens.waiting_room import WaitingRoomScreen  # noqa: E402
from mantis.tui.widgets.seat_panel import SeatPanel  # noqa: E402

SIZE = (80, 24)


async def test_host_a_table_in_the_app_a_friend_joins_and_the_game_is_played_to_the_end(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "server") as (_, url):
        ann = TableConnection(
            url, protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "open", "casual"))
        )
        welcome = await ann.open()
        app = MantisApp(first_screens.Online(ann), still=True)
        heard = Heard()
        async with app.run_test(size=SIZE, message_hook=heard) as pilot:
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            room = app.screen
            assert welcome.code in str(room.query_one("#room-title").render())
            assert room.check_action("start", ()) is True  # the host's controls
            # A friend joins from elsewhere: the waiting room shows them at once.
            bea = await join(url, welcome.code, "Bea")
            await wait_for(pilot, lambda: ann.room.seats[1].taken and ann.presence[1] == "here")
            await pilot.pause()
            assert "Bea" in str(room.query_one("#room-seats").get_row_at(1))
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: shown(app, OnlinePlayScreen))
            board = app.screen
            assert board.names[0] == "You" and board.names[1] == "Bea"
            friend = asyncio.create_task(play_my_turns(bea, 1))
            # Ann plays every turn of hers with the keyboard until the game ends.
            while not isinstance(app.screen, GameOverScreen):
                await wait_for(
                    pilot,
                    lambda: board.waiting is not None or isinstance(app.screen, GameOverScreen),
                )
                if board.waiting is not None:
                    turn = board.state.turn
                    await pilot.press("s")
                    await wait_for(
                        pilot,
                        lambda t=turn: (
                            board.state.turn > t or isinstance(app.screen, GameOverScreen)
                        ),
                    )
            await asyncio.wait_for(friend, 60)
            assert board.state.over and board.messages[-1] == bea.stream[-1]
            # The finished game is in this app's past games, with everyone's name, once.
            await wait_for(pilot, lambda: default_stats_path().exists())
            await wait_for(pilot, lambda: _past_games() == 1)
            with StatsDB() as db:
                (past,) = db.past_games()
                past_record = db.game_record(past.id)
            assert [s.name for s in past.seats][:2] == ["Ann", "Bea"]
            assert past.origin is not None and welcome.code in past.origin
            # The game's review, for the seat played here.
            await pilot.press("e")
            await wait_for(
                pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review
            )
            assert app.screen.person == 0 and app.screen.record.actions == past_record.actions
            await pilot.press("escape", "r")
            await wait_for(pilot, lambda: shown(app, GameOverScreen))
            # To the lobby: reached from the command line, it opens over the setup screen.
            await pilot.press("l")
            await wait_for(pilot, lambda: shown(app, LobbyScreen))
            assert [m.choice for m in heard.of(OnlinePlayScreen.Chosen)] == [
                GameOverChoice.REVIEW,
                GameOverChoice.LOBBY,
            ]
            await pilot.press("escape")
            await wait_for(pilot, lambda: shown(app, SetupScreen))
        await ann.close()
        await bea.close()


def _past_games() -> int:
    with StatsDB() as db:
        return len(db.past_games())


async def test_the_board_shows_who_is_away_and_who_is_back(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(tmp_path / "server", away_after=60, clock=clock) as (_, url):
        ann = TableConnection(
            url, protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "open"))
        )
        code = (await ann.open()).code
        bea = await join(url, code, "Bea")
        token = next(m for m in bea.heard if isinstance(m, protocol.Welcome)).token
        app = MantisApp(first_screens.Online(ann), still=True)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: shown(app, OnlinePlayScreen))
            board = app.screen
            await bea.close()
            panel = board.query_one("#seat-1", SeatPanel)
            await wait_for(pilot, lambda: panel.presence == "○ offline")
            clock.advance(60)  # the table waits a minute for Bea, then plays for her
            await wait_for(pilot, lambda: any(isinstance(m, Away) for m in board.messages))
            await wait_for(pilot, lambda: panel.presence == "◌ away")
            assert any("Bea is away" in line for line in board.query_one("#log").texts)
            back = await join(url, code, token=token)
            await wait_for(pilot, lambda: panel.presence == "● online")
            await wait_for(
                pilot, lambda: any("Bea is back" in t for t in board.query_one("#log").texts)
            )
        await back.close()
        await ann.close()


async def test_a_table_reached_from_the_command_line_leaves_to_a_lobby_on_its_server_and_name(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "server") as (_, url):
        assert url != load_settings()[0].server  # (not the default server)
        ann = TableConnection(
            url, protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "open"))
        )
        await ann.open()
        app = MantisApp(first_screens.Online(ann), still=True)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            await pilot.press("escape")  # leave the waiting room: to a new lobby
            await wait_for(pilot, lambda: shown(app, LobbyScreen))
            assert app.screen.query_one("#server", Input).value == url
            assert app.screen.query_one("#online-name", Input).value == "Ann"
        assert load_settings()[0].server == url  # and the next lobby too
        assert load_settings()[0].online_name == "Ann"
        await ann.close()


# ----------------------------------------------------------------- the command line


def test_bad_values_exit_2_with_one_line(capsys: pytest.CaptureFixture) -> None:
    cases = [
        ["host", "http://example", "--seats", "human,open"],
        ["host", "ws://127.0.0.1:1", "--seats", "human,human"],
        ["host", "ws://127.0.0.1:1", "--seats", "human,mybot:Cheat"],
        ["host", "ws://127.0.0.1:1", "--seats", "human"],
        ["host", "ws://127.0.0.1:1", "--seats", "human,open", "--name", "[]"],
        ["host", "ws://127.0.0.1:1", "--seats", "human,open", "--name", "you"],
        ["join", "ws://127.0.0.1:1", "K!"],
        ["watch", "ws://127.0.0.1:1"],
        ["host", "ws://127.0.0.1:1", "--seats", "human,open", "--clock", "4"],
        ["host", "ws://127.0.0.1:1", "--seats", "human,open", "--clock", "soon"],
        ["quick", "ws://127.0.0.1:1", "--players", "7"],
        ["quick", "ws://127.0.0.1:1", "--name", "[]"],
        ["quick", "http://127.0.0.1:1"],
        ["host", "ws://127.0.0.1:1", "--seats", "human,open", "--rated"],  # (no clock)
        ["host", "ws://127.0.0.1:1", "--seats", "human,open", "--rated", "--clock", "300"],
    ]
    for argv in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, (argv, err)


async def test_an_unreachable_server_or_an_unknown_code_exit_1_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    assert await asyncio.to_thread(main, ["join", "ws://127.0.0.1:9", "KXQD"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach" in err
    async with running_server(tmp_path / "server") as (_, url):
        assert await asyncio.to_thread(main, ["join", url, "BDFH"]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "no table 'BDFH'" in err
        assert await asyncio.to_thread(main, ["watch", url, "BDFH"]) == 1
        assert "no table" in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["quick", "ws://127.0.0.1:9"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach" in err


def test_a_seat_token_is_kept_for_the_next_join(tmp_path: Path) -> None:
    tokens = SeatTokens(tmp_path / "seats.json")
    tokens.remember("ws://h:1/", "kxqd", "secret-token", "Bea")
    again = SeatTokens(tmp_path / "seats.json")
    assert again.token("ws://h:1", "KXQD") == "secret-token"
    assert again.name("ws://h:1", "KXQD") == "Bea"
    (tmp_path / "seats.json").write_text("{not json")
    broken = SeatTokens(tmp_path / "seats.json")
    assert broken.token("ws://h:1", "KXQD") is None
    assert broken.warning is not None and "moved to" in broken.warning
    assert list(tmp_path.glob("seats.corrupt-*"))


# ----------------------------------------------------------------- pictures


def test_waiting_room(snap_compare) -> None:
    assert snap_compare(onlinekit.waiting_room_app(), terminal_size=SIZE)


def test_online_table(snap_compare, request) -> None:
    assert snap_compare(onlinekit.online_table_app(away=False), terminal_size=SIZE)
    assert_table_whole(snapshot_lines(request.path, request.node.name))


def test_online_table_with_a_seat_away(snap_compare, request) -> None:
    assert snap_compare(onlinekit.online_table_app(away=True), terminal_size=SIZE)
    assert_table_whole(snapshot_lines(request.path, request.node.name))


# ----------------------------------------------------------------- the lobby


async def test_from_the_setup_screen_to_a_table_through_the_lobby(tmp_path: Path) -> None:
    async with running_server(tmp_path / "server") as (_, url):
        ann = await create_table(url)
        code = next(m for m in ann.heard if isinstance(m, protocol.Welcome)).code
        app = MantisApp(still=True)
        heard = Heard()
        async with app.run_test(size=SIZE, message_hook=heard) as pilot:
            await pilot.press("o")  # "Play online" from the setup screen
            await wait_for(pilot, lambda: shown(app, LobbyScreen))
            lobby = app.screen
            lobby.query_one("#server").value = url
            lobby.query_one("#online-name").value = "Bea"
            lobby.action_refresh()
            await wait_for(pilot, lambda: [t.code for t in lobby.tables] == [code])
            listed = lobby.tables[0]
            assert listed.state == "waiting" and listed.open_seats == 1
            table = lobby.query_one("#tables")
            table.focus()
            await pilot.press("enter")  # the listed table, joined
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            (seated,) = heard.of(LobbyScreen.Seated)
            assert seated.lobby is lobby and app.screen.online.connection is seated.connection
            assert app.screen.online.seat == 1
            assert app.settings.server == url and app.settings.online_name == "Bea"
            await pilot.press("escape")  # leave: back to the lobby, the seat kept
            await wait_for(pilot, lambda: app.screen is lobby)
            assert len(heard.of(WaitingRoomScreen.Leave)) == 1
        await ann.close()


async def create_table(url: str):
    from netkit import create

    return await create(url, ("human", "open"), "Ann")


async def test_the_lobby_says_what_went_wrong_and_keeps_what_was_typed(tmp_path: Path) -> None:
    async with running_server(tmp_path / "server") as (_, url):
        app = MantisApp(still=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("o")
            await wait_for(pilot, lambda: shown(app, LobbyScreen))
            lobby = app.screen
            error = lobby.query_one("#lobby-error")
            lobby.query_one("#server").value = "ws://127.0.0.1:9"
            lobby.query_one("#online-name").value = "Bea"
            lobby.query_one("#code").value = "BDFH"
            lobby.action_join()
            await wait_for(pilot, lambda: "cannot reach" in str(error.render()))
            lobby.query_one("#server").value = url
            lobby.action_join()
            await wait_for(pilot, lambda: "no table 'BDFH'" in str(error.render()))
            assert "\n" not in str(error.render())
            assert lobby.query_one("#code").value == "BDFH"
            assert lobby.query_one("#online-name").value == "Bea"
            lobby.query_one("#online-name").value = "[]"
            lobby.action_create()
            await wait_for(pilot, lambda: "name" in str(error.render()))
            assert isinstance(app.screen, LobbyScreen)


def test_lobby_with_tables(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_module, "list_tables", onlinekit.listed_tables)

    async def open_lobby(pilot) -> None:
        await pilot.press("o")
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(MantisApp(still=True), terminal_size=SIZE, run_before=open_lobby)


def test_leaderboard(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_module, "list_tables", onlinekit.listed_tables)
    monkeypatch.setattr(lobby_module, "leaderboard", onlinekit.leaders)

    async def open_leaderboard(pilot) -> None:
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: _leaderboard_screen(pilot.app))
        footer = pilot.app.screen.query_one("#leaders-page")
        await wait_for(pilot, lambda: "page 1 of 3" in str(footer.render()))
        await pilot.press("right_square_bracket")  # the next page
        await wait_for(pilot, lambda: "page 2 of 3" in str(footer.render()))
        await pilot.pause()

    assert snap_compare(MantisApp(still=True), terminal_size=SIZE, run_before=open_leaderboard)


def _leaderboard_screen(app):
    from mantis.tui.screens.leaderboard import LeaderboardScreen

    return app.screen if isinstance(app.screen, LeaderboardScreen) else None


def test_lobby_error(snap_compare) -> None:
    save_settings(Settings(server="ws://127.0.0.1:9", online_name="Bea"), settings_path())

    async def open_lobby(pilot) -> None:
        await pilot.press("o")
        lobby = pilot.app.screen
        await wait_for(
            pilot, lambda: "cannot reach" in str(lobby.query_one("#lobby-error").render())
        )
        await pilot.pause()

    assert snap_compare(MantisApp(still=True), terminal_size=SIZE, run_before=open_lobby)


async def test_a_new_user_reaches_an_online_table_from_the_app_alone() -> None:
    # No server anywhere: "Serve here" runs one inside the app, and the lobby takes
    # the user to a table of their own, from the setup screen, without any flag.
    save_settings(Settings(server="ws://127.0.0.1:0"), settings_path())
    app = MantisApp(still=True)
    heard = Heard()
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: shown(app, LobbyScreen))
        lobby = app.screen
        await pilot.click("#serve")
        server = lobby.query_one("#server")
        await wait_for(pilot, lambda: server.value not in ("", "ws://127.0.0.1:0"))
        assert [m.lobby for m in heard.of(LobbyScreen.ServeHere)] == [lobby]
        assert "Serving at" in str(lobby.query_one("#lobby-error").render())
        lobby.query_one("#online-name").value = "Ann"
        lobby.query_one("#online-players").value = 2
        lobby.query_one("#online-seat-2").value = "casual"
        await pilot.click("#create")
        await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: shown(app, OnlinePlayScreen))
        board = app.screen
        assert [s.kind for s in board.seats] == ["human", "bot"] and board.names[0] == "You"
        assert app.settings.server == server.value and app.settings.online_name == "Ann"


async def test_the_lobby_pages_through_the_tables_and_waits_when_told_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    from netkit import ROOMY, create

    from mantis.net.server.pages import plain_pages

    monkeypatch.setattr(plain_pages, "PAGE_SIZE", 2)
    limits = replace(ROOMY, guesses=1)
    # The app's clock stands still but when moved: a wait read off the system clock would
    # count 1 s down each second, and never open before its time.
    server_clock, clock = ManualClock(), ManualClock(frozen=True)
    async with running_server(tmp_path / "server", limits=limits, clock=server_clock) as (
        _,
        url,
    ):
        hosts = [await create(url, ("human", "open"), f"H{i}") for i in range(5)]
        codes = [next(m for m in h.heard if isinstance(m, protocol.Welcome)).code for h in hosts]
        app = MantisApp(still=True, clock=clock)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("o")
            await wait_for(pilot, lambda: shown(app, LobbyScreen))
            lobby = app.screen
            lobby.query_one("#server").value = url
            lobby.query_one("#online-name").value = "Bea"
            lobby.action_refresh()
            page = lobby.query_one("#tables-page")
            await wait_for(pilot, lambda: "page 1 of 3 · 5 tables" in str(page.render()))
            assert [t.code for t in lobby.tables] == codes[:2]
            lobby.query_one("#tables").focus()
            for key, expected in (("]", codes[2:4]), ("]", codes[4:]), ("]", codes[4:])):
                await pilot.press(key)
                await wait_for(pilot, lambda s=expected: [t.code for t in lobby.tables] == s)
            await pilot.click("#previous-page")
            await wait_for(pilot, lambda: [t.code for t in lobby.tables] == codes[2:4])
            # One wrong code, and the server says when this address may try again...
            error = lobby.query_one("#lobby-error")
            lobby.query_one("#code").value = "AAAA"
            lobby.action_join()
            await wait_for(pilot, lambda: "no table" in str(error.render()))
            lobby.query_one("#code").value = codes[0]
            lobby.action_join()
            locked = "Too many wrong codes from this address: the server takes no code"
            await wait_for(pilot, lambda: locked in str(error.render()))
            # ...and the lobby waits until then, asking nobody meanwhile, a listed table
            # included, and says so on its message line, counting down.
            said = str(error.render())
            lobby.show_error("")
            lobby.query_one("#tables").focus()
            await pilot.press("enter")
            await wait_for(pilot, lambda: locked in str(error.render()))
            assert isinstance(app.screen, LobbyScreen) and error.display
            seconds = int(said.split(" s more")[0].rsplit(" ", 1)[1])
            assert 2 < seconds <= 60
            # The wait counts down on the app's clock (the line redrawn each second)...
            clock.advance(seconds - 2)
            await wait_for(pilot, lambda: f"{seconds} s more" not in str(error.render()))
            assert "for 2 s more" in str(error.render())
            # ...and once it is over, the lobby asks again: the server (its wait over too)
            # seats Bea at the table.
            clock.advance(2)
            await wait_for(pilot, lambda: "takes codes again" in str(error.render()))
            server_clock.advance(seconds)
            lobby.action_join()
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            assert app.screen.online.code == codes[0]
            await app.screen.online.shut()
        for host in hosts:
            await host.close()


def test_online_table_own_clock_in_its_last_seconds(snap_compare, request) -> None:
    assert snap_compare(onlinekit.clocked_table_app(8), terminal_size=SIZE)
    assert_table_whole(snapshot_lines(request.path, request.node.name))


def test_online_table_own_clock_in_its_last_seconds_without_colour(
    snap_compare, request, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")  # Textual reads it when the app is built
    assert snap_compare(onlinekit.clocked_table_app(8), terminal_size=SIZE)
    assert_table_whole(snapshot_lines(request.path, request.node.name))


def test_online_table_counting_down_and_talk_in_the_log(snap_compare, request) -> None:
    async def talk(pilot) -> None:
        # Typing waits for the line to take the focus: a key sent before it lands
        # on the table and the snapshot misses a letter.
        await wait_for(pilot, lambda: shown(pilot.app, OnlinePlayScreen))
        await pilot.press("t")
        await wait_for(pilot, lambda: getattr(pilot.app.focused, "id", None) == "talk-line")
        await pilot.press(*"gg, well played")

    app = onlinekit.clocked_table_app(23, talk=("nice steal!", "your move :)"))
    assert snap_compare(app, terminal_size=SIZE, run_before=talk)
    assert_table_whole(snapshot_lines(request.path, request.node.name))


def test_another_game_offered_on_the_game_over_screen(snap_compare) -> None:
    assert snap_compare(onlinekit.offered_again_app(), terminal_size=SIZE)


def test_play_now_waiting_for_players(snap_compare) -> None:
    assert snap_compare(onlinekit.quick_waiting_app(), terminal_size=SIZE)


@pytest.mark.parametrize(
    ("title", "asked", "answer", "said"),
    [
        ("Round trip", "ping", "round trip", "Round trip to the server: 23 ms."),
        ("Who is here", "who", "people", "At the table: Ann, Bea. Watching: Cy and 3 more."),
    ],
)
async def test_the_command_palette_asks_the_server_and_the_answer_is_a_notification(
    title: str, asked: str, answer: str, said: str
) -> None:
    import onlinekit

    from mantis.net import protocol
    from mantis.net.client import RoundTrip
    from mantis.tui.screens.waiting_room import WaitingRoomScreen

    kinds = {"ping": protocol.Ping, "who": protocol.Who}
    answers = {
        "round trip": RoundTrip(0.0234),
        "people": protocol.People(("Ann", "Bea"), ("Cy",), 4),
    }
    app = onlinekit.waiting_room_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
        still = app.online_play.table.connection
        [command] = [c for c in app.get_system_commands(app.screen) if c.title == title]
        command.callback()
        await wait_for(pilot, lambda: any(isinstance(m, kinds[asked]) for m in still.sent))
        still.tell(answers[answer])
        await wait_for(pilot, lambda: any(n.message == said for n in app._notifications))


async def test_the_waiting_rooms_countdown_to_bots_is_on_the_connections_clock(
    tmp_path: Path,
) -> None:
    # The connection's clock stands still but when moved: a countdown read off the system
    # clock would go 600, 599, … and never show 3 s first.  (The server's stands still too,
    # so that it says 600 s however slowly it answers.)
    clock = ManualClock(frozen=True)
    server_clock = ManualClock(frozen=True)
    async with running_server(tmp_path / "server", quick_fill=600.0, clock=server_clock) as (
        _,
        url,
    ):
        ann = TableConnection(url, protocol.Quick(protocol.PROTOCOL_VERSION, "Ann", 3), clock=clock)
        await ann.open()
        app = MantisApp(first_screens.Online(ann))  # (not still: the note is redrawn)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            note = app.screen.query_one("#room-note")
            await wait_for(pilot, lambda: "In 600 s, bots (greedy)" in str(note.render()))
            clock.advance(597)
            await wait_for(pilot, lambda: "In 600 s" not in str(note.render()))
            assert "In 3 s, bots (greedy) take the open seats." in str(note.render())
            clock.advance(30)  # (the server's wait is its own: the screen says 0, not less)
            await wait_for(pilot, lambda: "In 3 s" not in str(note.render()))
            assert "In 0 s, bots" in str(note.render())
        await ann.close()


async def test_the_boards_turn_clock_counts_on_the_connections_clock(tmp_path: Path) -> None:
    from mantis.tui.widgets.turn_banner import TurnBanner

    # As in the waiting room: the board's seconds follow the connection's clock alone (the
    # screen only redraws them), so a frozen clock moved on shows its seconds at once.  (The
    # server's stands still too, so that it says 600 s however slowly it answers.)
    clock = ManualClock(frozen=True)
    async with running_server(tmp_path / "server", clock=ManualClock(frozen=True)) as (_, url):
        create = protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "casual"), clock=600)
        ann = TableConnection(url, create, clock=clock)
        await ann.open()
        app = MantisApp(first_screens.Online(ann))  # (not still: the banner is redrawn)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: shown(app, OnlinePlayScreen))
            banner = app.screen.query_one(TurnBanner)
            await wait_for(pilot, lambda: "600 s left" in str(banner.render()))
            clock.advance(595)
            await wait_for(pilot, lambda: "600 s left" not in str(banner.render()))
            assert "‼ 5 s LEFT ‼" in str(banner.render())
        await ann.close()
