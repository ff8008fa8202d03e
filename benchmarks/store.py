"""A move's commit, store by store and driver by driver, in the server's write pattern.

Run: ``.venv/bin/python benchmarks/store.py [--writes 300] [--tables 500]``.

The server keeps each move before anyone hears of it: a table awaits its
write, and a writer commits every write waiting at that moment in one
transaction.  This measures that pattern:

* **alone**: one table, each move's commit awaited before the next (the
  latency a quiet server adds to a move), wall time p50/p99 and this
  process's CPU per write;
* **together**: ``--tables`` tables, each writing a move then waiting
  0.2 s, ten moves each (writes pile up and are committed in batches).

First the two PostgreSQL drivers on the same batching writer (asyncpg and
psycopg 3, psycopg also in pipeline mode), on a throwaway cluster: once
with every commit synced to disk (``durable``), once without (``no sync``,
which leaves the drivers' own cost); then the server's two stores end to
end (``SqliteTableStore``; ``PgTableStore``, durable).  Needs PostgreSQL's
binaries (Debian's ``postgresql``) and ``pip install '.[cluster]'``;
psycopg is optional (``pip install 'psycopg[binary]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from servicekit import PostgresCluster  # noqa: E402

from mantis.engine import SCORE  # noqa: E402
from mantis.store.table_rules import TableRules  # noqa: E402
from mantis.store.tables_interface import StoredSeat, TableStore  # noqa: E402
from mantis.store.tables_pg import PgTableStore  # noqa: E402
from mantis.store.tables_sqlite import SqliteTableStore  # noqa: E402

DDL = (
    "CREATE TABLE IF NOT EXISTS bench_moves (game_id BIGINT, turn INT, seat INT, target INT, "
    "PRIMARY KEY (game_id, turn))"
)
GAP = 0.2
MOVES_EACH = 10

Batch = Callable[[list[tuple[int, int]]], Awaitable[None]]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def show(name: str, how: str, latencies: list[float], cpu: float, wall: float) -> None:
    n = len(latencies)
    print(
        f"  {name:22s} {how:9s} p50 {percentile(latencies, 0.5) * 1e3:7.2f} ms  "
        f"p99 {percentile(latencies, 0.99) * 1e3:7.2f} ms  {n / wall:7.0f} writes/s  "
        f"CPU {cpu / n * 1e3:6.3f} ms/write"
    )


async def batching(
    run_batch: Batch, tables: int, moves: int, gap: float
) -> tuple[list[float], float, float]:
    """``tables`` writers awaiting each write, one batching writer: (latencies, CPU, wall)."""
    queue: asyncio.Queue[tuple[tuple[int, int], asyncio.Future[None]]] = asyncio.Queue()
    latencies: list[float] = []

    async def writer() -> None:
        while True:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < 500:
                batch.append(queue.get_nowait())
            await run_batch([item for item, _ in batch])
            for _, future in batch:
                future.set_result(None)

    async def table(game: int) -> None:
        for turn in range(moves):
            future = asyncio.get_running_loop().create_future()
            start = time.perf_counter()
            queue.put_nowait(((game, turn), future))
            await future
            latencies.append(time.perf_counter() - start)
            if gap:
                await asyncio.sleep(gap)

    task = asyncio.create_task(writer())
    cpu, start = time.process_time(), time.perf_counter()
    await asyncio.gather(*(table(g) for g in range(tables)))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    task.cancel()
    return latencies, cpu, wall


async def drivers(url: str, args: argparse.Namespace, offset: list[int]) -> None:
    import asyncpg

    batches: dict[str, Batch] = {}
    closers: list[Callable[[], Awaitable[Any]]] = []
    conn = await asyncpg.connect(url)
    await conn.execute(DDL)
    closers.append(conn.close)

    async def with_asyncpg(items: list[tuple[int, int]]) -> None:
        async with conn.transaction():
            await conn.executemany(
                "INSERT INTO bench_moves VALUES ($1, $2, 0, NULL)",
                [(g + offset[0], t) for g, t in items],
            )

    batches["asyncpg"] = with_asyncpg
    if importlib.util.find_spec("psycopg") is not None:
        import psycopg

        pconn = await psycopg.AsyncConnection.connect(url, autocommit=True)
        closers.append(pconn.close)

        async def with_psycopg(items: list[tuple[int, int]]) -> None:
            async with pconn.transaction(), pconn.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO bench_moves VALUES (%s, %s, 0, NULL)",
                    [(g + offset[0], t) for g, t in items],
                )

        async def with_pipeline(items: list[tuple[int, int]]) -> None:
            async with pconn.pipeline(), pconn.transaction(), pconn.cursor() as cur:
                for g, t in items:
                    await cur.execute(
                        "INSERT INTO bench_moves VALUES (%s, %s, 0, NULL)", (g + offset[0], t)
                    )

        batches["psycopg"] = with_psycopg
        batches["psycopg pipeline"] = with_pipeline
    else:
        print("  (psycopg is not installed: pip install 'psycopg[binary]' to compare it)")
    for name, batch in batches.items():
        offset[0] += 1_000_000
        show(name, "alone", *await batching(batch, 1, args.writes, 0))
        offset[0] += 1_000_000
        show(name, "together", *await batching(batch, args.tables, MOVES_EACH, GAP))
    for close in closers:
        await close()


async def store_pattern(name: str, store: TableStore, args: argparse.Namespace) -> None:
    seats = [StoredSeat(f"P{s}", "human") for s in range(4)]
    games = []
    for n in range(args.tables):
        table = await store.create_table(f"B{n}", TableRules(), host=0, seats=seats)
        games.append(await store.start_game(table, n))
    latencies: list[float] = []
    cpu, start = time.process_time(), time.perf_counter()
    for turn in range(args.writes):
        began = time.perf_counter()
        await store.add_moves(games[0], turn, [(0, SCORE)])
        latencies.append(time.perf_counter() - began)
    show(name, "alone", latencies, time.process_time() - cpu, time.perf_counter() - start)
    latencies = []

    async def table(game: int) -> None:
        for turn in range(MOVES_EACH):
            began = time.perf_counter()
            await store.add_moves(game, args.writes + turn, [(0, SCORE)])
            latencies.append(time.perf_counter() - began)
            await asyncio.sleep(GAP)

    cpu, start = time.process_time(), time.perf_counter()
    await asyncio.gather(*(table(game) for game in games))
    show(name, "together", latencies, time.process_time() - cpu, time.perf_counter() - start)


async def main(args: argparse.Namespace) -> None:
    offset = [0]
    for durable in (True, False):
        cluster = PostgresCluster(durable=durable)
        try:
            print(f"PostgreSQL drivers, {'durable' if durable else 'no sync'}:")
            await drivers(cluster.url(), args, offset)
            if durable:
                print("the server's stores (durable):")
                with tempfile.TemporaryDirectory() as folder:
                    sqlite = SqliteTableStore(Path(folder) / "bench.sqlite3")
                    try:
                        await store_pattern("SqliteTableStore", sqlite, args)
                    finally:
                        await sqlite.close()
                pg = await PgTableStore.open(cluster.create_database("bench"))
                try:
                    await store_pattern("PgTableStore (asyncpg)", pg, args)
                finally:
                    await pg.close()
        finally:
            cluster.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=300, help="commits awaited alone")
    parser.add_argument("--tables", type=int, default=500, help="tables writing together")
    asyncio.run(main(parser.parse_args()))
