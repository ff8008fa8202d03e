"""The web server behind ``mantis web``: one Mantis app per browser tab.

``textual-serve`` does the heavy lifting: each browser tab opens a websocket,
and the server starts one app process for it (``python -m mantis``, the very
app of the terminal) and relays the terminal it draws to the page, which
shows it with xterm.js.  What Mantis adds:

* its own page (``templates/app_index.html``): titled Mantis, loading nothing
  from anywhere but this server (textual-serve's stock page asks Google for
  a font), and saying on the page when the connection is lost;
* addresses relative to the request, so the page works under whatever name
  or address the browser used to reach the server;
* a websocket accepted only from a page of this server (a page elsewhere
  must not be able to start and drive an app as the person at this computer),
  and, on a loopback address, only under a loopback name (DNS rebinding);
* a clean stop: every tab's app is told to quit, so each keeps its save.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

TEMPLATES = Path(__file__).resolve().parent / "templates"

#: The driver each tab's app runs with: textual's web driver, plus quitting when the server goes.
APP_DRIVER = "mantis.tui.browser_driver:BrowserDriver"

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def app_command(python: str = sys.executable) -> str:
    """The shell command that starts one tab's app: this Python, ``-m mantis``.

    ``python`` is quoted, so a venv under a path with spaces works; ``exec``
    makes the app the tab's process itself, so stopping it stops the app.
    """
    if os.name == "nt":  # pragma: no cover - cmd.exe has neither exec nor POSIX quoting
        return subprocess.list2cmdline([python, "-m", "mantis"])
    return "exec " + shlex.join([python, "-m", "mantis"])


class TabApp(AppService):
    """One tab's app process, run with Mantis's browser driver."""

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment["TEXTUAL_DRIVER"] = APP_DRIVER
        return environment


class WebServer(Server):
    """Serves Mantis to browser tabs, one app process per tab."""

    def __init__(self, host: str = "127.0.0.1", port: int = 8000, *, command: str | None = None):
        super().__init__(
            command or app_command(), host=host, port=port, title="Mantis", templates_path=TEMPLATES
        )
        self.loopback = host in LOOPBACK_NAMES
        self._sockets: set[web.WebSocketResponse] = set()

    async def on_startup(self, app: web.Application) -> None:
        """Quiet: ``run`` says where to point the browser."""

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every tab's socket: its app is told to quit and keeps its save."""
        sockets, self._sockets = list(self._sockets), set()
        for socket in sockets:
            with contextlib.suppress(Exception):
                await socket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page: addresses on the host the browser asked for, so any name works."""
        self._check_host(request)
        scheme = "wss" if request.secure else "ws"
        font_size = request.query.get("fontsize", "16")
        return {
            "title": self.title,
            "static_url": "/static/",
            "websocket_url": f"{scheme}://{request.host}/ws",
            "font_size": font_size if font_size.isdigit() and 6 <= int(font_size) <= 48 else 16,
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: start its app, relay keys and sizes to it until the tab goes."""
        self._check_host(request)
        origin = request.headers.get("Origin")
        if origin is None or urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text="Mantis plays only in pages of its own server.")
        socket = web.WebSocketResponse(heartbeat=15)
        await socket.prepare(request)
        self._sockets.add(socket)
        width = _cells(request.query.get("width"), 80)
        height = _cells(request.query.get("height"), 24)

        async def close() -> None:
            await socket.close()

        tab = TabApp(
            self.command,
            write_bytes=socket.send_bytes,
            write_str=socket.send_str,
            close=close,
            download_manager=self.download_manager,
        )
        try:
            await tab.start(width, height)
            await self._relay(socket, tab)
        finally:
            self._sockets.discard(socket)
            # Tells the app to quit and waits until it has: its save is complete.
            await tab.stop()
            await socket.close()
        return socket

    async def _relay(self, socket: web.WebSocketResponse, tab: AppService) -> None:
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, *rest = message.json()
            except ValueError:
                continue  # not the page's own JSON: nothing to relay
            data = rest[0] if rest else None
            if kind == "stdin" and isinstance(data, str):
                await tab.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                await tab.set_terminal_size(
                    _cells(data.get("width"), 80), _cells(data.get("height"), 24)
                )
            elif kind == "ping":
                await socket.send_json(["pong", data])
            elif kind == "blur":
                await tab.blur()
            elif kind == "focus":
                await tab.focus()

    def _check_host(self, request: web.Request) -> None:
        """On a loopback address, only loopback names: a rebound DNS name is refused."""
        if self.loopback and _hostname(request.host) not in LOOPBACK_NAMES:
            raise web.HTTPMisdirectedRequest(text="Open Mantis at http://localhost instead.")

    async def run(
        self, stop: asyncio.Event, ready: Callable[[str, int], None] | None = None
    ) -> None:
        """Serve until ``stop`` is set; ``ready(host, port)`` once listening.

        ``OSError`` if it cannot listen (the port is taken, the host is not
        this computer's).  Port 0 takes any free port: ``ready`` says which.
        """
        runner = web.AppRunner(await self._make_app(), handle_signals=False)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
            port = self.port
            for address in runner.addresses:
                port = address[1]
            if ready is not None:
                ready(self.host, port)
            await stop.wait()
        finally:
            await runner.cleanup()


def _hostname(host: str) -> str:
    """``localhost:8000`` → ``localhost``; ``[::1]:8000`` → ``::1``."""
    return urlsplit(f"//{host}").hostname or ""


def _cells(value: Any, default: int) -> int:
    """A terminal size from the page: a whole number of cells, within reason."""
    try:
        cells = int(value)
    except (TypeError, ValueError):
        return default
    return min(max(cells, 1), 1000)
