"""``mantis web`` in a real browser for tests: the server as a process, Chromium by Playwright.

``WebProcess`` runs ``python -m mantis web --port 0`` under the test's
``MANTIS_HOME`` (each tab's app inherits it).  ``Tab`` is one browser page
on it, read from the page itself: the terminal the page draws is xterm.js,
and its buffer holds the rows of text on screen.  Every wait is on a state
of the page, with a generous bound, never a sleep.

Chromium is Debian's (``/usr/bin/chromium``), found on PATH or through
``MANTIS_CHROMIUM``; Playwright never downloads a browser here.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

#: Generous bound on any wait, in milliseconds: a slow machine is slower, never red.
WAIT_MS = 60_000

#: Chromium without its own traffic: no sync, updates, field trials or QUIC probes.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Before the page's scripts run: keep hold of the xterm.js terminal textual-serve makes.
#: Its script keeps the terminal in a closure; the object holding it sets ``fitAddon``
#: right after ``terminal``, so a setter on that name catches it (textual-serve 1.1).
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "fitAddon", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "fitAddon", {value, writable: true, configurable: true});
    if (this.terminal && this.terminal.buffer) window.mantisTerminal = this.terminal;
  },
});
window.mantisRows = () => {
  const t = window.mantisTerminal;
  if (!t) return [];
  const buffer = t.buffer.active, rows = [];
  for (let y = 0; y < t.rows; y++) {
    rows.push(buffer.getLine(buffer.viewportY + y).translateToString(true));
  }
  return rows;
};
window.mantisKeys = [];
window.addEventListener("keydown", (event) => window.mantisKeys.push(event), true);
"""

SCREEN_JS = "() => window.mantisTerminal ? {cols: mantisTerminal.cols, rows: mantisRows()} : null"


