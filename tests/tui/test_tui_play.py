"""Playing through the UI with keys and clicks, and what the widgets then show."""

from __future__ import annotations

import threading

import positions
import pytest
from sample_bots import CountingBot, GatedBot
from textual.widgets import Button
from tuikit import Heard, shown, table_of, wait_for, wait_for_human

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, Game, GameRecord, SeatInfo, record_of, steal
from mantis.table.narration import narrate
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens.game_over import GameOverChoice, GameOverScreen
from mantis.tui.screens.help import HelpScreen
from mantis.tui.screens.local_play import LocalPlayScreen
from mantis.tui.screens.setup import SetupScreen
from mantis.tui.screens.too_small import TooSmallScreen
from mantis.tui.widgets.draw_pile import DrawPile
from mantis.tui.widgets.game_log import GameLog
from mantis.tui.widgets.score_pile import ScorePile
from mantis.tui.widgets.seat_panel import SeatPanel
from mantis.tui.widgets.tank import Tank

SIZE = (80, 24)


def seats(*specs: str) -> list[SeatInfo]:
    names = ["You", "Ann", "Bea", "Cal", "Dee", "Eve"]
    return [
        SeatInfo(name, "human") if spec == "human" else SeatInfo(name, "bot", spec)
        for name, spec in zip(names, specs, strict=False)
    ]


async def test_whole_game_with_the_keyboard() -> None:
    app = MantisApp(first_screens.NewTable(seats("human", "random", "score"), 3), still=True)
    async with app.run_test(size=SIZE) as pilot:
        steals = 0
        for _ in range(200):
            table = await wait_for_human(pilot)
            if isinstance(app.screen, GameOverScreen):
                break
            turn = table.table.turn
            if steals < 3:
                # Pick Ann by her digit, then confirm: a steal in two steps.
                await pilot.press("2")
                assert table.target == 1
                await pilot.press("enter")
                steals += 1
            else:
                await pilot.press("s")
            await wait_for(pilot, lambda t=table, n=turn: t.table.turn > n)
        assert isinstance(app.screen, GameOverScreen)
        log = table.query_one(GameLog).texts
        assert log[-1].startswith("Game over:")
        assert any("from Ann" in line or "went to Ann's tank" in line for line in log)
        moves = [seat for seat, _ in table.record.actions if seat == 0]
        assert len(moves) >= 4
        await pilot.press("q")
    assert app.return_code == 0


async def test_end_of_a_game_with_the_mouse() -> None:
    # Late in a game, so that the clicking part stays short.
    record, upto = positions.mid_game(3, seed=15, upto=18)
    app = MantisApp(first_screens.Position(record, upto), still=True)
    async with app.run_test(size=SIZE) as pilot:
        for clicks in range(300):
            table = await wait_for_human(pilot)
            if isinstance(app.screen, GameOverScreen):
                break
            turn = table.table.turn
            if clicks % 3 == 2:
                # Clicking a tank only picks it; the Steal button confirms.
                victim = table.targets[0]
                await pilot.click(f"#seat-{victim}")
                assert table.target == victim and table.table.turn == turn
                await pilot.click("#steal")
            else:
                await pilot.click("#score")
            await wait_for(pilot, lambda t=table, n=turn: t.table.turn > n)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.click("#new")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)


async def test_a_click_on_the_next_turn_counts_even_while_the_button_looks_pressed() -> None:
    # Two people and instant bots: the second click comes while Score still shows
    # its pressed effect.  The effect is made to last a minute, so the second
    # click lands inside it on any machine, however fast or slow.
    app = MantisApp(first_screens.NewTable(seats("human", "score"), 4), still=True)
    async with app.run_test(size=SIZE) as pilot:
        table = await wait_for_human(pilot)
        button = table.query_one("#score", Button)
        button.active_effect_duration = 60
        for _ in range(2):
            await wait_for_human(pilot)
            mine = sum(1 for seat, _ in table.record.actions if seat == 0)
            await wait_for(pilot, lambda: not button.disabled)
            await pilot.click("#score")
            await wait_for(
                pilot, lambda n=mine: sum(1 for s, _ in table.record.actions if s == 0) > n
            )
        assert button.has_class("-active")  # the second click came inside the window


