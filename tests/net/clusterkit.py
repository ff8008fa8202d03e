"""Three ``mantis serve`` nodes on one PostgreSQL and one Redis, behind HAProxy.

``Nodes`` starts the nodes as real processes (so they can be killed with -9
or drained with SIGTERM) and HAProxy with the configuration in
docs/operations.md, read from the document itself.  A test asks for the
nodes it needs up (``ready()``) rather than assuming the last test left
them so; waits are for states (a line printed, a port answering, a status
reporting every node), never fixed sleeps.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from netkit import WAIT
from servicekit import find_binary, free_port

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = ROOT / "docs" / "operations.md"


def haproxy_config() -> str:
    """The HAProxy configuration of docs/operations.md (its ``haproxy`` block)."""
    found = re.search(r"```haproxy\n(.*?)```", OPERATIONS.read_text(), re.S)
    assert found, "docs/operations.md has no ```haproxy block"
    return found.group(1)


async def until(test: Callable[[], Any], what: str = "the state") -> None:
    """Wait until ``test()`` is true, looking again every 50 ms, for at most ``WAIT``."""
    deadline = time.monotonic() + WAIT
    while not await asyncio.to_thread(test):
        assert time.monotonic() < deadline, f"waited {WAIT:g} s for {what}"
        await asyncio.sleep(0.05)  # a state in another process: looked at again, bounded


#: Told of each line any node logs (its log is read on a thread of its own, as it comes).
LOGGED = threading.Condition()


class Node:
    """One node: ``mantis serve --database … --redis … --node NAME`` on its own port."""

    def __init__(self, name: str, database: str, redis: str, *extra: str) -> None:
        self.name = name
        self.database = database
        self.redis = redis
        self.extra = extra
        self.port = free_port()
        self.metrics_port = free_port()
        self.process: subprocess.Popen[str] | None = None
        self.log: list[str] = []

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, retried: bool = False) -> None:
        command = [sys.executable, "-m", "mantis", "serve", "--port", str(self.port)]
        command += ["--node", self.name, "--database", self.database, "--redis", self.redis]
        command += ["--bot-pace", "0", "--metrics", f"127.0.0.1:{self.metrics_port}", *self.extra]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        threading.Thread(target=self._read_log, args=(self.process,), daemon=True).start()
        if not line and self.process.wait(WAIT) == 1 and not retried:
            # Another program took a free port meanwhile: new ones.
            self.port, self.metrics_port = free_port(), free_port()
            return self.start(retried=True)
        assert line.startswith("mantis server on ws://"), line + "\n".join(self.log[-5:])

    def _read_log(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:  # read as it comes: a full pipe would stop the node
            with LOGGED:
                self.log.append(line.rstrip("\n"))
                LOGGED.notify_all()

    def said(self, words: str) -> bool:
        """Whether the node's log has a line with ``words``."""
        return any(words in line for line in self.log)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """``kill -9``: nothing tidied up."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(WAIT)

    def terminate(self) -> int:
        """SIGTERM: the node drains; its exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(WAIT)

    def status(self) -> dict[str, Any]:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"http://{self.address}/status", timeout=WAIT) as answer:
            return json.loads(answer.read())

    def get(self, path: str, port: int | None = None) -> tuple[str, bytes]:
        """``path`` on the node's port (or on ``port``: its metrics')."""
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        address = self.address if port is None else f"127.0.0.1:{port}"
        with opener.open(f"http://{address}{path}", timeout=WAIT) as answer:
            return answer.headers["Content-Type"], answer.read()