def chromium() -> str | None:
    """The Chromium to drive: ``MANTIS_CHROMIUM``, else ``chromium`` on PATH."""
    return (
        os.environ.get("MANTIS_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )


def need_chromium() -> str:
    """The Chromium to drive, or skip the test with one line saying why.

    Where ``MANTIS_BROWSER_TESTS=required`` (CI), no Chromium fails the test instead.
    """
    path = chromium()
    if path is None:
        why = "no Chromium found (apt-get install chromium, or set MANTIS_CHROMIUM)"
        if os.environ.get("MANTIS_BROWSER_TESTS") == "required":
            pytest.fail(why)
        pytest.skip(why)
    return path


class WebProcess:
    """``mantis web`` as a real process on a free port."""

    def __init__(self, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mantis", "web", "--port", "0", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"open (http://\S+)", line)
        assert found, line + self.process.stderr.read()  # type: ignore[union-attr]
        self.url = found.group(1)
        """The address it printed, this run's key included."""
        parts = urlsplit(self.url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.key = parse_qs(parts.query)["key"][0]
        self.errors = ""
        """What it wrote on stderr, once stopped (``said``: on stdout)."""
        self.said = ""

    def stop(self) -> int:
        """Stop it as Ctrl+C does; its exit status (what it said on stderr: ``errors``)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.said, self.errors = self.process.communicate(timeout=WAIT_MS / 1000)
        finally:
            self.kill()
        return self.process.returncode

    def kill(self) -> None:
        """Kill it with -9: no chance to tell any tab's app anything."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(WAIT_MS / 1000)


@contextlib.asynccontextmanager
async def web_server(*extra: str) -> AsyncIterator[WebProcess]:
    server = WebProcess(*extra)
    try:
        yield server
    finally:
        server.stop()


@contextlib.asynccontextmanager
async def browser(fonts: dict[str, str] | None = None) -> AsyncIterator[object]:
    """Chromium from Debian's packages, headless, through Playwright.

    ``fonts``: the environment that gives it a computer's fonts (``fontkit.fonts``);
    without, it has this machine's.
    """
    from playwright.async_api import async_playwright

    path = need_chromium()
    async with async_playwright() as playwright:
        chrome = await playwright.chromium.launch(
            executable_path=path, args=CHROMIUM_ARGS, env={**os.environ, **(fonts or {})}
        )
        try:
            yield chrome
        finally:
            await chrome.close()


class Tab:
    """One browser page showing Mantis; what it shows is read from its terminal."""

    def __init__(self, page: object) -> None:
        self.page = page

    @classmethod
    async def open(
        cls,
        chrome: object,
        url: str,
        size=(1000, 700),
        requests: list[str] | None = None,
        *,
        app: bool = True,
        rewrite: tuple[str, Callable[[str], str]] | None = None,
    ) -> Tab:
        """A new page on ``url``, once the app shows; each request it makes goes in ``requests``.

        ``app=False``: the page alone, once its terminal is made (its fonts are in), with no
        app behind it (its socket reaches no server).  ``rewrite=(name, change)``: the file
        whose address ends in ``/name`` reaches the page changed by ``change``.
        """
        context = await chrome.new_context(viewport={"width": size[0], "height": size[1]})  # type: ignore[attr-defined]
        if requests is not None:
            context.on("request", lambda request: requests.append(request.url))
        if not app:
            await context.route_web_socket("**/ws*", lambda socket: None)
        if rewrite is not None:
            name, change = rewrite

            async def changed(route) -> None:
                response = await route.fetch()
                await route.fulfill(response=response, body=change(await response.text()))

            await context.route(f"**/{name}", changed)
        page = await context.new_page()
        await page.add_init_script(CATCH_TERMINAL)
        await page.goto(url)
        tab = cls(page)
        if app:
            await tab.shows("MANTIS")
        else:
            await page.wait_for_function("() => window.mantisTerminal", timeout=WAIT_MS)
        return tab

    async def screen(self) -> str:
        """The rows of text the page shows now."""
        state = await self.page.evaluate(SCREEN_JS)  # type: ignore[attr-defined]
        return "\n".join(state["rows"]) if state else ""

    async def columns(self) -> int:
        state = await self.page.evaluate(SCREEN_JS)  # type: ignore[attr-defined]
        return int(state["cols"]) if state else 0

    async def shows(self, *texts: str, any_of: bool = False) -> str:
        """Wait until every one of ``texts`` (or one, ``any_of``) is on screen; the screen then."""
        await self.page.wait_for_function(  # type: ignore[attr-defined]
            """([texts, anyOf]) => {
              const all = window.mantisRows().join("\\n");
              const found = (text) => all.includes(text);
              return anyOf ? texts.some(found) : texts.every(found);
            }""",
            arg=[list(texts), any_of],
            timeout=WAIT_MS,
        )
        return await self.screen()

    async def gone(self, text: str) -> None:
        """Wait until ``text`` is no longer on screen."""
        await self.page.wait_for_function(  # type: ignore[attr-defined]
            "(text) => !window.mantisRows().join('\\n').includes(text)",
            arg=text,
            timeout=WAIT_MS,
        )

    async def start_against_bots(self) -> None:
        """Start a table from the setup screen (you and the remembered bots); wait for your turn."""
        await self.shows("MANTIS · set up a table")
        await self.press("Control+s")
        await self.shows("YOUR TURN")

    async def score(self) -> None:
        """Score on your turn (the s key) and wait until the game log tells how it went."""
        await self.press("s")
        await self.shows("You scored", "You missed a score", any_of=True)

    async def press(self, *keys: str) -> None:
        for key in keys:
            await self.page.keyboard.press(key)  # type: ignore[attr-defined]

    async def type(self, text: str) -> None:
        await self.page.keyboard.type(text)  # type: ignore[attr-defined]

    async def click_text(self, text: str, *, row_with: str = "") -> None:
        """Click the middle of ``text`` where the terminal shows it (on a row with ``row_with``)."""
        rows = (await self.screen()).split("\n")
        row = next((y for y, line in enumerate(rows) if text in line and row_with in line), None)
        assert row is not None, f"{text!r} is not on screen:\n" + "\n".join(rows)
        column = rows[row].index(text) + len(text) // 2
        box = await self.page.locator(".xterm-screen").bounding_box()  # type: ignore[attr-defined]
        cols = await self.columns()
        x = box["x"] + (column + 0.5) * box["width"] / cols
        y = box["y"] + (row + 0.5) * box["height"] / len(rows)
        await self.page.mouse.click(x, y)  # type: ignore[attr-defined]

    async def body_has(self, css_class: str) -> None:
        await self.page.wait_for_selector(f"body.{css_class}", timeout=WAIT_MS)  # type: ignore[attr-defined]

    async def close(self) -> None:
        await self.page.context.close()  # type: ignore[attr-defined]


def write_fast_settings() -> None:
    """Bots move at once and nothing animates: the tests wait on the game, not its pace."""
    from mantis.base.paths import settings_path
    from mantis.home import Settings, save_settings

    save_settings(Settings(speed="instant", animations=False), settings_path())


def home() -> Path:
    return Path(os.environ["MANTIS_HOME"])
