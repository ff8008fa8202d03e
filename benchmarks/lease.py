"""Table ownership, two ways: a Redis key with a short expiry vs a PostgreSQL advisory lock.

Run: ``.venv/bin/python benchmarks/lease.py [--tables 500] [--kills 10]``.

For each way it measures, on throwaway servers (tests/servicekit.py):

* **taking** ``--tables`` tables (one lease each: the cluster's Redis script;
  ``pg_try_advisory_lock`` on the node's own session), ms in all;
* **keeping** them: what a node must send to keep every table it owns (Redis:
  one key refreshed per node and second, whatever the number of tables;
  PostgreSQL: nothing while its session lasts);
* **noticing a node killed with -9**: a holder process takes one table and is
  killed; a watcher asks every 10 ms whether the table is free: seconds from
  the kill to free, median and spread of ``--kills`` kills.

Needs ``redis-server``, PostgreSQL's binaries and ``pip install '.[cluster]'``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from servicekit import PostgresCluster, RedisServer  # noqa: E402

from mantis.net.cluster.membership import LEASE, Cluster  # noqa: E402

# A holder: takes table 1 (by the way named in argv[1]), says so, then waits to be killed.
HOLDER = r"""
import asyncio, sys
kind, url = sys.argv[1], sys.argv[2]
async def main():
    if kind == "redis":
        from mantis.net.cluster import Cluster
        node = Cluster(url, "holder")
        await node.start()
        assert await node.lease("T1")
    else:
        import asyncpg
        db = await asyncpg.connect(url)
        assert await db.fetchval("SELECT pg_try_advisory_lock(1)")
    print("held", flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""


async def free_redis(url: str) -> bool:
    probe = Cluster(url, "watcher")
    await probe.start()
    try:
        owner = await probe.owner("T1")
        return owner is None or not await probe.alive(owner)
    finally:
        await probe.leave()
        await probe.close()


async def kill_and_watch(kind: str, url: str) -> float:
    """Seconds from killing a holder with -9 to the table being free to take."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, kind, url], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    if kind == "redis":
        watcher = Cluster(url, "watcher")
        await watcher.start()
        check = watcher.lease
    else:
        import asyncpg

        db = await asyncpg.connect(url)

        async def check(code: str) -> bool:
            return bool(await db.fetchval("SELECT pg_try_advisory_lock(1)"))

    await asyncio.sleep(0.3 + (time.monotonic() % 1.0))  # the kill lands anywhere in a beat
    holder.kill()
    killed = time.monotonic()
    holder.wait()
    while not await check("T1"):
        await asyncio.sleep(0.01)
    took = time.monotonic() - killed
    if kind == "redis":
        await watcher.release("T1")
        await watcher.leave()
        await watcher.close()
    else:
        await db.execute("SELECT pg_advisory_unlock_all()")
        await db.close()
    return took


async def taking(kind: str, url: str, tables: int) -> float:
    start = time.perf_counter()
    if kind == "redis":
        node = Cluster(url, "taker")
        await node.start()
        for n in range(tables):
            assert await node.lease(f"C{n}")
        took = time.perf_counter() - start
        await node.leave()
        await node.close()
        return took
    import asyncpg

    db = await asyncpg.connect(url)
    for n in range(tables):
        assert await db.fetchval("SELECT pg_try_advisory_lock($1)", 1000 + n)
    took = time.perf_counter() - start
    await db.close()
    return took


async def main(args: argparse.Namespace) -> None:
    redis, pg = RedisServer(), PostgresCluster()
    try:
        ways = {"redis": redis.url, "postgresql": pg.url()}
        print(f"taking {args.tables} tables, then {args.kills} holders killed with -9:")
        for kind, url in ways.items():
            took = await taking(kind, url, args.tables)
            kills = [await kill_and_watch(kind, url) for _ in range(args.kills)]
            keep = (
                f"one key per node refreshed every second (lease {LEASE:g} s)"
                if kind == "redis"
                else "nothing while the node's session lasts"
            )
            print(
                f"  {kind:10s} take {took * 1e3:7.1f} ms ({took / args.tables * 1e3:.3f} ms each); "
                f"keep: {keep}; a killed holder's table free after "
                f"median {statistics.median(kills):.2f} s "
                f"(min {min(kills):.2f}, max {max(kills):.2f})"
            )
    finally:
        redis.close()
        pg.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--kills", type=int, default=10)
    asyncio.run(main(parser.parse_args()))
