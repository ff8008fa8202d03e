"""``mantis web`` in headless Chromium: what a person at the browser sees and does.

Each test runs a real ``mantis web`` process; each tab's app is a real
``python -m mantis`` under the test's MANTIS_HOME.  What the page shows is
read from the terminal the page draws, never from the app's files (which
are only looked at to check that nothing was lost).
"""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import Callable
from pathlib import Path

import fontkit
import pytest
from fontTools.ttLib import TTFont
from webkit import Tab, browser, home, web_server, write_fast_settings

from mantis.home.save_slots import is_held, saved_games
from mantis.tui.palette import GLYPHS
from mantis.web.server import STATIC

KEYS_THE_APP_RELIES_ON = ["F1", "Escape", "Control+p", "F2", "Control+s", "Control+q"]

#: Draws ``chars`` as the page's terminal does (its own font family, in each style it draws:
#: regular, bold, italic, both) and as the served symbols font alone does (given the weights and
#: styles of the family's faces), each glyph's ink centred on a canvas.  Says per glyph in which
#: of the family's styles no loaded face covers it (``unserved``), in which it is drawn unlike
#: the served font (``unlike``), its width against a cell's, and how far its shape overlaps each
#: of ``lookalikes`` (ink in both / ink in either); and whether the computer's own fonts
#: (``monospace``) draw every glyph alike (``computer``), as they do when none has them or when
#: they are fontkit's boxes.
DRAW_GLYPHS = """async ([chars, lookalikes, symbols]) => {
  const family = window.mantisTerminal.options.fontFamily;
  const first = family.split(",")[0].trim().replace(/^['"]|['"]$/g, "");
  const faces = [...document.fonts].filter((f) => f.family.replace(/"/g, "") === first);
  for (const face of faces.filter((f) => f.unicodeRange === "U+0-10FFFF")) {
    const {weight, style, stretch} = face;
    document.fonts.add(
      await new FontFace("MantisProbe", `url(${symbols})`, {weight, style, stretch}).load());
  }
  const STYLES = ["", "bold", "italic", "italic bold"];
  const W = 64, H = 64;
  const canvas = document.createElement("canvas");
  canvas.width = W;
  canvas.height = H;
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  const ink = (ch, font) => {
    ctx.font = font;
    ctx.clearRect(0, 0, W, H);
    const m = ctx.measureText(ch);
    ctx.fillText(
      ch,
      W / 2 - (m.actualBoundingBoxRight - m.actualBoundingBoxLeft) / 2,
      H / 2 + (m.actualBoundingBoxAscent - m.actualBoundingBoxDescent) / 2,
    );
    const data = ctx.getImageData(0, 0, W, H).data, bits = [];
    for (let i = 3; i < data.length; i += 4) bits.push(data[i] > 127 ? 1 : 0);
    return bits;
  };
  const alike = (a, b) => a.every((bit, i) => bit === b[i]);
  const overlap = (a, b) => {
    let both = 0, either = 0;
    for (let i = 0; i < a.length; i++) { both += a[i] & b[i]; either += a[i] | b[i]; }
    return either ? both / either : 1;
  };
  const covers = (face, point) => face.unicodeRange.split(",").some((part) => {
    const [from, to] = part.trim().replace("U+", "").split("-").map((h) => parseInt(h, 16));
    return from <= point && point <= (to ?? from) && part.trim() !== "U+0-10FFFF";
  });
  const styles = [...new Set(faces.map((f) => f.style))];
  ctx.font = `48px ${family}`;
  const cell = ctx.measureText("M").width;
  const glyphs = {};
  for (const ch of chars) {
    const drawn = ink(ch, `48px ${family}`);
    ctx.font = `48px ${family}`;
    glyphs[ch] = {
      unserved: styles.filter((style) => !faces.some(
        (f) => f.style === style && f.status === "loaded" && covers(f, ch.codePointAt(0)))),
      unlike: STYLES.filter((style) => !alike(
        ink(ch, `${style} 48px ${family}`), ink(ch, `${style} 48px MantisProbe`))),
      width: ctx.measureText(ch).width / cell,
      like: Object.fromEntries(
        lookalikes.map((c) => [c, overlap(drawn, ink(c, `48px ${family}`))])),
    };
  }
  const own = chars.map((ch) => ink(ch, "48px monospace"));
  const computer = {
    alike: own.every((bits) => alike(bits, own[0])),
    ink: own[0].reduce((a, b) => a + b, 0),
  };
  return {family, styles, glyphs, computer};
}"""

#: Every symbol the page's own font has (the colours' glyphs among them).
SYMBOLS = "".join(
    chr(point) for point in sorted(TTFont(STATIC / "mantis-symbols.ttf").getBestCmap())
)


