"""``my_tables`` (protocol 6): the tables where a key holds a seat, told to its owner alone.

Real servers on loopback; raw protocol clients and the reference client's
``games_in_progress``.  Each refusal is tried: no proof, a wrong proof, an
older protocol.  A seat left, a table over and another key's seats are never
listed; a seat is taken back with the token the list finds.
"""

from __future__ import annotations

import json
from pathlib import Path

from netkit import (
    Client,
    answered,
    create,
    join,
    play_my_turns,
    player_id,
    running_server,
    welcome,
)

from mantis.home.player_keys import PlayerKeys, new_key, server_address
from mantis.home.seat_tokens import SeatTokens
from mantis.net import protocol
from mantis.net.client import OnlineError, take_seat
from mantis.net.client.games_in_progress import games_in_progress
from mantis.net.protocol import key_proof

V = protocol.PROTOCOL_VERSION


def keys_with(tmp_path: Path, url: str, key: str, name: str) -> PlayerKeys:
    """A key file holding ``key`` for the server at ``url``."""
    path = tmp_path / f"{name}-keys.json"
    kept = {"format": "mantis-player-keys", "keys": {server_address(url): key}}
    path.write_text(json.dumps(kept), encoding="utf-8")
    return PlayerKeys(path)


async def ask(url: str, player: str | None, answer=None) -> Client:
    """A raw ``my_tables`` for the key id ``player``, its challenge answered by ``answer``."""
    client = await Client.connect(url)
    await client.send({"type": "my_tables", "protocol": V, "player": player})
    if answer is not None:
        challenge = await client.next(protocol.Challenge)
        await client.send(answer(challenge))
    await client.until(lambda: answered(client), "an answer")
    return client


async def test_a_key_hears_of_its_waiting_and_playing_tables_and_of_nothing_else(
    tmp_path: Path,
) -> None:
    ann_key, bea_key = new_key(), new_key()
    async with running_server(tmp_path) as (server, url):
        # Ann hosts two tables (one private) and sits at a third; one of them she leaves
        # for good, and one is played to its end.
        waiting = await create(url, ("human", "open"), "Ann", key=ann_key)
        private = await create(url, ("human", "greedy"), "Ann", key=ann_key, private=True)
        host = await create(url, ("human", "open"), "Bea", key=bea_key)
        code = welcome(host).code
        seated = await join(url, code, "Ann", key=ann_key)
        await host.send(protocol.Start())
        await host.until(lambda: host.stream, "the game")
        left = await create(url, ("human", "greedy"), "Ann", key=ann_key)
        await left.send(protocol.Start())
        await left.until(lambda: left.stream, "the game")
        await left.send(protocol.Leave())
        await left.until(
            lambda: any(isinstance(m, protocol.RoomState) and m.seats[0].left for m in left.heard),
            "her seat left",
        )
        over = await create(url, ("human", "greedy"), "Ann", key=ann_key)
        await over.send(protocol.Start())
        await play_my_turns(over, 0)
        keys = keys_with(tmp_path, url, ann_key, "ann")
        tokens = SeatTokens(tmp_path / "tokens.json")
        tokens.remember(url, code, welcome(seated).token or "", "Ann")

        held = await games_in_progress(url, keys, tokens)
        # The newest first: the table she joined, then her private one, then the first.
        assert [g.table.code for g in held] == [code, welcome(private).code, welcome(waiting).code]
        playing, secret, first = held
        assert playing.table.state == "playing" and playing.table.seat == 1
        assert playing.others() == ["Bea", "you"] and playing.token == welcome(seated).token
        assert secret.table.private and secret.token is None  # (no token kept here for it)
        assert first.table.state == "waiting" and first.table.moves == 0
        assert [seat.taken for seat in first.table.seats] == [True, False]

        # Bea hears of her own table only; a key with no seat of nothing.
        bea = await games_in_progress(url, keys_with(tmp_path, url, bea_key, "bea"))
        assert [g.table.code for g in bea] == [code]
        assert await games_in_progress(url, keys_with(tmp_path, url, new_key(), "cal")) == ()
        # An app that never sat down here asks nothing (it has no key for this server).
        assert await games_in_progress(url, PlayerKeys(tmp_path / "none.json")) == ()

        # Her app goes (a crash): the seat is taken back with the token found beside it.
        await seated.close()
        join_again = protocol.Join(V, playing.table.code, "", playing.token)
        again = await take_seat(url, join_again, tokens, keys)
        assert again.seat == 1
        await again.close()
        for client in (waiting, private, host, left, over):
            await client.close()
        del server


async def test_only_the_keys_owner_is_told_where_it_sits(tmp_path: Path) -> None:
    key = new_key()
    player = player_id(key)
    assert player is not None
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", key=key)
        # The id alone, and a proof of another nonce, are refused: nothing is said.
        for answer in (
            lambda c: protocol.Prove(proof="0" * 64),
            lambda c: protocol.Prove(proof=key_proof.proof_of(key_proof.verifier_of(key), "1")),
        ):
            client = await ask(url, player, answer)
            refused = await client.error()
            assert refused.code == protocol.BAD_PROOF
            assert not any(isinstance(m, protocol.YourTables) for m in client.heard)
            await client.closes()
        # Its owner is told, then the connection ends.
        verifier = key_proof.verifier_of(key)
        owner = await ask(
            url, player, lambda c: protocol.Prove(proof=key_proof.proof_of(verifier, c.nonce))
        )
        told = await owner.next(protocol.YourTables)
        assert [t.code for t in told.tables] == [welcome(ann).code]
        await owner.closes()
        await ann.close()


async def test_an_older_protocol_and_a_bad_id_are_refused_in_one_line(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        old = await Client.connect(url)
        await old.send({"type": "my_tables", "protocol": 5, "player": "a" * 64})
        refused = await old.error()
        assert refused.code == protocol.BAD_MESSAGE and "protocol 6" in refused.message
        bad = await Client.connect(url)
        await bad.send({"type": "my_tables", "protocol": V, "player": "not hex"})
        assert (await bad.error()).code == protocol.BAD_MESSAGE
        for client in (old, bad):
            await client.closes()


async def test_an_older_server_is_said_in_one_line(tmp_path: Path, monkeypatch) -> None:
    # A server of protocol 5 does not speak this version: the client says so, no traceback.
    monkeypatch.setattr(protocol, "SPOKEN", (1, 2, 3, 4, 5))
    key = new_key()
    async with running_server(tmp_path) as (_, url):
        try:
            await games_in_progress(url, keys_with(tmp_path, url, key, "ann"))
        except OnlineError as exc:
            assert exc.code == protocol.VERSION and "\n" not in str(exc)
        else:
            raise AssertionError("an older server answered my_tables")