class Proxy:
    """HAProxy with the documented configuration, in front of the nodes."""

    def __init__(self, root: Path, nodes: list[Node]) -> None:
        self.root = root
        self.nodes = nodes
        self.port = free_port()
        self.tls_port = free_port()
        self.certificate = root / "mantis.pem"
        self.authority = root / "ca.pem"
        self.process: subprocess.Popen[bytes] | None = None
        self._make_certificate()

    def _make_certificate(self) -> None:
        key, cert = self.root / "key.pem", self.root / "cert.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
            + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
            + ["-keyout", str(key), "-out", str(cert)],
            check=True,
            capture_output=True,
            timeout=WAIT,
        )
        self.certificate.write_bytes(cert.read_bytes() + key.read_bytes())
        self.authority.write_bytes(cert.read_bytes())

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def tls_url(self) -> str:
        return f"wss://127.0.0.1:{self.tls_port}"

    def start(self, retried: bool = False) -> None:
        config = self.root / "haproxy.cfg"
        lines = haproxy_config().splitlines(keepends=True)
        unused = [f"MANTIS_NODE{n}}}" for n in range(len(self.nodes) + 1, 10)]
        config.write_text("".join(ln for ln in lines if not any(u in ln for u in unused)))
        env = dict(
            os.environ,
            MANTIS_LISTEN=f"127.0.0.1:{self.port}",
            MANTIS_LISTEN_TLS=f"127.0.0.1:{self.tls_port}",
            MANTIS_CERTIFICATE=str(self.certificate),
            **{f"MANTIS_NODE{n + 1}": node.address for n, node in enumerate(self.nodes)},
        )
        binary = find_binary("haproxy") or "/usr/sbin/haproxy"
        self.process = subprocess.Popen(
            [binary, "-db", "-f", str(config)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + WAIT
        while not self._answers():
            if self.process.poll() is not None:
                said = self.process.stderr.read()  # type: ignore[union-attr]
                if b"Address already in use" in said and not retried:
                    # Another program took the free port meanwhile: two new ones.
                    self.port, self.tls_port = free_port(), free_port()
                    return self.start(retried=True)
                raise AssertionError(said)
            assert time.monotonic() < deadline, "HAProxy did not answer"
            time.sleep(0.05)  # polled, with a bound

    def _answers(self) -> bool:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(f"http://127.0.0.1:{self.port}/status", timeout=2):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(WAIT)


class Nodes:
    """Three nodes (or ``count``) behind HAProxy, for a module of tests."""

    def __init__(self, root: Path, database: str, redis: str, *extra: str, count: int = 3) -> None:
        self.database = database
        self.nodes = [Node(f"node{n}", database, redis, *extra) for n in range(1, count + 1)]
        self.proxy = Proxy(root, self.nodes)

    def start(self) -> None:
        for node in self.nodes:
            node.start()
        self.proxy.start()
        self.ready()

    def ready(self) -> None:
        """Every node up (started again if a test stopped it), each seeing the others, and
        every name free again (each test's people hold their names with keys of their own)."""
        psql = find_binary("psql")
        assert psql is not None
        subprocess.run(
            [psql, self.database, "-q", "-c", "DELETE FROM game_ratings; DELETE FROM players"],
            check=False,  # (before the first node made the schema: nothing to free)
            capture_output=True,
            timeout=WAIT,
        )
        for node in self.nodes:
            if not node.alive:
                node.start()
        deadline = time.monotonic() + WAIT
        while any(node.status().get("nodes") != len(self.nodes) for node in self.nodes):
            assert time.monotonic() < deadline, "the nodes did not all see each other"
            time.sleep(0.05)  # heartbeats land once a second: polled, with a bound

    def by_name(self, name: str) -> Node:
        return next(node for node in self.nodes if node.name == name)

    def stop(self) -> None:
        self.proxy.stop()
        for node in self.nodes:
            if node.alive:
                node.terminate()


async def said_by_any(nodes: Iterable[Node], words: str, timeout: float = WAIT) -> bool:
    """Whether one of ``nodes`` logs a line with ``words`` within ``timeout`` seconds: a node
    may log what it did a moment after a client has seen it done."""
    among = list(nodes)

    def wait() -> bool:
        with LOGGED:
            return LOGGED.wait_for(lambda: any(node.said(words) for node in among), timeout)

    return await asyncio.to_thread(wait)
