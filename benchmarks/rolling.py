"""A rolling restart under load: how long a game stops while every node restarts in turn.

Run: ``.venv/bin/python benchmarks/rolling.py [--tables 30] [--think 1.0] [--json]``.

Three ``mantis serve`` nodes on one PostgreSQL (every commit synced) and one
Redis, behind HAProxy with the configuration of docs/operations.md (the
tests' cluster kit starts them all).  ``--tables`` tables of four seats
(three people, a greedy bot) are created through the proxy; each person is
the app's own client (``TableConnection``), so when a node goes they
reconnect by themselves through the proxy, and answers ``--think`` seconds
after their turn starts.  Once every table has played a few moves, each node
in turn gets SIGTERM (it hands its tables to the others and closes its
connections), is waited for to exit, its tables to be owned by a live node,
and is started again and seen by the others; then every game plays to its
end.

A move is *published* when the first of its table's clients has it.  For
each restart (SIGTERM -> the node back and seen by the others) it prints
the longest gap between two published moves of each table in play across
it (one that overlaps the restart), as the median and the max over the
tables, beside the same figure outside any restart (a person's ``--think``
plus the bot's move is the normal gap).  At the end: moves lost and moves
doubled (each client's stream against its game's record; both must be 0),
how long clients waited before trying again, and the load average while it
ran; ``--verbose`` adds the slowest table's story (its gap, the restarts,
what the nodes logged about it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mantis.engine import SCORE, CardRevealed
from mantis.engine.record import parse_record
from mantis.home.player_keys import PlayerKeys
from mantis.home.seat_tokens import SeatTokens
from mantis.net import protocol
from mantis.net.client import Dropped, Reconnected, StreamUpdate, TableConnection
from mantis.net.cluster.membership import PREFIX
from mantis.table import Recorded

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT / "tests", ROOT / "tests" / "net"):  # the tests' kits start the services
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

SEATS = ("human", "open", "open", "greedy")
#: Moves every table has played before the first restart.
WARM = 3
#: Bound on any one wait (a node's exit, its tables handed over, a game's end).
WAIT = 120.0
#: Connections opened at once through the proxy.
OPENING = 20


OPTIONS: dict[str, Any] = {}


class Table:
    """One table's people, and when each of its moves was first published."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.people: list[TableConnection] = []
        self.published: list[float] = []
        """``time.monotonic()`` when move k first reached one of the table's clients."""
        self.reconnections = 0
        self.waits: list[float] = []
        """Each wait of a client before trying again, and why (a connection lost, busy)."""
        self.why: dict[str, int] = {}

    def heard(self, client: TableConnection) -> None:
        moves = sum(1 for m in client.stream if isinstance(m, CardRevealed))
        now = time.monotonic()
        while len(self.published) < moves:
            self.published.append(now)

    def longest_gap(self, start: float, end: float) -> float | None:
        """The longest gap between two published moves that overlaps [start, end], if the
        game was in play across it (a move before and one after)."""
        times = self.published
        if not times or times[0] > start or times[-1] < end:
            return None
        gaps = [b - a for a, b in zip(times, times[1:], strict=False) if b >= start and a <= end]
        return max(gaps, default=None)

    def gaps_outside(self, windows: list[tuple[float, float]]) -> list[float]:
        times = self.published
        return [
            b - a
            for a, b in zip(times, times[1:], strict=False)
            if not any(b >= start and a <= end for start, end in windows)
        ]


async def person(table: Table, client: TableConnection, think: float) -> None:
    """Answer this seat's turns ``think`` seconds after each starts, until the record."""
    from netkit import turn_to_answer

    answered: set[int] = set()
    pending: set[asyncio.Task[None]] = set()

    async def answer(turn: int) -> None:
        await asyncio.sleep(think)  # a person's time to answer
        await client.send(protocol.Act(turn, SCORE))

    async for event in client.events():
        if isinstance(event, Reconnected):
            table.reconnections += 1
        if isinstance(event, Dropped):
            table.waits.append(event.retry_in)
            table.why[event.reason] = table.why.get(event.reason, 0) + 1
        if not isinstance(event, StreamUpdate):
            continue
        table.heard(client)
        if isinstance(client.stream[-1], Recorded):
            break
        turn = turn_to_answer(client.stream)
        if turn is not None and turn.seat == client.seat and turn.turn not in answered:
            answered.add(turn.turn)
            task = asyncio.create_task(answer(turn.turn))
            pending.add(task)
            task.add_done_callback(pending.discard)
    for task in pending:
        task.cancel()


