"""Bad input never hurts the server or another table.

Every test here sends something a well-behaved Mantis never would (broken
JSON, stray fields, floods, silence, guessed codes, someone else's seat, a
module path as a bot, names full of markup and escape sequences) and checks
both what the offender hears and that a second, well-behaved table on the
same server still plays afterwards: a whole game, or for the many small
cases its first moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from netkit import WAIT, Client, create, join, play_my_turns, running_server, welcome
from websockets.exceptions import ConnectionClosed

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, TurnStarted, steal
from mantis.engine.record import parse_record
from mantis.net import protocol
from mantis.net.server import server
from mantis.table import Opening, Recorded

V = protocol.PROTOCOL_VERSION


# ---------------------------------------------------------------------- the kit


@pytest.fixture(autouse=True)
def _every_error_is_one_line(monkeypatch):
    """Whatever a test provokes, every ``error`` any client hears is one non-empty line."""
    clients: list[Client] = []
    init = Client.__init__

    def tracked(self, connection, url="", key=None):  # type: ignore[no-untyped-def]
        init(self, connection, url, key)
        clients.append(self)

    monkeypatch.setattr(Client, "__init__", tracked)
    yield
    for client in clients:
        for message in client.heard:
            if isinstance(message, protocol.Error):
                assert message.code and message.message.strip(), message
                assert not any(c in message.message for c in "\r\n\x0b\x0c\x85\u2028\u2029"), (
                    message
                )


def _get(url: str):
    with urllib.request.urlopen(url, timeout=WAIT) as reply:
        return json.loads(reply.read())


async def http_json(url: str, path: str):
    """GET ``path`` from the server (in a thread: the server runs on this loop)."""
    return await asyncio.to_thread(_get, url.replace("ws://", "http://") + path)


async def honest_game(url: str, whole: bool = True) -> None:
    """A well-behaved table on the same server plays a whole game to its record.

    ``whole=False``: only its first moves (the host's and the bot's), which is
    enough to show the server still answers, for the many small cases.
    """
    host = await create(url, ("human", "greedy"), "Hal")
    await host.send(protocol.Start())
    playing = asyncio.create_task(play_my_turns(host, welcome(host).seat))
    if whole:
        await playing
        record = parse_record(host.stream[-1].record)
        assert record.result is not None
    else:
        await host.until(lambda: host.over or host.public.turn >= 4, "the first moves")
        playing.cancel()
    await host.close()


def errors(client: Client, after: int = 0) -> list[protocol.Error]:
    return [m for m in client.heard[after:] if isinstance(m, protocol.Error)]


def presence(client: Client) -> tuple[str, ...] | None:
    """The last presence ``client`` heard."""
    heard = [m for m in client.heard if isinstance(m, protocol.Presence)]
    return heard[-1].seats if heard else None


def rooms(client: Client) -> list[protocol.RoomState]:
    return [
        m.room if isinstance(m, protocol.Welcome) else m
        for m in client.heard
        if isinstance(m, protocol.RoomState | protocol.Welcome)
    ]


async def refused(url: str, frame: object) -> Client:
    """A new connection whose first message is ``frame``; it must be told off and closed."""
    client = await Client.connect(url)
    await client.send(frame)
    await client.closes()
    return client


async def answered(client: Client, frame: object) -> protocol.Error:
    """Send ``frame`` and return the error it earns."""
    mark = len(client.heard)
    await client.send(frame)
    return await client.error(mark)


# ---------------------------------------------------------------------- 1. malformed messages

#: Malformed at any time: not JSON, not an object, wrong types, unknown kinds or fields,
#: missing fields.  ``{code}`` is a real table's code, so only the shape is wrong.
MALFORMED = {
    "not-json": "hello",
    "truncated-json": '{"type": "join", "protocol": 1, "code": "{code}"',
    "empty-frame": "",
    "null": "null",
    "a-number": "1",
    "an-array": '[{"type": "watch", "protocol": 1, "code": "{code}"}]',
    "binary-garbage": b"\xff\x00\x93\x80",
    "protocol-as-string": '{"type": "join", "protocol": "1", "code": "{code}"}',
    "protocol-as-float": '{"type": "join", "protocol": 1.5, "code": "{code}"}',
    "code-as-number": '{"type": "join", "protocol": 1, "code": 42}',
    "empty-code": '{"type": "join", "protocol": 1, "code": ""}',
    "long-code": '{"type": "join", "protocol": 1, "code": "' + "{code}" * 7 + '"}',
    "empty-token": '{"type": "join", "protocol": 1, "code": "{code}", "token": ""}',
    "seats-as-string": '{"type": "create", "protocol": 1, "name": "Ann", "seats": "human,greedy"}',
    "name-as-list": '{"type": "create", "protocol": 1, "name": ["A"], "seats": ["human", "open"]}',
    "private-as-string": (
        '{"type": "create", "protocol": 1, "name": "A", "seats": ["human", "open"], "private": "y"}'
    ),
    "unknown-kind": '{"type": "sit_anywhere", "protocol": 1, "code": "{code}"}',
    "no-kind": '{"protocol": 1, "code": "{code}"}',
    "kind-as-number": '{"type": 3, "protocol": 1, "code": "{code}"}',
    "kind-with-newline": '{"type": "join\\nnow", "protocol": 1, "code": "{code}"}',
    "extra-field": '{"type": "watch", "protocol": 1, "code": "{code}", "admin": true}',
    "missing-protocol": '{"type": "watch", "code": "{code}"}',
    "missing-seats": '{"type": "create", "protocol": 1, "name": "Ann"}',
    "turn-as-string": '{"type": "act", "turn": "0", "action": {"type": "score"}}',
    "turn-negative": '{"type": "act", "turn": -1, "action": {"type": "score"}}',
    "turn-too-big": '{"type": "act", "turn": 106, "action": {"type": "score"}}',
    "unknown-action": '{"type": "act", "turn": 0, "action": {"type": "pass"}}',
    "steal-without-target": '{"type": "act", "turn": 0, "action": {"type": "steal"}}',
    "steal-seat-9": '{"type": "act", "turn": 0, "action": {"type": "steal", "target": 9}}',
    "act-without-action": '{"type": "act", "turn": 0}',
    "seat-as-string": '{"type": "remove_seat", "seat": "1"}',
    "add-bot-without-level": '{"type": "add_bot"}',
    "start-with-extra-field": '{"type": "start", "now": true}',
}

#: Well-formed, but not how a connection may begin.
NOT_AN_OPENING = {
    "start-first": '{"type": "start"}',
    "act-first": '{"type": "act", "turn": 0, "action": {"type": "score"}}',
    "add-bot-first": '{"type": "add_bot", "level": "greedy"}',
}

#: Well-formed openings, sent again by a connection already at a table.
OPENING_AGAIN = {
    "watch-again": '{"type": "watch", "protocol": 1, "code": "{code}"}',
    "join-again": '{"type": "join", "protocol": 1, "code": "{code}", "name": "Bea"}',
    "create-again": '{"type": "create", "protocol": 1, "name": "B", "seats": ["human", "open"]}',
}


def fill(frame: str | bytes, code: str) -> str | bytes:
    return frame.replace("{code}", code) if isinstance(frame, str) else frame


@pytest.mark.parametrize(
    "frame", [*MALFORMED.values(), *NOT_AN_OPENING.values()], ids=[*MALFORMED, *NOT_AN_OPENING]
)
async def test_a_bad_first_message_gets_one_error_then_the_close(tmp_path: Path, frame) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"))
        code = welcome(ann).code
        client = await refused(url, fill(frame, code))
        assert [type(m) for m in client.heard] == [protocol.Error]
        assert client.heard[0].code == protocol.BAD_MESSAGE
        assert client.connection.close_code == 1008
        # Nobody took Ann's open seat, and her table still answers her.
        [table] = await http_json(url, "/tables")
        assert [s["taken"] for s in table["seats"]] == [True, False]
        await ann.send(protocol.AddBot("greedy"))
        await ann.until(lambda: len(rooms(ann)) >= 2, "Ann's room")
        await honest_game(url, whole=False)


@pytest.mark.parametrize(
    "frame", [*MALFORMED.values(), *OPENING_AGAIN.values()], ids=[*MALFORMED, *OPENING_AGAIN]
)
async def test_a_bad_message_at_a_table_gets_an_error_and_the_connection_stays(
    tmp_path: Path, frame
) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open", "open"))
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        error = await answered(bea, fill(frame, code))
        assert error.code == protocol.BAD_MESSAGE
        # Still at the table: her next (honest, if refused) message is answered too,
        # and she hears the host's changes; nobody took the third seat.
        assert (await answered(bea, protocol.Start())).code == protocol.NOT_HOST
        await ann.send(protocol.RemoveSeat(2))
        await bea.until(lambda: len(rooms(bea)[-1].seats) == 2, "the smaller room")
        assert not bea.closed and len(errors(bea)) == 2
        assert rooms(bea)[-1].you == 1
        await honest_game(url, whole=False)


# ---------------------------------------------------------------------- 2. oversized messages


def padded_start(size: int) -> str:
    """A ``start`` message of exactly ``size`` bytes (padded with JSON whitespace)."""
    head = '{"type": "start"'
    return head + " " * (size - len(head) - 1) + "}"


@pytest.mark.parametrize("when", ["first", "at-the-table"])
async def test_an_oversized_message_closes_the_connection_and_the_server_goes_on(
    tmp_path: Path, when: str
) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"))
        code = welcome(ann).code
        big = '{"type": "watch", "protocol": 1, "code": "' + code + '", "x": "' + "A" * 3000 + '"}'
        if when == "first":
            client = await Client.connect(url)
        else:
            client = await join(url, code, "Bea")
            # The limit is exactly MAX_CLIENT_MESSAGE: a message of that size is read.
            at_limit = padded_start(protocol.MAX_CLIENT_MESSAGE)
            assert len(at_limit.encode()) == protocol.MAX_CLIENT_MESSAGE
            assert (await answered(client, at_limit)).code == protocol.NOT_HOST
            big = padded_start(protocol.MAX_CLIENT_MESSAGE + 1)
        before = len(client.heard)
        with contextlib.suppress(ConnectionClosed):
            await client.send(big)
        await client.closes()
        assert client.connection.close_code == 1009  # "message too big"
        assert client.heard[before:] == []
        if when == "at-the-table":
            # Bea's seat is hers still, only her connection is gone.
            await ann.until(lambda: presence(ann) == ("here", "gone"), "Bea gone")
        assert (await http_json(url, "/status"))["tables"] == 1
        await honest_game(url)


# ---------------------------------------------------------------------- 3. a flood


async def test_a_flood_is_slowed_then_cut_off_and_an_honest_client_plays_on(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (server_, url):
        ann = await create(url, ("human", "greedy"))
        flood = await Client.connect(url)
        await flood.send(protocol.Watch(V, welcome(ann).code))
        await flood.next(protocol.Welcome)
        [on_server] = server_.rooms[welcome(ann).code].spectators  # the server's end of it

        async def flood_it() -> int:
            # Batches of messages as fast as the loop goes, far beyond BURST + MAX_DROPPED,
            # until the server hangs up (the bound only stops a broken server's test).
            sent = 0
            act = protocol.encode(protocol.Act(0, SCORE)).decode()
            with contextlib.suppress(ConnectionClosed):
                while not flood.closed and sent < 200 * (server.BURST + server.MAX_DROPPED):
                    for _ in range(50):
                        await flood.send(act)
                        sent += 1
                    await asyncio.sleep(0)
            await flood.closes()
            return sent

        async def play_honestly() -> None:
            await ann.send(protocol.Start())
            await play_my_turns(ann, 0)

        sent, _, _ = await asyncio.gather(flood_it(), play_honestly(), honest_game(url))
        assert sent > server.BURST + server.MAX_DROPPED
        heard = errors(flood)
        slow = [e for e in heard if e.code == protocol.SLOW_DOWN]
        answered_ = [e for e in heard if e.code == protocol.NOT_YOUR_TURN]
        assert slow, "the flood was never told to slow down"
        # At least the burst was answered, and far from everything was: most were dropped,
        # with a few reminders (not one error per dropped message).
        assert server.BURST <= len(answered_) < sent - server.MAX_DROPPED
        assert len(slow) <= server.MAX_DROPPED // 20 + 2
        assert flood.connection.close_code == 1008
        # The server read on to the flood's own close frame: the closing handshake
        # completed instead of stalling behind the unread messages until a timeout.
        await asyncio.wait_for(on_server.wait_closed(), WAIT)
        assert on_server.protocol.close_rcvd is not None
        assert ann.over and isinstance(ann.stream[-1], Recorded)


# ---------------------------------------------------------------------- 4. silence


async def test_a_connection_that_never_speaks_is_closed_after_the_hello_timeout(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock) as (_, url):
        silent = await Client.connect(url)
        # The server waits for its hello...
        await asyncio.wait_for(clock.until_pending(server.HELLO_TIMEOUT), WAIT)
        assert not silent.closed
        clock.advance(server.HELLO_TIMEOUT)  # ...for 10 s
        await silent.closes()
        assert silent.heard == []
        assert silent.connection.close_code == 1008
        # Speaking promptly is all it takes.
        await honest_game(url)


# ---------------------------------------------------------------------- 5. another version


@pytest.mark.parametrize(
    "frame",
    [
        protocol.Join(V + 1, "{code}", "Bea"),
        protocol.Watch(V + 1, "{code}"),
        protocol.Create(0, "Bea", ("human", "greedy")),
        protocol.Join(-7, "{code}"),
        # Another version may say things this one cannot read: it is still told the version.
        '{"type": "join", "protocol": NEXT, "code": "{code}", "name": "Bea", "colour": "red"}',
        '{"type": "hello", "protocol": NEXT, "client": "mantis 9.0"}',
        '{"type": "join", "protocol": 123456789012345678901234567890, "code": "{code}"}',
    ],
    ids=[
        "join-next",
        "watch-next",
        "create-v0",
        "join-v-7",
        "next-new-field",
        "next-new-kind",
        "huge",
    ],
)
async def test_another_protocol_version_is_told_so_in_one_line_then_closed(
    tmp_path: Path, frame
) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"))
        code = welcome(ann).code
        if not isinstance(frame, str):
            frame = protocol.encode(frame).decode()
        frame = frame.replace("NEXT", str(V + 1))  # (the version after this one)
        client = await refused(url, frame.replace("{code}", code))
        [error] = client.heard
        assert isinstance(error, protocol.Error) and error.code == protocol.VERSION
        claimed = json.loads(frame.replace("{code}", code))["protocol"]
        assert f"protocol {V}" in error.message and str(claimed) in error.message
        assert "\n" not in error.message
        assert client.connection.close_code == 1008
        [table] = await http_json(url, "/tables")
        assert [s["taken"] for s in table["seats"]] == [True, False]
        await honest_game(url)


# ---------------------------------------------------------------------- 6. guessing codes


async def test_wrong_codes_are_unknown_and_after_five_even_a_real_code_waits(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"))
        code = welcome(ann).code
        # "A" is not in the code alphabet, so these tables cannot exist.
        guesses = [
            protocol.Join(V, "AAAA", "Eve"),
            protocol.Watch(V, "AAAB"),
            protocol.Join(V, "AA-AC"),
            protocol.Watch(V, "aaad"),
            protocol.Join(V, "AAAE", "Eve"),
        ]
        for guess in guesses:
            client = await refused(url, guess)
            [error] = client.heard
            assert error.code == protocol.UNKNOWN_CODE
        # The sixth attempt is held back, even with the real code, to join or to watch.
        for attempt in (protocol.Join(V, code, "Eve"), protocol.Watch(V, code)):
            client = await refused(url, attempt)
            [error] = client.heard
            assert error.code == protocol.TOO_MANY_GUESSES
            assert "try again in" in error.message
        # The seat stayed open; the host, already in, and a new table are unaffected.
        [table] = await http_json(url, "/tables")
        assert [s["taken"] for s in table["seats"]] == [True, False]
        await ann.send(protocol.AddBot("greedy"))
        await ann.until(lambda: len(rooms(ann)) >= 2, "Ann's room")
        await honest_game(url)


# ---------------------------------------------------------------------- 7. seat tokens


async def test_a_wrong_token_is_refused_and_nobody_takes_over_a_connected_seat(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"))
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        token = welcome(bea).token
        assert token is not None
        other = await create(url, ("human", "open"), "Oz")  # another table, another token

        for wrong in ("not-a-token", token[:-1], welcome(other).token):
            client = await refused(url, protocol.Join(V, code, "Eve", wrong))
            [error] = client.heard
            assert error.code == protocol.BAD_TOKEN

        # The right token, while Bea is connected and answers pings: refused.
        thief = await refused(url, protocol.Join(V, code, "Eve", token))
        [error] = thief.heard
        assert error.code == protocol.SEAT_IN_USE
        # Bea is still seat 1 and still hears her table; her name did not change.
        mark = len(bea.heard)
        await ann.send(protocol.Start())
        await bea.until(lambda: bea.stream, "the stream")
        assert rooms(bea)[-1].you == 1 and rooms(bea)[-1].seats[1].name == "Bea"
        presence = [m for m in bea.heard[mark:] if isinstance(m, protocol.Presence)]
        assert presence[-1].seats == ("here", "here")
        # Once her connection is really gone, the same token gets her seat back.
        await bea.close()
        again = await join(url, code, token=token)
        assert welcome(again).seat == 1
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(again, 1))
        await honest_game(url)


# ---------------------------------------------------------------------- 8. intents not yours


async def test_intents_that_are_not_yours_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with running_server(tmp_path, away_after=WAIT) as (_, url):
        ann = await create(url, ("human", "open", "open"))
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        cat = await join(url, code, "Cat")
        spectator = await Client.connect(url)
        await spectator.send(protocol.Watch(V, code))
        await spectator.next(protocol.Welcome)

        host_ops = (
            protocol.AddBot("greedy"),
            protocol.AddOpen(),
            protocol.RemoveSeat(2),
            protocol.RemoveSeat(0),
            protocol.Start(),
        )
        for who in (bea, spectator):
            for op in host_ops:
                assert (await answered(who, op)).code == protocol.NOT_HOST
        assert (await answered(spectator, protocol.Act(0, SCORE))).code == protocol.NOT_YOUR_TURN
        [table] = await http_json(url, "/tables")
        assert table["state"] == "waiting" and len(table["seats"]) == 3

        await ann.send(protocol.Start())
        await spectator.until(lambda: len(spectator.stream) >= 2, "the first turn")
        first = spectator.stream[1]
        assert isinstance(first, TurnStarted) and first.turn == 0
        people = (ann, bea, cat)
        mover = people[first.seat]
        waiting = [c for c in people if c is not mover]
        before = list(spectator.stream)

        for who in waiting:
            assert (await answered(who, protocol.Act(0, SCORE))).code == protocol.NOT_YOUR_TURN
            assert (await answered(who, protocol.Act(1, SCORE))).code == protocol.STALE
        assert (await answered(spectator, protocol.Act(0, SCORE))).code == protocol.NOT_YOUR_TURN
        for action, problem in (
            (steal(first.seat), protocol.ILLEGAL),  # stealing from oneself
            (steal(5), protocol.ILLEGAL),  # a seat not at this table
            (SCORE, protocol.STALE),  # (sent with a turn that has not come)
        ):
            turn = 7 if problem == protocol.STALE else 0
            assert (await answered(mover, protocol.Act(turn, action))).code == problem
        for op in host_ops:
            assert (await answered(ann, op)).code == protocol.NOT_NOW
            assert (await answered(bea, op)).code == protocol.NOT_HOST
        # Everyone heard nothing new: not one refused intent reached the table.
        for client in (ann, bea, cat, spectator):
            assert client.stream == before
        [table] = await http_json(url, "/tables")
        assert table["moves"] == 0 and len(table["seats"]) == 3

        # The mover's own move, on its own turn, is played (so the refusals above mattered).
        await mover.send(protocol.Act(0, SCORE))
        await spectator.until(lambda: spectator.public.turn == 1, "the first move")
        [listed] = await http_json(url, "/tables")  # (its count of moves, nothing else)
        assert listed == table | {"moves": 1}
        await honest_game(url)


# ---------------------------------------------------------------------- 9. bad seats


def _unimported() -> str:
    """A standard module nobody here has imported (a server must never import it for us)."""
    return next(m for m in ("colorsys", "tabnanny", "sched", "mailbox") if m not in sys.modules)


UNIMPORTED = _unimported()


@pytest.mark.parametrize(
    ("seats", "extra", "code"),
    [
        (("open", "greedy"), {}, protocol.BAD_SEATS),
        (("human", "human"), {}, protocol.BAD_SEATS),
        (("HUMAN", " human "), {}, protocol.BAD_SEATS),
        (("human", "os:system"), {}, protocol.BAD_SEATS),
        (("human", f"{UNIMPORTED}:x"), {}, protocol.BAD_SEATS),
        (("human", "greedy2"), {}, protocol.BAD_SEATS),
        (("human", ""), {}, protocol.BAD_SEATS),
        (("human", "greedy"), {"away_bot": "os:system"}, protocol.BAD_SEATS),
        (("human", "greedy"), {"away_bot": f"{UNIMPORTED}:x"}, protocol.BAD_SEATS),
        (("human", "greedy"), {"away_bot": "nobody"}, protocol.BAD_SEATS),
        (("human", "greedy"), {"away_bot": ""}, protocol.BAD_SEATS),
        # The protocol itself bounds a table to 2..6 seats: such a create is not even read.
        ((), {}, protocol.BAD_MESSAGE),
        (("human",), {}, protocol.BAD_MESSAGE),
        (("human", *["open"] * 6), {}, protocol.BAD_MESSAGE),
    ],
    ids=[
        "no-human",
        "two-humans",
        "two-humans-spelt-oddly",
        "module-path",
        "unimported-module",
        "unknown-level",
        "empty-seat",
        "away-module-path",
        "away-unimported-module",
        "away-unknown",
        "away-empty",
        "no-seats",
        "one-seat",
        "seven-seats",
    ],
)
async def test_create_with_bad_seats_is_refused_and_makes_no_table(
    tmp_path: Path, seats, extra, code
) -> None:
    async with running_server(tmp_path) as (_, url):
        frame = json.dumps(
            {"type": "create", "protocol": V, "name": "Ann", "seats": list(seats), **extra}
        )
        client = await refused(url, frame)
        [error] = client.heard
        assert error.code == code
        assert (await http_json(url, "/status"))["tables"] == 0
        assert UNIMPORTED not in sys.modules
        await honest_game(url)
        assert (await http_json(url, "/status"))["tables"] == 1


async def test_the_host_cannot_add_a_bot_by_module_path(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"))
        for level in ("os:system", f"{UNIMPORTED}:x", "Greedy2", ""):
            assert (await answered(ann, protocol.AddBot(level))).code == protocol.BAD_SEATS
        assert UNIMPORTED not in sys.modules
        assert len(rooms(ann)) == 1  # the room never changed
        [table] = await http_json(url, "/tables")
        assert len(table["seats"]) == 2
        await honest_game(url)


# ---------------------------------------------------------------------- 10. names

NASTY_NAMES = [
    "[bold red]Eve[/]",
    "[link=x]x[/link]",
    "\x1b[2J\x1b]0;owned\x07Eve",
    "E\x00v\x08e\x7f\x9b",
    "\u202eEve\u202c",
    "Ｅｖｅ",  # fullwidth: the same name once normalised
    "Ann\u200bBea\u2028Cat",
    "x" * 64,  # the longest the protocol reads
    "abcdefghijklm opq",  # cut to 16, then twice at the table
    "abcdefghijklm opq",
    "",
    "\t\n\r ",
    "[/]",
    "\U0001f600\U0001f600",
    "You",
    "  you  ",
    "YOU",
    "Ada",  # the server's first bot name
    "ada",
    "Player 2",
]


def good_name(name: str) -> bool:
    """Letters, digits, single spaces and ``-_.'`` only; 1..16 of them; never "You"."""
    return (
        1 <= len(name) <= 16
        and name.casefold() != "you"
        and name == " ".join(name.split())
        and all(c in " -_.'" or unicodedata.category(c)[0] in "LN" for c in name)
    )


