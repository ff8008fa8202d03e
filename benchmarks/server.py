"""Table server under load: simulated people over loopback, move latency and server cost.

Run: ``.venv/bin/python benchmarks/server.py [--tables 50,200,500] [--seconds 30]
[--warmup 5] [--think 1.0] [--vs DIR] [--json]``.  ``--vs DIR`` runs every size
on the server of another checkout too (say the tree before a change), one
after the other in one run, so the two sets of figures sit side by side.

For each size it starts a fresh ``mantis serve`` process and, in this
process, four simulated people per table (one WebSocket connection each):
the host creates a table with seats human/open/open/open, three join it by
code, the host starts it.  Each person answers ``--think`` seconds after a
``turn_started`` for their own seat (so a four-player table plays about one
move a second); when a game ends, the same four play a new table at once,
so the load stays constant.  After a warm-up, over ``--seconds`` it prints:

* move latency: the intent sent -> the *last* of the table's four
  connections has the stream frame with that move's ``card_revealed``
  (p50, p99, max; one clock, ``perf_counter``, in this process);
* moves per second;
* the server's CPU (% of one core, and per move) and RSS, read from /proc;
* the writer's writes per commit (the server is started through a small
  bootstrap that runs ``mantis serve`` unchanged and reports the writer's
  counters on SIGUSR1; ``--plain-server`` runs ``python -m mantis serve``
  itself and skips that figure);
* this process's own CPU and event-loop lag, so a reader can tell whether
  the simulated people, not the server, were the limit (its collector is
  off over the window).

It also measures in process, with no network, what a move costs the
server piece by piece (driver, frame encoding, a SQLite commit).  Target on
a 2-core machine: 500 tables with p99 <= 50 ms.  Latency includes this
process's own scheduling delay: on a busy machine, read it with the client
CPU and loop lag beside it.  With ``--json`` the figures go to stdout as
JSON and everything else to stderr.  Linux only (/proc).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import queue
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from time import perf_counter
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.connection import broadcast
from websockets.exceptions import ConnectionClosed

from mantis.engine import (
    SCORE,
    CardRevealed,
    Game,
    SeatInfo,
    TurnStarted,
    game_seed,
    record_of,
    steal,
)
from mantis.net import protocol
from mantis.net.server.collector import tune_garbage_collector
from mantis.store.table_rules import TableRules
from mantis.store.tables_interface import StoredSeat
from mantis.store.tables_sqlite import SqliteTableStore
from mantis.table import Recorded, Table, dealt

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 4
#: Bound on any one wait (a server start, a welcome, a connection's handshake).
WAIT = 30.0
#: Connections being opened at once (the server's listen backlog is 100).
OPENING = 50
#: Seconds after the window for its last moves to arrive before they count as lost.
GRACE = 5.0

# Runs `mantis serve` exactly as the console script does, and on SIGUSR1 writes the
# server's Writer counters (commits and writes so far) to stderr: nothing else changes.
PROBE = r"""
import os, signal, sys
try:
    from mantis.store import sqlite_writer as _writer
except ImportError:  # a tree from before the writer was named for SQLite
    from mantis.store import writer as _writer
