"""A game's review in the app: opened from the game-over screen and from past games, the
chances chart, a decision opened on the board, retrying mistakes, pictures of each."""

from __future__ import annotations

import threading
from dataclasses import replace

import history
import positions
import pytest
from screenkit import app_lines, assert_snapshot_table_whole, assert_table_whole, box_rows
from tuikit import Heard, shown, wait_for, wait_for_human

from mantis.base.paths import settings_path
from mantis.engine import SCORE, GameRecord
from mantis.home import Settings, save_settings
from mantis.home.stats import StatsDB
from mantis.review import Decision, GameReview, review_game
from mantis.review.retry import mistakes_of
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens import review as review_module
from mantis.tui.screens.game_over import GameOverChoice, GameOverScreen
from mantis.tui.screens.local_play import LocalPlayScreen
from mantis.tui.screens.past_games import PastGamesScreen
from mantis.tui.screens.replay import ReplayScreen
from mantis.tui.screens.retry import RetryScreen
from mantis.tui.screens.review import ReviewScreen
from mantis.tui.widgets.chart import Chart
from mantis.tui.widgets.draw_pile import DrawPile
from mantis.tui.widgets.odds_panel import OddsPanel
from mantis.tui.widgets.option_chances import OptionChances

SIZE = (80, 24)


sample = positions.with_mistakes


def review_app(record: GameRecord, person: int | None = 0) -> MantisApp:
    """An app opened on the review of ``record`` (over an empty screen)."""
    return MantisApp(
        lambda app: app.reviews.open(record, title="sample", person=person), still=True
    )


async def reviewed(pilot) -> ReviewScreen:
    """The review screen, once its analysis is shown."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review)
    await pilot.pause()
    return app.screen


def option_keys(action) -> list[str]:
    """The keys that play ``action`` at the table: s, or the seat's number then Enter."""
    return ["s"] if action == SCORE else [str(action.target + 1), "enter"]


def near_best(decision: Decision) -> int:
    """An option other than the best, within 2 points of it."""
    best = decision.best_option.win
    return next(
        i
        for i, o in enumerate(decision.options)
        if i != decision.best and (best - o.win) * 100 <= 2
    )


# ----------------------------------------------------------------- opening it


async def test_the_game_over_screen_opens_the_review_for_the_person_who_played() -> None:
    record, upto = positions.one_move_from_a_win()
    winner = record.result.winners[0]
    app = MantisApp(first_screens.Position(record, upto), still=True)
    heard = Heard()
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        await wait_for_human(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: shown(app, GameOverScreen))
        assert "Review (e)" in [str(b.label) for b in app.screen.query("Button")]
        await pilot.press("e")
        screen = await reviewed(pilot)
        (chosen,) = heard.of(LocalPlayScreen.Chosen)
        assert chosen.choice is GameOverChoice.REVIEW
        assert screen.record == chosen.board.record == record
        assert screen.person == screen.focus_seat == winner and not screen.every
        assert screen.review == review_game(record)
        # The person's decisions are listed, and the verdict speaks of them.
        played = [move for move, (seat, _) in enumerate(record.actions) if seat == winner]
        assert [d.move for d in screen.shown] == played
        assert str(screen.query_one("#verdict").render()).startswith("You won.")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LocalPlayScreen)  # back to the final table


async def test_any_past_game_opens_in_the_review() -> None:
    history.seed_stats()
    app = MantisApp(still=True)
    heard = Heard()
    async with app.run_test(size=(100, 24), message_hook=heard) as pilot:
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, PastGamesScreen) and app.screen.loaded)
        await pilot.press("e")  # the newest
        screen = await reviewed(pilot)
        (asked,) = heard.of(PastGamesScreen.Review)
        newest, _ = history.finished_records()[-1]
        assert asked.record == screen.record == newest
        assert not asked.online
        you = next(s for s, seat in enumerate(asked.record.seats) if seat.name == "You")
        assert screen.focus_seat == you
        assert not heard.of(PastGamesScreen.Open)  # reviewed, not replayed
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, PastGamesScreen)


