"""``mantis stats``: the players' figures as a table or JSON, and one-line errors."""

from __future__ import annotations

import argparse
import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from homekit import game_for

from mantis.base.paths import data_dir
from mantis.cli import main
from mantis.cli.stats import run_stats
from mantis.follow.charts import BAND_MARKER, Figure, Series, chart_text
from mantis.follow.stats_report import results_chart, results_letters, rolling_win_rate
from mantis.home.stats import StatsDB, default_stats_path

T0 = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


@pytest.fixture
def games():
    """Ann: W L W W (two against casual, two against expert, at 3 seats); Bob: L at 2 seats."""
    with StatsDB() as db:
        for i, (won, bot) in enumerate(
            [(True, "casual"), (False, "casual"), (True, "expert"), (True, "expert")]
        ):
            db.record_game(game_for("Ann", won, bots=(bot,), seed=i), T0 + timedelta(days=i))
        db.record_game(game_for("Bob", False, players=2, seed=9), T0 + timedelta(days=9))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["stats", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_no_games_yet_is_one_friendly_line_and_creates_nothing(capsys):
    status, out, err = run(capsys)
    assert status == 0 and err == ""
    assert out.count("\n") == 1 and "No games" in out
    assert not data_dir().exists()


def test_no_games_yet_as_json_is_an_empty_list(capsys):
    status, out, _ = run(capsys, "--json")
    assert status == 0 and json.loads(out) == {"players": []}


def test_the_table_shows_every_player_with_their_figures(capsys, games):
    status, out, err = run(capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    ann = next(line for line in lines if line.startswith("Ann ")).split()
    bob = next(line for line in lines if line.startswith("Bob ")).split()
    with StatsDB() as db:
        ratings = {s.name: s.rating for s in db.player_stats()}
    # rating ± (provisional: "?"), games, wins, win %, current streak, best streak,
    # recent results oldest first
    for name, row in (("Ann", ann), ("Bob", bob)):
        rating = ratings[name]
        assert row[1:4] == [f"{rating.shown:,}", "±", f"{rating.plus_minus}?"]
    assert ann[:1] + ann[4:] == ["Ann", "4", "3", "75%", "2", "2", "WLWW"]
    assert bob[:1] + bob[4:] == ["Bob", "1", "0", "0%", "0", "0", "L"]
    assert "  casual  won   1 of   2   50%" in lines
    assert "  expert  won   2 of   2  100%" in lines
    assert "  3 players  won   3 of   4   75%" in lines
    assert "  2 players  won   0 of   1    0%" in lines


def test_one_player_by_name_in_any_case(capsys, games):
    status, out, _ = run(capsys, "--player", "bob")
    assert status == 0
    assert "Bob" in out and "Ann" not in out


def test_one_person_in_two_cases_is_one_row_under_the_latest_spelling(capsys, games):
    with StatsDB() as db:
        db.record_game(game_for("bob", True, players=2, seed=9), T0 + timedelta(days=10))
    status, out, _ = run(capsys, "--json")
    assert status == 0
    players = {p["name"]: p for p in json.loads(out)["players"]}
    assert sorted(players) == ["Ann", "bob"]
    assert (players["bob"]["games"], players["bob"]["wins"]) == (2, 1)
    status, out, _ = run(capsys)
    table = out.split("\n\n")[0].splitlines()[2:-1]  # between the header's rule and the note
    assert [row.split()[0] for row in table] == ["Ann", "bob"]
    assert "Bob" not in out


def test_an_unknown_player_is_a_friendly_line(capsys, games):
    status, out, _ = run(capsys, "--player", "Zed")
    assert status == 0 and out == "No games recorded yet for 'Zed'.\n"


def test_json_has_the_same_figures(capsys, games):
    status, out, _ = run(capsys, "--json", "--player", "ANN")
    assert status == 0
    [ann] = json.loads(out)["players"]
    assert set(ann) >= {"rating", "rating_history"}  # (their own tests: test_home_ratings)
    del ann["rating"], ann["rating_history"]
    assert ann == {
        "name": "Ann",
        "games": 4,
        "wins": 3,
        "win_rate": 0.75,
        "current_streak": 2,
        "best_streak": 2,
        "vs_bots": {
            "casual": {"games": 2, "wins": 1, "win_rate": 0.5},
            "expert": {"games": 2, "wins": 2, "win_rate": 1.0},
        },
        "vs_people": {},
        "by_players": {"3": {"games": 4, "wins": 3, "win_rate": 0.75}},
        "results": [
            {"date": "2026-03-01T09:30:00Z", "won": True},
            {"date": "2026-03-02T09:30:00Z", "won": False},
            {"date": "2026-03-03T09:30:00Z", "won": True},
            {"date": "2026-03-04T09:30:00Z", "won": True},
        ],
    }


def test_a_damaged_database_is_one_line_on_stderr_and_status_1(capsys):
    default_stats_path().parent.mkdir(parents=True)
    default_stats_path().write_bytes(b"\x00garbage" * 500)
    status, out, err = run(capsys)
    assert status == 1 and out == ""
    assert err.startswith("mantis: error: ") and err.count("\n") == 1 and "damaged" in err
    assert default_stats_path().read_bytes() == b"\x00garbage" * 500


def test_bad_arguments_are_one_line_and_status_2(capsys):
    status, out, err = run(capsys, "--players", "x")
    assert status == 2 and out == ""
    assert err.startswith("mantis: error: ") and err.count("\n") == 1


def test_each_player_gets_a_chart_of_their_win_rate(capsys, games):
    _, out, _ = run(capsys, "--player", "Ann")
    lines = out.splitlines()
    start = lines.index(
        "Ann: win rate over the last 4 games (each point: that game and up to 4 before it):"
    )
    chart = lines[start + 1 :]
    assert any("100%┤" in line for line in chart) and any("0%┤" in line for line in chart)
    assert "game 1" in chart[-1] and "game 4" in chart[-1]
    assert sum(line.count("•") for line in chart) > 0


def test_a_terminal_that_cannot_show_a_chart_gets_the_figures_without_one(games):
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    assert run_stats(argparse.Namespace(player="Ann", json=False), out) == 0
    out.flush()
    text = raw.getvalue().decode("ascii")
    assert "WLWW" in text and "win rate over" not in text


def test_results_oldest_first_and_the_rolling_win_rate():
    results = [True] * 5 + [False, True, False]
    assert results_letters(results) == "WWWWWLWL"
    assert results_letters(results, last=3) == "LWL"
    assert results_letters([]) == ""
    assert rolling_win_rate([True, False, True, True], window=2) == [1.0, 0.5, 0.5, 1.0]
    (series,), figure = results_chart(results, last=4)
    assert series.ys == (1.0, 0.8, 0.8, 0.6) and series.at == (5.0, 6.0, 7.0, 8.0)
    assert figure.x_ticks == ((5.0, "game 5"), (8.0, "game 8"))


def test_a_chart_tells_its_series_apart_by_letter_and_marks_chosen_points():
    # Without colour, each series is its own letter, and a mark is a vertical line.
    ann = Series("Ann", (0.2, 0.4, 0.6, 0.8), marker="A")
    bea = Series("Bea", (0.8, 0.6, 0.4, 0.2), marker="B", band=((0.7,) * 4, (0.9,) * 4))
    text = chart_text([ann, bea], Figure(y_range=(0.0, 1.0), marks=(2.5,)), width=40, height=12)
    lines = text.splitlines()
    assert len(lines) == 12 and "\x1b" not in text
    assert "AA Ann" in text and "BB Bea" in text  # the legend, one letter each
    plot = [line[5:] for line in lines[3:-2]]  # inside the frame, under the legend
    assert any("A" in line for line in plot) and any("B" in line for line in plot)
    assert sum(line.count(BAND_MARKER) for line in plot) > 0  # Bea's band, in small dots
    assert "┬" in lines[0]  # the mark, where it meets the frame


def test_names_with_escape_sequences_are_shown_not_obeyed(capsys):
    # An online table's record can name a seat anything; the terminal must obey none of it.
    hostile = "\x1b]0;pwned\x07\x1b[2J\u202eAnn\x9b31m"
    with StatsDB() as db:
        db.record_game(game_for(hostile, True, seed=3), T0)
    status, out, err = run(capsys)
    assert status == 0 and err == ""
    assert not any(c in out for c in "\x1b\x07\x9b\u202e")
    assert "␛]0;pwned␇␛[2JAnn\ufffd31m" in out
    status, out, _ = run(capsys, "--json")  # JSON escapes them itself, and keeps the name
    assert "\x1b" not in out and json.loads(out)["players"][0]["name"] == hostile


def test_a_player_called_you_reads_right_and_one_game_draws_no_chart(capsys):
    # "You" is the name a lone person at the setup screen plays under.
    with StatsDB() as db:
        db.record_game(game_for("You", True, seed=1), T0)
    _, out, _ = run(capsys)
    assert "You's" not in out
    assert "You: rating " in out and "You against each bot" in out
    assert "win rate over" not in out  # one game is no line to draw
    with StatsDB() as db:
        db.record_game(game_for("You", False, seed=2), T0 + timedelta(days=1))
    _, out, _ = run(capsys)
    assert "You: win rate over the last 2 games (each point: that game and up to 4" in out
