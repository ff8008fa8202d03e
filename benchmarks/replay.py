"""``mantis replay FILE --game N``: how long until game N is ready to show.

Run: ``.venv/bin/python benchmarks/replay.py [--file F] [--games 20000] [--repeat 3]``.
Without ``--file`` it first writes ``--games`` games with ``mantis simulate
--record`` (into a temp directory).  Prints, for game 1, the middle game and
the last one, the best of R runs of: reading and checking every game first
(``home.record_file.read_records``, what ``mantis replay`` did before), and reading up
to game N only (``home.record_file.game_in_file``, what it does now).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mantis.home.record_file import game_in_file, read_records


def best_seconds(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, help="a record file (default: write one)")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        path = args.file
        if path is None:
            path = Path(scratch) / "games.jsonl"
            command = [sys.executable, "-m", "mantis.cli", "simulate", "--players", "3"]
            command += ["--bots", "random", "--games", str(args.games), "--record", str(path)]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        with open(path, "rb") as handle:
            count = sum(1 for line in handle if line.strip())
        size = path.stat().st_size / 1e6
        print(f"{path.name}: {count:,} games, {size:.1f} MB (best of {args.repeat} runs)")
        print(f"  {'game':>6}  {'read every game first':>22}  {'read up to game N':>18}")
        for number in sorted({1, (count + 1) // 2, count}):
            before = best_seconds(lambda n=number: read_records(path)[n - 1], args.repeat)
            after = best_seconds(lambda n=number: game_in_file(path, n), args.repeat)
            print(f"  {number:>6}  {before * 1000:>19,.1f} ms  {after * 1000:>15,.1f} ms")


if __name__ == "__main__":
    main()
