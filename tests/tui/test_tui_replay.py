"""Replays: the screen reproduces the original game event for event, steps back
and forward consistently, and ``mantis replay`` refuses bad input in one line."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import positions
import pytest
from tuikit import table_of, wait_for

from mantis.base.clock import ManualClock
from mantis.cli import main
from mantis.engine import Game, Scored, ScoreMissed, SeatInfo, StealMissed, Stolen, record_of
from mantis.home.record_file import write_records
from mantis.players import bot_factory
from mantis.players.odds import odds_for
from mantis.sim.runner import play_game
from mantis.table import Recorded, seats_of
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens.game_over import GameOverScreen
from mantis.tui.screens.replay import ReplayScreen
from mantis.tui.widgets.draw_pile import DrawPile
from mantis.tui.widgets.game_log import GameLog
from mantis.tui.widgets.odds_panel import OddsPanel
from mantis.tui.widgets.score_pile import ScorePile
from mantis.tui.widgets.seat_panel import SeatPanel
from mantis.tui.widgets.tank import Tank

SIZE = (80, 24)
BOTS = (
    SeatInfo("Ann", "bot", "score"),
    SeatInfo("Bea", "bot", "random"),
    SeatInfo("Cal", "bot", "score"),
)


def replay_screen(app: MantisApp) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


def widgets_state(screen: ReplayScreen) -> tuple:
    """What the seats and the pile show, to compare positions on screen."""
    panels = tuple(
        (
            panel.query_one(Tank).counts,
            panel.query_one(ScorePile).score,
            panel.has_class("-to-move"),
            panel.has_class("-winner"),
        )
        for panel in screen.query(SeatPanel)
    )
    pile = screen.query_one(DrawPile)
    return panels, pile.pile_size, pile.top_back, pile.drawn


async def test_stepping_through_a_replay_reproduces_the_game() -> None:
    # The original game, played by bots at a real table; its stream is what the board showed.
    dealt = record_of(Game.new(3, 41), BOTS)  # a short game: 16 moves
    app = MantisApp(first_screens.Position(dealt), still=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=120)
        table = table_of(app)
        original_log = list(table.query_one(GameLog).texts)
        played = list(table.messages)
        record = table.record
        # The game-over screen offers the replay straight away.
        await pilot.press("v")
        await pilot.pause()
        offered = replay_screen(app)
        assert offered.record == record
    # the same bots, seeded the same way, play the same game headless
    headless = play_game([bot_factory(seat.bot)() for seat in BOTS if seat.bot], 41)
    assert isinstance(played[-1], Recorded) and record.actions == headless.history
    assert len(record.actions) == 16

    replay_app = MantisApp(first_screens.Replay(record), still=True)
    async with replay_app.run_test(size=SIZE) as pilot:
        screen = replay_screen(replay_app)
        assert screen.position == 0
        # The first moves by key, the rest by the same action (keys cost a frame each).
        await pilot.press(*["right"] * 5)
        assert screen.position == 5
        while screen.position < len(record.actions):
            screen.action_step(1)
        await pilot.pause()
        assert screen.messages == played[:-1]  # all but the closing record
        assert screen.query_one(GameLog).texts == original_log
        assert screen.state.view() == record.replay().view()
        await pilot.press("right")  # past the end: nothing happens
        assert screen.position == len(record.actions)


async def test_stepping_back_then_forward_gives_the_same_position() -> None:
    record = replace(positions.played(4, 2, 0.45), seats=positions.seats("hrrr", "You,Ann,Bea,Cal"))
    app = MantisApp(first_screens.Replay(record), still=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = replay_screen(app)
        await pilot.press("o")  # the odds follow the position too
        await pilot.press(*["right"] * 8)
        assert screen.position == 8
        view, state = screen.state.view(), widgets_state(screen)
        log, events = list(screen.query_one(GameLog).texts), list(screen.messages)
        await pilot.press(*["left"] * 3)
        assert screen.position == 5
        assert screen.state.view() == record.replay(5).view()
        assert screen.query_one(OddsPanel).odds == odds_for(record.replay(5).view())
        await pilot.press(*["right"] * 3)
        await pilot.pause()
        assert screen.state.view() == view
        assert widgets_state(screen) == state
        assert screen.query_one(GameLog).texts == log
        assert screen.messages == events
        assert screen.query_one(OddsPanel).odds == odds_for(view)
        # The ends, and back again to the same position.
        await pilot.press("end")
        assert screen.position == len(record.actions) and screen.state.over
        await pilot.press("home")
        assert screen.position == 0 and screen.query_one(GameLog).texts == log[:1]
        for _ in range(8):
            screen.action_step(1)
        await pilot.pause()
        assert widgets_state(screen) == state and screen.query_one(GameLog).texts == log


async def test_autoplay_moves_on_by_itself_and_pauses() -> None:
    record = replace(positions.played(2, 5, 0.5), seats=positions.seats("hr"))
    clock = ManualClock(frozen=True)
    app = MantisApp(first_screens.Replay(record), still=True, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = replay_screen(app)
        await pilot.press("plus", "plus", "plus")  # the fastest speed: a move each 0.1 s
        await pilot.press("space")
        assert screen.playing
        for move in (1, 2, 3):
            await wait_for(pilot, lambda: clock.pending(1e9))
            assert screen.position == move - 1  # no time passed, no move
            clock.advance(0.1)
            await wait_for(pilot, lambda move=move: screen.position == move)
        await pilot.press("space")
        assert not screen.playing
        # Paused for good: however long it stays open, the replay does not move on.
        clock.advance(60)
        await pilot.pause()
        assert screen.position == 3 and not clock.pending(1e9)


# ----------------------------------------------------------------- the command line


def _records_file(path: Path, count: int = 2) -> Path:
    write_records(path, [positions.played(3, seed, 0.5) for seed in range(count)])
    return path


def test_replay_of_a_malformed_file_exits_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = _records_file(tmp_path / "games.jsonl", 3)
    lines = path.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[2])
    broken["actions"] = broken["actions"][:-3]
    lines[2] = json.dumps(broken)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(path), "--game", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 3: " in err and "Traceback" not in err


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[MantisApp]:
    """The apps ``mantis replay`` opens, kept instead of run."""
    apps: list[MantisApp] = []
    monkeypatch.setattr(MantisApp, "run", lambda app, *args, **kwargs: apps.append(app))
    return apps


def test_replay_opens_game_n_whatever_follows_it_and_whatever_is_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture, opened: list[MantisApp]
) -> None:
    records = [positions.played(3, seed, 0.5) for seed in range(3)]
    path = tmp_path / "games.jsonl"
    lines = [records[0].to_json(), "{not json", records[1].to_json(), records[2].to_json()]
    path.write_text("\n".join([*lines, "{not json either"]) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0  # game 1, though line 2 and 5 are bad
    assert main(["replay", str(path), "--game", "4"]) == 0  # line 2 is game 2: only counted
    assert capsys.readouterr().err == ""
    assert [app.first for app in opened] == [
        first_screens.Replay(records[0], "games.jsonl game 1"),
        first_screens.Replay(records[2], "games.jsonl game 4"),
    ]
    assert main(["replay", str(path), "--game", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2: not valid JSON" in err


def test_replay_game_out_of_range_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = _records_file(tmp_path / "games.jsonl", 2)
    assert main(["replay", str(path), "--game", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--game 3" in err and "holds 2 games" in err
    assert main(["replay", str(path), "--game", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_replay_of_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope.jsonl" in err


def test_a_record_without_seat_names_uses_seat_numbers() -> None:
    record = positions.played(2, 5, 0.5)
    assert record.seats is None
    assert [seat.name for seat in seats_of(record)] == ["Seat 1", "Seat 2"]


async def test_a_hand_edited_record_whose_names_hold_markup_replays_to_the_end() -> None:
    seats = (SeatInfo("[/]", "human"), SeatInfo("[b]Ann", "bot", "random"), BOTS[2])
    record = replace(positions.played(3, 4, 0.5), seats=seats)
    app = MantisApp(first_screens.Replay(record), still=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = replay_screen(app)
        assert screen.names == ["Seat 1", "bAnn", "Cal"]  # cleaned as every name is
        await pilot.press("end")
        await wait_for(pilot, lambda: screen.position == len(record.actions))


async def test_a_replay_shows_what_was_said_at_the_table_where_it_was_said() -> None:
    record = replace(positions.played(3, 4, 0.5), seats=positions.seats("hhr", "Ann,Bea,Cal"))
    notices = (
        (0, '{"type":"talk","seat":1,"name":"Bea","text":"good luck"}'),
        (2, '{"type":"timed_out","seat":0,"bot":"greedy","action":{"type":"score"}}'),
    )
    record = replace(record, notices=notices)
    app = MantisApp(first_screens.Replay(record), still=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = replay_screen(app)
        log = screen.query_one(GameLog)
        assert "Bea says “good luck”" in log.texts  # said before the first move
        assert not any("time ran out" in line for line in log.texts)
        await pilot.press(*["right"] * 2)
        assert "Ann's time ran out: greedy scores for Ann" in log.texts
        await pilot.press("left", "left")
        assert "Bea says “good luck”" in log.texts and len(log.texts) == 2


def _where_it_lies(record, move: int, names: list[str]) -> tuple[str, type]:
    """Where move ``move`` (from 1) left the card it turned over, as the pile says it, and
    the kind of its outcome."""
    seat, action = record.actions[move - 1]
    events = record.replay(move - 1).apply(action, seat)
    outcome = next(e for e in events if isinstance(e, Scored | ScoreMissed | Stolen | StealMissed))
    if isinstance(outcome, Scored):  # the card, and its colour's cards, to the score pile
        return f"{names[seat]} score pile", Scored
    if isinstance(outcome, Stolen):  # into the stealer's tank, with the cards it took
        return f"{names[seat]} tank", Stolen
    if isinstance(outcome, StealMissed):  # left in the tank it went to
        return f"{names[outcome.target]} tank", StealMissed
    return f"{names[seat]} tank", ScoreMissed


async def test_the_pile_says_where_the_card_drawn_lies_and_why_nobody_draws_at_the_end() -> None:
    record = replace(positions.played(3, 4, 0.5), seats=positions.seats("hrr", "You,Ann,Bea"))
    assert record.result.reason == "target"
    names = ["your", "Ann's", "Bea's"]
    app = MantisApp(first_screens.Replay(record), still=True)
    async with app.run_test(size=(100, 30)):
        screen = replay_screen(app)
        pile = screen.query_one(DrawPile)
        kinds = set()
        for move in range(1, len(record.actions) + 1):
            screen.action_step(1)
            where, kind = _where_it_lies(record, move, names)
            kinds.add(kind)
            assert str(pile.render()).endswith(f"→ {where}"), move
            # Back and forth to it: the pile is set from the position alone, to the same words.
            screen.goto(move - 1)
            screen.goto(move)
            assert str(pile.render()).endswith(f"→ {where}"), move
        assert kinds == {Scored, ScoreMissed, Stolen, StealMissed}
        # The game ended on a score reaching the target, with cards still in the pile.
        assert pile.pile_size > 0
        assert "The target was reached: nobody draws again" in str(pile.render())
