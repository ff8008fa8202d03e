"""What one address can cost a table server, and what a bystander feels meanwhile.

Run: ``.venv/bin/python benchmarks/abuse.py [--vs DIR] [--seconds 10]
[--only tables,bots,listing,connections,spectators,leaderboard] [--json]``.  ``--vs DIR``
runs every attack on the server of another checkout too (the tree before a
change, say: ``git worktree add /tmp/before COMMIT``), one after the other
in one run, and prints the two side by side.

Each attack starts a fresh ``mantis serve`` (its default limits, unless
said) and tries what the issue tried, from 127.0.0.1, while a bystander on
127.0.0.2 plays a table of its own against five expert bots (``--bot-pace 1``)
and pings the server every 50 ms.  The attacks (the issue's points):

1. ``tables``: create tables as fast as it can for ``--seconds`` (up to
   ``--tables``), leaving each at once.  Tables made, refused, the server's
   memory and its database's growth.
1. ``bots``: up to ``--bot-tables`` tables of a host and five expert bots,
   started and left (``--away-after 1``, so the away bot plays at once);
   then the server's CPU, and the bystander's bot's pace, for ``--seconds``.
   ``bots-many``: the same from ``--addresses`` addresses (127.0.0.1 and
   127.0.1.x, as many parties would): the bots' share is what holds then.
2. ``listing``: ``--listed`` public tables (limits raised on both servers so
   both hold as many: the cost of ``GET /tables`` itself is compared), then
   ten ``GET /tables`` at once: bytes, seconds, the bystander's worst ping.
3. ``connections``: ``watch`` connections to its own table until refused or
   ``--connections``; then whether the bystander can still connect.
8. ``spectators``: ``--spectators`` spectators that read nothing on its own
   waiting table while its host changes the seats 10 times a second for
   ``--seconds``: the server's CPU and memory, the kernel's socket memory.
7. ``leaderboard`` (rated play's issue): a server whose store holds
   ``--players`` rated players (300,000), two people playing a table of their
   own (a move every 60 ms), for ``--seconds`` quiet and then ``--seconds``
   while 8 clients ask random leaderboard pages as fast as they are answered,
   each from 30 addresses in turn (so that the pages are read, not refused by
   each address's allowance): each move's latency (its ``act`` sent to its
   card heard), median and p95, quiet and loaded; the pages answered and
   refused.

The bystander's figures: ping round trip p50 / p99 / max (the server's event
loop answers pings, so a stalled loop shows here first) and the gaps between
its bot's moves (1 s when the server keeps pace).  Linux only (/proc).  The
figures of one run on this project's 2-core machine are in docs/operations.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage

from mantis.engine import SCORE, CardRevealed, TurnStarted
from mantis.net import protocol

ROOT = Path(__file__).resolve().parents[1]
WAIT = 30.0
BYSTANDER = "127.0.0.2"
#: The protocol the attacks speak: one the trees compared (``--vs``) both speak.
VERSION = 3
#: Seconds between a move heard and the next one sent, in the leaderboard attack.
MOVE_GAP = 0.06
FAILED = (OSError, InvalidHandshake, InvalidMessage, ConnectionClosed, TimeoutError)


# ---------------------------------------------------------------------- the server


def knows(source: Path, option: str) -> bool:
    """Whether ``mantis serve`` of the tree at ``source`` takes ``option``."""
    env = dict(os.environ, PYTHONPATH=str(source))
    command = [sys.executable, "-m", "mantis", "serve", "--help"]
    helped = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True)
    return option in helped.stdout


class Server:
    """``mantis serve`` from one Mantis tree, in its own process, watched through /proc."""

    def __init__(
        self, source: Path, *options: str, prepare: Callable[[Path, Path], None] | None = None
    ) -> None:
        """``options`` it does not know (a tree from before they were made) are left out;
        ``prepare(source, data)`` fills its data folder first."""
        self.home = Path(tempfile.mkdtemp(prefix="abuse-"))
        if prepare is not None:
            prepare(source, self.home / "server")
        command = [sys.executable, "-m", "mantis", "serve", "--port", "0"]
        command += ["--data", str(self.home / "server")]
        for name, value in zip(options[::2], options[1::2], strict=True):
            if knows(source, name):
                command += [name, value]
        env = dict(os.environ, MANTIS_HOME=str(self.home), PYTHONPATH=str(source))
        self.process = subprocess.Popen(
            command,
            cwd=source,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("mantis server on ws://"):
            raise SystemExit(f"the server did not start: {line or self.process.stderr}")
        self.url = line.split()[-1]
        self.stderr_bytes = 0
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr_bytes += len(line)

    def cpu(self) -> float:
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def database_mb(self) -> float:
        files = (self.home / "server").glob("server.sqlite3*")
        return sum(f.stat().st_size for f in files) / 1e6

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.home, ignore_errors=True)


def kernel_tcp_mb() -> float:
    """Memory the kernel holds for TCP sockets (every process's), from /proc/net/sockstat."""
    with open("/proc/net/sockstat") as f:
        for line in f:
            if line.startswith("TCP:"):
                words = line.split()
                return int(words[words.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    return 0.0


# ---------------------------------------------------------------------- clients


def frame(message: protocol.ClientMessage) -> str:
    """``message`` as a frame of ``VERSION``: without the fields later versions added (an
    older server refuses a field it does not know)."""
    fields = json.loads(protocol.encode(message))
    if fields.get("player", "") is None:
        del fields["player"]
    return json.dumps(fields)


async def opening(
    url: str, message: protocol.ClientMessage, source: str = "127.0.0.1"
) -> tuple[ClientConnection | None, protocol.ServerMessage | None]:
    """Connect from ``source``, say ``message``: the connection (None if refused) and answer."""
    try:
        connection = await asyncio.wait_for(
            connect(url, compression=None, max_size=None, local_addr=(source, 0)), WAIT
        )
    except FAILED:
        return None, None
    try:
        await connection.send(frame(message))
        answer = protocol.decode_server(await asyncio.wait_for(connection.recv(), WAIT))
    except FAILED:
        await connection.close()
        return None, None
    if not isinstance(answer, protocol.Welcome):
        await connection.close()
        return None, answer
    return connection, answer


class Bystander:
    """Someone else on the server: a table against five expert bots, and a ping every 50 ms.

    (Six seats: a long game, so its table outlasts an attack that fills the server.)
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.pings: list[float] = []
        self.bot_moves: list[float] = []
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._play()), asyncio.create_task(self._ping())]

    def reset(self) -> None:
        self.pings.clear()
        self.bot_moves.clear()

    async def _play(self) -> None:
        while True:
            seats = ("human", *["expert"] * 5)
            create = protocol.Create(VERSION, "Bea", seats)
            connection, _ = await opening(self.url, create, BYSTANDER)
            if connection is None:
                await asyncio.sleep(0.5)
                continue
            self._connection = connection
            await connection.send(protocol.encode(protocol.Start()).decode())
            with contextlib.suppress(ConnectionClosed):
                async for frame in connection:
                    message = protocol.decode_server(frame)
                    if not isinstance(message, protocol.Stream):
                        continue
                    for event in message.messages:
                        if isinstance(event, CardRevealed) and event.seat != 0:
                            self.bot_moves.append(time.perf_counter())
                        if isinstance(event, TurnStarted) and event.seat == 0:
                            act = protocol.Act(event.turn, SCORE)
                            await connection.send(protocol.encode(act).decode())
                    if any(type(e).__name__ == "Recorded" for e in message.messages):
                        break
            await connection.close()

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(0.05)
            connection = getattr(self, "_connection", None)
            if connection is None:
                continue
            start = time.perf_counter()
            with contextlib.suppress(*FAILED):
                pong = await connection.ping()
                await asyncio.wait_for(pong, WAIT)
                self.pings.append(time.perf_counter() - start)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self._connection.close()

    def figures(self) -> dict[str, Any]:
        pings = sorted(self.pings) or [float("nan")]
        gaps = [b - a for a, b in zip(self.bot_moves, self.bot_moves[1:], strict=False)]
        return {
            "ping p50 ms": 1000 * pings[len(pings) // 2],
            "ping p99 ms": 1000 * pings[min(len(pings) - 1, int(len(pings) * 0.99))],
            "ping max ms": 1000 * pings[-1],
            "bot moves": len(self.bot_moves),
            "bot gap mean s": statistics.fmean(gaps) if gaps else float("nan"),
            "bot gap max s": max(gaps) if gaps else float("nan"),
        }


async def in_parallel(workers: int, job: Callable[[], Awaitable[bool]]) -> None:
    """Run ``job`` in ``workers`` loops at once, each until it returns False."""

    async def loop() -> None:
        while await job():
            pass

    await asyncio.gather(*(loop() for _ in range(workers)))


# ---------------------------------------------------------------------- the attacks


async def attack_tables(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    made = refused = 0
    rss, database = server.rss_mb(), server.database_mb()
    deadline = time.perf_counter() + args.seconds
    create = protocol.Create(VERSION, "Eve", ("human", "open"))

    async def one() -> bool:
        nonlocal made, refused
        connection, answer = await opening(server.url, create)
        if connection is not None:
            made += 1
            await connection.close()
        else:
            refused += 1
        return time.perf_counter() < deadline and made < args.tables

    start = time.perf_counter()
    await in_parallel(8, one)
    return {
        "tables made": made,
        "refused": refused,
        "per second": made / (time.perf_counter() - start),
        "server RSS +MB": server.rss_mb() - rss,
        "database +MB": server.database_mb() - database,
    }


async def attack_bots(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    return await _bot_tables(server, args, 1)


async def attack_bots_many(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    return await _bot_tables(server, args, args.addresses)


async def _bot_tables(server: Server, args: argparse.Namespace, addresses: int) -> dict[str, Any]:
    """Bot tables, made from ``addresses`` addresses (127.0.0.1, then 127.0.1.x)."""
    made = refused = 0
    seats = ("human", *["expert"] * 5)
    create = protocol.Create(VERSION, "Eve", seats)
    sources = ["127.0.0.1", *(f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(addresses - 1))]

    async def one() -> bool:
        nonlocal made, refused
        connection, _ = await opening(server.url, create, sources[(made + refused) % addresses])
        if connection is None:
            refused += 1
        else:
            made += 1
            await connection.send(protocol.encode(protocol.Start()).decode())
            await asyncio.wait_for(connection.recv(), WAIT)  # started: now leave
            await connection.close()
        return made < args.bot_tables and refused < 20 * addresses

    await in_parallel(8, one)
    await asyncio.sleep(2)  # the away bots take over
    return {"bot tables made": made, "refused": refused}


async def attack_listing(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    create = protocol.Create(VERSION, "Eve", ("human", "open"))
    made = 0

    async def one() -> bool:
        nonlocal made
        connection, _ = await opening(server.url, create)
        if connection is None:
            return False
        made += 1
        await connection.close()
        return made < args.listed

    await in_parallel(8, one)
    await asyncio.sleep(1.5)  # any cached order is stale now: the requests pay for a new one
    address = server.url.replace("ws://", "http://") + "/tables"

    def get() -> int:
        with urllib.request.urlopen(address, timeout=WAIT) as reply:  # noqa: S310
            return len(reply.read())

    start = time.perf_counter()
    sizes = await asyncio.gather(*(asyncio.to_thread(get) for _ in range(10)))
    return {
        "public tables": made,
        "bytes per GET": sizes[0],
        "10 GETs at once s": time.perf_counter() - start,
    }


async def _own_table(server: Server) -> tuple[ClientConnection, protocol.Watch]:
    """The attacker's waiting table (its host's connection), and how to watch it."""
    create = protocol.Create(VERSION, "Eve", ("human", "open"))
    host, welcome = await opening(server.url, create)
    assert host is not None and isinstance(welcome, protocol.Welcome)
    return host, protocol.Watch(VERSION, welcome.code)


async def _watchers(
    server: Server, watch: protocol.Watch, most: int, reading: bool
) -> list[ClientConnection]:
    """As many spectators as the server lets in (up to ``most``); they read or not."""
    held: list[ClientConnection] = []
    refused = 0

    async def one() -> bool:
        nonlocal refused
        connection, _ = await opening(server.url, watch)
        if connection is None:
            refused += 1
        else:
            if not reading:
                connection.transport.pause_reading()  # it reads nothing from now on
            held.append(connection)
        return len(held) < most and refused < 20

    await in_parallel(8, one)
    return held


async def attack_connections(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    table, watch = await _own_table(server)
    rss = server.rss_mb()
    start = time.perf_counter()
    held = await _watchers(server, watch, args.connections, reading=True)
    took = time.perf_counter() - start
    bystander, answer = await opening(server.url, watch, BYSTANDER)
    figures = {
        "connections held": len(held),
        "seconds to take them": took,
        "server RSS +MB": server.rss_mb() - rss,
        "bystander gets in": bystander is not None,
        "bystander told": getattr(answer, "code", "") if bystander is None else "",
    }
    for connection in [*held, table] + ([bystander] if bystander else []):
        connection.transport.abort()
    return figures


async def attack_spectators(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    host, watch = await _own_table(server)
    silent = await _watchers(server, watch, args.spectators, reading=False)
    rss, kernel, cpu = server.rss_mb(), kernel_tcp_mb(), server.cpu()
    start = time.perf_counter()
    toggles = 0
    with contextlib.suppress(ConnectionClosed):
        while time.perf_counter() - start < args.seconds:
            intent = protocol.AddOpen() if toggles % 2 == 0 else protocol.RemoveSeat(2)
            await host.send(protocol.encode(intent).decode())
            toggles += 1
            await asyncio.sleep(0.1)
    took = time.perf_counter() - start
    figures = {
        "silent spectators": len(silent),
        "seat changes": toggles,
        "server CPU %": 100 * (server.cpu() - cpu) / took,
        "server RSS +MB": server.rss_mb() - rss,
        "kernel TCP +MB": kernel_tcp_mb() - kernel,
        "still connected": sum(1 for c in silent if c.transport and not c.transport.is_closing()),
    }
    for connection in [*silent, host]:
        connection.transport.abort()
    return figures


def rated_players(count: int) -> Callable[[Path, Path], None]:
    """A ``prepare`` that fills a server's store with ``count`` rated players (in the tree's
    own schema, made by that tree)."""

    def prepare(source: Path, data: Path) -> None:
        path = data / "server.sqlite3"
        # (a tree from before the SQLite store was named for SQLite has it in tables_db)
        made = (
            "import sys\n"
            "try:\n    from mantis.store.tables_sqlite_db import TablesDB\n"
            "except ImportError:\n    from mantis.store.tables_db import TablesDB\n"
            "TablesDB(sys.argv[1]).close()"
        )
        env = dict(os.environ, PYTHONPATH=str(source))
        subprocess.run([sys.executable, "-c", made, str(path)], cwd=source, env=env, check=True)
        draw = random.Random(7)
        rows = []
        for n in range(count):
            games = draw.randint(1, 60)
            rows.append(
                (
                    f"player{n}",
                    f"Player{n}",
                    f"{n:064x}",
                    draw.gauss(25, 4),
                    draw.uniform(1, 8),
                    games,
                    draw.randint(0, games),
                )
            )
        with sqlite3.connect(path) as db:
            db.executemany(
                "INSERT INTO players (name_key, name, key_hash, mu, sigma, games, wins, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, '2026-01-01T00:00:00+00:00')",
                rows,
            )

    return prepare


async def _moves(url: str, seconds: float) -> list[float]:
    """Two people playing tables of their own as fast as they can for ``seconds``: each
    move's latency, from its ``act`` sent to its card heard (seconds)."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        create = protocol.Create(VERSION, "Ann", ("human", "open"))
        ann, welcome = await opening(url, create, "127.0.3.1")
        if ann is None or not isinstance(welcome, protocol.Welcome):
            raise SystemExit(f"the mover's table was refused: {welcome}")
        join = protocol.Join(VERSION, welcome.code, "Bea")
        bea, _ = await opening(url, join, "127.0.4.1")
        assert bea is not None
        seats = {0: ann, 1: bea}
        heard = asyncio.create_task(_drain(bea))  # (Bea reads what she is sent: Ann listens)
        await ann.send(protocol.encode(protocol.Start()).decode())
        sent: dict[int, float] = {}
        played = 0
        playing = True
        while playing:
            message = protocol.decode_server(await asyncio.wait_for(ann.recv(), WAIT))
            if not isinstance(message, protocol.Stream):
                continue
            for event in message.messages:
                if isinstance(event, CardRevealed):
                    if played in sent:
                        latencies.append(time.perf_counter() - sent[played])
                    played += 1
                elif isinstance(event, TurnStarted):
                    if time.perf_counter() >= deadline:
                        playing = False  # (the table is left as it is)
                        break
                    # (A person's pace, within a connection's allowance of messages.)
                    await asyncio.sleep(MOVE_GAP)
                    sent[event.turn] = time.perf_counter()
                    act = protocol.encode(protocol.Act(event.turn, SCORE)).decode()
                    await seats[event.seat].send(act)
                elif type(event).__name__ == "Recorded":
                    playing = False
        for connection in (ann, bea):
            await connection.close()
        await heard
    return latencies


async def _drain(connection: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for _ in connection:
            pass


def _ask_page(url: str, source: str, page: int) -> int:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=WAIT, source_address=(source, 0)
    )
    try:
        connection.request("GET", f"/leaderboard?page={page}")
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


async def attack_leaderboard(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    quiet = await _moves(server.url, args.seconds)
    stop = asyncio.Event()
    answered: Counter[int] = Counter()
    pages = max(1, args.players // 50)

    async def asker(n: int) -> None:
        draw = random.Random(n)
        asked = 0
        while not stop.is_set():
            # Each from addresses of its own (30 of them, in turn): many parties, so that
            # the pages are read rather than refused by each address's allowance.
            source = f"127.{10 + n}.{asked % 30}.1"
            asked += 1
            with contextlib.suppress(OSError):
                status = await asyncio.to_thread(
                    _ask_page, server.url, source, draw.randint(1, pages)
                )
                answered[status] += 1

    askers = [asyncio.create_task(asker(n)) for n in range(8)]
    start = time.perf_counter()
    loaded = await _moves(server.url, args.seconds)
    took = time.perf_counter() - start
    stop.set()
    await asyncio.gather(*askers)

    def median(values: list[float]) -> float:
        return 1000 * statistics.median(values) if values else float("nan")

    def p95(values: list[float]) -> float:
        ranked = sorted(values) or [float("nan")]
        return 1000 * ranked[min(len(ranked) - 1, int(len(ranked) * 0.95))]

    return {
        "rated players": args.players,
        "moves quiet": len(quiet),
        "move ms p50 quiet": median(quiet),
        "move ms p95 quiet": p95(quiet),
        "moves loaded": len(loaded),
        "move ms p50 loaded": median(loaded),
        "move ms p95 loaded": p95(loaded),
        "loaded / quiet p50": median(loaded) / median(quiet) if quiet and loaded else "",
        "pages answered": answered[200],
        "pages refused (429)": answered[429],
        "pages busy (503)": answered[503],
        "pages a second": sum(answered.values()) / took,
    }


ATTACKS: dict[str, tuple[Callable[..., Awaitable[dict[str, Any]]], tuple[str, ...]]] = {
    "tables": (attack_tables, ()),
    "bots": (attack_bots, ("--away-after", "1")),
    "bots-many": (attack_bots_many, ("--away-after", "1")),
    "listing": (attack_listing, ("--max-tables", "100000", "--tables-per-address", "100000")),
    "connections": (attack_connections, ()),
    "spectators": (attack_spectators, ()),
    "leaderboard": (attack_leaderboard, ()),
}


async def run_attack(name: str, source: Path, args: argparse.Namespace) -> dict[str, Any]:
    attack, options = ATTACKS[name]
    prepare = rated_players(args.players) if name == "leaderboard" else None
    server = Server(source, "--bot-pace", "1", *options, *args.server.split(), prepare=prepare)
    bystander = Bystander(server.url)
    try:
        await bystander.start()
        await asyncio.sleep(1)
        bystander.reset()
        cpu, start = server.cpu(), time.perf_counter()
        figures = await attack(server, args)
        if name.startswith("bots"):  # they play on: their cost, and what the bystander feels
            bystander.reset()
            cpu, start = server.cpu(), time.perf_counter()
            await asyncio.sleep(args.seconds)
        took = time.perf_counter() - start
        # (Over less than a second, the kernel's tick of CPU time says nothing.)
        figures["server CPU % (whole attack)"] = (
            100 * (server.cpu() - cpu) / took if took >= 1 else ""
        )
        figures["server RSS MB"] = server.rss_mb()
        figures.update(bystander.figures())
        figures["server stderr bytes"] = server.stderr_bytes
        return figures
    finally:
        await bystander.stop()
        server.stop()


def show(name: str, columns: dict[str, dict[str, Any]]) -> None:
    print(f"\n{name}")
    keys = list(next(iter(columns.values())))
    print(f"  {'':<30}" + "".join(f"{label:>16}" for label in columns))
    for key in keys:
        cells = []
        for figures in columns.values():
            value = figures.get(key, "")
            if isinstance(value, float):
                cells.append(f"{value:>16,.2f}")
            elif isinstance(value, bool):
                cells.append(f"{'yes' if value else 'no':>16}")
            elif isinstance(value, int):
                cells.append(f"{value:>16,}")
            else:
                cells.append(f"{value!s:>16}")
        print(f"  {key:<30}" + "".join(cells), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vs", type=Path, help="another Mantis tree to run the same attacks on")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--tables", type=int, default=20_000)
    parser.add_argument("--bot-tables", type=int, default=2_000)
    parser.add_argument(
        "--addresses", type=int, default=200, help="addresses of the bots-many attack"
    )
    parser.add_argument(
        "--server",
        default="",
        help="more options for both servers, as one string (--bot-moves 100, say)",
    )
    parser.add_argument("--listed", type=int, default=10_000)
    parser.add_argument("--connections", type=int, default=4_000)
    parser.add_argument("--spectators", type=int, default=2_000)
    parser.add_argument(
        "--players", type=int, default=300_000, help="rated players of the leaderboard attack"
    )
    parser.add_argument("--only", default=",".join(ATTACKS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    trees = {"this tree": ROOT}
    if args.vs is not None:
        trees = {"--vs tree": args.vs.resolve(), "this tree": ROOT}
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for name in args.only.split(","):
        results[name] = {}
        for label, source in trees.items():
            results[name][label] = asyncio.run(run_attack(name, source, args))
        if not args.json:
            show(name, results[name])
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
