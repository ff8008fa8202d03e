"""No client ever hears what its seat may not know before the game is over.

Many whole games are played on one server (people through the protocol,
server bots of every level, a spectator at each table) and every text frame
each client received is kept.  Once a game's record is known, each client's
frames up to the one carrying ``Recorded`` are read again: no card of the
pile shows before the ``CardRevealed`` that turns it over, and neither the
seed nor the pile is ever sent.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from random import Random

import msgspec
from netkit import Client, create, join, play_my_turns, running_server, turn_to_answer, welcome

from mantis.engine import (
    CardRevealed,
    ExtraTurn,
    GameOver,
    GameRecord,
    Scored,
    ScoreMissed,
    StealMissed,
    Stolen,
    TurnStarted,
)
from mantis.engine.record import parse_record
from mantis.net import protocol
from mantis.players.clock import ManualClock
from mantis.store.player_keys import new_key
from mantis.table import (
    Away,
    Back,
    Fault,
    KeepFailed,
    Left,
    Message,
    Opening,
    Recorded,
    StartFailed,
    TimedOut,
)

GAMES = 30
LEVELS = ("random", "score", "casual", "greedy", "expert")

#: Where each stream message carries cards (every other message carries none).
CARD_FIELDS: dict[type, tuple[str, ...]] = {
    CardRevealed: ("card",),
    Scored: ("cards",),
    ScoreMissed: ("card",),
    Stolen: ("cards",),
    StealMissed: ("card",),
}
NO_CARDS = (
    TurnStarted,
    ExtraTurn,
    GameOver,
    Fault,
    StartFailed,
    Away,
    Back,
    TimedOut,
    Left,
    KeepFailed,
)
SECRET_KEYS = ("seed", "pile")


# ---------------------------------------------------------------------- the checker


def cards_of(message: Message) -> list[int] | None:
    """Every card ``message`` names; None for a message this checker does not know."""
    if isinstance(message, Opening):
        return [card for tank in message.tanks for colour in tank for card in colour]
    fields = CARD_FIELDS.get(type(message))
    if fields is None:
        return [] if isinstance(message, NO_CARDS) else None
    cards: list[int] = []
    for name in fields:
        value = getattr(message, name)
        cards.extend(value if isinstance(value, tuple) else [value])
    return cards


def secrets_in(value: object, seed: int, where: str) -> list[str]:
    """A ``seed``/``pile`` key, or the seed as a number, anywhere in decoded JSON."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in SECRET_KEYS:
                found.append(f"{where}: key {key!r}")
            found.extend(secrets_in(item, seed, where))
    elif isinstance(value, list | tuple):
        for item in value:
            found.extend(secrets_in(item, seed, where))
    elif isinstance(value, int) and not isinstance(value, bool) and value == seed:
        found.append(f"{where}: the seed as a number")
    return found


def leaks(frames: list[str], record: GameRecord) -> list[str]:
    """What one client's ``frames`` (in order) gave away before the game's ``Recorded``."""
    assert record.seed is not None
    seed = record.seed
    pile_index = {card: i for i, card in enumerate(record.pile)}
    problems: list[str] = []
    stream: list[Message] = []
    revealed: list[int] = []  # CardRevealed messages in stream[: i + 1]
    for f, frame in enumerate(frames):
        where = f"frame {f}"
        try:
            message: protocol.ServerMessage | None = protocol.decode_server(frame)
        except protocol.ProtocolError as exc:
            problems.append(f"{where}: unreadable ({exc})")
            message = None
        new: range = range(0)
        if isinstance(message, protocol.Stream):
            stream[message.start :] = message.messages
            del revealed[message.start :]
            for i in range(message.start, len(stream)):
                before = revealed[i - 1] if i else 0
                revealed.append(before + isinstance(stream[i], CardRevealed))
            new = range(message.start, len(stream))
        end = next((i for i in new if isinstance(stream[i], Recorded)), None)
        if end is None:
            decoded: object = json.loads(frame) if frame.strip().startswith("{") else frame
            text = frame
        else:
            # The frame with the record: only the messages before it are checked.
            new = range(new.start, end)
            decoded = [msgspec.to_builtins(stream[i]) for i in new]
            text = json.dumps(decoded)
        problems.extend(secrets_in(decoded, seed, where))
        if str(seed) in text:
            problems.append(f"{where}: the seed's digits")
        for i in new:
            cards = cards_of(stream[i])
            if cards is None:
                problems.append(f"{where}: unchecked message {type(stream[i]).__name__}")
                continue
            for card in cards:
                k = pile_index.get(card)
                if k is not None and k >= revealed[i]:
                    problems.append(
                        f"{where}: pile card #{k} in {type(stream[i]).__name__} (stream "
                        f"message {i}) with only {revealed[i]} cards turned over"
                    )
        if end is not None:
            return problems
    problems.append("the frames never reach the game's Recorded")
    return problems


