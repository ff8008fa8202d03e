"""``mantis host``, ``join``, ``watch`` and ``quick`` in the app: reach the table, then open it.

The values are read and the table reached first (``follow.launch``), so
a bad value or an unreachable table ends the command with one line.  The
connection then goes on in the app (the same event loop), which reconnects
by itself if it drops.
"""

from __future__ import annotations

import argparse
import asyncio

from ..follow.launch import OnlineStart, online_start, usage_error
from ..net.client.launch_options import FAILED


def run_online(args: argparse.Namespace) -> int:
    """Run ``host``, ``join``, ``watch`` or ``quick``; the exit status."""
    try:
        start = online_start(args)
    except ValueError as exc:  # a LaunchError too
        return usage_error(exc)
    return asyncio.run(_play(start))


async def _play(start: OnlineStart) -> int:
    online = await start.reach()
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
