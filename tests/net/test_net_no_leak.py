"""No client ever hears what its seat may not know before the game is over.

Many whole games are played on one server (people through the protocol,
server bots of every level, spectators at each table, clients of every
protocol version the server speaks) and every text frame each client
received is kept.  Once a game's record is known, each client's frames up to
the one carrying ``Recorded`` are read again, every field of every kind of
message (``leakkit``): no card of the pile shows in any form before the
``CardRevealed`` that turns it over, and neither the seed nor the pile is
ever sent.  The games are made to have the server say everything it says
(talk, a clock, an offer declined, errors, a person leaving, running out of
time, coming back), so no kind of frame goes unread.
"""

from __future__ import annotations

import asyncio
import json
import typing
from pathlib import Path
from random import Random

import msgspec
from leakkit import (
    FIELDS,
    SERVER_MESSAGE,
    STREAM_MESSAGE,
    leaks,
    read_frames,
    unclassified,
)
from netkit import (
    Client,
    create,
    elsewhere,
    heard,
    join,
    play_my_turns,
    player_id,
    refill,
    running_server,
    turn_to_answer,
    welcome,
)

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, CardRevealed, GameRecord, Scored
from mantis.engine.cards import BACK, FACE, card_code
from mantis.engine.record import parse_record
from mantis.home.player_keys import new_key
from mantis.net import protocol
from mantis.players.registry import BUILT_IN
from mantis.table import Away, Back, Fault, KeepFailed, Recorded, StartFailed, Talk, TimedOut

GAMES = 30
LEVELS = BUILT_IN
CLOCK = 30

#: Stream messages no game here has: a bot's fault or failed start (the server's bots are
#: its own levels, which neither raise nor overrun), a failed save, and talk (said to the
#: people beside the stream, never on it), and ``rekeyed`` (the answer to replacing a key,
#: which no table's connection asks: test_net_key_proof.py).  The checker's reading of them
#: is checked on forged frames instead.
NEVER_SENT = {Fault, StartFailed, KeepFailed, Talk, protocol.Rekeyed}


ASKED = "where it sits"
"""The frames of a host asking, mid-game, where its key holds seats (``my_tables``)."""


def _tag(kind: type) -> str:
    return kind.__struct_config__.tag  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- the games


async def enter(url: str, opening: dict[str, object], source: str | None = None) -> Client:
    """A connection opened with ``opening`` (a join or a watch, in any version's words), from
    ``source`` (a loopback address: another network for a rated table's people)."""
    client = await Client.connect(url, source=source)
    await client.send(opening)
    await client.until(lambda: client.heard, "an answer")
    assert isinstance(client.heard[0], protocol.Welcome), client.heard[0]
    return client


async def watch(url: str, code: str, version: int) -> Client:
    """A spectator speaking ``version``, who tries a move (and is refused: an error frame)."""
    spectator = await enter(url, {"type": "watch", "protocol": version, "code": code})
    await spectator.send(protocol.Act(0, SCORE))
    await spectator.next(protocol.Error)
    return spectator


Game = tuple[GameRecord, dict[str, list[str]], int]


