"""``mantis web`` in headless Chromium: what a person at the browser sees and does.

Each test runs a real ``mantis web`` process; each tab's app is a real
``python -m mantis`` under the test's MANTIS_HOME.  What the page shows is
read from the terminal the page draws, never from the app's files (which
are only looked at to check that nothing was lost).
"""

from __future__ import annotations

import asyncio
import signal

import pytest
from webkit import Tab, browser, home, web_server, write_fast_settings

from mantis.store.save_slots import is_held, saved_games
from mantis.tui.palette import GLYPHS

KEYS_THE_APP_RELIES_ON = ["F1", "Escape", "Control+p", "F2", "Control+s", "Control+q"]

#: Draws ``chars`` as the page's terminal does (its own font family) and as the served symbol
#: font alone does, each glyph's ink centred on a canvas; says per glyph whether a loaded
#: face of the terminal's family covers it, whether both drawings are the same, its width
#: against a cell's, and how far its shape overlaps each of ``lookalikes`` (ink in both /
#: ink in either).
DRAW_GLYPHS = """async ([chars, lookalikes, symbols]) => {
  const family = window.mantisTerminal.options.fontFamily;
  const probe = new FontFace("MantisProbe", `url(${symbols})`);
  document.fonts.add(await probe.load());
  const W = 64, H = 64;
  const canvas = document.createElement("canvas");
  canvas.width = W;
  canvas.height = H;
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  const ink = (ch, font) => {
    ctx.font = `48px ${font}`;
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
  const overlap = (a, b) => {
    let both = 0, either = 0;
    for (let i = 0; i < a.length; i++) { both += a[i] & b[i]; either += a[i] | b[i]; }
    return either ? both / either : 1;
  };
  const covers = (face, point) => face.unicodeRange.split(",").some((part) => {
    const [from, to] = part.trim().replace("U+", "").split("-").map((h) => parseInt(h, 16));
    return from <= point && point <= (to ?? from) && part.trim() !== "U+0-10FFFF";
  });
  ctx.font = `48px ${family}`;
  const cell = ctx.measureText("M").width;
  const result = {};
  for (const ch of chars) {
    const drawn = ink(ch, family);
    ctx.font = `48px ${family}`;
    result[ch] = {
      served: [...document.fonts].some(
        (f) => family.includes(f.family) && f.status === "loaded" && covers(f, ch.codePointAt(0))),
      same: ink(ch, "MantisProbe").every((bit, i) => bit === drawn[i]),
      width: ctx.measureText(ch).width / cell,
      like: Object.fromEntries(lookalikes.map((c) => [c, overlap(drawn, ink(c, family))])),
    };
  }
  return result;
}"""


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


async def test_every_colour_glyph_is_drawn_from_the_pages_own_font_and_reads_as_itself() -> None:
    async with web_server() as server, browser() as chrome:
        requests: list[str] = []
        tab = await Tab.open(chrome, server.url, requests=requests)
        await tab.shows("MANTIS · set up a table")
        symbols = f"{server.origin}/mantis-static/mantis-symbols.ttf"
        assert symbols in requests  # fetched by the page itself, from its own server
        drawn = await tab.page.evaluate(DRAW_GLYPHS, [list(GLYPHS), ["+", "x"], symbols])
        for glyph, seen in drawn.items():
            # The page gives every glyph in its terminal's own font (served with it, loaded
            # before the terminal draws), so no browser falls back to a font of its own...
            assert seen["served"] and seen["same"], (glyph, seen)
            # ... one cell wide, and none of them reads as a plus or an x (a heavy cross
            # drew as a "+" in DejaVu Sans Mono: 0.68 of a plus's shape).
            assert abs(seen["width"] - 1) < 0.02, (glyph, seen)
            assert max(seen["like"].values()) < 0.55, (glyph, seen)
        await tab.close()


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
        saves, _ = saved_games(data)
        assert len(saves) == 1
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
