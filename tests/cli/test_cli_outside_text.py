"""Text from outside reaches the terminal as text: nothing the command line prints is obeyed.

Hostile records (seat names and talk full of escape sequences, C1 controls
and bidirectional overrides) are cleaned where they come in, with the
server's own rules for names and talk, and everything ``mantis`` prints goes
through one printable filter: the review (as text, in lines, as JSON), the
statistics (as text and JSON), past games, a key file's servers.  The
commands run as a person runs them (``mantis.cli.main``), and what reaches
the process's standard output and error is read at the file descriptor.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostilekit import CLEANED, NAMES, hostile_game, hostile_line, obeyed

from mantis.cli import main
from mantis.home.finished import record_finished
from mantis.home.player_keys import FORMAT, new_key


def run(capfdbinary: pytest.CaptureFixture[bytes], *args: str) -> tuple[int, str, str]:
    """``mantis ARGS``: its status, and what it wrote to stdout and stderr (every byte
    checked first: nothing a terminal would obey)."""
    code = main(list(args))
    out, err = capfdbinary.readouterr()
    assert obeyed(out) == [] and obeyed(err) == [], (out, err)
    return code, out.decode(), err.decode()


@pytest.fixture
def hostile_file(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.jsonl"
    path.write_text(hostile_line(players=2), encoding="utf-8")
    return path


def test_a_hostile_record_file_is_reviewed_with_its_names_cleaned(
    capfdbinary: pytest.CaptureFixture[bytes], hostile_file: Path
) -> None:
    code, text, _ = run(capfdbinary, "review", str(hostile_file))
    assert code == 0 and all(name in text for name in CLEANED[:2])
    code, lines, _ = run(capfdbinary, "review", str(hostile_file), "--lines")
    assert code == 0 and all(name in lines for name in CLEANED[:2])
    code, out, _ = run(capfdbinary, "review", str(hostile_file), "--json")
    assert code == 0
    assert [seat["name"] for seat in json.loads(out)["seats"]] == list(CLEANED[:2])
    # A seat asked for by a name the record does not have: the names it has, cleaned.
    code, _, err = run(capfdbinary, "review", str(hostile_file), "--seat", "Zed")
    assert code == 2 and err.count("\n") == 1 and CLEANED[0] in err


def test_a_game_kept_with_hostile_names_before_is_shown_with_nothing_obeyed(
    capfdbinary: pytest.CaptureFixture[bytes],
) -> None:
    # As an older Mantis kept a server's game: its names as they came.
    record_finished(hostile_game(), "ws://127.0.0.1:1 KXQD 5")
    code, text, _ = run(capfdbinary, "review", "--last")
    assert code == 0 and CLEANED[0] in text
    code, text, _ = run(capfdbinary, "stats")
    assert code == 0 and "Ann" in text
    code, out, _ = run(capfdbinary, "stats", "--json")  # (JSON writes each control escaped)
    assert code == 0 and json.loads(out)["players"]
    code, out, _ = run(capfdbinary, "stats", "--lines")
    assert code == 0 and "Ann" in out
    code, out, _ = run(capfdbinary, "games", "export", "--last", "1")
    assert code == 0 and json.loads(out)["seats"]


def test_a_key_file_naming_a_server_with_escapes_is_refused_and_the_list_stays_text(
    capfdbinary: pytest.CaptureFixture[bytes], tmp_path: Path, _mantis_home: Path
) -> None:
    for host in ("\x1bc", "a\x9b2J.example", "b\u202e.example", "c d.example"):
        hostile = tmp_path / "keys.json"
        data = {"format": FORMAT, "version": 1, "keys": {f"ws://{host}:8765": new_key()}}
        hostile.write_text(json.dumps(data), encoding="utf-8")
        code, _, err = run(capfdbinary, "key", "import", str(hostile))
        assert code == 1 and err.count("\n") == 1, err
        code, out, _ = run(capfdbinary, "key", "list")
        assert code == 0 and out == ""
    # This app's own file, holding one (an older Mantis took it in): one line, no escape.
    data = {"format": FORMAT, "version": 1, "keys": {"ws://\x1bc:8765": new_key()}}
    (_mantis_home / "data").mkdir(exist_ok=True)
    (_mantis_home / "data" / "player-keys.json").write_text(json.dumps(data))
    code, _, err = run(capfdbinary, "key", "list")
    assert code == 1 and err.count("\n") == 1


def test_the_names_written_are_the_hostile_ones() -> None:
    # (The kit's own check: the record really holds what a terminal would obey.)
    record = hostile_game()
    assert record.seats is not None
    assert [seat.name for seat in record.seats] == list(NAMES)
    assert all(obeyed(name) for name in NAMES)
