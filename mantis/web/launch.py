"""``mantis web``: serve the app to browser tabs until SIGINT or SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import errno
import os
import signal
import sys

from ..base.printable import echo
from ..net.server.serve_cli import LOCAL_HOSTS
from .access import EVERY_INTERFACE, KEY_PARAMETER


def address(host: str, port: int, key: str) -> str:
    """The address to open in a browser (an IPv6 host in brackets), this run's key included."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?{KEY_PARAMETER}={key}"


def run_web(args: argparse.Namespace) -> int:
    """Serve until told to stop; 1 with one line if the server cannot listen."""
    from .access import Access
    from .server import WebServer  # aiohttp and textual-serve load only now

    if args.host not in LOCAL_HOSTS:
        echo(
            f"mantis: warning: listening on {args.host}: whoever has the address below "
            "plays as you, with this computer's saves and statistics (strangers belong at "
            "an online table: mantis serve)",
            file=sys.stderr,
            lines=False,
            flush=True,
        )
    access = Access(args.host, args.allow_host or ())
    server = WebServer(args.host, args.port, access=access, max_tabs=args.max_tabs)

    def ready(host: str, port: int) -> None:
        key = access.key
        if host in EVERY_INTERFACE:  # not an address a browser can open: this machine's is
            echo(f"Mantis in your browser: open {address('127.0.0.1', port, key)}", flush=True)
            other = address("THIS-MACHINE'S-ADDRESS", port, key)
            echo(f"From other machines: {other}", flush=True)
        else:
            echo(f"Mantis in your browser: open {address(host, port, key)}", flush=True)
        echo(
            "Each tab plays its own game; the address holds this run's key, keep it to "
            "yourself. Ctrl+C stops the server.",
            flush=True,
        )

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await server.run(stop, ready)

    try:
        asyncio.run(main())
    except OSError as exc:  # the port is taken, the host is not this machine's...
        if exc.errno == errno.EADDRINUSE:
            reason = "the port is in use (is mantis web already running? --port picks another)"
        else:
            code = exc.errno or 0
            reason = os.strerror(code) if code > 0 else exc.strerror or str(exc)
        echo(
            f"mantis: error: cannot listen on {args.host}:{args.port}: {reason}",
            file=sys.stderr,
            lines=False,
        )
        return 1
    echo("mantis web stopped; every tab's game is saved", flush=True)
    return 0