def check_names(names: list[str]) -> None:
    assert all(good_name(n) for n in names), names
    assert len({n.casefold() for n in names}) == len(names), names


#: What each table of ``NASTY_NAMES`` is seated as (the bot, named at ``create``, last).
CLEANED = [
    ["bold redEve", "linkxxlink", "2J0ownedEve", "Eve", "Eve 2", "Ada"],
    ["Eve", "AnnBeaCat", "x" * 16, "abcdefghijklm op", "abcdefghijklm 2", "Ada"],
    ["Player 1", "Player 2", "Player 3", "Player 4", "Player 5", "Ada"],
    ["Player 1", "Player 2", "Ada 2", "ada 3", "Player 2 2", "Ada"],
]


async def test_names_are_cleaned_made_unique_and_never_you(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        # Tables of six: a host and four people (in that order) and one bot.
        for chunk in range(0, len(NASTY_NAMES), 5):
            names = NASTY_NAMES[chunk : chunk + 5]
            seats = ("human", *["open"] * (len(names) - 1), "greedy")
            host = await create(url, seats, names[0])
            code = welcome(host).code
            people = [host] + [await join(url, code, name) for name in names[1:]]
            assert [welcome(p).seat for p in people] == list(range(len(names)))
            await host.send(protocol.Start())
            for person in people:
                await person.until(lambda p=person: p.stream, "the opening")
                check_names([s.name for s in welcome(person).room.seats if s.name])
                check_names([s.name for s in rooms(person)[-1].seats])
                opening = person.stream[0]
                assert isinstance(opening, Opening)
                check_names([s.name for s in opening.seats])
                assert [s.name for s in opening.seats] == [s.name for s in rooms(person)[-1].seats]
        # What is left still reads as what was meant; the list of tables says the same.
        tables = await http_json(url, "/tables")
        assert [[s["name"] for s in t["seats"]] for t in tables] == CLEANED
        await honest_game(url)


@pytest.mark.parametrize("name", ["x" * 500, "[b]" * 166, "\x1b[2J" * 100])
async def test_a_name_too_long_to_read_is_refused_and_takes_no_seat(
    tmp_path: Path, name: str
) -> None:
    async with running_server(tmp_path) as (_, url):
        frame = protocol.encode(protocol.Create(V, "Ann", ("human", "open"))).decode()
        too_long = json.dumps({**json.loads(frame), "name": name})
        [error] = (await refused(url, too_long)).heard
        assert error.code == protocol.BAD_MESSAGE
        assert (await http_json(url, "/status"))["tables"] == 0
        ann = await create(url, ("human", "open"))
        join_frame = {"type": "join", "protocol": V, "code": welcome(ann).code, "name": name}
        [error] = (await refused(url, json.dumps(join_frame))).heard
        assert error.code == protocol.BAD_MESSAGE
        [table] = await http_json(url, "/tables")
        assert [s["taken"] for s in table["seats"]] == [True, False]
        await honest_game(url)


def _status(address: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(address, timeout=WAIT) as reply:  # noqa: S310
            return reply.status, reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


async def test_a_page_number_is_ascii_digits_only_anything_else_is_400_never_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Each is a digit to ``str.isdigit`` (or a number to ``int``) but not a page number:
    # a superscript two, Arabic-Indic and mathematical digits, an underscore, a sign.
    strange = ("²", "١", "𝟙", "٣٤", "1_0", "+1", " 1", "1\u00a0")
    async with running_server(tmp_path) as (_, url):
        base = url.replace("ws://", "http://")
        for page in ("/tables", "/leaderboard"):
            for number in strange:
                status, body = await asyncio.to_thread(
                    _status, f"{base}{page}?page={urllib.parse.quote(number)}"
                )
                assert status == 400, (page, number, status)
                assert body.count(b"\n") == 1 and body.startswith(b"Bad request: page"), body
            assert (await asyncio.to_thread(_status, f"{base}{page}?page=1"))[0] == 200
    failures = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not failures, [r.getMessage() for r in failures]