async def test_an_online_past_game_is_reviewed_for_the_seat_played_here() -> None:
    record = replace(positions.played(3, 8, 0.45), seats=positions.seats("hhh", "Ann,Bea,Cal"))
    with StatsDB() as db:
        db.record_game(record, origin="ws://127.0.0.1:8765 KXQD 8")
    save_settings(Settings(online_name="bea"), settings_path())  # any case: the same person
    app = MantisApp(still=True)
    heard = Heard()
    async with app.run_test(size=(100, 24), message_hook=heard) as pilot:
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, PastGamesScreen) and app.screen.loaded)
        await pilot.press("e")
        screen = await reviewed(pilot)
        (asked,) = heard.of(PastGamesScreen.Review)
        assert asked.online
        assert screen.person == 1


async def test_the_analysis_runs_off_the_ui_loop_while_the_screen_says_it_is_reviewing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started, release = threading.Event(), threading.Event()

    def held_review(record: GameRecord) -> GameReview:
        started.set()
        release.wait(60)
        return review_game(record)

    monkeypatch.setattr(review_module, "review_game", held_review)
    app = review_app(sample())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, started.is_set)
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.review is None
        # The UI goes on while the analysis is held in its thread.
        assert "Reviewing the game" in str(screen.query_one("#loading").render())
        assert screen.check_action("retry", ()) is False
        await pilot.press("r")  # nothing to retry yet, and nothing breaks
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert app.screen is screen and screen.review is None
        release.set()
        await reviewed(pilot)
        assert not screen.query("#loading")


# ----------------------------------------------------------------- what it shows


async def test_the_chart_draws_the_reviews_chances_marked_at_the_shown_labels() -> None:
    record = sample()
    expected = review_game(record)
    app = review_app(record)
    async with app.run_test(size=SIZE) as pilot:
        screen = await reviewed(pilot)
        chart = screen.query_one(Chart)
        by_seat = {int(line.marker) - 1: line.ys for line in chart.series}
        assert by_seat == {
            seat: tuple(point[seat] for point in expected.chart) for seat in range(3)
        }
        mine = [d.move + 1 for d in expected.decisions_of(0) if d.label is not None]
        assert chart.figure.marks == tuple(float(m) for m in mine)
        # Every seat's decisions on a key: the list and the marks follow.
        await pilot.press("a")
        assert screen.shown == expected.decisions
        every = [d.move + 1 for d in expected.decisions if d.label is not None]
        assert chart.figure.marks == tuple(float(m) for m in every)
        assert len(every) > len(mine)
        # The next seat in focus: its decisions only.
        await pilot.press("a", "s")
        assert screen.focus_seat == 1
        assert screen.shown == expected.decisions_of(1)


async def test_a_decision_opens_on_the_board_at_its_position_with_each_options_chance() -> None:
    record = sample()
    app = review_app(record)
    heard = Heard()
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        screen = await reviewed(pilot)
        review = screen.review
        first = mistakes_of(review, 0)[0]
        # The list opens on the first labelled decision: Enter opens it.
        assert screen.query_one("#decisions").cursor_row == screen.shown.index(first)
        await pilot.press("enter")
        await wait_for(pilot, lambda: shown(app, ReplayScreen))
        replay = app.screen
        (jump,) = heard.of(ReviewScreen.Jump)
        assert jump.move == first.move and jump.review is review
        await wait_for(pilot, lambda: replay.position == first.move)
        # One count of moves: the status says where the board stands, after the move before
        # the decision; the chances are the decision's, move first.move + 1.
        status = str(replay.query_one("#status").render())
        assert f"after move {first.move} of {len(record.actions)}" in status
        assert str(replay.query_one(OptionChances).border_title).startswith(
            f"Move {first.move + 1} · "
        )
        assert replay.state.view() == record.replay(first.move).view()
        assert replay.state.view(0) == review.position(first.move)
        chances = replay.query_one(OptionChances)
        assert chances.decision == first
        text = str(chances.render())
        assert "★ best" in text and "◀ played" in text and first.label in text
        # Stepping on shows the next decision's chances; ] finds the next labelled one.
        await pilot.press("right")
        assert chances.decision == review.decisions[first.move + 1]
        await pilot.press("right_square_bracket")
        assert chances.decision == mistakes_of(review, 0)[1]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_the_first_move_opens_on_the_board_with_its_chances_drawn() -> None:
    # The game's first decision (move 0): the board opens at once, with no move to step
    # to, and its chances box is filled as it is drawn (it once showed only its border).
    record = sample()
    app = review_app(record)
    async with app.run_test(size=SIZE) as pilot:
        screen = await reviewed(pilot)
        first = screen.shown[0]
        assert first.move == 0
        screen.query_one("#decisions").move_cursor(row=0, animate=False)
        await pilot.press("enter")
        await wait_for(pilot, lambda: shown(app, ReplayScreen))
        await pilot.pause()
        assert app.screen.position == 0
        rows = box_rows(app_lines(app), "Move 1 · your chances")
        assert any(row.startswith("Score") for row in rows), rows
        assert any("★ best" in row for row in rows), rows
        assert_table_whole(app_lines(app))