async def test_log_and_widgets_follow_a_steal() -> None:
    record, upto = positions.mid_game(4)
    table_seats = record.seats
    mover = record.replay(upto).to_move
    victim = (mover + 1) % 4
    # Work out on a copy what the steal will do, to compare with the UI.
    expected_game = positions.played(4, 11, 0.45).replay(14)
    events = expected_game.apply(steal(victim))
    expected = [line for e in events if (line := narrate(e, [s.name for s in table_seats]))]
    app = MantisApp(first_screens.Position(record, upto, paused=True), still=True)
    async with app.run_test(size=SIZE) as pilot:
        table = await wait_for_human(pilot)
        await pilot.press(str(victim + 1))
        await pilot.press("enter")
        await wait_for(pilot, lambda: table.table.turn == 15)
        await pilot.pause()
        log = table.query_one(GameLog).texts
        assert log[-len(expected) :] == expected
        view = expected_game.view()
        for seat in (mover, victim):
            panel = table.query_one(f"#seat-{seat}", SeatPanel)
            assert panel.query_one(Tank).counts == view.tank_counts(seat)
            assert panel.query_one(ScorePile).score == view.scores[seat]
        pile = table.query_one(DrawPile)
        assert pile.pile_size == view.pile_size
        assert pile.top_back == view.top_back


async def test_scoring_updates_score_pile_and_log() -> None:
    record, upto = positions.mid_game(4)
    table_seats = record.seats
    mover = record.replay(upto).to_move
    expected_game = positions.played(4, 11, 0.45).replay(14)
    events = expected_game.apply(SCORE)
    names = [s.name for s in table_seats]
    app = MantisApp(first_screens.Position(record, upto, paused=True), still=True)
    async with app.run_test(size=SIZE) as pilot:
        table = await wait_for_human(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: table.table.turn == 15)
        await pilot.pause()
        texts = table.query_one(GameLog).texts
        assert narrate(events[1], names) in texts
        panel = table.query_one(f"#seat-{mover}", SeatPanel)
        assert panel.query_one(ScorePile).score == expected_game.view().scores[mover]


async def test_help_opens_while_a_slow_bot_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bot cannot finish until the test lets it, so "the UI answered while
    # the bot was thinking" holds by construction, with no clock involved.
    monkeypatch.setattr(GatedBot, "GATE", threading.Event())
    app = MantisApp(
        first_screens.Position(
            _record_where_seat_moves(
                0, [SeatInfo("Zed", "bot", "sample_bots:GatedBot"), SeatInfo("You", "human")]
            )
        ),
        still=True,
        bot_timeout=30,
    )
    async with app.run_test(size=SIZE) as pilot:
        table = table_of(app)
        await wait_for(pilot, lambda: table.thinking == 0)
        # While the bot thinks, the human's keys are greyed out and do nothing.
        assert table.check_action("score", ()) is None
        assert table.check_action("steal", ()) is None
        await pilot.press("s")  # not this seat's turn: nothing is played, nothing queued
        await pilot.press("f1")
        await wait_for(pilot, lambda: shown(app, HelpScreen))
        assert table.table.turn == 0  # the bot is still thinking
        await pilot.press("escape")
        GatedBot.GATE.set()
        await wait_for(pilot, lambda: table.table.turn >= 1)
        await wait_for_human(pilot)
        # Had the early "s" been taken, the person's score would have followed the
        # bot's move at once; the table asks the person instead, after one move.
        assert table.record.actions == ((0, SCORE),) and table.waiting == 1
        assert table.check_action("score", ()) is True
        assert table.check_action("steal", ()) is None  # nothing picked yet


async def test_a_failing_bot_scores_and_the_log_says_so() -> None:
    app = MantisApp(
        first_screens.Position(
            _record_where_seat_moves(
                0, [SeatInfo("Cal", "bot", "sample_bots:BrokenBot"), SeatInfo("You", "human")]
            )
        ),
        still=True,
    )
    async with app.run_test(size=SIZE) as pilot:
        table = await wait_for_human(pilot)
        texts = table.query_one(GameLog).texts
        assert "Cal's bot failed (RuntimeError: boom); Cal scores instead" in texts
        assert table.record.actions[0] == (0, SCORE)


