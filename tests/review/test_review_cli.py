"""``mantis review``: the JSON shape, the text report, and one line with status 2 for bad input."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from reviewkit import record_of_bots

from mantis.cli import main
from mantis.home.record_file import write_records
from mantis.home.stats import StatsDB, default_stats_path


@pytest.fixture
def records():
    return [
        record_of_bots(["random", "greedy"], 1),
        record_of_bots(["casual", "expert", "random"], 2),
    ]


@pytest.fixture
def path(tmp_path, records):
    target = tmp_path / "games.jsonl"
    write_records(target, records)
    return target


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["review", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def check_chance(value) -> None:
    assert isinstance(value, float) and 0.0 <= value <= 1.0


def test_json_has_one_object_per_game_in_the_issues_shape(capsys, path, records):
    code, out, err = run(capsys, path, "--json")
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == len(records)
    for number, (line, record) in enumerate(zip(lines, records, strict=True), start=1):
        data = json.loads(line)
        assert data["game"] == record.seed and data["number"] == number
        n = record.players
        assert [s["seat"] for s in data["seats"]] == list(range(n))
        for seat in data["seats"]:
            assert set(seat) >= {"accuracy", "avg_loss", "labels", "luck", "luck_adjusted"}
            assert set(seat["labels"]) == {"inaccuracy", "mistake", "blunder"}
            assert 0 <= seat["accuracy"] <= 100 and seat["avg_loss"] >= 0
            won = 1.0 if seat["seat"] in record.result.winners else 0.0
            assert seat["luck_adjusted"] == pytest.approx(won - seat["luck"], abs=2e-4)
        assert [d["move"] for d in data["decisions"]] == list(range(len(record.actions)))
        for d, (seat, _action) in zip(data["decisions"], record.actions, strict=True):
            assert d["seat"] == seat
            names = [o["action"] for o in d["options"]]
            assert names == ["score"] + [f"steal:{t}" for t in range(n) if t != seat]
            for option in d["options"]:
                check_chance(option["win"])
            assert d["chosen"] in names and d["best"] in names
            wins = {o["action"]: o["win"] for o in d["options"]}
            assert wins[d["best"]] == max(wins.values())
            assert d["loss"] == pytest.approx((wins[d["best"]] - wins[d["chosen"]]) * 100, abs=0.02)
            assert d["label"] in (None, "inaccuracy", "mistake", "blunder")
        assert len(data["chart"]) == len(record.actions) + 1
        for point in data["chart"]:
            assert len(point) == n
            for chance in point:
                assert 0.0 <= chance <= 1.0
        assert data["chart"][-1] == [1.0 if s in record.result.winners else 0.0 for s in range(n)]


def test_game_and_seat_pick_one_game_and_one_seat(capsys, path, records):
    code, out, err = run(capsys, path, "--json", "--game", "2", "--seat", "3")
    assert code == 0, err
    (line,) = out.splitlines()
    data = json.loads(line)
    assert data["number"] == 2 and [s["seat"] for s in data["seats"]] == [2]
    assert {d["seat"] for d in data["decisions"]} == {2}
    assert len(data["chart"][0]) == 3  # the chart still shows every seat
    # a seat by its name, in any case
    code, out, _ = run(
        capsys, path, "--json", "--game", "2", "--seat", records[1].seats[1].name.upper()
    )
    assert code == 0 and [s["seat"] for s in json.loads(out)["seats"]] == [1]


def test_the_text_report_gives_the_summary_then_the_key_moments(capsys, path, records):
    code, out, err = run(capsys, path, "--game", "2")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Game 2 (seed 2): 3 players")
    for seat in records[1].seats:
        assert any(line.split()[1:2] == [seat.name] for line in lines[2:6])
    losses = lines.index(next(line for line in lines if line.startswith("Biggest losses")))
    cards = lines.index(next(line for line in lines if line.startswith("Luckiest cards")))
    assert 5 < losses < cards
    moments = [line for line in lines[losses + 1 : cards] if line.startswith("  move")]
    assert 1 <= len(moments) <= 5
    assert all(re.search(r": -\d+\.\d( [a-z]+)?$", line) for line in moments)


BAD_RECORD = '{"version": 1, "players": 9}\n'


@pytest.mark.parametrize(
    ("make", "args", "message"),
    [
        (lambda tmp, recs: tmp / "missing.jsonl", [], "no such file"),
        (lambda tmp, recs: tmp, [], "is a directory"),
        (lambda tmp, recs: _write(tmp / "bad.jsonl", "not json\n"), [], "line 1"),
        (lambda tmp, recs: _write(tmp / "bad.jsonl", BAD_RECORD), ["--game", "1"], "players"),
        (lambda tmp, recs: _write(tmp / "empty.jsonl", "\n"), [], "holds no games"),
        (lambda tmp, recs: _games(tmp, recs), ["--game", "3"], "out of range"),
        (lambda tmp, recs: _games(tmp, recs), ["--game", "0"], "at least 1"),
        (lambda tmp, recs: _games(tmp, recs), ["--game", "x"], "not a whole number"),
        (lambda tmp, recs: _games(tmp, recs), ["--seat", "3"], "no seat 3"),
        (lambda tmp, recs: _games(tmp, recs), ["--seat", "0"], "no seat 0"),
        (lambda tmp, recs: _games(tmp, recs), ["--seat", "Nobody"], "no seat is named"),
        (lambda tmp, recs: _unfinished(tmp, recs), [], "not finished"),
    ],
    ids=[
        "missing",
        "directory",
        "not-json",
        "bad-record",
        "empty",
        "game-too-far",
        "game-zero",
        "game-not-a-number",
        "seat-too-far",
        "seat-zero",
        "seat-unknown-name",
        "unfinished",
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, tmp_path, records, make, args, message):
    target = make(tmp_path, records)
    code, out, err = run(capsys, target, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("mantis: error: ") and message in err


def _write(target, text: str):
    target.write_text(text, encoding="utf-8")
    return target


def _games(tmp, records):
    target = tmp / "games.jsonl"
    write_records(target, records)
    return target


def _unfinished(tmp, records):
    target = tmp / "saved.jsonl"
    write_records(target, [replace(records[0], actions=records[0].actions[:3], result=None)])
    return target


# ----------------------------------------------------------------- the luck, in points


def test_the_text_says_luck_and_the_adjusted_result_in_win_points_and_what_they_mean(
    capsys, path, records
):
    code, out, err = run(capsys, path, "--game", "2", "--json")
    seats = {s["seat"]: s for s in json.loads(out)["seats"]}
    code, out, err = run(capsys, path, "--game", "2")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[2].split()[-2:] == ["luck", "adjusted"]
    for s, seat in seats.items():
        row = next(line for line in lines[3:] if line.startswith(f"{s + 1} "))
        luck, adjusted = row.split()[-2:]
        # Both in win-% points: luck signed, the adjusted result the result (100 a win,
        # 0 a loss) less the luck, never a percentage that can read -10%.
        assert float(luck) == pytest.approx(seat["luck"] * 100, abs=0.051)
        assert float(adjusted) == pytest.approx(100 * seat["result"] - float(luck), abs=0.051)
        assert "%" not in luck + adjusted
    text = " ".join(lines)
    assert "Luck: what the faces turned over did to the chance of winning, in win-% points" in text
    assert "Adjusted: the result (won 100, lost 0) minus the luck." in text
    for seat in records[1].seats:
        whose = f"{seat.name}'s chance over the game"
        assert (
            re.search(rf"added [\d.]+ points to {whose}", text)
            or re.search(rf"took [\d.]+ points from {whose}", text)
            or "the faces turned over were average for it" in text
        ), seat.name


# ----------------------------------------------------------------- past games


@pytest.fixture
def past(records):
    """The two records kept as past games 1 and 2 (2 the latest)."""
    with StatsDB() as db:
        return [db.record_game(record) for record in records]


def test_the_last_game_or_a_past_one_by_its_number_is_reviewed(capsys, past, records):
    code, out, err = run(capsys, "--last", "--json")
    assert code == 0, err
    (line,) = out.splitlines()
    data = json.loads(line)
    assert data["number"] == past[-1] and data["game"] == records[-1].seed
    code, out, err = run(capsys, "--past", str(past[0]), "--seat", "2")
    assert code == 0, err
    assert out.startswith(f"Past game {past[0]} (seed {records[0].seed}): 2 players")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--past", "9"], "there is no past game 9: past games are numbered 1 to 2"),
        (["--past", "0"], "at least 1"),
        (["--past", "x"], "not a whole number"),
        (["--last", "--past", "1"], "--past N or --last, not both"),
        (["games.jsonl", "--last"], "not both"),
        (["--last", "--game", "1"], "--game N picks a game of a FILE"),
        ([], "name a FILE of game records, or a past game"),
    ],
)
def test_a_past_game_that_is_not_there_is_one_line_and_status_2(capsys, past, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mantis: error: ") and message in err


def test_with_no_past_games_last_says_so_in_one_line(capsys):
    code, out, err = run(capsys, "--last")
    assert code == 2 and out == "" and err.count("\n") == 1 and "no past games yet" in err
    assert not default_stats_path().exists()  # asking created nothing