async def open_table(url: str, index: int, folder: Path, opening: asyncio.Semaphore) -> Table:
    table = Table(index)

    async def seat(first: protocol.Hello, name: str) -> TableConnection:
        tokens = SeatTokens(folder / f"{name}.json")
        keys = PlayerKeys(folder / f"{name}-keys.json")  # one player key a person
        client = TableConnection(url, first, tokens=tokens, keys=keys)
        async with opening:
            await client.open()
        return client

    host = await seat(protocol.Create(protocol.PROTOCOL_VERSION, f"T{index}a", SEATS), f"{index}a")
    assert host.code is not None
    others = await asyncio.gather(
        *(
            seat(protocol.Join(protocol.PROTOCOL_VERSION, host.code, f"T{index}{n}"), f"{index}{n}")
            for n in "bc"
        )
    )
    table.people = [host, *others]
    await host.send(protocol.Start())
    return table


def lost_and_doubled(table: Table) -> tuple[int, int, bool]:
    """(moves lost, moves doubled, records agree) over the table's clients' streams: each
    client's moves against its game's record, which every client has the same of."""
    lost = doubled = 0
    records = {client.record for client in table.people}
    agrees = len(records) == 1 and None not in records
    for client in table.people:
        record = parse_record(client.record or "")
        shown = [(m.seat, m.action) for m in client.stream if isinstance(m, CardRevealed)]
        wanted = list(record.actions)
        lost += sum(1 for k, move in enumerate(wanted) if k >= len(shown) or shown[k] != move)
        doubled += max(0, len(shown) - len(wanted))
        agrees &= record.result is not None and record.result.turns == len(wanted)
        agrees &= record.replay().over
    return lost, doubled, agrees