_made = []
_init = _writer.Writer.__init__
def _keep(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    _made.append(self)
_writer.Writer.__init__ = _keep
def _report(signum, frame):
    w = _made[-1] if _made else None
    line = "bench-probe writes=%d batches=%d\n" % ((w.writes, w.batches) if w else (-1, -1))
    os.write(2, line.encode())
signal.signal(signal.SIGUSR1, _report)
from mantis.cli import main
sys.exit(main(sys.argv[1:]))
"""
PROBE_LINE = re.compile(r"bench-probe writes=(-?\d+) batches=(-?\d+)")


def log(*parts: object) -> None:
    """Progress and the human-readable figures (stderr under ``--json``)."""
    print(*parts, file=sys.stderr if OPTIONS.get("json") else sys.stdout, flush=True)


OPTIONS: dict[str, Any] = {}


# ---------------------------------------------------------------------- the server process


#: ``mantis serve``'s limits raised past what the load reaches.
UNLIMITED = [
    *("--max-tables", "1000000", "--tables-per-address", "1000000"),
    *("--max-connections", "1000000", "--connections-per-address", "1000000"),
    *("--bot-moves", "1000000"),
]


class ServerFailed(Exception):
    """The server did not start (or stopped); one line."""


class Server:
    """``mantis serve`` in its own process, watched through /proc."""

    def __init__(
        self,
        data: Path,
        home: Path,
        plain: bool,
        source: Path = ROOT,
        extra: tuple[str, ...] = (),
        port: int = 0,
    ) -> None:
        """``source``: the Mantis tree to run (another checkout, for a side-by-side run);
        ``extra``: more options for ``mantis serve`` (a database, a cluster)."""
        self.data, self.home, self.extra = data, home, extra
        options = ["serve", "--port", str(port), "--data", str(data), "--bot-pace", "0", *extra]
        if source == ROOT:
            # Every simulated person comes from 127.0.0.1: the limits per address (a public
            # server's defence) would measure the limits, not the server. (A checkout from
            # before the limits knows none of these options, and needs none.)
            options += UNLIMITED
        if plain:
            command = [sys.executable, "-m", "mantis", *options]
        else:
            command = [sys.executable, "-c", PROBE, *options]
        env = dict(os.environ, MANTIS_HOME=str(home), PYTHONPATH=str(source))
        self.probe = not plain
        self.process = subprocess.Popen(
            command,
            cwd=source,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.pid = self.process.pid
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._probes: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
        self.stderr: list[str] = []
        threading.Thread(target=self._drain_stdout, daemon=True).start()
        errors = threading.Thread(target=self._drain_stderr, daemon=True)
        errors.start()
        try:
            line = self._lines.get(timeout=WAIT)
        except queue.Empty:
            self.stop()
            raise ServerFailed(f"the server said nothing in {WAIT:g} s") from None
        if not line or not line.startswith("mantis server on ws://"):
            self.stop()
            errors.join(5)  # what it said on the way out
            said = (line or "").strip() or " / ".join(s.strip() for s in self.stderr[-3:])
            raise ServerFailed(f"the server did not start: {said or 'no output'}")
        self.url = line.split()[-1]
        self.port = int(self.url.rsplit(":", 1)[1])
        self.address = f"127.0.0.1:{self.port}"

    def node_cpu(self) -> list[float]:
        return [self.cpu_seconds()]

    def _drain_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            found = PROBE_LINE.search(line)
            if found:
                self._probes.put((int(found[1]), int(found[2])))
            else:
                self.stderr.append(line)
                del self.stderr[:-2000]

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server so far (every thread)."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory_mb(self) -> tuple[float, float]:
        """(RSS, peak RSS) in MB."""
        found: dict[str, float] = {}
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, value = line.split(":", 1)
                    found[key] = int(value.split()[0]) / 1024
        return found.get("VmRSS", 0.0), found.get("VmHWM", 0.0)

    def writer_counts(self) -> tuple[int, int] | None:
        """(writes, commits) of the server's writer so far, or None (no probe, no answer)."""
        if not self.probe or self.process.poll() is not None:
            return None
        with contextlib.suppress(queue.Empty):
            while True:
                self._probes.get_nowait()
        os.kill(self.pid, signal.SIGUSR1)
        try:
            writes, batches = self._probes.get(timeout=5)
        except queue.Empty:
            return None
        return (writes, batches) if writes >= 0 else None

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(WAIT)


class Nodes:
    """Several ``mantis serve`` nodes (one PostgreSQL, one Redis) behind HAProxy, measured
    as one server: their CPU and memory added up (and CPU node by node)."""

    def __init__(self, root: Path, database: str, redis: str, count: int) -> None:
        _with_test_kits()
        from clusterkit import Proxy

        self.nodes: list[Server] = []
        self.stderr: list[str] = []
        try:
            for n in range(count):
                extra = ("--database", database, "--redis", redis, "--node", f"node{n + 1}")
                self.nodes.append(Server(root / f"data{n}", root / "home", False, ROOT, extra))
            self.proxy = Proxy(root, self.nodes)  # type: ignore[arg-type]
            self.proxy.start()
        except BaseException:
            self.stop()
            raise
        self.url = self.proxy.url
        self.port = self.nodes[0].port

    def alive(self) -> bool:
        return all(node.alive() for node in self.nodes)

    def cpu_seconds(self) -> float:
        return sum(node.cpu_seconds() for node in self.nodes)

    def node_cpu(self) -> list[float]:
        return [node.cpu_seconds() for node in self.nodes]

    def memory_mb(self) -> tuple[float, float]:
        found = [node.memory_mb() for node in self.nodes]
        return sum(rss for rss, _ in found), sum(peak for _, peak in found)

    def writer_counts(self) -> tuple[int, int] | None:
        return None

    def stop(self) -> None:
        if hasattr(self, "proxy"):
            self.proxy.stop()
        for node in self.nodes:
            node.stop()
            self.stderr += node.stderr


class Services:
    """PostgreSQL (every commit synced, as in production) and Redis for ``--cluster``."""

    def __init__(self) -> None:
        _with_test_kits()
        from servicekit import PostgresCluster, RedisServer

        self.pg = PostgresCluster(durable=True)
        self.redis = RedisServer()
        self.runs = 0

    def start(self, root: Path, label: str) -> Server | Nodes:
        """A fresh database (and an empty Redis): one node on it, or two behind HAProxy."""
        self.runs += 1
        database = self.pg.create_database(f"bench_{self.runs}")
        subprocess.run(
            ["redis-cli", "-p", str(self.redis.port), "FLUSHALL"], capture_output=True, check=False
        )
        root.mkdir(parents=True, exist_ok=True)
        if label == "pg":
            return Server(root / "data", root / "home", False, ROOT, ("--database", database))
        return Nodes(root, database, self.redis.url, 2)

    async def takeovers(self, root: Path, kills: int) -> list[float]:
        """Seconds from kill -9 of a table's node to its next move published, ``kills`` times.

        Two people sit at a table on the other node, each answering at once; the table's
        node is killed, then started again for the next round.
        """
        found: list[float] = []
        nodes = await asyncio.to_thread(self.start, root / "takeover", "2nodes")
        assert isinstance(nodes, Nodes)
        try:
            for _ in range(kills):
                found.append(await _one_takeover(nodes))
        finally:
            await asyncio.to_thread(nodes.stop)
        return found

    def close(self) -> None:
        self.redis.close()
        self.pg.close()


async def _one_takeover(nodes: Nodes) -> float:
    owner, other = nodes.nodes
    host = await connect(owner.url, compression=None, proxy=None)
    create = protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "open"))
    await host.send(protocol.encode(create).decode())
    welcome = protocol.decode_server(await host.recv())
    assert isinstance(welcome, protocol.Welcome)
    code, token = welcome.code, welcome.token
    people = []
    for opening in (
        protocol.Join(protocol.PROTOCOL_VERSION, code, "Bea"),
        protocol.Join(protocol.PROTOCOL_VERSION, code, "", token),
    ):
        ws = await connect(other.url, compression=None, proxy=None)
        await ws.send(protocol.encode(opening).decode())
        people.append(ws)
    await host.close()
    seats: dict[Any, int] = {}
    moved = asyncio.Event()
    killed_at = [0.0]
    published: list[float] = []

    async def play(ws: Any) -> None:
        async for data in ws:
            message = protocol.decode_server(data)
            if isinstance(message, protocol.Welcome):
                seats[ws] = message.seat
            elif isinstance(message, protocol.Stream):
                for m in message.messages:
                    if isinstance(m, CardRevealed) and killed_at[0] and not published:
                        published.append(time.monotonic())
                        moved.set()
                    if isinstance(m, TurnStarted) and m.seat == seats.get(ws):
                        act = protocol.Act(m.turn, SCORE)
                        await ws.send(protocol.encode(act).decode())

    tasks = [asyncio.create_task(play(ws)) for ws in people]
    await asyncio.sleep(0.5)  # both seated (the kill may land anywhere in a heartbeat)
    await people[1].send(protocol.encode(protocol.Start()).decode())  # Ann, the host
    await asyncio.sleep(1.0 + random.random())  # a game on, moves flowing
    await asyncio.to_thread(_kill, owner)
    killed_at[0] = time.monotonic()
    await asyncio.wait_for(moved.wait(), 60)
    took = published[0] - killed_at[0]
    for task in tasks:
        task.cancel()
    for ws in people:
        await ws.close()
    restarted = Server(owner.data, owner.home, False, ROOT, owner.extra, port=owner.port)
    nodes.nodes[0] = restarted
    nodes.nodes.reverse()  # the other node owns the next table
    await asyncio.sleep(1.5)  # the restarted node seen alive by the other
    return took