# ---------------------------------------------------------------------- the games


async def watch(url: str, code: str) -> Client:
    spectator = await Client.connect(url)
    await spectator.send(protocol.Watch(protocol.PROTOCOL_VERSION, code))
    await spectator.next(protocol.Welcome)
    return spectator


Game = tuple[GameRecord, dict[str, list[str]], int]


async def play_table(url: str, n: int, clock: ManualClock | None = None) -> list[Game]:
    """Game ``n``: 2..6 seats, one to three people, bots of varied levels, a spectator.

    Every third game also has a spectator who comes in mid-game and is sent
    the stream so far in one go (the backlog a reconnecting seat gets too).
    Every fourth has a turn clock, every fourth but one its people talking
    (and its spectator), in every seventh but four a person leaves for good,
    and every tenth with two people is played again at the same table (a
    few seconds later, on ``clock`` if the server runs on one: people
    answering at once would otherwise flood the server).

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
    # Every third table is rated, its people holding player keys (so ``ratings`` is checked).
    rated = n % 3 == 0
    keys = [new_key() if rated else None for _ in range(people)]
    host = await create(
        url, specs, f"Host {n}", clock=30 if n % 4 == 1 else None, rated=rated, key=keys[0]
    )
    code = welcome(host).code
    clients = {"host": host}
    for k in range(1, people):
        clients[f"person {k}"] = await join(url, code, f"P{k} of {n}", key=keys[k])
    seated = list(clients.values())
    clients["spectator"] = await watch(url, code)
    if n % 4 == 2:
        for k, client in enumerate([*seated, clients["spectator"]]):
            await client.send(protocol.Say(f"good luck from {k}"))

    def chooser(rng: Random):
        return lambda view: rng.choice(view.legal_actions())

    async def come_in_late() -> None:
        await host.until(lambda: host.over or host.public.turn >= 3, "a few moves")
        clients["late spectator"] = await watch(url, code)

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
            if k == 1 and n % 7 == 4 and not games
            else play_my_turns(c, welcome(c).seat, chooser(Random(10 * n + k)))
            for k, c in enumerate(seated)
        ]
        late = [come_in_late()] if n % 3 == 0 and not games else []
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
        games.append((record, frames, len(shown)))
        if n % 10 or people < 2 or len(games) == 2:
            break
        assert n % 7 != 4  # (nobody left the tables played twice)
        # Each person's allowance of messages back to its full burst, as a person's
        # pause between games gives it: a game answered at machine speed spends it.
        if clock is not None:
            clock.advance(10)
            for client in seated:
                await client.send(protocol.Again())
        else:  # (a server on the real clock, in another process: asked until it is heard)
            for client in seated:
                await _ask_again(client, welcome(client).seat)
        for client in clients.values():
            await client.until(lambda c=client: not c.over, "the next game")
    for c in clients.values():
        await c.close()
    return games


def _since_last_record(frames: list[str], games_before: int) -> list[str]:
    """The frames after the ``games_before``-th that carries a record."""
    ends = [f for f, frame in enumerate(frames) if '"recorded"' in frame]
    return frames[ends[games_before - 1] + 1 :] if games_before else list(frames)


async def test_no_client_hears_a_pile_card_or_the_seed_before_the_record(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, away_after=60.0, clock=clock) as (_, url):
        tables = await asyncio.gather(*(play_table(url, n, clock) for n in range(GAMES)))
    games = [game for table in tables for game in table]
    assert len(games) == GAMES + 2  # tables 10 and 20 played twice
    levels: set[str] = set()
    checked = hidden = 0
    for n, (record, frames, shown) in enumerate(games):
        assert record.result is not None and record.seats is not None
        levels |= {s.bot for s in record.seats if s.bot}
        hidden += shown < len(record.pile)
        for name, raw in frames.items():
            assert leaks(raw, record) == [], f"game {n}, {name}"
            checked += 1
    assert levels == set(LEVELS)
    assert checked >= 2 * GAMES + GAMES // 3
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


async def test_the_checker_catches_every_kind_of_leak(tmp_path: Path) -> None:
    """Fabricated leaks in a real game's frames are each reported (so no pass is vacuous)."""
    async with running_server(tmp_path) as (_, url):
        [(record, frames, _)] = await play_table(url, 7)
    raw = frames["person 1"]
    assert leaks(raw, record) == []
    seed = record.seed
    assert seed is not None

    # Turn the first CardRevealed into one showing a later card: pile[1], one too early
    # (the boundary), and the pile's last card.
    first = next(
        f
        for f, frame in enumerate(raw)
        if isinstance(m := protocol.decode_server(frame), protocol.Stream)
        and any(isinstance(x, CardRevealed) for x in m.messages)
    )
    stream = protocol.decode_server(raw[first])
    assert isinstance(stream, protocol.Stream)
    for k in (1, len(record.pile) - 1):
        messages = tuple(
            msgspec.structs.replace(m, card=record.pile[k]) if isinstance(m, CardRevealed) else m
            for m in stream.messages
        )
        forged = protocol.encode(protocol.Stream(stream.start, messages)).decode()
        found = leaks([*raw[:first], forged, *raw[first + 1 :]], record)
        assert any(f"pile card #{k} in CardRevealed" in p for p in found), found

    # A Scored naming an unrevealed card, slipped in before the first reveal.
    opening = next(f for f, frame in enumerate(raw) if '"opening"' in frame)
    dealt = protocol.decode_server(raw[opening])
    assert isinstance(dealt, protocol.Stream)
    sneak = protocol.encode(
        protocol.Stream(
            dealt.start + len(dealt.messages),
            (Scored(seat=0, colour=0, cards=(record.pile[0],), score=1),),
        )
    ).decode()
    found = leaks([*raw[: opening + 1], sneak, *raw[opening + 1 :]], record)
    assert any("pile card #0 in Scored" in p for p in found), found

    hello = protocol.decode_server(raw[0])
    assert isinstance(hello, protocol.Welcome)
    room = hello.room
    forgeries = {
        "key 'seed'": json.dumps({"type": "presence", "seats": ["here"], "seed": 1}),
        "key 'pile'": json.dumps({"type": "presence", "seats": ["here"], "x": {"pile": []}}),
        "the seed as a number": protocol.encode(msgspec.structs.replace(room, moves=seed)).decode(),
        "the seed's digits": protocol.encode(protocol.Error("x", f"dealt from {seed}")).decode(),
    }
    for kind, forged in forgeries.items():
        found = leaks([*raw[:1], forged, *raw[1:]], record)
        assert any(kind in p for p in found), (kind, found)
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
        await asyncio.sleep(0.1)  # polled, with a bound: the allowance refills with time
    raise AssertionError("again was never taken")