async def until(test: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not await asyncio.to_thread(test):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {WAIT:g} s for {what}")
        await asyncio.sleep(0.05)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import redis
    from clusterkit import Nodes
    from servicekit import PostgresCluster, RedisServer, need

    need(binaries=("haproxy", "openssl", "redis-server", "initdb", "pg_ctl"))
    root = Path(tempfile.mkdtemp(prefix="mantis-rolling-"))
    os.environ["MANTIS_HOME"] = str(root / "home")
    pg, redis_server = PostgresCluster(durable=True), RedisServer()
    # Every simulated person comes from 127.0.0.1: one address's limits lifted.
    many = ("--tables-per-address", "100000", "--connections-per-address", "100000")
    nodes = Nodes(root, pg.create_database("rolling"), redis_server.url, *many)
    directory = redis.Redis.from_url(redis_server.url)
    load_before = os.getloadavg()
    try:
        await asyncio.to_thread(nodes.start)
        opening = asyncio.Semaphore(OPENING)
        tables = await asyncio.gather(
            *(open_table(nodes.proxy.url, n, root, opening) for n in range(args.tables))
        )
        playing = [
            asyncio.create_task(person(table, client, args.think))
            for table in tables
            for client in table.people
        ]
        await until(lambda: all(len(t.published) >= WARM for t in tables), "the games to start")

        def owned_by_live_node(gone: str) -> bool:
            for table in tables:
                owner = directory.get(f"{PREFIX}owner:{table.people[0].code}")
                name = owner.decode() if isinstance(owner, bytes) else owner
                if name is None or name == gone or not directory.exists(f"{PREFIX}alive:{name}"):
                    return False
            return True

        restarts: list[dict[str, Any]] = []
        for node in nodes.nodes:
            began = time.monotonic()
            status = await asyncio.to_thread(node.terminate)
            exited = time.monotonic()
            await until(lambda n=node.name: owned_by_live_node(n), "the tables handed over")
            handed = time.monotonic()
            await asyncio.to_thread(node.start)
            await asyncio.to_thread(nodes.ready)
            ready = time.monotonic()
            restarts.append(
                {
                    "node": node.name,
                    "exit_status": status,
                    "sigterm_to_exit_s": exited - began,
                    "exit_to_handed_s": handed - exited,
                    "start_to_ready_s": ready - handed,
                    "window": (began, ready),
                }
            )
        await asyncio.wait_for(asyncio.gather(*playing), WAIT)
        load_after = os.getloadavg()
    finally:
        directory.close()
        await asyncio.to_thread(nodes.stop)
        redis_server.close()
        pg.close()

    windows = [r.pop("window") for r in restarts]
    for restart, (start, end) in zip(restarts, windows, strict=True):
        gaps = [g for t in tables if (g := t.longest_gap(start, end)) is not None]
        restart["tables_in_play"] = len(gaps)
        restart["longest_gap_median_s"] = statistics.median(gaps) if gaps else None
        restart["longest_gap_max_s"] = max(gaps, default=None)
    outside = [max(gs) for t in tables if (gs := t.gaps_outside(windows))]
    counts = [lost_and_doubled(t) for t in tables]
    return {
        "tables": args.tables,
        "think_s": args.think,
        "restarts": restarts,
        "outside_longest_gap_median_s": statistics.median(outside) if outside else None,
        "outside_longest_gap_max_s": max(outside, default=None),
        "moves": sum(len(t.published) for t in tables),
        "moves_lost": sum(c[0] for c in counts),
        "moves_doubled": sum(c[1] for c in counts),
        "records_agree": all(c[2] for c in counts),
        "reconnections": sum(t.reconnections for t in tables),
        "longest_wait_before_trying_again_s": max((w for t in tables for w in t.waits), default=0),
        "why_dropped": {
            why: sum(t.why.get(why, 0) for t in tables)
            for why in {w for t in tables for w in t.why}
        },
        "slowest_table": slowest(tables, windows, nodes),
        "load_average_before": load_before,
        "load_average_after": load_after,
    }


def slowest(tables: list[Table], windows: list[tuple[float, float]], nodes: Any) -> dict[str, Any]:
    """The table with the longest gap across the restarts: its code, the gap's moves and
    times (seconds from the first SIGTERM), and what the nodes logged about it."""
    t0 = windows[0][0]
    worst: tuple[float, Table, int] | None = None
    for table in tables:
        times = table.published
        for k in range(1, len(times)):
            gap = times[k] - times[k - 1]
            if worst is None or gap > worst[0]:
                worst = (gap, table, k)
    if worst is None:
        return {}
    gap, table, k = worst
    code = table.people[0].code or ""
    said = [f"{node.name}: {line}" for node in nodes.nodes for line in node.log if code in line]
    return {
        "code": code,
        "gap_s": gap,
        "after_move": k,
        "from_s": table.published[k - 1] - t0,
        "to_s": table.published[k] - t0,
        "restarts_s": [(a - t0, b - t0) for a, b in windows],
        "logged": said,
    }


def show(result: dict[str, Any]) -> None:
    def s(value: float | None) -> str:
        return "  -  " if value is None else f"{value:5.2f}"

    print(
        f"{result['tables']} tables (3 people + a bot each, answering {result['think_s']:g} s "
        "after their turn), three nodes behind HAProxy"
    )
    print("restart  exit  handed  ready   tables  longest gap: median   max")
    for r in result["restarts"]:
        print(
            f"{r['node']:7} {s(r['sigterm_to_exit_s'])} {s(r['exit_to_handed_s'])}  "
            f"{s(r['start_to_ready_s'])}  {r['tables_in_play']:6}  "
            f"             {s(r['longest_gap_median_s'])} {s(r['longest_gap_max_s'])}"
        )
    print(
        f"outside restarts                       longest gap: "
        f"{s(result['outside_longest_gap_median_s'])} {s(result['outside_longest_gap_max_s'])}"
    )
    print(
        f"moves {result['moves']}, lost {result['moves_lost']}, doubled "
        f"{result['moves_doubled']}, records agree: {result['records_agree']}, "
        f"reconnections {result['reconnections']}"
    )
    print(
        f"longest wait of a client before trying again: "
        f"{result['longest_wait_before_trying_again_s']:.2f} s; why dropped: "
        + ", ".join(f"{why} {n}" for why, n in sorted(result["why_dropped"].items()))
    )
    if OPTIONS["verbose"]:
        print("slowest table:", json.dumps(result["slowest_table"], indent=1))
    before, after = result["load_average_before"], result["load_average_after"]
    print(
        "load average (1, 5, 15 min) before "
        + " ".join(f"{x:.2f}" for x in before)
        + ", after "
        + " ".join(f"{x:.2f}" for x in after)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30, help="tables in play")
    parser.add_argument("--think", type=float, default=1.0, help="a person's time to answer")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--verbose", action="store_true", help="show the slowest table's story")
    args = parser.parse_args()
    OPTIONS["verbose"] = args.verbose
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        show(result)
    if result["moves_lost"] or result["moves_doubled"] or not result["records_agree"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