def _with_test_kits() -> None:
    """The tests' kits start the throwaway services and HAProxy: the benchmark uses them."""
    for folder in (ROOT / "tests", ROOT / "tests" / "net"):
        if str(folder) not in sys.path:
            sys.path.append(str(folder))


def _kill(server: Server) -> None:
    server.process.kill()
    server.process.wait(WAIT)


def server_status(port: int) -> dict[str, Any] | None:
    """The server's own ``GET /status`` (tables in memory, playing, connections)."""
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"http://127.0.0.1:{port}/status", timeout=5) as answer:
            return json.loads(answer.read())
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------------- the simulated people


class Bench:
    """One size's run: every simulated person's connection and the figures they gather."""

    def __init__(self, url: str, think: float, steal_share: float) -> None:
        self.url = url
        self.think = think
        self.steal_share = steal_share
        self.rng = random.Random(1)
        self.opening = asyncio.Semaphore(OPENING)
        self.conns: set[Conn] = set()
        self.background: set[asyncio.Task[Any]] = set()
        self.stopping = False
        self.games_started = 0
        self.games_over = 0
        self.setup_failures: dict[str, int] = {}
        self.errors: dict[str, int] = {}
        self.stuck_games = 0
        self.t0 = float("inf")
        self.t1 = float("inf")
        self.window_sent = 0
        self.samples: list[float] = []

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def completed(self, sent: float, now: float) -> None:
        if self.t0 <= sent < self.t1:
            self.samples.append(now - sent)

    def failed(self, reason: str) -> None:
        self.setup_failures[reason] = self.setup_failures.get(reason, 0) + 1


class TableGame:
    """One game at one table: its four connections and its moves in flight."""

    def __init__(self, bench: Bench, index: int) -> None:
        self.bench = bench
        self.index = index
        loop = asyncio.get_running_loop()
        self.started: asyncio.Future[None] = loop.create_future()
        self.over: asyncio.Future[None] = loop.create_future()
        self.conns: list[Conn] = []
        self.sent: dict[int, float] = {}
        """Turn -> when its intent was sent."""
        self.heard: dict[int, int] = {}
        """Turn -> how many of the four connections have its card_revealed so far."""

    def revealed(self, turn: int, now: float) -> None:
        count = self.heard.get(turn, 0) + 1
        if count < PLAYERS:
            self.heard[turn] = count
            return
        self.heard.pop(turn, None)
        sent = self.sent.pop(turn, None)
        if sent is not None:
            self.bench.completed(sent, now)


