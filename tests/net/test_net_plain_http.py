"""The server's plain HTTP pages at the byte level, against a real ``mantis serve`` (or,
for what a page says, one running here).

Raw sockets, so what is tested is what goes over the wire: a request pipelined
behind another, a header block split across packets, ``HEAD`` and other
methods.  The server's stderr is read at the end: none of it may be a traceback.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

from netkit import (
    WAIT,
    ServerProcess,
    create,
    play_my_turns,
    running_server,
    turn_to_answer,
    welcome,
)

from mantis.engine import SCORE, CardRevealed
from mantis.net import protocol


def exchange(port: int, *chunks: bytes) -> bytes:
    """Send ``chunks`` (one ``send`` each) and read until the server closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        for chunk in chunks:
            sock.sendall(chunk)
        received = b""
        while data := sock.recv(65536):
            received += data
    return received


def responses(data: bytes) -> list[tuple[str, dict[str, str], bytes]]:
    """Each HTTP response in ``data``: status line, headers, body (by Content-Length)."""
    found = []
    while data:
        head, _, data = data.partition(b"\r\n\r\n")
        status, *lines = head.decode().split("\r\n")
        headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
        size = int(headers.get("content-length", "0"))
        found.append((status, headers, data[:size]))
        data = data[size:]
    return found


GET_STATUS = b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
GET_TABLES = b"GET /tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


async def test_pipelined_requests_are_answered_or_closed_and_head_has_no_body(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path)
    try:
        host = await create(server.url, seats=("human", "open"), name="Ann")
        code = welcome(host).code
        # Two GETs in one packet: the first is answered whole, then the connection
        # closes (the second is for a new connection to ask, as Connection: close says).
        for _ in range(3):
            data = await asyncio.to_thread(exchange, server.port, GET_STATUS + GET_TABLES)
            [(status, headers, body)] = responses(data)
            assert status == "HTTP/1.1 200 OK" and headers["connection"] == "close"
            assert json.loads(body)["tables"] == 1
        # Another method is refused; one with a body is closed unanswered (no body is read).
        post = b"POST /status HTTP/1.1\r\nHost: x\r\n\r\n"
        [(status, headers, _)] = responses(await asyncio.to_thread(exchange, server.port, post))
        assert status == "HTTP/1.1 405 Method Not Allowed" and headers["allow"] == "GET, HEAD"
        body = b"POST /status HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
        assert await asyncio.to_thread(exchange, server.port, body + GET_STATUS) == b""
        # A header block that ends in the next packet, with a request pipelined behind it.
        split = (GET_TABLES[:-1], GET_TABLES[-1:] + GET_STATUS)
        [(status, _, body)] = responses(await asyncio.to_thread(exchange, server.port, *split))
        assert status == "HTTP/1.1 200 OK" and json.loads(body)[0]["code"] == code
        # HEAD: the headers GET has, its length included, and not one byte of body.
        for path, get in ((b"/status", GET_STATUS), (b"/tables", GET_TABLES), (b"/nope", None)):
            head = b"HEAD " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            data = await asyncio.to_thread(exchange, server.port, head)
            header_block, _, after = data.partition(b"\r\n\r\n")
            assert after == b"", data
            if get is not None:
                [(_, get_headers, get_body)] = responses(
                    await asyncio.to_thread(exchange, server.port, get)
                )
                assert b"200 OK" in header_block
                assert f"Content-Length: {len(get_body)}".encode() in header_block
            else:
                assert b"404 Not Found" in header_block
        # Play still upgrades as before: the host's connection went on all along.
        await host.send(protocol.AddOpen())
        await host.until(
            lambda: any(isinstance(m, protocol.RoomState) and len(m.seats) == 3 for m in host.heard)
        )
        await asyncio.wait_for(host.close(), WAIT)
    finally:
        assert server.stop() == 0
    errors = server.process.stderr.read() if server.process.stderr else ""
    assert "Traceback" not in errors and "Error" not in errors, errors


async def test_the_list_of_tables_counts_each_games_moves_as_they_are_played(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (_, url):
        port = int(url.rsplit(":", 1)[1])

        async def listed() -> dict[str, object]:
            [(_, _, body)] = responses(await asyncio.to_thread(exchange, port, GET_TABLES))
            [table] = json.loads(body)
            return table

        ann = await create(url, seats=("human", "greedy"), name="Ann")
        assert (await listed())["moves"] == 0
        await ann.send(protocol.Start())
        for _ in range(3):  # at each of Ann's turns: every move played so far
            turn = await ann.until(
                lambda: (t := turn_to_answer(ann.stream)) and t.seat == 0 and t, "Ann's turn"
            )
            played = sum(isinstance(m, CardRevealed) for m in ann.stream)
            assert played == turn.turn
            table = await listed()
            assert (table["state"], table["moves"]) == ("playing", played), table
            await ann.send(protocol.Act(turn.turn, SCORE))
            await ann.until(lambda t=turn: turn_to_answer(ann.stream) != t, "her move")
        await play_my_turns(ann, 0)
        turns = sum(isinstance(m, CardRevealed) for m in ann.stream)
        assert (await listed())["state"] == "over" and (await listed())["moves"] == turns
        await ann.close()


async def test_smuggled_bodies_and_oversized_heads_get_nothing_or_a_4xx_never_a_traceback(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path)
    try:
        smuggled = [  # a body the server would have to read (or frame) to find the next request
            b"GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + GET_TABLES,
            b"GET /status HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"5\r\nhello\r\n0\r\n\r\n" + GET_TABLES,
            b"GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n"
            + GET_TABLES,
        ]
        for request in smuggled:
            assert await asyncio.to_thread(exchange, server.port, request) == b""
        oversized = {
            b"GET /status HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n": b"431",
            b"GET /status HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-%d: y\r\n" % i for i in range(300))
            + b"\r\n": b"431",
            b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n": b"414",
        }
        for request, status in oversized.items():
            data = await asyncio.to_thread(exchange, server.port, request)
            assert data.startswith(b"HTTP/1.1 " + status), data[:60]
        # The server answers as before.
        [(status_line, _, body)] = responses(
            await asyncio.to_thread(exchange, server.port, GET_STATUS)
        )
        assert status_line == "HTTP/1.1 200 OK" and json.loads(body)["tables"] == 0
    finally:
        assert server.stop() == 0
    errors = server.process.stderr.read() if server.process.stderr else ""
    assert "Traceback" not in errors and "Error" not in errors, errors
