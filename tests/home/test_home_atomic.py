"""Atomic writes: the user's umask decides a new file's mode, and links are written through."""

from __future__ import annotations

import os
import stat
from dataclasses import replace
from pathlib import Path

import pytest
from homekit import finished

from mantis.base.atomic import write_text_atomic
from mantis.home.record_file import write_records
from mantis.home.saves import save_game
from mantis.home.seat_tokens import SeatTokens
from mantis.home.settings import Settings, save_settings

posix_only = pytest.mark.skipif(os.name != "posix", reason="modes and symlinks are POSIX")


@pytest.fixture
def umask():
    """Set the process umask for one test, and put the old one back."""
    saved = os.umask(0o022)
    os.umask(saved)

    def set_to(mask: int) -> None:
        os.umask(mask)

    yield set_to
    os.umask(saved)


@pytest.fixture
def where(tmp_path: Path) -> Path:
    """An empty directory of the test's own (``tmp_path`` also holds ``MANTIS_HOME``)."""
    directory = tmp_path / "files"
    directory.mkdir()
    return directory


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@posix_only
@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077, 0o002])
def test_a_new_file_gets_the_mode_the_umask_gives(where: Path, umask, mask: int) -> None:
    umask(mask)
    target = where / "out.jsonl"
    write_text_atomic(target, "one\n")
    assert mode(target) == 0o666 & ~mask
    assert target.read_text(encoding="utf-8") == "one\n"


@posix_only
def test_rewriting_a_file_keeps_the_mode_it_was_given(where: Path, umask) -> None:
    umask(0o022)
    target = where / "settings.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    write_text_atomic(target, "new")
    assert mode(target) == 0o640
    assert target.read_text(encoding="utf-8") == "new"


@posix_only
def test_a_private_file_is_readable_by_its_owner_only(where: Path, umask) -> None:
    umask(0o002)
    target = where / "tokens.json"
    write_text_atomic(target, "{}", private=True)
    assert mode(target) == 0o600
    target.chmod(0o644)  # even a file someone opened up is closed again
    write_text_atomic(target, "{}", private=True)
    assert mode(target) == 0o600


@posix_only
def test_writing_through_a_symlink_writes_its_target(where: Path) -> None:
    real = where / "elsewhere" / "games.jsonl"
    real.parent.mkdir()
    real.write_text("old\n", encoding="utf-8")
    link = where / "games.jsonl"
    link.symlink_to(real)
    write_text_atomic(link, "new\n")
    assert link.is_symlink()
    assert os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == "new\n"
    assert sorted(p.name for p in real.parent.iterdir()) == ["games.jsonl"]  # no temp left
    assert sorted(p.name for p in where.iterdir()) == ["elsewhere", "games.jsonl"]


@posix_only
def test_a_relative_symlink_chain_and_a_dangling_link_are_written_through(where: Path) -> None:
    (where / "data").mkdir()
    (where / "b").symlink_to("data/real.json")  # dangling: real.json does not exist yet
    (where / "a").symlink_to("b")
    write_text_atomic(where / "a", "x")
    assert (where / "a").is_symlink() and (where / "b").is_symlink()
    assert (where / "data" / "real.json").read_text(encoding="utf-8") == "x"


def test_the_cli_record_gets_the_umask_mode(where: Path, umask) -> None:
    from mantis.cli import main

    umask(0o022)
    out = where / "out.jsonl"
    assert main(["simulate", "--players", "2", "--bots", "random", "--games", "2",
                 "--record", str(out)]) == 0  # fmt: skip
    if os.name == "posix":
        assert mode(out) == 0o644


@posix_only
def test_records_saves_and_settings_get_the_umask_mode_and_seat_tokens_stay_private(
    where: Path, umask
) -> None:
    umask(0o022)
    unfinished = replace(finished(), result=None, actions=())
    write_records(where / "games.jsonl", [finished()])
    save_game(unfinished, where / "save.json")
    save_settings(Settings(), where / "settings.json")
    SeatTokens(where / "seats.json").remember("ws://h:1", "KXQD", "secret", "Ann")
    assert {p.name: mode(p) for p in where.iterdir()} == {
        "games.jsonl": 0o644,
        "save.json": 0o644,
        "settings.json": 0o644,
        "seats.json": 0o600,
        "seats.json.lock": 0o600,  # held while a seat is kept: it holds nothing
    }


def test_a_failed_write_leaves_no_temp_and_the_old_file(where: Path) -> None:
    target = where / "save.json"
    target.write_text("old", encoding="utf-8")

    with pytest.raises(UnicodeEncodeError):
        write_text_atomic(target, "\udcff")  # a lone surrogate cannot be written as UTF-8
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in where.iterdir()) == ["save.json"]