class Conn:
    """One person's connection: reads the stream, answers its own turns."""

    def __init__(self, game: TableGame, ws: ClientConnection, host: bool) -> None:
        self.game = game
        self.bench = game.bench
        self.ws = ws
        self.host = host
        self.seat: int | None = None
        self.code = ""
        self.seen = 0
        """Stream messages heard so far."""
        self.turn = -1
        """The turn of the last ``turn_started`` heard (the move a ``card_revealed`` is)."""
        self.answered = -1
        self.closed = False
        self.welcome: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        bench = self.bench
        try:
            async for data in self.ws:
                now = perf_counter()
                message = protocol.decode_server(data)
                if isinstance(message, protocol.Stream):
                    self._stream(message, now)
                elif isinstance(message, protocol.Welcome):
                    self.seat, self.code = message.seat, message.code
                    if not self.welcome.done():
                        self.welcome.set_result(None)
                elif isinstance(message, protocol.Error):
                    bench.errors[message.code] = bench.errors.get(message.code, 0) + 1
                    if not self.welcome.done():
                        self.welcome.set_exception(ConnectionError(message.code))
        except ConnectionClosed:
            pass
        except protocol.ProtocolError as exc:
            bench.errors["unreadable"] = bench.errors.get("unreadable", 0) + 1
            log(f"  unreadable message from the server: {exc}")
        finally:
            self.closed = True
            bench.conns.discard(self)
            if not self.welcome.done():
                self.welcome.set_exception(ConnectionError("closed before welcome"))
            if self.host and not self.game.over.done():
                self.game.over.set_result(None)

    def _stream(self, message: protocol.Stream, now: float) -> None:
        skip = self.seen - message.start
        if skip < 0:
            self.bench.errors["stream_gap"] = self.bench.errors.get("stream_gap", 0) + 1
            skip = 0
        self.seen = max(self.seen, message.start + len(message.messages))
        game = self.game
        for m in message.messages[skip:]:
            if isinstance(m, TurnStarted):
                self.turn = m.turn
                if not game.started.done():
                    game.started.set_result(None)
                if m.seat == self.seat and m.turn > self.answered:
                    self.answered = m.turn
                    asyncio.get_running_loop().call_later(self.bench.think, self._act, m.turn)
            elif isinstance(m, CardRevealed):
                game.revealed(self.turn, now)
            elif isinstance(m, Recorded):
                if self.host and not game.over.done():
                    game.over.set_result(None)
                self.bench.spawn(self.close())

    def _act(self, turn: int) -> None:
        bench = self.bench
        if bench.stopping or self.closed or self.seat is None:
            return
        if bench.rng.random() < bench.steal_share:
            action: Any = steal(bench.rng.choice([s for s in range(PLAYERS) if s != self.seat]))
        else:
            action = SCORE
        data = protocol.encode(protocol.Act(turn, action)).decode()
        sent = perf_counter()
        self.game.sent[turn] = sent
        if bench.t0 <= sent < bench.t1:
            bench.window_sent += 1
        broadcast([self.ws], data)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 5)
        self.reader.cancel()


async def open_conn(game: TableGame, first: protocol.ClientMessage, host: bool) -> Conn:
    bench = game.bench
    async with bench.opening:
        ws = await connect(
            bench.url,
            compression=None,
            proxy=None,
            open_timeout=WAIT,
            ping_interval=None,
            close_timeout=2,
        )
    conn = Conn(game, ws, host)
    bench.conns.add(conn)
    game.conns.append(conn)
    try:
        await ws.send(protocol.encode(first).decode())
        await asyncio.wait_for(conn.welcome, WAIT)
    except BaseException:
        await conn.close()
        raise
    return conn


async def open_game(game: TableGame) -> None:
    """Create the table, have three people join it, start it; back once it is played."""
    name = f"T{game.index}"
    host = await open_conn(
        game,
        protocol.Create(protocol.PROTOCOL_VERSION, name, ("human", "open", "open", "open")),
        True,
    )
    await asyncio.gather(
        *(
            open_conn(
                game, protocol.Join(protocol.PROTOCOL_VERSION, host.code, f"{name}-{s}"), False
            )
            for s in range(1, PLAYERS)
        )
    )
    await host.ws.send(protocol.encode(protocol.Start()).decode())
    await asyncio.wait_for(asyncio.shield(game.started), WAIT)


async def run_table(bench: Bench, index: int) -> None:
    """One table's four people, playing game after game until the run stops."""
    await asyncio.sleep(bench.rng.uniform(0, bench.think))  # spread the tables' turns out
    longest = 110 * (bench.think + 10)
    while not bench.stopping:
        game = TableGame(bench, index)
        try:
            await asyncio.wait_for(open_game(game), 2 * WAIT)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            bench.failed(f"{type(exc).__name__}: {exc}"[:80])
            for conn in game.conns:
                bench.spawn(conn.close())
            await asyncio.sleep(1)
            continue
        bench.games_started += 1
        if bench.stopping:
            break
        try:
            await asyncio.wait_for(asyncio.shield(game.over), longest)
            bench.games_over += 1
            # Each person leaves once they have the record: on a cluster the host's
            # connection may hear the last move before the others (a relay is a hop away).
            readers = [conn.reader for conn in game.conns if not conn.closed]
            if readers:
                await asyncio.wait(readers, timeout=GRACE)
        except TimeoutError:
            bench.stuck_games += 1
        for conn in game.conns:
            if not conn.closed:
                bench.spawn(conn.close())


async def loop_lag(samples: list[float], stop: asyncio.Event, every: float = 0.02) -> None:
    """How late this process's event loop wakes up (its own load)."""
    while not stop.is_set():
        start = perf_counter()
        await asyncio.sleep(every)
        samples.append(perf_counter() - start - every)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def own_cpu() -> float:
    t = os.times()
    return t.user + t.system