async def wait_until(test, what: str, timeout: float = 60.0) -> None:
    """Poll a condition outside the page (a file, a lock) with a bound, not a fixed sleep."""

    async def poll() -> None:
        while not test():
            await asyncio.sleep(0.05)

    try:
        await asyncio.wait_for(poll(), timeout)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def test_the_page_is_mantis_from_this_server_alone_and_follows_the_window() -> None:
    async with web_server() as server, browser() as chrome:
        requests: list[str] = []
        tab = await Tab.open(chrome, server.url, requests=requests)
        screen = await tab.shows("MANTIS · set up a table", "Start", "Play online")
        assert await tab.page.title() == "Mantis"
        assert "f1 Help" in screen.split("\n")[-1]
        # The page, its script, style and font: all from the server it came from.
        assert requests, "the page made no request at all?"
        outside = [url for url in requests if not url.startswith(server.origin + "/")]
        assert outside == [], outside
        assert any(url.endswith(".ttf") for url in requests)  # the bundled font, not Google's
        # The app fits the window and follows it when it is resized: made too small,
        # it says the very size the page's terminal now has; made larger, it is back.
        wide = await tab.columns()
        await tab.page.set_viewport_size({"width": 560, "height": 420})
        await tab.page.wait_for_function(f"() => window.mantisTerminal.cols < {wide}")
        cols, rows = await tab.page.evaluate(
            "[window.mantisTerminal.cols, window.mantisTerminal.rows]"
        )
        await tab.shows(f"Terminal too small ({cols}×{rows})")
        await tab.page.set_viewport_size({"width": 1000, "height": 700})
        await tab.shows("MANTIS · set up a table")
        assert await tab.columns() == wide
        # The key went into a cookie the page cannot read, and out of the address:
        # a reload is Mantis again (a new app), and no link can carry the key away.
        assert tab.page.url == server.origin + "/"
        assert await tab.page.evaluate("document.cookie") == ""
        await tab.page.reload()
        await tab.shows("MANTIS · set up a table")
        await tab.close()


@pytest.mark.parametrize("computer", fontkit.COMPUTERS)
async def test_every_symbol_is_drawn_from_the_pages_own_font_whatever_fonts_the_computer_has(
    computer: str, tmp_path: Path
) -> None:
    fonts = fontkit.fonts(computer, tmp_path / "fonts", SYMBOLS)
    async with web_server() as server, browser(fonts) as chrome:
        # The page alone: its terminal starts once its fonts are in, app or no app.
        requests: list[str] = []
        tab = await Tab.open(chrome, server.url, requests=requests, app=False)
        symbols = f"{server.origin}/mantis-static/mantis-symbols.ttf"
        assert symbols in requests  # fetched by the page itself, from its own server
        drawn = await tab.page.evaluate(DRAW_GLYPHS, [list(SYMBOLS), ["+", "x"], symbols])
        # The browser has the computer's fonts it was given, not this machine's: its own
        # fonts draw every symbol alike (the covering computer's boxes, or none at all).
        assert drawn["computer"]["alike"], drawn["computer"]
        if computer == "covering":
            assert drawn["computer"]["ink"] > 0
            named = {name.strip(" '\"") for name in drawn["family"].split(",")}
            assert named <= {*fontkit.COVERING_FAMILIES, *fontkit.GENERIC_FAMILIES}, named
        assert drawn["styles"] == ["normal", "italic"]
        for glyph, seen in drawn["glyphs"].items():
            # The page gives every symbol in its terminal's own font, in each style the
            # terminal draws (served with it, loaded before the terminal draws), so no
            # browser takes it from a font of the computer's...
            assert seen["unserved"] == [] and seen["unlike"] == [], (glyph, seen)
            # ... one cell wide, and no colour's glyph reads as a plus or an x (a heavy
            # cross drew as a "+" in DejaVu Sans Mono: 0.68 of a plus's shape).
            assert abs(seen["width"] - 1) < 0.02, (glyph, seen)
            if glyph in GLYPHS:
                assert max(seen["like"].values()) < 0.55, (glyph, seen)
        await tab.close()
        # The check sees a page that leaves a symbol to the computer: without the symbols'
        # faces, or with faces of other weights than Roboto Mono's (which a browser does not
        # join with Roboto Mono's, as the page had it once), every symbol fails it.
        for broken, change in BROKEN_PAGES.items():
            tab = await Tab.open(
                chrome, server.url, app=False, rewrite=("terminal-font.css", change)
            )
            drawn = await tab.page.evaluate(DRAW_GLYPHS, [list(SYMBOLS), [], symbols])
            for glyph, seen in drawn["glyphs"].items():
                assert seen["unlike"] == ["", "bold", "italic", "italic bold"], (
                    broken,
                    glyph,
                    seen,
                )
            await tab.close()


def _symbols_faces(css: str, change: Callable[[str], str]) -> str:
    """``css`` with each ``@font-face`` of a ``unicode-range`` (the symbols') changed."""
    return re.sub(r"@font-face \{[^}]*unicode-range[^}]*\}", lambda m: change(m.group(0)), css)


