"""``mantis web`` in headless Chromium: how long a new tab takes to show Mantis, and a move.

Run: ``.venv/bin/python benchmarks/web.py [--tabs N]`` (needs Debian's ``chromium``).
Prints, over N tabs opened one after another: the time from asking for the
page to the setup screen on it (a new app process starts for each tab), and
from pressing ``s`` on your turn to the game log showing the move — the
round trip a person feels: browser, server, app and back.  Median and worst.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
import webkit  # noqa: E402


async def measure(tabs: int) -> tuple[list[float], list[float]]:
    webkit.write_fast_settings()
    opened, moved = [], []
    async with webkit.web_server() as server, webkit.browser() as chrome:
        for _ in range(tabs):
            start = time.perf_counter()
            tab = await webkit.Tab.open(chrome, server.url)
            await tab.shows("MANTIS · set up a table")
            opened.append(time.perf_counter() - start)
            if "Unfinished game" in await tab.screen():  # the last tab's game: not this time
                await tab.press("n")
                await tab.gone("Unfinished game")
            await tab.start_against_bots()
            start = time.perf_counter()
            await tab.score()
            moved.append(time.perf_counter() - start)
            await tab.close()
    return opened, moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tabs", type=int, default=5)
    args = parser.parse_args()
    if webkit.chromium() is None:
        sys.exit("no Chromium found (apt-get install chromium, or set MANTIS_CHROMIUM)")
    with tempfile.TemporaryDirectory() as home:
        os.environ["MANTIS_HOME"] = home  # never the user's own saves
        opened, moved = asyncio.run(measure(args.tabs))
    for label, times in (("new tab to setup screen", opened), ("s to the move shown", moved)):
        print(
            f"{label:24} median {statistics.median(times) * 1000:6.0f} ms"
            f"   worst {max(times) * 1000:6.0f} ms   ({len(times)} tabs)"
        )


if __name__ == "__main__":
    main()
