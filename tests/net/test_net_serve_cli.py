"""``mantis serve`` as a user runs it: its first line, its warning, a clean stop that keeps all."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from netkit import WAIT, ServerProcess
from servicekit import free_port

from mantis.cli import main


def test_sigterm_stops_the_server_cleanly_and_every_table_is_kept(tmp_path: Path) -> None:
    import asyncio

    from netkit import create, welcome

    data = tmp_path / "server"
    first = ServerProcess(data)

    async def open_table() -> str:
        ann = await create(first.url, ("human", "open"), "Ann")
        code = welcome(ann).code
        await ann.close()
        return code

    code = asyncio.run(open_table())
    first.process.send_signal(signal.SIGTERM)
    assert first.process.wait(WAIT) == 0
    assert "every table is kept" in first.process.stdout.read()
    again = ServerProcess(data)
    try:
        with urllib.request.urlopen(again.url.replace("ws", "http") + "/tables", timeout=WAIT) as r:
            tables = json.loads(r.read())
        assert [t["code"] for t in tables] == [code] and tables[0]["state"] == "waiting"
    finally:
        assert again.stop() == 0


def test_listening_beyond_this_machine_warns_first(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "mantis", "serve", "--host", "0.0.0.0", "--port", "0"]
        + ["--data", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        line = process.stdout.readline()
        assert line.startswith("mantis server on ws://0.0.0.0:")
        warning = process.stderr.readline()
        assert "warning" in warning and "anyone" in warning
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(WAIT) == 0


def test_bad_serve_values_exit_2_and_a_taken_port_exits_1(tmp_path: Path, capsys) -> None:
    for argv in (
        ["serve", "--port", "99999"],
        ["serve", "--bot-pace", "x"],
        ["serve", "--away-after", "0"],
        ["serve", "--quick-bot", "mybot:Cheat"],
        ["serve", "--quick-wait", "-1"],
        ["serve", "--metrics", "9100"],
        ["serve", "--metrics", "127.0.0.1:x"],
        ["key", "rotate", "http://example"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
    running = ServerProcess(tmp_path / "a")
    try:
        taken = subprocess.run(
            [sys.executable, "-m", "mantis", "serve", "--port", str(running.port)]
            + ["--data", str(tmp_path / "b")],
            capture_output=True,
            text=True,
            timeout=WAIT,
        )
        assert taken.returncode == 1
        assert taken.stderr.count("\n") == 1 and "cannot listen" in taken.stderr
    finally:
        running.stop()


def test_a_database_that_cannot_be_reached_exits_1_with_one_line(tmp_path: Path) -> None:
    process = subprocess.run(
        [sys.executable, "-m", "mantis", "serve", "--port", "0", "--data", str(tmp_path)]
        + ["--database", "postgresql://ann:secret@127.0.0.1:1/tables"],
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert process.returncode == 1 and process.stdout == ""
    assert process.stderr.count("\n") == 1 and "cannot reach the database" in process.stderr
    assert "secret" not in process.stderr and "Traceback" not in process.stderr


def test_the_figures_are_served_where_the_operator_says_and_nowhere_else(
    tmp_path: Path,
) -> None:
    port = free_port()
    running = ServerProcess(tmp_path, 0, "--metrics", f"127.0.0.1:{port}")
    try:
        said = {running.process.stderr.readline().strip() for _ in range(2)}
        assert f"mantis: metrics on http://127.0.0.1:{port}/metrics" in said
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=WAIT) as answer:
            assert b"mantis_connections" in answer.read()
        game_port = running.url.replace("ws://", "http://") + "/metrics"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(game_port, timeout=WAIT)
        assert refused.value.code == 404
        refused.value.close()  # (held open, the connection would keep the server's exit waiting)
    finally:
        running.stop()
    # An address it cannot listen on: one line, status 1.
    taken = subprocess.run(
        [sys.executable, "-m", "mantis", "serve", "--port", "0", "--data", str(tmp_path)]
        + ["--metrics", "192.0.2.1:9100"],
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert taken.returncode == 1 and "cannot serve metrics on 192.0.2.1:9100" in taken.stderr


@pytest.mark.parametrize("umask", [0o022, 0o000], ids=["umask-022", "umask-000"])
def test_the_data_folder_is_the_owners_alone_and_so_is_every_database_file(
    tmp_path: Path, umask: int
) -> None:
    # The store holds every player key's verifier: nobody else on the computer reads it,
    # whatever the umask of whoever started the server.
    data = tmp_path / "server"
    process = subprocess.Popen(
        [sys.executable, "-m", "mantis", "serve", "--port", "0", "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.umask(umask),  # (the child's own, not this process's)
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("mantis server on ws://"), line
        files = {path.name: stat.S_IMODE(path.stat().st_mode) for path in data.iterdir()}
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        assert files == {
            name: 0o600 for name in ("server.sqlite3", "server.sqlite3-wal", "server.sqlite3-shm")
        }
    finally:
        process.terminate()
        assert process.wait(WAIT) == 0