async def measure(server: Server, tables: int, args: argparse.Namespace) -> dict[str, Any]:
    bench = Bench(server.url, args.think, args.steal)
    tasks = [asyncio.create_task(run_table(bench, i)) for i in range(tables)]
    try:
        ramp = WAIT + tables * 0.1
        deadline = perf_counter() + ramp
        while bench.games_started < tables:
            if perf_counter() > deadline or not server.alive():
                why = "the server stopped" if not server.alive() else f"{ramp:.0f} s passed"
                failures = "; ".join(f"{n} x {r}" for r, n in bench.setup_failures.items())
                raise ServerFailed(
                    f"only {bench.games_started} of {tables} tables playing ({why})"
                    + (f": {failures}" if failures else "")
                )
            await asyncio.sleep(0.1)
        log(f"  {tables} tables playing; warm-up {args.warmup:g} s, then {args.seconds:g} s")
        await asyncio.sleep(args.warmup)
        # The simulated people are thousands of processes in truth, each with a small
        # heap; here they share one, whose collector's pauses (up to 50 ms, and more
        # often than a real client's) would be counted as the server's latency: it is
        # off over the window.  (Not after a collection: a full one stops this process
        # long enough to be counted in the window's first moves.)
        gc.disable()

        lags: list[float] = []
        lag_stop = asyncio.Event()
        lag_task = asyncio.create_task(loop_lag(lags, lag_stop))
        counts0 = await asyncio.to_thread(server.writer_counts)
        rss0, _ = server.memory_mb()
        nodes0 = server.node_cpu()
        cpu0, mine0, bench.t0 = server.cpu_seconds(), own_cpu(), perf_counter()
        games0 = bench.games_over
        await asyncio.sleep(args.seconds)
        bench.t1 = perf_counter()
        cpu1, mine1 = server.cpu_seconds(), own_cpu()
        nodes1 = server.node_cpu()
        wall = bench.t1 - bench.t0
        rss1, peak = server.memory_mb()
        counts1 = await asyncio.to_thread(server.writer_counts)
        status = await asyncio.to_thread(server_status, server.port)
        lag_stop.set()
        await lag_task
        games_in_window = bench.games_over - games0
        grace = perf_counter() + GRACE
        while len(bench.samples) < bench.window_sent and perf_counter() < grace:
            await asyncio.sleep(0.05)
    finally:
        gc.enable()
        bench.stopping = True
        # Python 3.11's wait_for can swallow a cancel that lands as its inner task
        # ends; a table's task would then wait out a whole game nobody plays any more.
        pending = set(tasks)
        while pending:
            for task in pending:
                task.cancel()
            _, pending = await asyncio.wait(pending, timeout=1)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(c.close() for c in list(bench.conns)), return_exceptions=True),
                WAIT,
            )
        for task in list(bench.background):
            task.cancel()

    samples = bench.samples
    writes = commits = None
    if counts0 is not None and counts1 is not None:
        writes, commits = counts1[0] - counts0[0], counts1[1] - counts0[1]
    moves = len(samples)
    server_cpu = cpu1 - cpu0
    return {
        "tables": tables,
        "connections": tables * PLAYERS,
        "seconds": round(wall, 2),
        "moves": moves,
        "moves_per_s": round(moves / wall, 1),
        "lost_moves": bench.window_sent - moves,
        "latency_ms": {
            "p50": round(percentile(samples, 0.50) * 1e3, 2),
            "p99": round(percentile(samples, 0.99) * 1e3, 2),
            "max": round(max(samples, default=float("nan")) * 1e3, 2),
        },
        "server_cpu_pct": round(100 * server_cpu / wall, 1),
        "server_cpu_ms_per_move": round(1e3 * server_cpu / moves, 3) if moves else None,
        "node_cpu_ms_per_move": [
            round(1e3 * (after - before) / moves, 3) if moves else None
            for before, after in zip(nodes0, nodes1, strict=True)
        ],
        "server_rss_mb": round(rss1, 1),
        "server_rss_growth_mb": round(rss1 - rss0, 1),
        "server_peak_rss_mb": round(peak, 1),
        "server_writes": writes,
        "server_commits": commits,
        "writes_per_commit": round(writes / commits, 2) if writes and commits else None,
        "server_status": status,
        "client_cpu_pct": round(100 * (mine1 - mine0) / wall, 1),
        "client_loop_lag_ms": {
            "p99": round(percentile(lags, 0.99) * 1e3, 2),
            "max": round(max(lags, default=float("nan")) * 1e3, 2),
        },
        "games_finished": games_in_window,
        "stuck_games": bench.stuck_games,
        "setup_failures": bench.setup_failures,
        "errors": bench.errors,
    }


