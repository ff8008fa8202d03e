"""A person who left an online game loses it, and every place that names the winner says so:
the seat won, a bot played it (the game-over screen, the log, past games, statistics, review)."""

from __future__ import annotations

import json
from dataclasses import replace

import positions
from msgspec.structs import replace as replace_struct
from onlinekit import StillSeat, room
from tuikit import shown, wait_for

from mantis.cli import main
from mantis.engine import GameOver, GameRecord
from mantis.home.stats import StatsDB
from mantis.table import Left, Recorded, stream_of
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens.game_over import GameOverScreen
from mantis.tui.screens.past_games import PastGamesScreen
from mantis.tui.widgets.game_log import GameLog
from mantis.tui.widgets.turn_banner import TurnBanner

SIZE = (100, 30)


def left_and_won() -> tuple[GameRecord, int]:
    """A game at a server's table whose winner's person (Ann, a person) left at move 5, and
    the seat of another person (Bea) who played on to the end; (the record, Bea's seat)."""
    record, _ = positions.single_win()
    (winner,) = record.result.winners
    bea = (winner + 1) % 3
    names = {winner: "Ann", bea: "Bea"}
    seats = tuple(
        replace_struct(seat, name=names[s], kind="human", bot=None)
        if s in names
        else replace_struct(seat, name="Cal")
        for s, seat in enumerate(record.seats)
    )
    left = json.dumps({"type": "left", "seat": winner, "bot": "greedy"})
    return replace(record, seats=seats, left=(winner,), notices=((5, left),)), bea


def _text(widget) -> str:
    return str(widget.render())


async def test_the_game_over_screen_and_the_log_credit_the_seat_and_its_bot() -> None:
    record, bea = left_and_won()
    (ann,) = record.left
    stream = stream_of(record)
    over = next(i for i, m in enumerate(stream) if isinstance(m, GameOver))
    stream.insert(over - 20, Left(ann, "greedy"))  # said when Ann left, moves before the end
    stream.append(Recorded(record.to_json()))
    state = room(
        [(s.name, s.kind, s.bot, True) for s in record.seats], you=bea, state="over", game=1
    )
    presence = ["here"] * 3
    presence[ann] = "left"
    still = StillSeat(state, presence, stream)
    app = MantisApp(first_screens.Online(still), still=True)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app, GameOverScreen))
        result = app.screen
        assert _text(result.query_one("#winners")) == "★ Ann's seat (played by greedy) wins! ★"
        reason = _text(result.query_one("#reason"))
        assert reason.startswith("Ann's seat (played by greedy) reached the target")
        assert "Ann left the game: it counts as a loss for Ann." in reason
        assert "★ won by greedy (left)" in _text(result.query_one("#scores"))
        assert "Ann wins" not in reason
        board = app.screen_stack[-2]
        banner = board.query_one(TurnBanner)._text
        assert banner.startswith("■ Game over: Ann's seat (played by greedy) reached the target")
        log = board.query_one(GameLog).texts
        assert "Ann left the game: greedy plays for Ann to the end" in log
        assert log[-1].startswith("Game over: Ann's seat (played by greedy) reached the target")


async def test_past_games_statistics_and_the_review_credit_it_the_same_way(capsys) -> None:
    record, bea = left_and_won()
    (ann,) = record.left
    with StatsDB() as db:
        db.record_game(record, origin="ws://127.0.0.1:8765 KXQD 1")
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        await wait_for(pilot, lambda: shown(app, PastGamesScreen) and app.screen.loaded)
        row = app.screen.query_one("DataTable").get_row_at(0)
        assert str(row[3]) == "Ann's seat (played by greedy)"
    assert main(["stats", "--json"]) == 0
    players = {p["name"]: p for p in json.loads(capsys.readouterr().out)["players"]}
    assert players["Ann"]["wins"] == 0 and players["Ann"]["games"] == 1
    assert players["Bea"]["wins"] == 0
    assert main(["review", "--last"]) == 0
    text = capsys.readouterr().out
    assert "3 players, Ann's seat (played by greedy) won" in text
    assert "Ann left the game (a loss)." in text
    assert "Ann left the game: it counts as a loss for Ann." in text
    summary = next(line for line in text.splitlines() if line.startswith(f"{ann + 1} Ann"))
    assert summary.split()[3] == "left"  # "1 Ann (human) left …"


def test_the_line_mode_credits_it_the_same_way() -> None:
    from mantis.lines.review import review_lines
    from mantis.lines.wording import result_lines
    from mantis.review import review_game

    record, _ = left_and_won()
    (ann,) = record.left
    over = next(m for m in stream_of(record) if isinstance(m, GameOver))
    names = [seat.name for seat in record.seats]
    said = " ".join(result_lines(over, names, played_on={ann: "greedy"}))
    # In lines, without brackets (a screen reader reads them out).
    assert said.startswith("Game over: Ann's seat, played by greedy, wins with ")
    assert "Ann left the game: it counts as a loss for Ann." in said
    review = " ".join(review_lines(review_game(record), "Past game 1", range(3)))
    assert "Review of past game 1, seed" in review
    assert ": Ann's seat, played by greedy, won reaching the target" in review
    assert "Ann left:" in review and "adjusted result" in review and "% of a win" not in review
