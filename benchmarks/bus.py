"""What a cluster node spends on Redis: messages between nodes, and the scripts it runs.

Run: ``.venv/bin/python benchmarks/bus.py [--messages 40000] [--rounds 5] [--vs DIR]``
(needs ``redis-server`` and the ``cluster`` extra).

Two ``Cluster`` objects (two nodes' worth) in one process share a throwaway
Redis.  Node a sends node b ``--messages`` messages the size of a move's
frame, two at a time (about what a busy owner's ``PUBLISH`` carries); node
b passes each on to a callback that counts them.  Then node b asks who owns
a table (one Redis script) ``--messages`` times, 50 at once, as joins do in
a crowd.  Each figure is this process's CPU (``time.process_time``) per
message or per script, both nodes' sides together: what the nodes spend,
not how long Redis takes.  Redis's own CPU is not counted.

``--vs DIR`` runs the same in turn on another checkout (say the tree before
a change), round after round, so the two sets of figures come from the same
machine at the same time; each figure is the median over the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BURST = 2
IN_FLIGHT = 50
#: Bound on waiting for every message to arrive.
WAIT = 60.0


async def measure(url: str, messages: int) -> dict[str, float]:
    """One round in this process, on the Mantis that ``sys.path`` finds."""
    from mantis.net.cluster.membership import Cluster

    a, b = Cluster(url, "bench-a"), Cluster(url, "bench-b")
    await a.start()
    await b.start()
    received = 0
    done = asyncio.Event()

    try:  # a frame for a relayed connection, as either release sends it
        from mantis.net.cluster.node_messages import ToClients

        def frame() -> object:
            return ToClients(ids=(1,), data="x" * 160)
    except ImportError:  # (messages between nodes as plain dicts)

        def frame() -> object:
            return {"t": "out", "ids": [1], "data": "x" * 160}

    def count(message: object) -> None:
        nonlocal received
        received += 1
        if received >= messages:
            done.set()

    b.on_message = count
    try:
        await asyncio.sleep(0.5)  # both subscribed (a message before that is lost)
        start = time.process_time()
        for sent in range(0, messages, BURST):
            for _ in range(min(BURST, messages - sent)):
                a.send("bench-b", frame())  # type: ignore[arg-type]  # (either release)
            await asyncio.sleep(0)
        await asyncio.wait_for(done.wait(), WAIT)
        per_message = (time.process_time() - start) / messages

        await a.lease("bench-table")
        start = time.process_time()
        pending: set[asyncio.Task[object]] = set()
        for _ in range(messages):
            if len(pending) >= IN_FLIGHT:
                _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            pending.add(asyncio.ensure_future(b.live_owner("bench-table")))
        await asyncio.gather(*pending)
        per_script = (time.process_time() - start) / messages
    finally:
        await a.close()
        await b.close()
    return {"message_us": per_message * 1e6, "script_us": per_script * 1e6}


def one_round(tree: Path, url: str, messages: int) -> dict[str, float]:
    """A round in a fresh process on ``tree``'s Mantis."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(Path(__file__).resolve()), "--round", url, str(messages)]
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"a round on {tree} failed: {done.stderr.strip().splitlines()[-1:]}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--round":
        print(json.dumps(asyncio.run(measure(sys.argv[2], int(sys.argv[3])))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=40_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--vs", type=Path, help="another checkout, run in turn with this one")
    args = parser.parse_args()
    if args.vs is not None and not (args.vs / "mantis").is_dir():
        raise SystemExit(f"--vs {args.vs}: no Mantis checkout there")
    for folder in (ROOT / "tests", ROOT / "tests" / "net"):
        sys.path.append(str(folder))
    from servicekit import RedisServer  # type: ignore[import-not-found]

    trees = [("this tree", ROOT)] + ([(str(args.vs), args.vs.resolve())] if args.vs else [])
    found: dict[str, list[dict[str, float]]] = {name: [] for name, _ in trees}
    redis = RedisServer()
    try:
        for number in range(1, args.rounds + 1):
            for name, tree in trees:
                subprocess.run(
                    ["redis-cli", "-p", str(redis.port), "FLUSHALL"], capture_output=True
                )
                figures = one_round(tree, redis.url, args.messages)
                found[name].append(figures)
                print(
                    f"round {number} {name}: {figures['message_us']:.1f} us per message, "
                    f"{figures['script_us']:.1f} us per script",
                    flush=True,
                )
    finally:
        redis.close()
    print(f"median of {args.rounds} rounds, {args.messages} messages and scripts each:")
    for name, rounds in found.items():
        message = statistics.median(r["message_us"] for r in rounds)
        script = statistics.median(r["script_us"] for r in rounds)
        print(f"  {name:>20}: {message:6.1f} us of CPU per message, {script:6.1f} per script")


if __name__ == "__main__":
    main()