async def test_a_bot_over_its_time_budget_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bot never answers; the budget runs out on the test's clock, not the machine's.
    monkeypatch.setattr(GatedBot, "GATE", threading.Event())
    clock = ManualClock(frozen=True)
    app = MantisApp(
        first_screens.Position(
            _record_where_seat_moves(
                0, [SeatInfo("Zed", "bot", "sample_bots:GatedBot"), SeatInfo("You", "human")]
            )
        ),
        still=True,
        bot_timeout=5,
        clock=clock,
    )
    try:
        async with app.run_test(size=SIZE) as pilot:
            table = table_of(app)
            await wait_for(pilot, lambda: table.thinking == 0 and clock.pending(1e9))
            clock.advance(4.5)
            await pilot.pause()
            assert table.table.turn == 0  # still within its budget
            clock.advance(0.5)
            table = await wait_for_human(pilot)
            assert "Zed's bot took longer than 5 s; Zed scores instead" in (
                table.query_one(GameLog).texts
            )
    finally:
        GatedBot.GATE.set()


async def test_paused_bots_move_one_step_at_a_time() -> None:
    app = MantisApp(
        first_screens.NewTable(seats("random", "score", "random"), 5, paused=True), still=True
    )
    async with app.run_test(size=SIZE) as pilot:
        table = table_of(app)
        # Held: the table waits for a step before it asks any seat (were the
        # pause ignored, a bot would have moved before the table was held).
        await wait_for(pilot, lambda: table.held)
        assert table.table.turn == 0
        assert table.check_action("step", ()) is True
        await pilot.press("n")
        await wait_for(pilot, lambda: table.table.turn >= 1 and table.held)
        assert table.table.turn == 1  # one step, one move, held again
        await pilot.press("p")  # resume: the bots play on by themselves
        await wait_for(pilot, lambda: table.table.turn >= 3)
        assert not table.paused


async def test_a_paused_board_holds_the_table_no_seat_is_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(CountingBot, "asked", 0)
    bots = [SeatInfo(name, "bot", "sample_bots:CountingBot") for name in ("Ann", "Bea", "Cal")]
    app = MantisApp(first_screens.NewTable(bots, 5, paused=True), still=True)
    async with app.run_test(size=SIZE) as pilot:
        table = table_of(app)
        # The board has shown everything and holds the table for "next move" or "resume".
        await wait_for(pilot, lambda: table.held)
        assert CountingBot.asked == 0 and table.table.asking is None
        assert table.table.turn == 0 and table.state.turn == 0
        await pilot.press("n")
        await wait_for(pilot, lambda: table.state.turn >= 1 and table.held)
        assert CountingBot.asked == 1 and table.state.turn == 1  # one step, one question


async def test_rematch_deals_the_same_game_and_play_again_a_new_one() -> None:
    record, _ = positions.single_win()
    app = MantisApp(first_screens.Position(record), still=True)
    heard = Heard()
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        await wait_for(pilot, lambda: shown(app, GameOverScreen))
        first = table_of(app)
        await pilot.press("r")
        await wait_for(pilot, lambda: table_of(app) is not first)
        # The board said what was chosen; the app dealt the rematch.
        chosen = heard.of(LocalPlayScreen.Chosen)
        assert [(m.board, m.choice) for m in chosen] == [(first, GameOverChoice.REMATCH)]
        rematch = table_of(app)
        assert rematch.table is not first.table
        # The same deal from the start: the same tanks, pile, first seat and seed.
        again = rematch.record
        assert (again.tanks, again.pile, again.first) == (record.tanks, record.pile, record.first)
        assert rematch.messages[:2] == first.messages[:2]  # the same opening, from move 0
        assert rematch.seed == record.seed
        assert [s.name for s in rematch.seats] == [s.name for s in record.seats]