async def play_table(url: str, n: int, clock: ManualClock | None = None) -> list[Game]:
    """Game ``n``: 2..6 seats, one to three people, bots of varied levels, a spectator.

    Every third game also has a spectator who comes in mid-game and is sent
    the stream so far in one go (the backlog a reconnecting seat gets too).
    Every fourth has a turn clock, every fourth but one its people talking
    (and its spectator), in every seventh but four a person leaves for good,
    and every tenth with two people is played again at the same table once
    an offer was declined (a few seconds later, on ``clock`` if the server
    runs on one: people answering at once would otherwise flood the server).
    Every third is rated, its people holding player keys (its host asks, mid-game,
    where its key sits: ``my_tables``); at the others the people who join, and the
    spectators at every table, speak the protocol's earlier versions in turn (2 at
    least where they talk, leave or play again); the host speaks the current
    version, pings the server and asks who is here.

    Returns, per game played at the table, its record, every frame each
    client heard until its record (by client) and how many cards it turned
    over.
    """
    size = 2 + n % 5
    people = min(size, 1 + (n // 5) % 3)
    specs = ["human"] + ["open"] * (people - 1)
    specs += [LEVELS[(n + k) % len(LEVELS)] for k in range(size - people)]
    turn = n % size  # the host is not always seat 0
    specs = specs[turn:] + specs[:turn]
    rated = n % 3 == 0
    talks, leaves, again = n % 4 == 2, n % 7 == 4, n % 10 == 0 and people > 1
    keys = [new_key() if rated else None for _ in range(people)]
    # (Its people from networks of their own: people of one network do not rate each other.)
    host = await create(
        url,
        specs,
        f"Host {n}",
        clock=CLOCK if n % 4 == 1 else None,
        rated=rated,
        key=keys[0],
        source=elsewhere(8 * n + 1) if rated else None,
    )
    code = welcome(host).code
    clients = {"host": host}
    for k in range(1, people):
        version = 3 if rated else 1 + (n + k) % (protocol.PROTOCOL_VERSION - 1)
        if talks or again or (leaves and k == 1):
            version = max(version, 2)
        opening = {"type": "join", "protocol": version, "code": code, "name": f"P{k} of {n}"}
        if keys[k] is not None:
            opening["key"] = keys[k]
        clients[f"person {k}"] = await enter(
            url, opening, elsewhere(8 * n + 1 + k) if rated else None
        )
    seated = list(clients.values())
    watching = 1 + n % 4
    clients["spectator"] = await watch(url, code, max(watching, 2) if talks else watching)
    if talks:
        for k, client in enumerate([*seated, clients["spectator"]]):
            await client.send(protocol.Say(f"good luck from {k}"))

    def chooser(rng: Random):
        return lambda view: rng.choice(view.legal_actions())

    async def come_in_late() -> None:
        await host.until(lambda: host.over or host.public.turn >= 3, "a few moves")
        clients["late spectator"] = await watch(url, code, 1 + (n + 1) % 3)

    asked: list[str] = []

    async def ask_where_it_sits(key: str) -> None:
        """The host asks, mid-game, where its key holds seats (``my_tables``)."""
        await host.until(lambda: host.over or host.public.turn >= 2, "a few moves")
        asker = await Client.connect(url, key=key)
        await asker.send(protocol.MyTables(protocol.PROTOCOL_VERSION, player_id(key) or ""))
        await asker.next(protocol.YourTables)
        asked.extend(asker.raw)
        await asker.close()

    await host.send(protocol.Ping(n))
    await host.next(protocol.Pong)
    await host.send(protocol.Who())
    await host.next(protocol.People)
    await host.send(protocol.Start())
    games: list[Game] = []

    async def leave(client: Client) -> None:
        def mine() -> bool:  # (nobody else moves while the table waits on this seat)
            turn = turn_to_answer(client.stream)
            return turn is not None and turn.seat == welcome(client).seat

        await client.until(lambda: client.over or client.public.turn >= 2 or mine(), "moves")
        if not client.over:
            await client.send(protocol.Leave())
        await client.until(lambda: client.over, "the end, watched")

    while True:
        turns = [
            leave(c)
            if k == 1 and leaves and not games
            else play_my_turns(c, welcome(c).seat, chooser(Random(10 * n + k)))
            for k, c in enumerate(seated)
        ]
        late = [come_in_late()] if n % 3 == 0 and not games else []
        if keys[0] is not None and not games:
            late.append(ask_where_it_sits(keys[0]))
        await asyncio.gather(*turns, *late)
        for watcher in clients.values():
            await watcher.until(lambda w=watcher: w.over, "the end")
        if rated and people > 1:  # its ratings moved: heard before the frames are taken
            await host.until(
                lambda: any(isinstance(m, protocol.Ratings) and m.before for m in host.heard),
                "the ratings moved",
            )
        record = parse_record(host.stream[-1].record)
        # The record's pile is the one the stream turned over, in order: the checker reads
        # it right.
        shown = [m.card for m in host.stream if isinstance(m, CardRevealed)]
        assert shown and shown == list(record.pile[: len(shown)])
        # Each game's frames: from the end of the one before to the end of this one.
        frames = {name: _since_last_record(c.raw, len(games)) for name, c in clients.items()}
        if asked and not games:
            frames[ASKED] = asked
        games.append((record, frames, len(shown)))
        if not again or len(games) == 2:
            break
        assert not leaves  # (nobody left the tables played twice)
        # Each person's allowance of messages back to its full burst, as a person's
        # pause between games gives it: a game answered at machine speed spends it.
        if clock is not None:
            clock.advance(10)
        # The host offers another game and the next person declines it; then everyone
        # offers (the first to offer again, the others accepting).
        declining = seated[1]
        mark = len(declining.heard)
        await _ask_again(host, welcome(host).seat)
        await declining.next(protocol.Offer, mark)
        await declining.send(protocol.Decline())
        await host.until(lambda: heard(host, protocol.OfferClosed), "the offer declined")
        for client in seated:
            await _ask_again(client, welcome(client).seat)
        for client in clients.values():
            await client.until(lambda c=client: not c.over, "the next game")
    for c in clients.values():
        await c.close()
    return games


async def play_idle_table(url: str, clock: ManualClock) -> Game:
    """A clocked table whose host lets the time run out three times (away), then comes back.

    Played alone on the server (its clock moved on: every other table's time would run
    out too), with a spectator of each version before protocol 3.
    """
    host = await create(url, ("human", "open", "greedy"), "Idle", clock=CLOCK)
    code = welcome(host).code
    bea = await join(url, code, "Bea")
    clients = {
        "host": host,
        "person 1": bea,
        "spectator v1": await watch(url, code, 1),
        "spectator v2": await watch(url, code, 2),
    }
    await host.send(protocol.Start())
    playing = asyncio.create_task(play_my_turns(bea, 1))
    timeouts = 0

    def away() -> bool:
        return any(isinstance(m, Away) for m in host.stream)

    while not away():
        await host.until(
            lambda: (
                away()
                or (t := turn_to_answer(host.stream)) is not None
                and t.seat == 0
                and any(c.turn == t.turn for c in heard(host, protocol.Clock))
            ),
            "the host's clock",
        )
        if away():
            break
        clock.advance(CLOCK)
        timeouts += 1
        await host.until(
            lambda t=timeouts: sum(isinstance(m, TimedOut) for m in host.stream) == t,
            "the time running out",
        )
    await host.send(protocol.ImBack())
    await host.until(lambda: any(isinstance(m, Back) for m in host.stream), "the host back")
    await asyncio.gather(playing, play_my_turns(host, 0))
    for watcher in clients.values():
        await watcher.until(lambda w=watcher: w.over, "the end")
    record = parse_record(host.stream[-1].record)
    shown = sum(isinstance(m, CardRevealed) for m in host.stream)
    frames = {name: list(c.raw) for name, c in clients.items()}
    for client in clients.values():
        await client.close()
    return record, frames, shown


def _since_last_record(frames: list[str], games_before: int) -> list[str]:
    """The frames after the ``games_before``-th that carries a record."""
    ends = [f for f, frame in enumerate(frames) if '"recorded"' in frame]
    return frames[ends[games_before - 1] + 1 :] if games_before else list(frames)


async def test_no_client_hears_a_pile_card_or_the_seed_before_the_record(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, away_after=60.0, clock=clock) as (_, url):
        tables = await asyncio.gather(*(play_table(url, n, clock) for n in range(GAMES)))
        idle = await play_idle_table(url, clock)
    games = [game for table in tables for game in table] + [idle]
    assert len(games) == GAMES + 3  # tables 10 and 20 played twice, and the idle one
    levels: set[str] = set()
    seen: set[str] = set()
    versions: set[int] = set()
    checked = hidden = 0
    for n, (record, frames, shown) in enumerate(games):
        assert record.result is not None and record.seats is not None
        levels |= {s.bot for s in record.seats if s.bot}
        hidden += shown < len(record.pile)
        for name, raw in frames.items():
            reader = read_frames(raw, record)
            assert reader.problems == [], f"game {n}, {name}"
            seen |= reader.seen
            if isinstance(hello := protocol.decode_server(raw[0]), protocol.Welcome):
                versions.add(hello.protocol)
            checked += 1
    assert levels == set(LEVELS)
    assert checked >= 2 * GAMES + GAMES // 3
    # Every kind of frame the server sends was among those read, from every version.
    kinds = typing.get_args(protocol.ServerMessage) + STREAM_MESSAGE.kinds
    assert {_tag(k) for k in kinds if k not in NEVER_SENT} <= seen
    assert versions == set(protocol.SPOKEN)
    # Rated games' ratings were among what was checked, before and after they moved.
    said = [
        protocol.decode_server(frame)
        for _, frames, _ in games
        for raw in frames.values()
        for frame in raw
        if '"ratings"' in frame
    ]
    assert any(isinstance(m, protocol.Ratings) and m.counts and m.before for m in said)
    # Games that ended with pile cards nobody ever saw: the ones never to be sent at all.
    assert hidden > 0


# ---------------------------------------------------------------------- the checker checked


def test_the_checker_classes_every_field_of_every_message_the_server_sends() -> None:
    """A field added to any message (the protocol's, version 1's, the stream's) must be
    classed in ``leakkit.FIELDS`` (does it carry a card?) before the leak test reads it."""
    assert unclassified() == []
    assert set(SERVER_MESSAGE.kinds) == set(typing.get_args(protocol.ServerMessage))
    assert len(FIELDS) > len(SERVER_MESSAGE.kinds) + len(STREAM_MESSAGE.kinds)


def _stream_frame(raw: list[str], kind: type) -> int:
    """The first of ``raw`` that is a stream frame with a message of ``kind``."""
    return next(
        f
        for f, frame in enumerate(raw)
        if isinstance(m := protocol.decode_server(frame), protocol.Stream)
        and any(isinstance(x, kind) for x in m.messages)
    )


def _with(raw: list[str], at: int, forged: str, *, instead: bool = False) -> list[str]:
    """``raw`` with ``forged`` put in at ``at`` (in place of the frame there if ``instead``)."""
    return [*raw[:at], forged, *raw[at + instead :]]


async def test_the_checker_catches_every_kind_of_leak(tmp_path: Path) -> None:
    """Fabricated leaks in a real game's frames are each reported (so no pass is vacuous)."""
    async with running_server(tmp_path) as (_, url):
        [(record, frames, shown)] = await play_table(url, 7)
    raw = frames["person 1"]
    assert leaks(raw, record) == []
    seed = record.seed
    assert seed is not None
    later = record.pile[shown]  # never turned over in this game

    def found(forged: list[str], what: str) -> None:
        problems = leaks(forged, record)
        assert any(what in p for p in problems), (what, problems)

    # Turn the first CardRevealed into one showing a later card: pile[1], one too early
    # (the boundary), and the pile's last card.
    first = _stream_frame(raw, CardRevealed)
    stream = protocol.decode_server(raw[first])
    assert isinstance(stream, protocol.Stream)
    for k in (1, len(record.pile) - 1):
        messages = tuple(
            msgspec.structs.replace(m, card=record.pile[k]) if isinstance(m, CardRevealed) else m
            for m in stream.messages
        )
        forged = protocol.encode(protocol.Stream(stream.start, messages)).decode()
        found(_with(raw, first, forged, instead=True), f"pile card #{k} with only")

    # A Scored naming an unrevealed card, slipped in before the first reveal.
    opening = next(f for f, frame in enumerate(raw) if '"opening"' in frame)
    dealt = protocol.decode_server(raw[opening])
    assert isinstance(dealt, protocol.Stream)
    after_opening = dealt.start + len(dealt.messages)
    pile0 = record.pile[0]
    sneak = Scored(seat=0, colour=FACE[pile0], cards=(pile0,), score=1)
    forged = protocol.encode(protocol.Stream(after_opening, (sneak,))).decode()
    found(_with(raw, opening + 1, forged), "pile card #0 with only 0")

    # The next card, in a field turn_started has no word for (decoding would drop it).
    turn = json.loads(raw[opening])
    for message in turn["messages"]:
        if message["type"] == "turn_started":
            message["next_card"] = record.pile[0]
    found(_with(raw, opening, json.dumps(turn), instead=True), "a field TurnStarted has no word")

    # The back of a card that is not on top of the pile.
    wrong = next(b for b in range(35) if b != BACK[record.pile[0]])
    turn = json.loads(raw[opening])
    for message in turn["messages"]:
        if message["type"] == "turn_started":
            message["top_back"] = wrong
    found(_with(raw, opening, json.dumps(turn), instead=True), "is not the top card's")

    # An unturned card's face, as the colour of a card it is not.
    scored = _stream_frame(raw, Scored)
    stream = protocol.decode_server(raw[scored])
    assert isinstance(stream, protocol.Stream)
    own = next(m for m in stream.messages if isinstance(m, Scored))
    other = next(c for c in record.pile[shown:] if FACE[c] != own.colour)
    messages = tuple(
        msgspec.structs.replace(m, colour=FACE[other]) if m is own else m for m in stream.messages
    )
    forged = protocol.encode(protocol.Stream(stream.start, messages)).decode()
    found(_with(raw, scored, forged, instead=True), "is not its own cards' face")

    # A card's code or the seed in any frame of any kind, to a player or a spectator.
    hello = protocol.decode_server(raw[0])
    assert isinstance(hello, protocol.Welcome)
    room = hello.room
    code = card_code(later)
    named = f"pile card #{shown}'s code"
    forgeries = {
        "unknown field `seed`": json.dumps({"type": "presence", "seats": ["here"], "seed": 1}),
        "unreadable": json.dumps({"type": "pile", "cards": list(record.pile)}),
        "the seed as a number": protocol.encode(msgspec.structs.replace(room, moves=seed)).decode(),
        "the seed's digits": protocol.encode(protocol.Error("x", f"dealt from {seed}")).decode(),
        named: protocol.encode(protocol.Said("players", 0, "Ann", f"next: {code}")).decode(),
    }
    for what, forged in forgeries.items():
        found(_with(raw, 1, forged), what)
    # The notices no game here has, naming a card in their text; and a record (the whole
    # pile) before the game's end.
    notices = (Fault(1, f"saw {code}"), StartFailed(1, f"saw {code}"), KeepFailed("save", code))
    for notice in notices:
        forged = protocol.encode(protocol.Stream(after_opening, (notice,))).decode()
        found(_with(raw, opening + 1, forged), named)
    early = protocol.encode(protocol.Stream(after_opening, (Recorded(record.to_json()),)))
    found(_with(raw, opening + 1, early.decode()), "a record before the game's end")
    # A game that never reached its record is not passed either.
    assert leaks(raw[:first], record) == ["the frames never reach the game's Recorded"]


async def _ask_again(client: Client, seat: int) -> None:
    """Send ``again`` until the server takes it: one dropped for the flood limit (the
    game's moves, answered at machine speed, spent the allowance) is sent once more."""
    for _ in range(600):  # a bound: the allowance refills by one message in 0.1 s
        mark = len(client.heard)
        await client.send(protocol.Again())

        def answered(mark: int = mark) -> str | None:
            for message in client.heard[mark:]:
                if isinstance(message, protocol.Error) and message.code == protocol.SLOW_DOWN:
                    return "dropped"
                if isinstance(message, protocol.Offer) and seat in message.accepted:
                    return "taken"
            return "taken" if not client.over else None  # (the last to accept starts it)

        if await client.until(answered, "the answer to again") == "taken":
            return
        await refill(client)
    raise AssertionError("again was never taken")
