"""Online tables that keep moving, through the app: the clock, another game, talk, leaving,
"Play now" and a new table's rules.

A real server on loopback (time on a ``ManualClock`` the test moves), the app
through ``run_test`` for one person, plain protocol clients for the others.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tuikit import Heard, shown, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from netkit import (  # noqa: E402
    board_winners,
    create,
    deals,
    heard,
    join,
    play_my_turns,
    quick,
    running_server,
    turn_to_answer,
)

from mantis.base.clock import ManualClock  # noqa: E402
from mantis.home.stats import StatsDB  # noqa: E402
from mantis.net import protocol  # noqa: E402
from mantis.net.client import TableConnection  # noqa: E402
from mantis.net.server.limits.server_limits import ServerLimits  # noqa: E402
from mantis.table import Back, Left, TimedOut  # noqa: E402
from mantis.tui import first_screens  # noqa: E402
from mantis.tui.app import MantisApp  # noqa: E402
from mantis.tui.screens.confirm import ConfirmScreen  # noqa: E402
from mantis.tui.screens.game_over import GameOverChoice, GameOverScreen  # noqa: E402
from mantis.tui.screens.lobby import LobbyScreen  # noqa: E402
from mantis.tui.screens.online_play import OnlinePlayScreen  # noqa: E402
from mantis.tui.screens.waiting_room import WaitingRoomScreen  # noqa: E402
from mantis.tui.widgets.game_log import GameLog  # noqa: E402

SIZE = (100, 30)
CLOCK = 5  # the shortest clock a table may have
#: A two-seat deal that the host's seat, played by its away bot (greedy), wins against a
#: person scoring every card: only leaving makes it the host's loss.
HOST_SEAT_WINS = 0


async def seated_app(url: str, **rules: object) -> tuple[MantisApp, TableConnection]:
    """Ann's app, hosting a two-seat table (Ann and an open seat) with ``rules``."""
    ann = TableConnection(
        url, protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "open"), **rules)
    )
    await ann.open()
    return MantisApp(first_screens.Online(ann), still=True), ann


def log_lines(board: OnlinePlayScreen) -> list[str]:
    return board.query_one(GameLog).texts


async def started(pilot, app: MantisApp) -> OnlinePlayScreen:
    """The host starts (once the waiting room is up to take the key); the board, once up."""
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, WaitingRoomScreen)
            and app.screen.is_mounted
            and app.screen.check_action("start", ())
        ),
    )
    await pilot.press("ctrl+s")
    await wait_for(
        pilot, lambda: isinstance(app.screen, OnlinePlayScreen) and app.screen.is_mounted
    )
    return app.screen