def one_line(r: dict[str, Any]) -> str:
    lat, lag = r["latency_ms"], r["client_loop_lag_ms"]
    commits = (
        f"{r['writes_per_commit']:.2f} writes/commit ({r['server_commits']} commits)"
        if r["writes_per_commit"]
        else "commits: n/a"
    )
    per_move = r["server_cpu_ms_per_move"]
    status = r["server_status"]
    rooms = f"{status['tables']} rooms in memory" if status else "rooms: n/a"
    trouble = []
    if r["lost_moves"]:
        trouble.append(f"{r['lost_moves']} moves never reached all four")
    if r["errors"]:
        trouble.append("errors " + ", ".join(f"{k} x{v}" for k, v in r["errors"].items()))
    if r["stuck_games"]:
        trouble.append(f"{r['stuck_games']} games stuck")
    if r["setup_failures"]:
        trouble.append(f"{sum(r['setup_failures'].values())} failed table setups")
    nodes = r.get("node_cpu_ms_per_move") or []
    if len(nodes) > 1:
        trouble.insert(0, "CPU per node " + " + ".join(f"{n:.2f}" for n in nodes) + " ms/move")
    return (
        f"{r['tables']:4d} tables {r['connections']:5d} conns | {r['moves']:6d} moves "
        f"{r['moves_per_s']:6.1f}/s | latency p50 {lat['p50']:.1f} p99 {lat['p99']:.1f} "
        f"max {lat['max']:.1f} ms | server CPU {r['server_cpu_pct']:.0f}% of a core "
        f"({per_move if per_move is not None else float('nan'):.2f} ms/move), "
        f"RSS {r['server_rss_mb']:.0f} MB (+{r['server_rss_growth_mb']:.0f}), {commits}, "
        f"{rooms} | "
        f"client CPU {r['client_cpu_pct']:.0f}%, loop lag p99 {lag['p99']:.1f} ms"
        + (" | " + "; ".join(trouble) if trouble else "")
    )


def summary(results: list[dict[str, Any]]) -> None:
    head = (
        f"{'tree':>5} {'tables':>6} {'conns':>6} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} "
        f"{'p99 ms':>7} "
        f"{'max ms':>7} {'srv CPU%':>8} {'ms/move':>8} {'RSS MB':>7} {'wr/commit':>9} "
        f"{'cli CPU%':>8} {'lost':>5}"
    )
    log("summary")
    log("  " + head)
    for r in results:
        lat = r["latency_ms"]
        per = r["server_cpu_ms_per_move"]
        wpc = r["writes_per_commit"]
        log(
            f"  {r['tree']:>5} {r['tables']:>6} {r['connections']:>6} {r['moves']:>6} "
            f"{r['moves_per_s']:>8.1f} "
            f"{lat['p50']:>7.1f} {lat['p99']:>7.1f} {lat['max']:>7.1f} "
            f"{r['server_cpu_pct']:>8.0f} {per if per is not None else float('nan'):>8.3f} "
            f"{r['server_rss_mb']:>7.0f} {wpc if wpc else float('nan'):>9.2f} "
            f"{r['client_cpu_pct']:>8.0f} {r['lost_moves']:>5}"
        )
    trees = list(dict.fromkeys(r["tree"] for r in results))
    for tree in trees:
        runs = [r for r in results if r["tree"] == tree]
        held = [r["tables"] for r in runs if _within_target(r)]
        most = f"{max(held)} tables" if held else "none of the sizes run"
        big = next((r for r in runs if r["tables"] == 500), None)
        at500 = (
            "not run at 500 tables"
            if big is None
            else f"{'met' if _within_target(big) else 'NOT met'} at 500 tables "
            f"(p99 {big['latency_ms']['p99']:.1f} ms)"
        )
        log(f"  {tree}: target (p99 <= 50 ms) {at500}; most held within it: {most}")
    # The cost of the hop between nodes: the cluster's p50 beside one process's, size by size.
    for tables in sorted({r["tables"] for r in results}):
        p50 = {r["tree"]: r["latency_ms"]["p50"] for r in results if r["tables"] == tables}
        if "2nodes" in p50:
            for single in ("sqlite", "pg"):
                if single in p50:
                    log(
                        f"  {tables} tables: the hop costs {p50['2nodes'] - p50[single]:+.1f} ms "
                        f"at p50 (2nodes minus {single})"
                    )
    log(f"  ({os.cpu_count()} cores here)")


def _within_target(result: dict[str, Any]) -> bool:
    return bool(result["latency_ms"]["p99"] <= 50 and not result["lost_moves"])


# ---------------------------------------------------------------------- in-process breakdown


class _Instant:
    """A person who answers at once (the driver's own cost, without the network)."""

    def choose(self, view: Any) -> Any:
        return SCORE

    async def choose_async(self, view: Any) -> Any:
        return SCORE


class _NullKeeper:
    async def save(self, record: Any) -> None:
        pass

    async def note(self, notice: Any, turn: int) -> None:
        pass

    async def finish(self, record: Any) -> None:
        pass


SEATS = tuple(SeatInfo(f"P{s}", "human", None) for s in range(PLAYERS))


def piece_costs(games: int = 200) -> dict[str, float]:
    """µs per move of each piece of the server's work on a move, in one thread."""
    rng = random.Random(3)
    total = {"apply": 0.0, "record": 0.0, "view": 0.0, "encode": 0.0, "decode": 0.0}
    moves = 0
    for g in range(games):
        game = Game.new(PLAYERS, game_seed(9, g))
        start = 0
        while not game.over:
            seat = game.view().to_move
            action = SCORE if rng.random() < 0.8 else steal((seat + 1) % PLAYERS)
            intent = protocol.encode(protocol.Act(game.turn, action))
            t = perf_counter()
            protocol.decode_client(intent)
            t1 = perf_counter()
            game.view(seat).legal_actions()  # Room.act's legality check
            t2 = perf_counter()
            events = game.apply(action, seat)
            t3 = perf_counter()
            record_of(game, SEATS)  # the driver builds the record for its keeper every move
            t4 = perf_counter()
            protocol.encode(protocol.Stream(start, tuple(events))).decode()  # Room._flush
            t5 = perf_counter()
            start += len(events)
            total["decode"] += t1 - t
            total["view"] += t2 - t1
            total["apply"] += t3 - t2
            total["record"] += t4 - t3
            total["encode"] += t5 - t4
            moves += 1
    return {k: round(v / moves * 1e6, 2) for k, v in total.items()}


