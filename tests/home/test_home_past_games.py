"""``mantis games export``: past games out as game records, named by their Past games number."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from homekit import game_for

from mantis.cli import main
from mantis.engine.record import parse_record
from mantis.home.record_file import read_records
from mantis.home.stats import StatsDB, default_stats_path

T0 = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


@pytest.fixture
def kept():
    """Three past games, oldest first: their numbers and records."""
    records = [game_for("Ann", won, seed=i) for i, won in enumerate((True, False, True))]
    with StatsDB() as db:
        numbers = [
            db.record_game(record, T0 + timedelta(days=i)) for i, record in enumerate(records)
        ]
    return numbers, records


def export(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["games", "export", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_past_game_is_written_as_a_record_oldest_first(capsys, kept):
    numbers, records = kept
    code, out, err = export(capsys)
    assert code == 0 and err == ""
    assert [parse_record(line) for line in out.splitlines()] == records


def test_games_named_by_number_or_the_latest_few(capsys, kept, tmp_path):
    numbers, records = kept
    code, out, _ = export(capsys, str(numbers[2]), str(numbers[0]))
    assert code == 0
    assert [parse_record(line) for line in out.splitlines()] == [records[2], records[0]]
    target = tmp_path / "latest.jsonl"
    code, out, _ = export(capsys, "--last", "2", "--output", str(target))
    assert code == 0 and out == f"2 games written to {target}\n"
    # A file mantis review and mantis replay read as they read simulate's records.
    assert read_records(target) == records[1:]
    assert main(["review", str(target), "--game", "2", "--json"]) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["7"], "there is no past game 7: past games are numbered 1 to 3"),
        (["0"], "at least 1"),
        (["two"], "not a whole number"),
        (["--last", "0"], "at least 1"),
        (["1", "--last", "1"], "by their numbers or with --last, not both"),
    ],
)
def test_a_game_not_there_or_a_bad_value_is_one_line_and_status_2(capsys, kept, args, message):
    code, out, err = export(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("mantis: error: ") and err.count("\n") == 1 and message in err


def test_no_past_games_is_one_line_and_creates_nothing(capsys):
    code, out, err = export(capsys)
    assert code == 2 and out == "" and "there are no past games yet" in err
    assert not default_stats_path().exists()


def test_an_unwritable_output_is_one_line_and_status_1(capsys, kept, tmp_path):
    (tmp_path / "dir").mkdir()
    code, out, err = export(capsys, "--output", str(tmp_path / "dir"))
    assert code == 1 and out == "" and err.count("\n") == 1 and "cannot write" in err
