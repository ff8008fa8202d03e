"""Player keys: made once per server, owner-only, carried to another computer and back."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from mantis.cli import main
from mantis.home.player_keys import KeyFileError, PlayerKeys, is_key, server_address
from mantis.home.seat_tokens import SeatTokens
from mantis.net import protocol
from mantis.net.client import OnlineError, TableConnection


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_key_is_made_once_per_server_kept_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    keys = PlayerKeys(tmp_path / "keys.json")
    old = os.umask(0)
    try:
        first = keys.key_for("ws://Example.org/")
    finally:
        os.umask(old)
    assert is_key(first) and len(first) == protocol.KEY_LENGTH
    assert mode(tmp_path / "keys.json") == 0o600
    # The same server however it is written; another server, another key.
    assert keys.key_for("ws://example.org:80") == first
    assert PlayerKeys(tmp_path / "keys.json").key_for("WS://EXAMPLE.ORG") == first
    other = keys.key_for("ws://example.org:8765")
    assert other != first
    assert keys.keys() == {"ws://example.org:80": first, "ws://example.org:8765": other}
    assert server_address("wss://[::1]") == "wss://[::1]:443"


def test_export_and_import_carry_keys_to_another_computer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MANTIS_HOME", str(tmp_path / "here"))
    here = PlayerKeys()
    one, two = here.key_for("ws://a.example:1"), here.key_for("ws://b.example:2")
    assert main(["key", "export", str(tmp_path / "all.json")]) == 0
    assert main(["key", "export", "ws://a.example:1", str(tmp_path / "one.json")]) == 0
    assert mode(tmp_path / "all.json") == mode(tmp_path / "one.json") == 0o600
    assert "Keep it safe" in capsys.readouterr().out
    # The other computer.
    monkeypatch.setenv("MANTIS_HOME", str(tmp_path / "there"))
    assert main(["key", "import", str(tmp_path / "one.json")]) == 0
    assert PlayerKeys().keys() == {"ws://a.example:1": one}
    assert main(["key", "import", str(tmp_path / "all.json")]) == 0
    assert "1 new player key taken in" in capsys.readouterr().out
    assert PlayerKeys().keys() == here.keys() == {"ws://a.example:1": one, "ws://b.example:2": two}
    assert mode(tmp_path / "there" / "data" / "player-keys.json") == 0o600


def test_an_import_that_would_lose_a_key_is_refused_unless_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MANTIS_HOME", str(tmp_path / "home"))
    mine = PlayerKeys().key_for("ws://a.example:1")
    other = PlayerKeys(tmp_path / "other.json")
    theirs = other.key_for("ws://a.example:1")
    other.key_for("ws://c.example:3")
    assert main(["key", "import", str(tmp_path / "other.json")]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert "another key for ws://a.example:1" in line and "--replace" in line
    assert PlayerKeys().keys() == {"ws://a.example:1": mine}  # nothing changed
    assert main(["key", "import", "--replace", str(tmp_path / "other.json")]) == 0
    assert PlayerKeys().keys()["ws://a.example:1"] == theirs


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        '{"format": "something else", "keys": {}}',
        '{"format": "mantis-player-keys", "keys": {"ws://a:1": "short"}}',
        '{"format": "mantis-player-keys", "keys": {"ftp://a": "' + "k" * 43 + '"}}',
        "\udcff",
    ],
    ids=["text", "list", "other-format", "damaged-key", "not-a-server", "bad-bytes"],
)
def test_a_bad_key_file_is_one_line_and_nothing_is_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    monkeypatch.setenv("MANTIS_HOME", str(tmp_path / "home"))
    kept = PlayerKeys().key_for("ws://a.example:1")
    bad = tmp_path / "bad.json"
    bad.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert main(["key", "import", str(bad)]) == 1
    assert main(["key", "import", str(tmp_path / "missing.json")]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(line.startswith("mantis: ") for line in lines)
    assert PlayerKeys().keys() == {"ws://a.example:1": kept}
    # The app's own keys file gone bad: online play stops with one line, the file is kept.
    own = tmp_path / "home" / "data" / "player-keys.json"
    own.write_bytes(bad.read_bytes())
    with pytest.raises(KeyFileError):
        PlayerKeys().key_for("ws://a.example:1")
    seat = TableConnection(
        "ws://127.0.0.1:9",
        protocol.Quick(protocol.PROTOCOL_VERSION, "Ann"),
        tokens=SeatTokens(tmp_path / "seats.json"),
    )
    with pytest.raises(OnlineError) as raised:
        import asyncio

        asyncio.run(seat.open())
    assert raised.value.code == "key_file" and "\n" not in str(raised.value)
    assert own.read_bytes() == bad.read_bytes()
    assert main(["key", "list"]) == 1


def test_the_exported_file_says_what_it_is(tmp_path: Path) -> None:
    keys = PlayerKeys(tmp_path / "keys.json")
    key = keys.key_for("ws://a.example:1")
    keys.export(tmp_path / "out.json")
    data = json.loads((tmp_path / "out.json").read_text())
    assert data["format"] == "mantis-player-keys" and data["keys"] == {"ws://a.example:1": key}


def test_a_server_never_reached_gets_no_key_to_export(tmp_path: Path, capsys) -> None:
    import asyncio
    import socket

    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    seat = TableConnection(
        f"ws://127.0.0.1:{port}",
        protocol.Quick(protocol.PROTOCOL_VERSION, "Ann"),
        tokens=SeatTokens(tmp_path / "seats.json"),
    )
    with pytest.raises(OnlineError) as raised:
        asyncio.run(seat.open())
    assert raised.value.code == "unreachable"
    # A mistyped or dead address leaves no key behind: nothing to export, nothing listed.
    assert PlayerKeys().keys() == {}
    assert main(["key", "export", str(tmp_path / "keys.json")]) == 1
    assert "no player key here yet" in capsys.readouterr().err
    assert not (tmp_path / "keys.json").exists()


def test_what_a_server_knows_is_kept_per_key_and_goes_with_it_to_another_computer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = "ws://a.example:1", "ws://b.example:2"
    here = PlayerKeys(tmp_path / "here.json")
    one, two = here.key_for(a), here.key_for(b)
    assert not here.knows(a, one)  # made, never given to the server yet
    here.introduced(a, one)
    here.introduced(b, "not-this-apps-key")  # (another key's: nothing known of this one)
    assert here.knows("WS://A.EXAMPLE:1", one) and not here.knows(b, two)
    assert not here.knows(a, two)  # known of a key, not of a server
    assert json.loads((tmp_path / "here.json").read_text())["known"] == [a]
    # Exported with the keys, and taken in with them.
    here.export(tmp_path / "out.json")
    there = PlayerKeys(tmp_path / "there.json")
    there.import_from(tmp_path / "out.json")
    assert there.knows(a, one) and not there.knows(b, two)
    # A file from before servers' knowledge was kept: the keys come, nothing is known.
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format": "mantis-player-keys", "version": 1, "keys": {b: two}}))
    there.introduced(b, two)
    there.import_from(old)
    assert there.knows(b, two)  # (the same key: what this app knew of it stays)
    fresh = PlayerKeys(tmp_path / "fresh.json")
    fresh.import_from(old)
    assert fresh.keys() == {b: two} and not fresh.knows(b, two)
    # A key replaced by another is as known as the file says the other is.
    swapped = PlayerKeys(tmp_path / "swapped.json")
    swapped.introduced(a, swapped.key_for(a))
    swapped.introduced(b, swapped.key_for(b))
    swapped.import_from(tmp_path / "out.json", replace=True)
    swapped.import_from(old, replace=True)
    assert swapped.knows(a, one) and not swapped.knows(b, two)
    # A rotation the server took: the new key is known; one whose old key held nothing: not.
    current, new, _ = here.rotating(a)
    here.rotated(a)
    assert here.knows(a, new) and not here.knows(a, current)
    here.rotating(b)
    here.rotated(b, known=False)
    assert not here.knows(b, here.key_for(b))
    # Forgotten on purpose (the server lost its players): said, and sent once more.
    assert main(["key", "reintroduce", a]) == 1  # (this home holds no key for it)
    assert "no player key for ws://a.example:1" in capsys.readouterr().err
    assert here.reintroduce(a) and not here.knows(a, new) and not here.reintroduce(a)