async def test_retrying_accepts_a_near_best_choice_and_refuses_a_bad_one() -> None:
    record = sample()
    app = review_app(record)
    heard = Heard()
    async with app.run_test(size=SIZE, message_hook=heard) as pilot:
        screen = await reviewed(pilot)
        first, second = mistakes_of(screen.review, 0)
        near = near_best(first)
        await pilot.press("r")
        await wait_for(pilot, lambda: shown(app, RetryScreen))
        retry = app.screen
        await wait_for(pilot, lambda: retry.waiting == 0)
        # The position is the one before that decision, and the coach is not there to help.
        assert retry.state.view(0) == screen.review.position(first.move)
        assert not retry.query_one("#coach").display
        assert not retry.query_one(OptionChances).display
        # A near-best choice, first: accepted, and counted as solved.
        await pilot.press(*option_keys(first.options[near].action))
        await wait_for(pilot, lambda: retry.answered is not None)
        assert retry.answered.accepted and retry.solved
        verdict = str(retry.query_one("#verdict").render())
        assert verdict.startswith("✓ Accepted")
        assert "within" in verdict and "of the best" in verdict
        chances = retry.query_one(OptionChances)
        assert chances.display and chances.decision == first and chances.answer == near
        assert "1 of 2" in " ".join(retry.status_parts())
        # The next position: a bad choice is refused and may be tried again.
        await pilot.press("n")
        await wait_for(
            pilot, lambda: isinstance(app.screen, RetryScreen) and app.screen is not retry
        )
        retry = app.screen
        assert retry.decision == second
        await wait_for(pilot, lambda: retry.waiting == 0)
        await pilot.press(*option_keys(second.chosen_option.action))
        await wait_for(pilot, lambda: retry.answered is not None)
        assert not retry.answered.accepted and not retry.solved
        assert str(retry.query_one("#verdict").render()).startswith("✗ Not this one")
        assert not retry.query_one(OptionChances).display  # the answer is not given away
        await wait_for(pilot, lambda: retry.waiting == 0)  # choose again
        await pilot.press(*option_keys(second.best_option.action))
        await wait_for(pilot, lambda: retry.solved)
        assert retry.answered.option == second.best
        assert "not counted" in str(retry.query_one("#verdict").render()).lower()
        # After the last: back to the review, which counts 1 of 2 solved.
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen)
        assert len(heard.of(RetryScreen.Next)) == 2
        assert "1 of 2 solved" in str(screen.query_one("#list-title").render())
        # Again: only the one missed.
        await pilot.press("r")
        await wait_for(pilot, lambda: shown(app, RetryScreen))
        assert app.screen.decision == second
        assert "position 1 of 1" in app.screen.status_parts()


async def test_a_retried_position_hides_the_odds_until_it_is_answered() -> None:
    save_settings(Settings(show_odds=True, animations=False), settings_path())
    app = review_app(sample())
    async with app.run_test(size=SIZE) as pilot:
        screen = await reviewed(pilot)
        first = mistakes_of(screen.review, 0)[0]
        await pilot.press("r")
        await wait_for(pilot, lambda: shown(app, RetryScreen))
        retry = app.screen
        await wait_for(pilot, lambda: retry.waiting == 0)
        odds, pile = retry.query_one(OddsPanel), retry.query_one(DrawPile)
        # Each option's chance of coming off, and the top card's faces, all but name the
        # answer: neither is shown, and o does not bring them back...
        assert not odds.display and pile.faces is None
        await pilot.press("o")
        assert not odds.display and pile.faces is None
        # ... until the position is answered (the odds are on in the settings).
        await pilot.press(*option_keys(first.best_option.action))
        await wait_for(pilot, lambda: retry.solved)
        assert odds.display and pile.faces is not None and odds.odds is not None