async def test_hot_seat_always_says_whose_turn() -> None:
    hot_seat = [SeatInfo("Ann", "human"), SeatInfo("Bea", "human"), SeatInfo("Cal", "human")]
    app = MantisApp(first_screens.NewTable(hot_seat, 2), still=True)
    async with app.run_test(size=SIZE) as pilot:
        table = await wait_for_human(pilot)
        banner = str(table.query_one("#banner").render())
        assert f"{table.names[table.waiting].upper()}'S TURN" in banner
        first = table.waiting
        await pilot.press("s")
        await wait_for(pilot, lambda: table.waiting not in (None, first))
        banner = str(table.query_one("#banner").render())
        assert f"{table.names[table.waiting].upper()}'S TURN" in banner


async def test_too_small_terminal_then_recovers() -> None:
    record, upto = positions.mid_game(4)
    app = MantisApp(first_screens.Position(record, upto), still=True)
    async with app.run_test(size=(70, 20)) as pilot:
        await wait_for(pilot, lambda: shown(app, TooSmallScreen))
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: shown(app, LocalPlayScreen))


async def test_setup_screen_starts_a_table_and_remembers_it() -> None:
    app = MantisApp(still=True)
    heard = Heard()
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        assert isinstance(app.screen, SetupScreen)
        app.screen.query_one("#name-1").value = "Zoe"
        await pilot.click("#start")
        await wait_for(pilot, lambda: shown(app, LocalPlayScreen))
        (start,) = heard.of(SetupScreen.Start)
        assert [seat.name for seat in start.seats] == ["You", "Zoe", "Bea"]
        assert start.seed is None  # blank: a fresh deal
        table = table_of(app)
        assert table.names[1] == "Zoe"
        assert app.settings.last_seats[1].name == "Zoe"
    again = MantisApp(still=True)
    async with again.run_test(size=SIZE):
        assert again.screen.query_one("#name-1").value == "Zoe"


async def test_setup_rejects_duplicate_names() -> None:
    app = MantisApp(still=True)
    heard = Heard()
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        app.screen.query_one("#name-1").value = "You"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "names must differ" in str(app.screen.query_one("#error").render())
        assert heard.of(SetupScreen.Start) == []  # the form never asked for a table


async def test_setup_rows_follow_the_player_count_and_keep_what_was_typed() -> None:
    app = MantisApp(still=True)
    async with app.run_test(size=(100, 30)) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        players = setup.query_one("#players")
        shown = lambda: [row.id for row in setup.query(".seat") if row.display]  # noqa: E731
        assert shown() == ["row-0", "row-1", "row-2"]
        players.value = 5
        await wait_for(pilot, lambda: len(shown()) == 5)
        await pilot.pause()  # the new rows' widgets finish mounting
        assert shown() == ["row-0", "row-1", "row-2", "row-3", "row-4"]
        assert setup.query_one("#name-4").value == "Dee"
        setup.query_one("#name-4").value = "Zed"
        setup.query_one("#kind-3").value = "greedy"
        players.value = 2
        await wait_for(pilot, lambda: len(shown()) == 2)
        players.value = 5
        await wait_for(pilot, lambda: len(shown()) == 5)
        assert setup.query_one("#name-4").value == "Zed"
        await pilot.click("#start")
        table = await wait_for_human(pilot)
        assert table.names == ["You", "Ann", "Bea", "Cal", "Zed"]
        assert table.seats[3].bot == "greedy"


@pytest.mark.parametrize("players", [2, 6])
async def test_every_table_size_plays_to_the_end(players: int) -> None:
    specs = ["random", "score"] * 3
    app = MantisApp(first_screens.NewTable(seats(*specs[:players]), players), still=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=120)
        table = table_of(app)
        table.record.replay().check_accounting()
        assert sum(table.result.scores) + sum(table.result.tank_sizes) == (
            4 * players + table.table.turn
        )


def _record_where_seat_moves(seat: int, seats: list[SeatInfo]) -> GameRecord:
    """A new two-seat game for ``seats`` in which ``seat`` moves first."""
    for seed in range(100):
        game = Game.new(2, seed)
        if game.to_move == seat:
            return record_of(game, seats)
    raise AssertionError
