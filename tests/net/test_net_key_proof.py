"""A key that does not travel (protocol 4): proved with an HMAC of a challenge, rotated.

Real servers on loopback; the reference client (``TableConnection``) and raw
protocol clients; what reaches the server is read off its own decoder.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

import pytest
from hostilekit import MiddleMan
from netkit import Client, answered, create, join, player_id, running_server, welcome

from mantis.cli import main
from mantis.home.player_keys import PlayerKeys, new_key
from mantis.home.seat_tokens import SeatTokens
from mantis.net import protocol
from mantis.net.client import (
    VERIFIER_ASKED,
    OnlineError,
    TableConnection,
    verifier_asked,
)
from mantis.net.client.key_rotation import rotate_key, run_rotate
from mantis.net.protocol import key_proof

V = protocol.PROTOCOL_VERSION


async def answer_of(client: Client) -> protocol.ServerMessage:
    await client.until(lambda: answered(client) or client.closed, "an answer")
    return next(m for m in client.heard if not isinstance(m, protocol.Challenge))


async def test_the_reference_client_never_sends_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    received: list[str] = []
    decode = protocol.decode_client

    def kept(data: str | bytes) -> protocol.ClientMessage:
        received.append(data if isinstance(data, str) else data.decode())
        return decode(data)

    monkeypatch.setattr(protocol, "decode_client", kept)
    keys = PlayerKeys(tmp_path / "keys.json")
    async with running_server(tmp_path) as (server, url):
        table = TableConnection(
            url,
            protocol.Create(V, "Ann", ("human", "open")),
            tokens=SeatTokens(tmp_path / "tokens.json"),
            keys=keys,
        )
        await table.open()
        key = keys.keys()[next(iter(keys.keys()))]
        assert table.seat == 0 and server.rooms[table.code].seats[0].player == "ann"
        # It sat down naming its key's id and proving it: the key never reached the server.
        assert received and not any(key in frame for frame in received)
        kinds = [json.loads(frame)["type"] for frame in received]
        assert kinds == ["create", "prove"]
        await table.close()
        # Next time it proves (the server knows the key now): the verifier does not travel
        # either, only an HMAC of that connection's challenge.
        received.clear()
        again = TableConnection(
            url,
            protocol.Create(V, "Ann", ("human", "open")),
            tokens=SeatTokens(tmp_path / "tokens.json"),
            keys=keys,
        )
        await again.open()
        verifier = key_proof.verifier_of(key)
        assert not any(key in frame or verifier in frame for frame in received)
        await again.close()


async def test_a_proof_must_answer_this_connections_challenge(tmp_path: Path) -> None:
    key = new_key()
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", key=key)  # the key is known now
        verifier = key_proof.verifier_of(key)
        # An overheard proof, replayed on a connection of its own: another nonce, refused.
        first = next(m for m in ann.heard if isinstance(m, protocol.Challenge))
        replayed = key_proof.proof_of(verifier, first.nonce)
        thief = await Client.connect(url)
        await thief.send(protocol.Create(V, "Ann", ("human", "open"), player=player_id(key)))
        challenge = await thief.next(protocol.Challenge)
        assert challenge.known and challenge.nonce != first.nonce
        await thief.send(protocol.Prove(proof=replayed))
        error = await answer_of(thief)
        assert isinstance(error, protocol.Error) and error.code == protocol.BAD_PROOF
        await thief.closes()
        # A key new here names its verifier once; one that is not its id's is refused.
        liar = await Client.connect(url)
        await liar.send(protocol.Create(V, "Lia", ("human", "open"), player=player_id(new_key())))
        assert not (await liar.next(protocol.Challenge)).known
        await liar.send(protocol.Prove(verifier=verifier))  # (someone else's verifier)
        assert (await answer_of(liar)).code == protocol.BAD_PROOF
        # Protocol 4 never sends the key itself.
        sender = await Client.connect(url)
        await sender.send(protocol.Create(V, "Sam", ("human", "open"), key=new_key()))
        assert (await answer_of(sender)).code == protocol.BAD_MESSAGE
        await ann.close()


async def test_a_proof_over_any_nonce_but_this_connections_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = new_key()
    verifier = key_proof.verifier_of(key)
    # Every proof the server works out, and the nonce it is over.
    worked: list[str] = []
    proof_of = key_proof.proof_of

    def spied(of: str, nonce: str) -> str:
        worked.append(nonce)
        return proof_of(of, nonce)

    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", key=key)  # the key is known now
        monkeypatch.setattr(key_proof, "proof_of", spied)
        first = next(m for m in ann.heard if isinstance(m, protocol.Challenge)).nonce
        for other in (first, "0" * 64, "f" * 64, "", "mantis"):
            worked.clear()
            thief = await Client.connect(url)
            await thief.send(protocol.Create(V, "Ann", ("human", "open"), player=player_id(key)))
            challenge = await thief.next(protocol.Challenge)
            await thief.send(protocol.Prove(proof=proof_of(verifier, other)))
            error = await answer_of(thief)
            assert isinstance(error, protocol.Error) and error.code == protocol.BAD_PROOF, other
            # The server checked the proof against this connection's nonce, and no other.
            assert worked == [challenge.nonce] and challenge.nonce != other
            await thief.closes()
        # Its own nonce's proof is taken.
        honest = await create(url, ("human", "open"), "Ann", key=key)
        assert welcome(honest).seat == 0
        for client in (ann, honest):
            await client.close()


async def test_a_version_3_client_is_served_as_before_and_its_name_proved_in_version_4(
    tmp_path: Path,
) -> None:
    key = new_key()
    async with running_server(tmp_path) as (_, url):
        old = await Client.connect(url)
        await old.send(protocol.Create(3, "Ann", ("human", "open"), key=key))
        await old.next(protocol.Welcome)
        assert '"protocol":3' in old.raw[0]
        await old.next(protocol.Ratings)  # version 3 hears ratings
        assert not any('"challenge"' in frame for frame in old.raw)
        # The same key in version 4: its name, proved without sending the key.
        new = await join(url, welcome(old).code, "ANN", key=new_key())
        assert (await answer_of(new)).code == protocol.NAME_TAKEN
        mine = await create(url, ("human", "open"), "ann", key=key)
        assert welcome(mine).room.seats[0].name == "ann"
        for client in (old, mine):
            await client.close()


async def test_a_rotated_key_holds_the_names_and_the_old_one_nothing(tmp_path: Path) -> None:
    keys = PlayerKeys(tmp_path / "keys.json")
    async with running_server(tmp_path) as (_, url):
        old = keys.key_for(url)
        for name in ("Ann", "Ada 2"):
            client = await create(url, ("human", "open"), name, key=old)
            await client.close()
        args = argparse.Namespace(server=url)
        assert await asyncio.to_thread(run_rotate, args, keys) == 0
        new = keys.key_for(url)
        assert new != old and keys._both()[1] == {}
        for name in ("Ann", "ada 2"):
            gone = await Client.connect(url, key=old)
            await gone.send(protocol.Create(V, name, ("human", "open"), player=player_id(old)))
            assert (await answer_of(gone)).code == protocol.NAME_TAKEN
            mine = await create(url, ("human", "open"), name, key=new)
            await mine.close()
        # A rotation cut short after the server took the new key (the app killed before it
        # kept it): the next one finds the server holds the pending key, and keeps it.
        current, pending, earlier = keys.rotating(url)
        assert (current, earlier) == (new, False)
        assert await rotate_key(url, current, pending) == 2
        assert keys.key_for(url) == new  # (not kept yet)
        assert await asyncio.to_thread(run_rotate, args, keys) == 0
        assert keys.key_for(url) == pending
        # A key that holds no name there: nothing to move, the new key is simply taken.
        other = PlayerKeys(tmp_path / "other.json")
        unused = other.key_for(url)
        assert await asyncio.to_thread(run_rotate, args, other) == 0
        assert other.key_for(url) != unused
    # The server gone: the rotation waits (its pending key kept), nothing is lost.
    before = keys.key_for(url)
    assert await asyncio.to_thread(run_rotate, args, keys) == 1
    assert keys.key_for(url) == before and keys._both()[1]


async def test_the_verifier_travels_once_and_a_man_in_the_middle_asking_again_gets_nothing(
    tmp_path: Path,
) -> None:
    keys = PlayerKeys(tmp_path / "keys.json")
    tokens = SeatTokens(tmp_path / "tokens.json")

    def table(url: str, opening: protocol.Hello, kept: PlayerKeys = keys) -> TableConnection:
        return TableConnection(url, opening, tokens=tokens, keys=kept)

    async with running_server(tmp_path) as (_, url), MiddleMan(url).running() as middle:
        # The first sitting, passed on as it is: the key introduces itself (its verifier
        # travels, this once) and the app keeps that the server knows it.
        first = table(middle.url, protocol.Create(V, "Ann", ("human", "open")))
        await first.open()
        await first.close()
        key = keys.key_for(middle.url)
        verifier = key_proof.verifier_of(key)
        assert sum(verifier in frame for frame in middle.said) == 1
        assert keys.knows(middle.url, key)
        # From now on every challenge says "known: false": each way of sitting down is
        # refused here, in one line, and neither the key nor its verifier goes out.
        middle.rewriting = True
        middle.said.clear()
        for opening in (
            protocol.Create(V, "Ann", ("human", "open")),
            protocol.Join(V, first.code or "", "Ann"),
            protocol.Quick(V, "Ann", 2),
        ):
            with pytest.raises(OnlineError) as refused:
                await table(middle.url, opening).open()
            said = str(refused.value)
            assert refused.value.code == VERIFIER_ASKED and refused.value.final
            assert said == verifier_asked(middle.url) and "nothing was sent" in said
        # Nor does a rotation through it send the old key's verifier (a server challenges
        # a rotation only for a key it knows): refused, the key kept as it was.
        assert await asyncio.to_thread(run_rotate, argparse.Namespace(server=middle.url), keys) == 1
        assert keys.key_for(middle.url) == key and keys._both()[1] == {}
        # The knowledge goes with the key to another computer.
        keys.export(tmp_path / "mine.json")
        elsewhere = PlayerKeys(tmp_path / "elsewhere.json")
        elsewhere.import_from(tmp_path / "mine.json")
        with pytest.raises(OnlineError) as refused:
            await table(middle.url, protocol.Create(V, "Ann", ("human", "open")), elsewhere).open()
        assert refused.value.code == VERIFIER_ASKED
        assert [json.loads(frame)["type"] for frame in middle.said] == [
            *("create", "join", "quick"),
            "rekey",  # (with the new key's verifier: the old one is proved, or nothing)
            "create",
        ]
        # Passed on as it is again: the same key plays there, proving it.
        middle.rewriting = False
        again = table(middle.url, protocol.Create(V, "Ann", ("human", "open")))
        await again.open()
        await again.close()
    assert not any(verifier in frame or key in frame for frame in middle.said)


async def test_a_server_that_lost_its_players_is_told_the_key_again_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = PlayerKeys()  # (this test's MANTIS_HOME: the command line's own file)
    tokens = SeatTokens(tmp_path / "tokens.json")
    ann = protocol.Create(V, "Ann", ("human", "open"))
    async with running_server(tmp_path / "one") as (_, first), MiddleMan(first).running() as to:
        table = TableConnection(to.url, ann, tokens=tokens, keys=keys)
        await table.open()
        await table.close()
        key = keys.key_for(to.url)
        assert keys.knows(to.url, key)
        # The server's folder is lost: a new server at the same address knows nobody.
        async with running_server(tmp_path / "two") as (_, second):
            to.upstream = second
            with pytest.raises(OnlineError) as refused:
                await TableConnection(to.url, ann, tokens=tokens, keys=keys).open()
            assert refused.value.code == VERIFIER_ASKED
            args = argparse.Namespace(server=to.url)
            assert await asyncio.to_thread(run_rotate, args, keys) == 1
            assert "says it holds nothing for your key" in capsys.readouterr().err
            assert keys.key_for(to.url) == key  # (kept: the old key may still hold names)
            # Its owner, told by the server's operator, lets the key introduce itself again.
            assert await asyncio.to_thread(main, ["key", "reintroduce", to.url]) == 0
            assert "once more" in capsys.readouterr().out
            table = TableConnection(to.url, ann, tokens=tokens, keys=keys)
            await table.open()
            await table.close()
            assert keys.knows(to.url, key) and table.seat == 0
    assert sum(key_proof.verifier_of(key) in frame for frame in to.said) == 2


async def test_a_rotation_a_server_never_answers_gives_up_on_its_clock() -> None:
    from websockets.asyncio.server import serve

    from mantis.base.clock import ManualClock
    from mantis.net.client import OPEN_TIMEOUT

    heard = asyncio.Event()

    async def silent(connection) -> None:  # (reads the rekey, says nothing)
        await connection.recv()
        heard.set()
        await connection.wait_closed()

    clock = ManualClock(frozen=True)
    async with serve(silent, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        rotating = asyncio.ensure_future(
            rotate_key(f"ws://127.0.0.1:{port}", new_key(), new_key(), clock)
        )
        await asyncio.wait_for(heard.wait(), 30)
        await asyncio.wait_for(clock.until_pending(OPEN_TIMEOUT), 30)
        assert not rotating.done()  # (however long the machine takes: the clock stands)
        clock.advance(OPEN_TIMEOUT)
        with pytest.raises(OnlineError) as refused:
            await asyncio.wait_for(rotating, 30)
    assert refused.value.code == "unreachable" and "did not answer" in str(refused.value)
