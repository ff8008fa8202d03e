"""``mantis web`` without a browser: its command line, its command, who may open a tab."""

from __future__ import annotations

import asyncio
import shlex
import socket
import subprocess
import sys

import aiohttp
import pytest
from webkit import WAIT_MS, WebProcess

from mantis.cli import main
from mantis.web.server import app_command


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["web", "--port", "x"], "'x' is not a port number"),
        (["web", "--port", "70000"], "ports are 0 to 65535"),
        (["web", "--colour"], "unrecognized arguments"),
    ],
)
def test_bad_values_exit_2_with_one_line(argv, says, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err


def test_a_port_in_use_is_one_clear_line_and_exit_1() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "mantis", "web", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=WAIT_MS / 1000,
        )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in done.stderr


def test_another_host_is_warned_that_whoever_reaches_it_uses_these_saves() -> None:
    server = WebProcess("--host", "0.0.0.0")
    assert server.url.startswith("http://127.0.0.1:")  # what a browser here can open
    assert server.url.endswith(f"/?key={server.key}") and len(server.key) >= 24
    assert server.stop() == 0
    (warning,) = server.errors.splitlines()
    assert warning.startswith("mantis: warning: listening on 0.0.0.0: whoever has the address")
    assert "this computer's saves and statistics" in warning


def test_each_tab_starts_this_python_quoted_even_under_a_path_with_spaces() -> None:
    command = app_command("/opt/my venv/bin/python")
    assert shlex.split(command) == ["exec", "/opt/my venv/bin/python", "-m", "mantis"]
    assert shlex.split(app_command())[1] == sys.executable


async def test_only_pages_of_this_server_may_start_an_app() -> None:
    server = WebProcess()
    try:
        ws_url = server.origin.replace("http://", "ws://") + "/ws"
        cookie = {f"mantis-web-{server.origin.rsplit(':', 1)[1]}": server.key}
        async with aiohttp.ClientSession(cookies=cookie) as session:
            for origin in (None, "http://evil.example", "http://127.0.0.1:1"):
                headers = {"Origin": origin} if origin else {}
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(ws_url, headers=headers)
                assert refused.value.status == 403
            # A name rebound to this address is refused too (the page, and its socket).
            rebound = {"Host": "evil.example"}
            async with session.get(server.origin, headers=rebound) as page:
                assert page.status == 421
            # The page itself, asked for properly, is served.
            async with session.get(server.origin) as page:
                assert page.status == 200 and "<title>Mantis</title>" in await page.text()
    finally:
        assert await asyncio.to_thread(server.stop) == 0