async def test_the_clock_moves_an_idle_person_on_and_another_game_is_agreed_on_the_result(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(tmp_path / "server", clock=clock) as (_, url):
        app, ann = await seated_app(url, clock=CLOCK)
        async with app.run_test(size=SIZE, message_hook=(said := Heard())) as pilot:
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            bea = await join(url, ann.code, "Bea")
            board = await started(pilot, app)
            bea_plays = asyncio.create_task(play_my_turns(bea, 1))
            came_back = False
            # Ann never moves: each of her turns, once its clock runs, time is moved past it.
            while not bea.over:
                await bea.until(
                    lambda: (
                        bea.over
                        or (t := turn_to_answer(bea.stream)) is not None
                        and t.seat == 0
                        and any(c.turn == t.turn for c in heard(bea, protocol.Clock))
                    ),
                    "Ann's clock, or the end",
                )
                if bea.over:
                    break
                clock.advance(CLOCK)
                waited = sum(isinstance(m, TimedOut) for m in bea.stream)
                await bea.until(
                    lambda w=waited: (
                        bea.over
                        or sum(isinstance(m, TimedOut) for m in bea.stream) > w
                        or board.check_action("back", ())
                    ),
                    "the timeout",
                )
                if board.check_action("back", ()) and not came_back:
                    # Away after three: the board says so, and b brings her back.
                    assert "You are away" in board._hint()
                    came_back = True
                    await pilot.press("b")
                    await bea.until(lambda: any(isinstance(m, Back) for m in bea.stream))
            await bea_plays
            await wait_for(pilot, lambda: shown(app, GameOverScreen))
            lines = log_lines(board)
            assert any(line.startswith("Your time ran out: greedy") for line in lines)
            assert "You are back" in lines and came_back
            result = app.screen
            # Ann offers another game; Bea declines; the result says so.
            await pilot.press("a")
            await bea.until(lambda: heard(bea, protocol.Offer), "Ann's offer")
            await wait_for(pilot, lambda: "waiting for Bea" in result.offer)
            await bea.send(protocol.Decline())
            await wait_for(pilot, lambda: result.offer == "Bea declined another game.")
            # Bea offers; Ann accepts with the same key: the table plays again.
            await bea.send(protocol.Again())
            await wait_for(pilot, lambda: "Bea offers another game" in result.offer)
            assert result.declinable
            await pilot.press("a")
            await wait_for(
                pilot, lambda: isinstance(app.screen, OnlinePlayScreen) and app.screen is not board
            )
            assert app.screen.state.turn == 0 and not app.screen.state.over
            chosen = [m.choice for m in said.of(GameOverScreen.Answered)]
            assert chosen == [GameOverChoice.AGAIN, GameOverChoice.AGAIN]
            # The first game is in this app's past games.
            await wait_for(pilot, lambda: len(_past_games()) == 1)
        await ann.close()
        await bea.close()


def _past_games():
    with StatsDB() as db:
        return db.past_games()


async def test_talk_goes_both_ways_esc_cancels_and_h_hides_it(tmp_path: Path) -> None:
    async with running_server(tmp_path / "server") as (_, url):
        app, ann = await seated_app(url)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            bea = await join(url, ann.code, "Bea")
            board = await started(pilot, app)
            await bea.send(protocol.Say("hello Ann"))
            await wait_for(pilot, lambda: "Bea says “hello Ann”" in log_lines(board))
            rows = [w.region for w in board.query("#seats, #lower, #banner")]
            await pilot.press("t")
            assert board.talking and board.query_one("#talk-line").has_focus
            assert [w.region for w in board.query("#seats, #lower, #banner")] == rows
            await pilot.press(*"hi [bold]Bea", "enter")
            await bea.until(lambda: len(heard(bea, protocol.Said)) == 2, "Ann's line")
            assert heard(bea, protocol.Said)[1] == protocol.Said("players", 0, "Ann", "hi bold Bea")
            assert not board.talking
            await wait_for(pilot, lambda: "You say “hi bold Bea”" in log_lines(board))
            await pilot.press("t", *"never mind", "escape")  # Esc: nothing is said
            assert not board.talking and board.query_one("#actions").display
            await pilot.press("h")
            log = board.query_one(GameLog)
            assert log.has_class("-no-talk") and app.settings.show_talk is False
            await pilot.press("h")
            assert not log.has_class("-no-talk") and app.settings.show_talk is True
        assert [s.text for s in heard(bea, protocol.Said)] == ["hello Ann", "hi bold Bea"]
        await ann.close()
        await bea.close()


class CountedReaders(TableConnection):
    """A connection that counts who reads it: ``events()`` iterations begun."""

    readers = 0

    async def events(self):  # type: ignore[override]
        self.readers += 1
        async for event in super().events():
            yield event


async def test_leaving_asks_first_and_the_game_still_counts_as_a_loss_here(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "server", seeds=deals(HOST_SEAT_WINS)) as (_, url):
        ann = CountedReaders(
            url, protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "open"))
        )
        await ann.open()
        app = MantisApp(first_screens.Online(ann), still=True)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            bea = await join(url, ann.code, "Bea")
            await started(pilot, app)
            await pilot.press("l")
            await wait_for(pilot, lambda: shown(app, ConfirmScreen))
            await pilot.press("n")  # no: still at the table
            await wait_for(pilot, lambda: shown(app, OnlinePlayScreen))
            assert not any(isinstance(m, Left) for m in bea.stream)
            await pilot.press("l")
            await wait_for(pilot, lambda: shown(app, ConfirmScreen))
            await pilot.press("y")
            await wait_for(pilot, lambda: shown(app, LobbyScreen))
            await bea.until(lambda: any(isinstance(m, Left) for m in bea.stream), "Ann left")
            await play_my_turns(bea, 1)  # the away bot plays Ann's seat to the end
            assert board_winners(bea) == (0,)  # Ann's seat won on the board
            # Ann's app listened on, and keeps the game: a loss for her all the same.
            await wait_for(pilot, lambda: len(_past_games()) == 1)
            with StatsDB() as db:
                [ann_stats] = [p for p in db.player_stats() if p.name == "Ann"]
            assert ann_stats.overall.games == 1 and ann_stats.overall.wins == 0
            # One reader for the connection's whole life: leaving started no second one
            # (two at once is what websockets refuses: the app ended on it).
            assert ann.readers == 1
        await bea.close()


