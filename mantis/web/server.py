"""The web server behind ``mantis web``: one Mantis app per browser tab.

``textual-serve`` does the heavy lifting: each browser tab opens a websocket,
and the server starts one app process for it (``python -m mantis``, the very
app of the terminal) and relays the terminal it draws to the page, which
shows it with xterm.js.  What Mantis adds:

* its own page (``templates/app_index.html``): titled Mantis, loading nothing
  from anywhere but this server (textual-serve's stock page asks Google for
  a font), with a font of the app's symbols (``static/``, made by
  ``tools/make_symbol_font.py``), and saying on the page when the connection
  is lost;
* addresses relative to the request, so the page works under whatever name
  or address the browser used to reach the server;
* a session only for whoever holds this run's key, asked for under one of
  this server's own names (``access.py``), and a websocket accepted only from
  a page of this server: a page elsewhere, or another program on this
  machine, must not be able to start and drive an app as the person here;
* at most ``max_tabs`` tabs at once (each is a process): a page says so when full;
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
from urllib.parse import urlencode, urlsplit

import aiohttp_jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from . import MAX_TABS
from .access import KEY_PARAMETER, Access

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: Mantis's own files for the page (the app's symbol font), beside textual-serve's ``/static/``.
STATIC = Path(__file__).resolve().parent / "static"
STATIC_URL = "/mantis-static/"

#: The driver each tab's app runs with: textual's web driver, plus quitting when the server goes.
APP_DRIVER = "mantis.tui.browser_driver:BrowserDriver"

#: The close code that tells the page every tab is taken.
FULL = 4001
#: Headers on every answer: no page elsewhere frames this one, no address leaves in a Referer.
PAGE_HEADERS = {"Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}


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

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 8000,
        *,
        command: str | None = None,
        access: Access | None = None,
        max_tabs: int = MAX_TABS,
    ):
        super().__init__(
            command or app_command(), host=host, port=port, title="Mantis", templates_path=TEMPLATES
        )
        self.access = access if access is not None else Access(host)
        self.max_tabs = max_tabs
        self._sockets: set[web.WebSocketResponse] = set()

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_static(STATIC_URL, STATIC)
        app.on_response_prepare.append(_page_headers)
        return app

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """A tab's download: for the key's holder only, like the tab itself."""
        self._check_session(request)
        return await super().handle_download(request)

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
        """The page: addresses on the host the browser asked for, so any name works.

        The printed address's key is traded for a cookie and the page sent
        again without it, so the key stays out of the address bar and history.
        """
        self._check_host(request)
        given = request.query.get(KEY_PARAMETER)
        if given is not None:
            if not self.access.opens(given):
                raise web.HTTPForbidden(text=WRONG_KEY)
            rest = [(k, v) for k, v in request.query.items() if k != KEY_PARAMETER]
            again = web.HTTPSeeOther(request.path + (f"?{urlencode(rest)}" if rest else ""))
            again.set_cookie(
                self.access.cookie,
                self.access.key,
                path="/",
                httponly=True,
                samesite="Strict",
                secure=request.secure,
            )
            raise again
        self._check_session(request)
        scheme = "wss" if request.secure else "ws"
        font_size = request.query.get("fontsize", "16")
        return {
            "title": self.title,
            "static_url": "/static/",
            "mantis_static_url": STATIC_URL,
            "websocket_url": f"{scheme}://{request.host}/ws",
            "font_size": font_size if font_size.isdigit() and 6 <= int(font_size) <= 48 else 16,
            "full": len(self._sockets) >= self.max_tabs,
            "max_tabs": self.max_tabs,
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: start its app, relay keys and sizes to it until the tab goes."""
        self._check_session(request)
        origin = request.headers.get("Origin")
        if origin is None or urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text="Mantis plays only in pages of its own server.")
        socket = web.WebSocketResponse(heartbeat=15)
        await socket.prepare(request)
        if len(self._sockets) >= self.max_tabs:
            # The page says so (the close code), rather than that the connection was lost.
            await socket.close(code=FULL, message=b"every tab is taken")
            return socket
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
        """Only this server's own names and addresses: a rebound DNS name is refused."""
        if not self.access.host_allowed(request.host):
            raise web.HTTPMisdirectedRequest(text=WRONG_HOST)

    def _check_session(self, request: web.Request) -> None:
        """The Host must be this server's, and the request must hold this run's key."""
        self._check_host(request)
        if not self.access.holds(request.cookies):
            raise web.HTTPForbidden(text=WRONG_KEY)

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
            self.access.for_port(port)
            if ready is not None:
                ready(self.host, port)
            await stop.wait()
        finally:
            await runner.cleanup()


WRONG_KEY = (
    "Mantis opens only from the address mantis web printed, its key included "
    "(http://HOST:PORT/?key=...): open that address."
)
WRONG_HOST = (
    "Mantis answers only to this computer's own names and addresses: open the address "
    "mantis web printed (or start it with --allow-host NAME for a name of your own)."
)


async def _page_headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in PAGE_HEADERS.items():
        response.headers.setdefault(name, value)


def _cells(value: Any, default: int) -> int:
    """A terminal size from the page: a whole number of cells, within reason."""
    try:
        cells = int(value)
    except (TypeError, ValueError):
        return default
    return min(max(cells, 1), 1000)