BROKEN_PAGES: dict[str, Callable[[str], str]] = {
    "no symbols face": lambda css: _symbols_faces(css, lambda face: ""),
    "symbols faces of other weights": lambda css: _symbols_faces(
        css, lambda face: re.sub(r"font-weight: [^;]*;", "font-weight: 100 900;", face)
    ),
}


async def test_keys_typed_into_the_page_play_against_bots_and_the_move_shows() -> None:
    write_fast_settings()
    async with web_server() as server, browser() as chrome:
        tab = await Tab.open(chrome, server.url)
        await tab.start_against_bots()  # Ctrl+S, with the remembered seats: you and two bots
        await tab.score()  # s, and the game log says what came of it
        # Ctrl+C on the server: the tab is told its connection is gone, its app quits
        # and the game is kept, the move just made included.
        assert await asyncio.to_thread(server.stop) == 0
        assert "every tab's game is saved" in server.errors + server.said
        await tab.body_has("-lost")
        data = home() / "data"
        await wait_until(lambda: not is_held(1, data), "the tab's app to end")
        (save,), _ = saved_games(data)
        assert any(seat == 0 for seat, _ in save.record.actions)
        await tab.close()


async def test_the_keys_the_app_relies_on_reach_it_and_the_browser_keeps_none() -> None:
    async with web_server() as server, browser() as chrome:
        tab = await Tab.open(chrome, server.url)
        await tab.shows("MANTIS · set up a table")
        await tab.press("F1")
        await tab.shows("How to play Mantis")
        await tab.press("Escape")
        await tab.gone("How to play Mantis")
        await tab.press("Control+p")
        await tab.shows("Search for commands")
        await tab.press("Escape")
        await tab.gone("Search for commands")
        await tab.press("F2")
        await tab.shows("Bot speed")
        await tab.press("Control+s")  # saves the settings and closes them
        await tab.gone("Bot speed")
        # Every one of those keys was the app's alone: the browser's own use of it
        # (help, print, save page...) was prevented by the page.
        pressed = await tab.page.evaluate(
            "window.mantisKeys.filter((e) => e.key !== 'Control')"
            ".map((e) => [e.key, e.defaultPrevented])"
        )
        assert [key for key, _ in pressed] == ["F1", "Escape", "p", "Escape", "F2", "s"]
        assert all(prevented for _, prevented in pressed), pressed
        # Ctrl+Q quits the app: the page says it has ended, and offers to start again.
        await tab.press("Control+q")
        await tab.body_has("-closed")
        assert await tab.page.is_visible("#ended")
        assert not await tab.page.is_visible("#lost")
        await tab.close()


async def test_closing_a_tab_keeps_its_game_and_two_tabs_never_share_a_save() -> None:
    write_fast_settings()
    async with web_server() as server, browser() as chrome:
        first = await Tab.open(chrome, server.url)
        second = await Tab.open(chrome, server.url)
        for tab in (first, second):
            await tab.start_against_bots()
        await first.score()
        data = home() / "data"
        await wait_until(lambda: is_held(1, data) and is_held(2, data), "both tabs' slots")
        # Closing the tabs ends their apps (their slots are free again) and keeps both games.
        await first.close()
        await second.close()
        await wait_until(lambda: not is_held(1, data) and not is_held(2, data), "the apps to end")
        saves, warnings = saved_games(data)
        assert warnings == [] and len(saves) == 2
        assert saves[0].record.pile != saves[1].record.pile  # two deals, neither overwritten
        # A new tab offers both games, and resumes the one picked.
        again = await Tab.open(chrome, server.url)
        await again.shows("2 games were left unfinished", "New game (n)")
        await again.press("2")
        await again.shows("YOUR TURN")
        await again.close()


async def test_a_lost_connection_says_so_and_the_tab_app_ends_keeping_its_game() -> None:
    write_fast_settings()
    async with web_server() as server, browser() as chrome:
        tab = await Tab.open(chrome, server.url)
        await tab.start_against_bots()
        data = home() / "data"
        await wait_until(lambda: is_held(1, data), "the tab's slot")
        server.kill()  # -9: the server tells no one anything
        await tab.body_has("-lost")
        assert await tab.page.is_visible("#lost")
        assert "Connection lost" in await tab.page.inner_text("#lost")
        # The tab's app noticed its server is gone and quit, keeping its game.
        await wait_until(lambda: not is_held(1, data), "the orphaned app to end")
        saves, warnings = saved_games(data)
        assert len(saves) == 1, warnings
        await tab.close()


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP (POSIX)")
async def test_a_network_gone_silent_says_so_on_the_page() -> None:
    async with web_server() as server, browser() as chrome:
        # heartbeat=2: the page gives up after 2 s without a word (20 s by default).
        tab = await Tab.open(chrome, server.url + "&heartbeat=2")
        await tab.shows("MANTIS · set up a table")
        server.process.send_signal(signal.SIGSTOP)  # nothing closes, nothing answers
        try:
            await tab.body_has("-lost")
            assert "Connection lost" in await tab.page.inner_text("#lost")
        finally:
            server.process.send_signal(signal.SIGCONT)
        await tab.close()