async def test_nothing_to_retry_is_said_and_no_board_opens() -> None:
    record = replace(positions.played(3, 2, 0.5), seats=positions.seats("rhr", "Ann,You,Bea"))
    assert not mistakes_of(review_game(record), 1)
    app = review_app(record, person=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await reviewed(pilot)
        await pilot.press("r")
        await pilot.pause()
        assert app.screen is screen
        assert "nothing to retry" in str(screen.query_one("#list-title").render())
        # ... and the key bar does not offer it; for a seat with mistakes it does.
        assert "Retry" not in app_lines(app)[-1]
        seat = next(s for s in range(3) if mistakes_of(screen.review, s))
        while screen.focus_seat != seat:
            await pilot.press("s")
        await pilot.pause()
        assert "r Retry mistakes" in app_lines(app)[-1]


# ----------------------------------------------------------------- pictures


async def _review_ready(pilot) -> None:
    await reviewed(pilot)


def test_review_summary_and_chart(snap_compare) -> None:
    assert snap_compare(review_app(sample()), terminal_size=(100, 30), run_before=_review_ready)


def test_review_no_color(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(review_app(sample()), terminal_size=SIZE, run_before=_review_ready)


def test_review_decision_on_the_board(snap_compare, request) -> None:
    async def open_first_mistake(pilot) -> None:
        screen = await reviewed(pilot)
        await pilot.press("enter")  # on the first mistake, where the list opens
        first = mistakes_of(screen.review, 0)[0]
        await wait_for(
            pilot,
            lambda: (
                isinstance(pilot.app.screen, ReplayScreen)
                and pilot.app.screen.position == first.move
            ),
        )
        await pilot.pause()

    assert snap_compare(review_app(sample()), terminal_size=SIZE, run_before=open_first_mistake)
    assert_snapshot_table_whole(request)


def test_review_retry_answered(snap_compare, request) -> None:
    async def answer_near_best(pilot) -> None:
        screen = await reviewed(pilot)
        first = mistakes_of(screen.review, 0)[0]
        near = near_best(first)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, RetryScreen))
        retry = pilot.app.screen
        await wait_for(pilot, lambda: retry.waiting == 0)
        await pilot.press(*option_keys(first.options[near].action))
        await wait_for(pilot, lambda: retry.solved)
        await pilot.pause()

    assert snap_compare(review_app(sample()), terminal_size=SIZE, run_before=answer_near_best)
    assert_snapshot_table_whole(request)


def test_a_loss_is_the_same_figure_on_screen_in_the_text_report_and_in_lines() -> None:
    # A loss of 8.06 points: once "−8.1" on screen and "-8.0" in `mantis review`.
    from mantis.lines.review import review_text
    from mantis.review.report import format_review, loss_points

    assert [loss_points(x) for x in (8.06, 2.97, 7.96, 20.0, 0.3)] == [
        "8.0",
        "2.9",
        "7.9",
        "20.0",
        "0.3",
    ]
    record = sample()
    review = review_game(record)
    decision = next(d for d in review.decisions if d.seat == 0 and d.label == "mistake")
    odd = replace(decision, loss=8.06)
    review = replace(review, decisions=tuple(odd if d is decision else d for d in review.decisions))
    screen = ReviewScreen(record, title="sample", person=0)
    assert screen._row(odd)[4].plain == "−8.0"
    text = format_review(review, "Game 1", [0])
    assert f"move {odd.move + 1:>3}" in text and "-8.0 mistake" in text
    said = review_text(review, "Game 1", [0])
    assert "8.0 points lost" in said and "8.1" not in said


async def test_an_answers_marks_fit_a_narrow_panel_as_glyphs_with_their_key() -> None:
    # "★ best, you" once ran off a panel too narrow for it (the retry's, at 100x30).
    from textual.app import App

    review = review_game(sample())
    decision = mistakes_of(review, 0)[0]
    names = ["You", "Bartholomew", "Bea"]

    class Panel(App[None]):
        def compose(self):
            chances = OptionChances(id="chances")
            chances.styles.width = 32  # as wide as the retry's, under the pile
            chances.styles.height = 9
            yield chances

    app = Panel()
    async with app.run_test(size=(40, 12)) as pilot:
        panel = app.query_one(OptionChances)
        panel.show(decision, names, answer=decision.best)
        await pilot.pause()
        rows = [line.strip(" │") for line in app_lines(app)[1:] if line.strip(" │╰─╯")]
        assert not any(row.endswith("…") for row in rows), rows  # nothing cut at the edge
        assert any(row.endswith("% ★●") for row in rows), rows  # best, and your answer
        assert any("★ best  ● you  ◀ played" in row for row in rows), rows