async def test_play_now_waits_for_people_and_a_new_table_has_its_rules(tmp_path: Path) -> None:
    async with running_server(tmp_path / "server") as (server, url):
        app = MantisApp(still=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("o")
            await wait_for(pilot, lambda: shown(app, LobbyScreen))
            lobby = app.screen
            lobby.query_one("#server").value = url
            lobby.query_one("#online-name").value = "Ann"
            # A new table: a 30 s clock, talk off.
            lobby.query_one("#online-players").value = 2
            lobby.query_one("#online-clock").value = 30
            lobby.query_one("#online-talk").value = False
            lobby.action_create()
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            [room] = server.rooms.values()
            assert (room.rules.clock, room.rules.talk) == (30, False)
            await wait_for(
                pilot,
                lambda: (
                    app.screen.is_mounted
                    and "30 s a move · no talk" in str(app.screen.query_one("#room-title").render())
                ),
            )
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is lobby)
            assert (app.settings.online_clock, app.settings.online_talk) == (30, False)
            # Play now, two players: the waiting room says who it waits for.
            lobby.query_one("#quick-players").value = 2
            await pilot.press("ctrl+g")
            await wait_for(
                pilot,
                lambda: (
                    isinstance(app.screen, WaitingRoomScreen)
                    and app.screen.is_mounted
                    and "bots (greedy)" in str(app.screen.query_one("#room-note").render())
                ),
            )
            assert "Waiting for 1 more player" in str(app.screen.query_one("#room-note").render())
            bea = await quick(url, "Bea", players=2)
            await wait_for(pilot, lambda: shown(app, OnlinePlayScreen))
            assert app.screen.names == ["You", "Bea"] or app.screen.names == ["Bea", "You"]
            assert app.settings.quick_players == 2
        await bea.close()


async def test_another_game_refused_for_too_many_tables_is_said_on_the_result(
    tmp_path: Path,
) -> None:
    # One table an address: once this game is over, another table of Ann's address
    # leaves no room for another game here.
    async with running_server(tmp_path / "server", limits=ServerLimits(tables_per_address=1)) as (
        _,
        url,
    ):
        ann = TableConnection(
            url, protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "greedy"))
        )
        await ann.open()
        app = MantisApp(first_screens.Online(ann), still=True)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            board = await started(pilot, app)
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
            other = await create(url, ("human", "open"), "Ann's friend")  # the address's one
            await pilot.press("a")
            await wait_for(
                pilot,
                lambda: any(
                    "this table's address has as many tables" in n.message
                    for n in app._notifications
                ),
            )
            assert isinstance(app.screen, GameOverScreen)  # no other game
            await other.close()
        await ann.close()