def _own_rss_kb() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def driver_cost(games: int = 300) -> dict[str, float]:
    """``Table.run`` with instant seats, a no-op keeper, frames encoded as ``Room`` does.

    Gives µs per move, and what the finished tables cost once kept in memory
    (the server keeps a finished room for an hour): kB each, and how much
    longer a full ``gc.collect()`` takes per 1000 of them.
    """
    moves = 0
    frame_bytes = 0
    outbox: list[Any] = []
    kept: list[Table] = []
    loop = asyncio.get_running_loop()

    def flush() -> None:
        nonlocal frame_bytes
        messages = tuple(outbox)
        outbox.clear()
        frame_bytes += len(protocol.encode(protocol.Stream(0, messages)).decode())

    def publish(message: Any) -> None:
        if not outbox:
            loop.call_soon(flush)
        outbox.append(message)

    gc.collect()
    rss0 = _own_rss_kb()
    start = perf_counter()
    for g in range(games):
        table = Table(
            dealt(SEATS, game_seed(5, g)), [_Instant() for _ in SEATS], keeper=_NullKeeper()
        )
        table.subscribe(publish, backlog=False)
        await table.run()
        moves += table.turn
        kept.append(table)
    await asyncio.sleep(0)
    per_move = (perf_counter() - start) / moves
    gc.collect()
    rss1 = _own_rss_kb()
    start = perf_counter()
    gc.collect()
    with_tables = perf_counter() - start
    kept.clear()
    gc.collect()
    start = perf_counter()
    gc.collect()
    without = perf_counter() - start
    return {
        "us_per_move": round(per_move * 1e6, 2),
        "moves_per_game": round(moves / games, 1),
        "frame_bytes": round(frame_bytes / moves),
        "kept_kb_per_table": round((rss1 - rss0) / games, 1),
        "gc_ms_per_1000_kept": round(max(0.0, with_tables - without) / games * 1e6, 2),
    }


async def writer_cost(directory: Path, writes: int) -> dict[str, float]:
    """One move's write through the SQLite store: awaited one at a time, then all at once."""
    store = SqliteTableStore(directory / "bench.sqlite3")
    writer = store.writer
    try:
        seats = [StoredSeat(f"P{s}", "human") for s in range(PLAYERS)]
        table_id = await store.create_table("BENCH", TableRules(), host=0, seats=seats)
        game_id = await store.start_game(table_id, 1)
        move = [(0, SCORE)]
        start, cpu = perf_counter(), time.process_time()
        for i in range(writes):
            await store.add_moves(game_id, i, move)
        alone = (perf_counter() - start) / writes
        alone_cpu = (time.process_time() - cpu) / writes
        before = writer.batches
        start = perf_counter()
        await asyncio.gather(*(store.add_moves(game_id, writes + i, move) for i in range(writes)))
        together = perf_counter() - start
        commits = writer.batches - before
    finally:
        await store.close()
    return {
        "writes": writes,
        "alone_ms_per_write": round(alone * 1e3, 3),
        "alone_cpu_ms_per_write": round(alone_cpu * 1e3, 3),
        "together_ms_total": round(together * 1e3, 1),
        "together_commits": commits,
        "together_us_per_write": round(together / writes * 1e6, 1),
    }


async def breakdown(directory: Path, writes: int) -> dict[str, Any]:
    pieces = piece_costs()
    driver = await driver_cost()
    sqlite = await writer_cost(directory, writes)
    return {"pieces_us": pieces, "driver": driver, "sqlite": sqlite}


def show_breakdown(b: dict[str, Any]) -> None:
    p, d, s = b["pieces_us"], b["driver"], b["sqlite"]
    log("where a move's time goes (in process, no network; µs per move unless said):")
    log(
        f"  CPU: decode act {p['decode']:.1f} + legality view {p['view']:.1f} + apply "
        f"{p['apply']:.1f} + record_of {p['record']:.1f} + encode stream frame {p['encode']:.1f}; "
        f"whole driver loop (Table.run, instant seats, no DB) {d['us_per_move']:.1f} "
        f"({d['moves_per_game']:.0f} moves a game, {d['frame_bytes']} B a frame)"
    )
    log(
        f"  SQLite via Writer: one move's commit awaited alone {s['alone_ms_per_write']:.2f} ms "
        f"wall, {s['alone_cpu_ms_per_write']:.2f} ms CPU (both threads; x{s['writes']}); "
        f"{s['writes']} at once {s['together_ms_total']:.1f} ms in "
        f"{s['together_commits']} commits ({s['together_us_per_write']:.1f} µs/write)"
    )
    log(
        f"  a finished game kept in memory (the server keeps its room an hour): its Table "
        f"~{d['kept_kb_per_table']:.0f} kB, +{d['gc_ms_per_1000_kept']:.1f} ms on a full "
        f"gc.collect() per 1000 kept"
    )


# ---------------------------------------------------------------------- main


