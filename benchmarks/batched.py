"""Mantis batched against pgx: steps a second at batch 1,024 on one core, in one run.

Run: ``.venv/bin/python benchmarks/batched.py --pgx-python PATH`` where PATH
is a Python with ``pgx`` and ``jax`` installed (a benchmark-only
environment; the project never needs them)::

    python3 -m venv /tmp/pgx-venv
    /tmp/pgx-venv/bin/pip install 'pgx==2.6.0' 'jax[cpu]'

Without ``--pgx-python`` (and with no pgx in this interpreter) only our rows
are measured, and the script says so.

What is measured, every row a batch of ``--batch`` games (1,024) stepped
together, one step being one action in every game of the batch:

* **pgx** ``backgammon`` (chance, like Mantis) and ``leduc_holdem``:
  ``jax.jit(jax.vmap(env.step))``, and the same with pgx's
  ``auto_reset(env.step, env.init)`` (under ``vmap`` its ``lax.cond`` runs
  ``init`` at every step for every game: a game that ends is dealt again, as
  ours are; without it an ended game stays ended and is stepped as a no-op),
  a uniformly random legal action per game drawn by
  ``jax.random.categorical`` from the legal-action mask, the draw and the step
  compiled into one function (one dispatch a step, pgx's best case);
  ``block_until_ready`` before the clock stops.  A step computes the next
  observation and mask (pgx's ``State`` carries them).
* **Mantis batched** (``mantis.envs.batched``) at 2, 4 and 6 players: a
  random legal action per game (``numpy.random.Generator.integers``), ``step``
  (auto-reset included: a game that ends is dealt again by the engine's own
  deal), then the observation from the mover's seat and the action mask, as
  pgx's state has them; and at 2 players with ``greedy`` or ``expert``
  choosing every move (``greedy_actions``, ``expert_actions``: the
  project's bots over the batch).
* **the engine, one game at a time** (``Game.play`` with a ``randrange``
  move or ``ExpertBot``'s, ``Game.new`` when a game ends; no observation):
  what a loop over games costs without batching.

Every measurement runs in a fresh process pinned to one core
(``os.sched_setaffinity``), XLA and the BLAS libraries held to one thread
(``XLA_FLAGS=--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=1``, ``OMP_NUM_THREADS=1``...), after a warm-up
(jit compilation for pgx); rounds go through every row in turn, so slow
spells of a shared machine fall on all of them.  Printed per row: the best
round's steps a second by the wall clock (load only ever slows a run down),
the median round's, the median by CPU time (which time spent waiting for the core
does not inflate: on a shared machine the fairer figure), and each row's
median by CPU time over pgx's backgammon's.  No GPU is used (``JAX_PLATFORMS=cpu``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROWS: tuple[tuple[str, str], ...] = (
    ("pgx", "backgammon"),
    ("pgx", "backgammon auto_reset"),
    ("pgx", "leduc_holdem"),
    ("pgx", "leduc_holdem auto_reset"),
    ("mantis", "2p random"),
    ("mantis", "4p random"),
    ("mantis", "6p random"),
    ("mantis", "2p greedy"),
    ("mantis", "2p expert"),
    ("engine", "2p random, one game at a time"),
    ("engine", "2p expert, one game at a time"),
)

ONE_THREAD = {
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "JAX_PLATFORMS": "cpu",
}


# ------------------------------------------------------------------ the measurements


def _time(step: Any, seconds: float, sync: Any = None) -> tuple[int, float, float]:
    """Call ``step()`` for about ``seconds``: calls made, wall and CPU seconds."""
    calls = 0
    wall, cpu = time.perf_counter(), time.process_time()
    deadline = wall + seconds
    while True:
        for _ in range(10):
            step()
        calls += 10
        if sync is not None:
            sync()
        if time.perf_counter() >= deadline:
            break
    return calls, time.perf_counter() - wall, time.process_time() - cpu


def measure_pgx(row: str, batch: int, seconds: float) -> dict[str, Any]:
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    game, _, wrapper = row.partition(" ")
    env = pgx.make(game)
    init = jax.jit(jax.vmap(env.init))
    step_one = jax.vmap(auto_reset(env.step, env.init) if wrapper else env.step)

    @jax.jit
    def advance(state: Any, key: Any) -> tuple[Any, Any]:
        key, pick, deal = jax.random.split(key, 3)
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        action = jax.random.categorical(pick, logits, axis=-1)
        return step_one(state, action, jax.random.split(deal, batch)), key

    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    holder = {"state": init(jax.random.split(sub, batch)), "key": key}

    def step() -> None:
        holder["state"], holder["key"] = advance(holder["state"], holder["key"])

    for _ in range(20):  # compiles, then warms up
        step()
    jax.block_until_ready(holder["state"])
    calls, wall, cpu = _time(
        step, seconds, lambda: jax.block_until_ready(holder["state"].legal_action_mask)
    )
    return {"steps": calls * batch, "wall": wall, "cpu": cpu, "version": pgx.__version__}


def measure_mantis(row: str, batch: int, seconds: float) -> dict[str, Any]:
    import numpy as np

    from mantis.envs.batched import MantisBatch
    from mantis.envs.batched_bots import expert_actions, greedy_actions

    players = int(row[0])
    games = MantisBatch(batch, players, seed=0)
    rng = np.random.default_rng(0)
    policy = row.split()[-1]

    def step() -> None:
        if policy == "greedy":
            actions = greedy_actions(games)
        elif policy == "expert":
            actions = expert_actions(games)
        else:
            actions = rng.integers(0, players, size=batch)
        games.step(actions)
        games.observe()
        games.action_mask()

    for _ in range(50):
        step()
    calls, wall, cpu = _time(step, seconds)
    return {"steps": calls * batch, "wall": wall, "cpu": cpu, "version": np.__version__}


def measure_engine(row: str, batch: int, seconds: float) -> dict[str, Any]:
    import random

    from mantis.engine import Game
    from mantis.players.bots.expert import ExpertBot

    rng = random.Random(0)
    randrange = rng.randrange
    expert = ExpertBot().choose if "expert" in row else None
    holder = {"game": Game.new(2, 0), "next": 1}
    # a block of moves a call (as a batched step moves `batch` games): fewer for the
    # expert, whose moves cost more
    block = batch if expert is None else batch // 16

    def step() -> None:
        game = holder["game"]
        for _ in range(block):
            if game.winners is not None:
                game = Game.new(2, holder["next"])
                holder["next"] += 1
            if expert is None:
                actions = game.legal_actions()
                game.play(actions[randrange(len(actions))])
            else:
                game.play(expert(game.view()))
        holder["game"] = game

    step()
    calls, wall, cpu = _time(step, seconds)
    return {"steps": calls * block, "wall": wall, "cpu": cpu, "version": sys.version.split()[0]}


def worker(side: str, row: str, batch: int, seconds: float, core: int) -> None:
    os.sched_setaffinity(0, {core})
    if side == "pgx":
        result = measure_pgx(row, batch, seconds)
    elif side == "mantis":
        result = measure_mantis(row, batch, seconds)
    else:
        result = measure_engine(row, batch, seconds)
    print(json.dumps(result))


# ------------------------------------------------------------------ the run


def _has_pgx(python: str) -> bool:
    probe = subprocess.run(
        [python, "-c", "import pgx, jax"], capture_output=True, text=True, check=False
    )
    return probe.returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=3.0, help="per round and row")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--core", type=int, default=0, help="the core every process runs on")
    parser.add_argument("--pgx-python", default=sys.executable, help="a Python with pgx and jax")
    parser.add_argument("--worker", nargs=2, metavar=("SIDE", "ROW"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1], args.batch, args.seconds, args.core)
        return

    rows = list(ROWS)
    if not _has_pgx(args.pgx_python):
        print(f"no pgx and jax in {args.pgx_python}: measuring Mantis only (see --pgx-python)")
        rows = [r for r in rows if r[0] != "pgx"]
    root = Path(__file__).resolve().parent.parent
    cache = tempfile.mkdtemp(prefix="jax-cache-")
    env = {
        **os.environ,
        **ONE_THREAD,
        "PYTHONPATH": str(root),
        # compiled once, loaded by the later rounds' fresh processes
        "JAX_COMPILATION_CACHE_DIR": cache,
        "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
    }
    results: dict[tuple[str, str], list[dict[str, Any]]] = {row: [] for row in rows}
    for round_ in range(args.rounds):
        for side, row in rows:
            python = args.pgx_python if side == "pgx" else sys.executable
            done = subprocess.run(
                [python, __file__, "--worker", side, row, "--batch", str(args.batch)]
                + ["--seconds", str(args.seconds), "--core", str(args.core)],
                capture_output=True,
                text=True,
                env=env,
                check=False,
            )
            if done.returncode != 0:
                print(f"{side} {row} failed:\n{done.stderr[-2000:]}", file=sys.stderr)
                raise SystemExit(1)
            results[(side, row)].append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"round {round_ + 1} of {args.rounds} done", flush=True)

    def rates(side_row: tuple[str, str], clock: str) -> list[float]:
        return [r["steps"] / r[clock] for r in results[side_row]]

    base = ("pgx", "backgammon")  # pgx's faster backgammon: no auto_reset
    base_cpu = statistics.median(rates(base, "cpu")) if base in results else None
    print()
    print(
        f"batch {args.batch}, one core, {args.rounds} rounds of {args.seconds:g} s; "
        "steps a second (one action in each game of the batch is `batch` steps)"
    )
    print(
        f"{'':8} {'row':32} {'best (wall)':>13} {'median (wall)':>14} {'median (CPU)':>13}"
        f" {'CPU / pgx backgammon':>21}"
    )
    for side, row in rows:
        wall = rates((side, row), "wall")
        cpu = statistics.median(rates((side, row), "cpu"))
        ratio = f"{cpu / base_cpu:.2f}x" if base_cpu else "-"
        print(
            f"{side:8} {row:32} {max(wall):13,.0f} {statistics.median(wall):14,.0f}"
            f" {cpu:13,.0f} {ratio:>21}"
        )
    versions = {side: results[(side, row)][0]["version"] for side, row in rows}
    print(
        f"pgx {versions.get('pgx', '-')}; numpy {versions.get('mantis', '-')}; "
        f"Python {versions.get('engine', '-')}; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
