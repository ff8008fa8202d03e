"""Throwaway PostgreSQL and Redis servers for the tests that need real ones.

``PostgresCluster`` runs ``initdb`` and ``pg_ctl`` in a temporary folder
(as the ``postgres`` user when the tests run as root: PostgreSQL refuses
root), listening on a free loopback port; ``RedisServer`` runs
``redis-server`` on a free port with nothing kept on disk.  Both are
stopped (and their folders removed) when the tests are done.

Where a binary or a Python driver is missing, ``need(...)`` skips the test
with one line naming it; with ``MANTIS_CLUSTER_TESTS=required`` (as
``.ci/run`` sets) it fails instead.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

#: Generous bound on a service's start or stop (a slow machine is slower, never red).
START = 60.0


def need(*, binaries: tuple[str, ...] = (), modules: tuple[str, ...] = ()) -> None:
    """Skip (or fail, when cluster tests are required) unless each of these is here."""
    missing = [b for b in binaries if find_binary(b) is None]
    missing += [f"the Python module {m}" for m in modules if importlib.util.find_spec(m) is None]
    if not missing:
        return
    what = ", ".join(missing)
    if os.environ.get("MANTIS_CLUSTER_TESTS") == "required":
        pytest.fail(f"MANTIS_CLUSTER_TESTS=required but {what} is missing", pytrace=False)
    pytest.skip(f"needs {what} (pip install '.[cluster]'; apt-get install postgresql redis-server)")


def find_binary(name: str) -> str | None:
    """``name`` on PATH, or in Debian's PostgreSQL folders (not on PATH there)."""
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(command: list[str]) -> list[str]:
    """Run as the ``postgres`` user when we are root (PostgreSQL will not run as root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


def _wait_for_port(port: int, process: subprocess.Popen[bytes] | None, what: str) -> None:
    deadline = time.monotonic() + START
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what} stopped at start (exit {process.returncode})")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.05)  # a service coming up: polled, with a bound
    raise RuntimeError(f"{what} did not listen on port {port} within {START:g} s")


class PostgresCluster:
    """A PostgreSQL cluster of its own, in a temporary folder, on a free port."""

    def __init__(self, durable: bool = False) -> None:
        """``durable``: sync every commit to disk, as a real server does (benchmarks);
        tests leave it off, for speed."""
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="mantis-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.log = self.root / "server.log"
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        initdb, self.pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
        assert initdb and self.pg_ctl
        subprocess.run(
            _as_postgres([initdb, "-D", str(self.data), "-U", "postgres", "-A", "trust"]),
            check=True,
            capture_output=True,
            timeout=START,
        )
        self.start()

    def start(self) -> None:
        # pg_ctl hands these to a shell: the socket's folder quoted, for a TMPDIR with a space.
        options = (
            f"-p {self.port} -k {shlex.quote(str(self.root))} -c listen_addresses=127.0.0.1"
            " -c max_connections=200"
        )
        if not self.durable:  # tests want speed, not a power-cut-proof disk
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        assert self.pg_ctl
        subprocess.run(
            _as_postgres(
                [self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", options, "-w"]
                + ["-t", str(int(START)), "start"]
            ),
            check=True,
            capture_output=True,
            timeout=START + 10,
        )
        _wait_for_port(self.port, None, "PostgreSQL")

    def stop(self, mode: str = "fast") -> None:
        assert self.pg_ctl
        subprocess.run(
            _as_postgres([self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop"]),
            capture_output=True,
            timeout=START + 10,
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def running(self) -> bool:
        """Whether the server is up (``pg_ctl status``)."""
        assert self.pg_ctl
        status = subprocess.run(
            _as_postgres([self.pg_ctl, "-D", str(self.data), "status"]),
            capture_output=True,
            timeout=START,
        )
        return status.returncode == 0

    def start_again(self) -> None:
        """Start the server if it is down (a test stopped it)."""
        if not self.running():
            self.start()

    def create_database(self, name: str) -> str:
        """A new empty database; its URL.

        The server is started again first if it is down: a test that stops it and fails
        before starting it must not take every later test's database with it.
        """
        self.start_again()
        psql = find_binary("psql") or find_binary("createdb")
        assert psql is not None
        if psql.endswith("createdb"):
            command = [psql, "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name]
        else:
            command = [psql, self.url(), "-q", "-c", f'CREATE DATABASE "{name}"']
        subprocess.run(command, check=True, capture_output=True, timeout=START)
        return self.url(name)

    def close(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


class RedisServer:
    """``redis-server`` on a free loopback port, keeping nothing on disk."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="mantis-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        binary = find_binary("redis-server")
        assert binary is not None
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
            + ["no", "--dir", str(self.root)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for_port(self.port, self.process, "redis-server")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(START)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(START)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