def raise_file_limit(tables: int) -> tuple[int, int]:
    """Raise the open-file limit to the hard limit (children inherit it); (soft, needed)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft, tables * PLAYERS + 200


async def run(args: argparse.Namespace) -> int:
    sizes = [int(n) for n in args.tables.split(",") if n.strip()]
    main_task = asyncio.current_task()
    assert main_task is not None
    # SIGTERM stops the run as Ctrl-C does: every finally below (the server's too) runs.
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    tmp_root = Path(tempfile.mkdtemp(prefix="mantis-bench-", dir=args.tmp))
    results: list[dict[str, Any]] = []
    report: dict[str, Any] = {
        "think_s": args.think,
        "warmup_s": args.warmup,
        "window_s": args.seconds,
        "cores": os.cpu_count(),
        "results": results,
    }
    status = 0
    services: Services | None = None
    try:
        log(
            f"server benchmark: {PLAYERS}-player tables, people answer {args.think:g} s "
            f"after their turn starts; data in {tmp_root}"
        )
        if not args.no_breakdown:
            report["breakdown"] = await breakdown(tmp_root, args.writes)
            show_breakdown(report["breakdown"])
        # The simulated people are this one process's thousands of connections: with
        # Python's default collector, its own pauses (up to 150 ms seen) would be
        # counted as the server's latency.  Outside the window it collects as a
        # server does (over the window, not at all: see ``measure``).
        tune_garbage_collector()
        trees = [("this", ROOT)] + ([("vs", Path(args.vs).resolve())] if args.vs else [])
        services = Services() if args.cluster else None
        if services is not None:
            trees = [("sqlite", ROOT), ("pg", ROOT), ("2nodes", ROOT)]
            if args.only:
                trees = [tree for tree in trees if tree[0] in args.only.split(",")]
            takeovers = await services.takeovers(tmp_root, args.kills) if args.kills else []
            report["takeover_s"] = takeovers
            if takeovers:
                log(
                    f"takeover (kill -9 of a table's node -> its next move published), "
                    f"{len(takeovers)} kills: median {statistics.median(takeovers):.2f} s, "
                    f"min {min(takeovers):.2f}, max {max(takeovers):.2f}"
                )
        for tables, (label, source) in [(t, tree) for t in sizes for tree in trees]:
            soft, needed = raise_file_limit(tables)
            if soft < needed:
                log(
                    f"{tables} tables: skipped: the open-file limit is {soft}, this needs about "
                    f"{needed} (in this process and in the server): raise it (ulimit -n)"
                )
                status = 1
                continue
            run_dir = tmp_root / f"run-{tables}-{label}"
            log(
                f"{tables} tables ({tables * PLAYERS} connections): starting a fresh server"
                + (f" ({label}: {source})" if args.vs else "")
            )
            try:
                if services is not None and label != "sqlite":
                    server = await asyncio.to_thread(services.start, run_dir, label)
                else:
                    server = await asyncio.to_thread(
                        Server, run_dir / "data", run_dir / "home", args.plain_server, source
                    )
            except ServerFailed as exc:
                log(f"mantis benchmark: error: {exc}")
                return 1
            try:
                result = await measure(server, tables, args)
            except ServerFailed as exc:
                log(f"mantis benchmark: error at {tables} tables: {exc}")
                status = 1
                continue
            finally:
                await asyncio.to_thread(server.stop)
                if server.stderr and args.verbose:
                    log("  server stderr: " + "".join(server.stderr[-400:]).strip())
            result["tree"] = label
            results.append(result)
            log(one_line(result))
        if results:
            summary(results)
            if any(r["writes_per_commit"] is None for r in results) and args.plain_server:
                log("  (writes per commit: n/a with --plain-server: the writer is not visible)")
    finally:
        if services is not None:
            services.close()
        if not args.keep:
            shutil.rmtree(tmp_root, ignore_errors=True)
    if args.json:
        print(json.dumps(_no_nan(report), indent=2, ensure_ascii=False))
    return status


def _no_nan(value: Any) -> Any:
    """``value`` with every NaN (a figure with no sample) as null, for strict JSON."""
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_nan(v) for v in value]
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="50,200,500", help="comma list of table counts")
    parser.add_argument("--seconds", type=float, default=30.0, help="measurement window")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds excluded from stats")
    parser.add_argument("--think", type=float, default=1.0, help="a person's time to answer")
    parser.add_argument("--steal", type=float, default=0.2, help="share of moves that steal")
    parser.add_argument("--writes", type=int, default=1000, help="writes in the SQLite figures")
    parser.add_argument("--no-breakdown", action="store_true", help="skip the in-process costs")
    parser.add_argument(
        "--plain-server",
        action="store_true",
        help="run `python -m mantis serve` itself (no writer counters)",
    )
    parser.add_argument(
        "--vs",
        metavar="DIR",
        help="another Mantis checkout: each size runs on its server too, side by side",
    )
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="each size on one SQLite process, one node on PostgreSQL and two nodes behind "
        "HAProxy (Redis), and the takeover time after kill -9",
    )
    parser.add_argument("--kills", type=int, default=10, help="takeovers timed with --cluster")
    parser.add_argument("--only", help="with --cluster: these setups only (sqlite,pg,2nodes)")
    parser.add_argument("--tmp", help="where the server's database goes (default: system temp)")
    parser.add_argument("--keep", action="store_true", help="keep the databases afterwards")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--verbose", action="store_true", help="show the server's stderr")
    args = parser.parse_args()
    OPTIONS["json"] = args.json
    try:
        sys.exit(asyncio.run(run(args)))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("mantis benchmark: stopped", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
