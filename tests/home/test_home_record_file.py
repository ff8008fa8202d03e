"""Record files on disk: written atomically, and one game found without reading past it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from homekit import finished

from mantis.engine import RecordError
from mantis.home.record_file import GameNotInFile, game_in_file, read_records, write_records


def _records(count: int = 4):
    return [finished(seed, 2 + seed % 5, seats=None) for seed in range(count)]


def test_write_records_then_read_records(tmp_path: Path) -> None:
    records = _records()
    path = tmp_path / "sub" / "games.jsonl"
    write_records(path, records)
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n") and text.count("\n") == 4
    assert read_records(path) == records


def test_each_game_is_found_by_its_number_blank_lines_not_counted(tmp_path: Path) -> None:
    records = _records()
    path = tmp_path / "games.jsonl"
    path.write_text("\n" + "\n\n".join(r.to_json() for r in records) + "\n  \n", encoding="utf-8")
    assert [game_in_file(path, n) for n in range(1, 5)] == records


def test_a_bad_line_after_the_game_asked_for_does_not_matter(tmp_path: Path) -> None:
    records = _records(3)
    path = tmp_path / "games.jsonl"
    lines = [r.to_json() for r in records]
    path.write_text("\n".join([*lines, "{not json", "\xff"]) + "\n", encoding="utf-8")
    assert game_in_file(path, 1) == records[0]
    assert game_in_file(path, 3) == records[2]


def test_a_bad_line_before_it_is_skipped_not_read_and_still_counts_as_a_game(
    tmp_path: Path,
) -> None:
    records = _records(3)
    path = tmp_path / "games.jsonl"
    lines = [records[0].to_json(), "{not json", records[1].to_json()]
    path.write_bytes(("\n".join(lines) + "\n").encode() + b"\xff\xfe not UTF-8\n" + b"[]\n")
    assert game_in_file(path, 3) == records[1]


def test_the_game_asked_for_is_checked_and_its_line_named(tmp_path: Path) -> None:
    good = _records(1)[0].to_json()
    broken = json.loads(good)
    broken["actions"] = broken["actions"][:-3]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join([good, "", json.dumps(broken), "{not json"]) + "\n", "utf-8")
    with pytest.raises(RecordError) as excinfo:
        game_in_file(path, 2)
    message = str(excinfo.value)
    assert message.startswith("line 3: the actions stop before the game ends"), message
    assert "\n" not in message
    with pytest.raises(RecordError, match=r"^line 4: not valid JSON"):
        game_in_file(path, 3)


def test_a_game_line_that_is_not_utf8_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(_records(1)[0].to_json().encode() + b"\n\xff\xfe{}\n")
    with pytest.raises(RecordError, match="^line 2: not UTF-8 text"):
        game_in_file(path, 2)


def test_past_the_last_game_says_how_many_the_file_holds(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    write_records(path, _records(2))
    with pytest.raises(GameNotInFile) as excinfo:
        game_in_file(path, 3)
    assert excinfo.value.count == 2
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(GameNotInFile) as excinfo:
        game_in_file(empty, 1)
    assert excinfo.value.count == 0


def test_a_file_that_cannot_be_read_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        game_in_file(tmp_path / "nope.jsonl", 1)
    with pytest.raises(RecordError, match="cannot read"):
        game_in_file(tmp_path, 1)  # a directory


def test_game_numbers_start_at_one(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    write_records(path, _records(1))
    with pytest.raises(ValueError, match="from 1"):
        game_in_file(path, 0)
