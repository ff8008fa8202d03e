"""Temp files left by a writer killed mid-save are cleaned when the store opens,
once they are older than any live writer's could be; everything else is kept."""

from __future__ import annotations

import os
import time
from pathlib import Path

from mantis.base.atomic import STALE_AFTER, remove_stale_temp_files, write_text_atomic
from mantis.base.paths import config_dir, data_dir
from mantis.home.saves import SAVE_NAME, load_save
from mantis.home.seat_tokens import SeatTokens
from mantis.home.settings import load_settings

OLD = STALE_AFTER + 60


def _temp(directory: Path, name: str, age: float, size: int = 0) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_bytes(b"x" * size)
    when = time.time() - age
    os.utime(path, (when, when))
    return path


def test_stale_temp_files_are_removed_and_fresh_ones_and_others_kept(tmp_path: Path) -> None:
    where = tmp_path / "files"
    stale = [
        _temp(where, ".current-game.json.k2j4_x9a.tmp", OLD),  # as mkstemp named them
        _temp(where, ".current-game.json.0f3ac1d2.tmp", OLD, size=300),
        _temp(where, ".settings.json.abcdefgh.tmp", OLD),
    ]
    kept = [
        _temp(where, ".current-game.json.1a2b3c4d.tmp", 5),  # a writer may be at it now
        _temp(where, "current-game.json", OLD),
        _temp(where, "notes.tmp", OLD),  # not one of ours: no leading dot
        _temp(where, ".hidden.tmp", OLD),  # no name.random. part
        _temp(where, ".x.json.toolongrandom.tmp", OLD),
    ]
    (where / ".dir.json.abcdefgh.tmp").mkdir()  # never a directory
    assert remove_stale_temp_files(where) == len(stale)
    assert not any(p.exists() for p in stale)
    assert all(p.exists() for p in kept)
    assert (where / ".dir.json.abcdefgh.tmp").is_dir()


def test_cleaning_a_missing_directory_is_nothing(tmp_path: Path) -> None:
    assert remove_stale_temp_files(tmp_path / "nope") == 0


def test_opening_the_save_cleans_its_directory() -> None:
    stale = _temp(data_dir(), f".{SAVE_NAME}.k2j4_x9a.tmp", OLD)
    fresh = _temp(data_dir(), f".{SAVE_NAME}.1a2b3c4d.tmp", 1)
    assert load_save() == (None, None)
    assert not stale.exists() and fresh.exists()


def test_opening_the_settings_cleans_their_directory() -> None:
    stale = _temp(config_dir(), ".settings.json.k2j4_x9a.tmp", OLD)
    load_settings()
    assert not stale.exists()


def test_opening_the_seat_tokens_cleans_their_directory() -> None:
    stale = _temp(data_dir(), ".online-seats.json.k2j4_x9a.tmp", OLD)
    SeatTokens()
    assert not stale.exists()


def test_writing_a_file_clears_its_own_stale_temp_files_only(tmp_path: Path) -> None:
    where = tmp_path / "records"
    mine = _temp(where, ".games.jsonl.0f3ac1d2.tmp", OLD, size=10_000)
    other = _temp(where, ".other.jsonl.0f3ac1d2.tmp", OLD)
    write_text_atomic(where / "games.jsonl", "{}\n")
    assert not mine.exists() and other.exists()
    assert sorted(p.name for p in where.iterdir()) == [".other.jsonl.0f3ac1d2.tmp", "games.jsonl"]
