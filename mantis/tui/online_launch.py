"""``mantis host``, ``join``, ``watch`` and ``quick`` in the app: reach the table, then open it.

The values are read and the table reached first (``net.launch_options``), so
a bad value or an unreachable table ends the command with one line.  The
connection then goes on in the app (the same event loop), which reconnects
by itself if it drops.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from ..net.client.launch_options import FAILED, USAGE_ERROR, LaunchError, reach_table, read_opening
from ..net.protocol import Hello
from ..printable import echo
from ..store.seat_tokens import SeatTokens


def run_online(args: argparse.Namespace) -> int:
    """Run ``host``, ``join``, ``watch`` or ``quick``; the exit status."""
    try:
        url, opening, tokens = read_opening(args)
    except (LaunchError, ValueError) as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return USAGE_ERROR
    return asyncio.run(_play(url, opening, tokens))


async def _play(url: str, opening: Hello, tokens: SeatTokens) -> int:
    online = await reach_table(url, opening, tokens)
    if online is None:
        return FAILED
    # Textual loads only once the table is reached
    from . import first_screens
    from .app import MantisApp

    app = MantisApp(first_screens.Online(online))
    try:
        await app.run_async()
    finally:
        await online.close()
    return app.return_code or 0
