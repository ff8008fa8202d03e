"""Who gets a tab of ``mantis web``: the holder of the printed address, under this server's names.

Real ``mantis web`` processes, asked over HTTP by aiohttp (what any local
program could send) and, for what a person sees, by Chromium.
"""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest
from webkit import WAIT_MS, Tab, WebProcess, browser

from mantis.cli import main
from mantis.web.access import Access

#: An address no machine here has (TEST-NET-3).
ELSEWHERE = "203.0.113.7"


def _cookie(server: WebProcess, key: str | None = None) -> dict[str, str]:
    return {f"mantis-web-{_port(server)}": server.key if key is None else key}


def _port(server: WebProcess) -> int:
    return int(server.origin.rsplit(":", 1)[1])


async def _ws_status(session: aiohttp.ClientSession, server: WebProcess, **headers: str) -> int:
    """The status a WebSocket handshake gets (101 when it would start an app: closed at once)."""
    url = server.origin.replace("http://", "ws://") + "/ws"
    headers.setdefault("Origin", server.origin)
    try:
        socket_ = await session.ws_connect(url, headers=headers)
    except aiohttp.WSServerHandshakeError as exc:
        return exc.status
    await socket_.close()
    return 101


async def test_without_the_key_or_with_a_wrong_one_there_is_no_page_and_no_session() -> None:
    server = WebProcess()
    try:
        async with aiohttp.ClientSession() as session:
            # No key: neither the page nor a session, and no cookie is handed out.
            async with session.get(server.origin) as page:
                assert page.status == 403 and "key included" in await page.text()
                assert not page.cookies
            assert await _ws_status(session, server) == 403
            # A wrong key, in the address or in a cookie: the same.
            async with session.get(f"{server.origin}/?key=not-{server.key}") as page:
                assert page.status == 403 and not page.cookies
        async with aiohttp.ClientSession(cookies=_cookie(server, "guess")) as session:
            async with session.get(server.origin) as page:
                assert page.status == 403
            assert await _ws_status(session, server) == 403
        # The printed address: its key becomes an HttpOnly, SameSite=Strict cookie and
        # the page is sent again without the key in its address.  (A cookie jar that,
        # like a browser's, keeps cookies of an address such as 127.0.0.1.)
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.get(server.url, allow_redirects=False) as answer:
                assert answer.status == 303 and answer.headers["Location"] == "/"
                assert answer.headers["Referrer-Policy"] == "no-referrer"
                set_cookie = answer.headers["Set-Cookie"]
                assert f"mantis-web-{_port(server)}={server.key}" in set_cookie
                assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
            async with session.get(server.url) as page:  # the redirect, then the page
                assert page.status == 200 and "<title>Mantis</title>" in await page.text()
                assert str(page.url) == server.origin + "/"
    finally:
        assert await asyncio.to_thread(server.stop) == 0


async def test_on_every_interface_only_this_machines_names_and_addresses_are_served() -> None:
    server = WebProcess("--host", "0.0.0.0", "--allow-host", "Mantis.Example")
    port = _port(server)
    try:
        async with aiohttp.ClientSession(cookies=_cookie(server)) as session:
            # DNS rebinding: evil.example now resolves to this machine; the page and its
            # socket are refused even to someone holding the key.
            rebound = f"evil.example:{port}"
            async with session.get(server.origin, headers={"Host": rebound}) as page:
                assert page.status == 421
            evil = {"Host": rebound, "Origin": f"http://{rebound}"}
            assert await _ws_status(session, server, **evil) == 421
            async with session.get(server.origin, headers={"Host": f"{ELSEWHERE}:{port}"}) as page:
                assert page.status == 421
            # This machine's own addresses and names, and the name allowed, are served.
            for host in (
                "127.0.0.1",
                "127.0.0.2",
                "localhost",
                socket.gethostname(),
                "mantis.example",
            ):
                async with session.get(server.origin, headers={"Host": f"{host}:{port}"}) as page:
                    assert page.status == 200, host
    finally:
        assert await asyncio.to_thread(server.stop) == 0


def test_which_hosts_name_this_server_depends_on_where_it_listens() -> None:
    loopback = Access("127.0.0.1")
    assert loopback.host_allowed("localhost:8000") and loopback.host_allowed("[::1]:8000")
    assert not loopback.host_allowed(f"{socket.gethostname()}:8000")
    assert not loopback.host_allowed("evil.example:8000")
    one = Access("127.0.0.2", ["mantis.example"])
    assert one.host_allowed("127.0.0.2:80") and one.host_allowed("MANTIS.example.:80")
    assert not one.host_allowed("127.0.0.3:80") and not one.host_allowed("evil.example")
    every = Access("::")
    assert every.host_allowed("127.0.0.9") and every.host_allowed("[::1]:1")
    assert not every.host_allowed("0.0.0.0:1") and not every.host_allowed(ELSEWHERE)
    assert not every.host_allowed("") and not every.host_allowed("evil.example")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["web", "--max-tabs", "0"], "must be at least 1"),
        (["web", "--allow-host", "evil example"], "is not a host name"),
    ],
)
def test_bad_access_values_exit_2_with_one_line(argv, says, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err


async def test_when_every_tab_is_taken_a_new_one_says_so() -> None:
    server = WebProcess("--max-tabs", "1")
    try:
        async with browser() as chrome:
            first = await Tab.open(chrome, server.url)
            context = await chrome.new_context()  # type: ignore[attr-defined]
            page = await context.new_page()
            await page.goto(server.url)
            await page.wait_for_selector("body.-full", timeout=WAIT_MS)
            notice = await page.inner_text("#full")
            assert "Every tab is taken" in notice and "at most 1 tab at once" in notice
            assert not await page.is_visible("#lost")
            await context.close()
            await first.shows("MANTIS")  # the first tab plays on
            await first.close()
    finally:
        assert await asyncio.to_thread(server.stop) == 0
