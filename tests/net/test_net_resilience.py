"""Never losing a game: dropped clients, a killed server, people away and back."""

from __future__ import annotations

import asyncio
from pathlib import Path

from netkit import (
    SEED,
    WAIT,
    ServerProcess,
    create,
    heard,
    join,
    play_my_turns,
    running_server,
    turn_to_answer,
    welcome,
)

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, CardRevealed, TurnStarted, game_seed
from mantis.engine.record import parse_record
from mantis.home.player_keys import PlayerKeys
from mantis.home.seat_tokens import SeatTokens
from mantis.net import protocol
from mantis.net.client import Dropped, Reconnected, StreamUpdate, TableConnection
from mantis.table import Away, Back, PublicPosition, Recorded, TimedOut


async def follow_and_play(seat: TableConnection, *, on_event=None) -> PublicPosition:
    """Play this seat's turns (score) through the real client until the game's record."""
    public = PublicPosition()
    answered: set[int] = set()
    async for event in seat.events():
        if on_event is not None:
            await on_event(event)
        if not isinstance(event, StreamUpdate):
            continue
        if event.reset:
            public = PublicPosition()
        for message in event.messages:
            public.apply(message)
        if isinstance(seat.stream[-1], Recorded):
            return public
        turn = turn_to_answer(seat.stream)
        if turn is not None and turn.seat == seat.seat and turn.turn not in answered:
            answered.add(turn.turn)
            await seat.send(protocol.Act(turn.turn, SCORE))
    raise AssertionError("the events ended before the game did")


async def test_the_server_killed_mid_game_comes_back_and_no_move_is_lost_or_doubled(
    tmp_path: Path, database: str | None
) -> None:
    data = tmp_path / "server"
    kept = ("--database", database) if database else ()
    first = ServerProcess(data, 0, "--away-after", "600", *kept)
    ann = TableConnection(
        first.url,
        protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "open", "greedy")),
        tokens=SeatTokens(tmp_path / "ann.json"),
        keys=PlayerKeys(tmp_path / "ann-keys.json"),
    )
    code = (await ann.open()).code
    bea = TableConnection(
        first.url,
        protocol.Join(protocol.PROTOCOL_VERSION, code, "Bea"),
        tokens=SeatTokens(tmp_path / "bea.json"),
        keys=PlayerKeys(tmp_path / "bea-keys.json"),
    )
    await bea.open()
    await ann.send(protocol.Start())
    killed = asyncio.Event()
    restarted: list[ServerProcess] = []
    drops: list[object] = []

    async def kill_after_a_few_moves(event) -> None:
        if isinstance(event, Dropped | Reconnected):
            drops.append(event)
        if not killed.is_set() and PublicPosition.of(ann.stream).turn >= 6:
            killed.set()
            first.kill()  # -9, mid-game, between two of Ann's moves
            restarted.append(ServerProcess(data, first.port, "--away-after", "600", *kept))

    try:
        results = await asyncio.wait_for(
            asyncio.gather(
                follow_and_play(ann, on_event=kill_after_a_few_moves), follow_and_play(bea)
            ),
            WAIT,
        )
    finally:
        await ann.close()
        await bea.close()
        for server in restarted:
            server.stop()
    assert killed.is_set() and any(isinstance(d, Reconnected) for d in drops)
    record = parse_record(ann.record)  # the record re-plays through the rules: nothing doubled
    assert record.seed == game_seed(SEED, 0)  # (dealt from the seed it was handed)
    assert ann.record == bea.record
    assert results[0].view() == record.replay().view()
    # The stream the clients pieced together across the restart is the record's, move for move.
    moves = [m for m in ann.stream if type(m).__name__ == "CardRevealed"]
    assert len(moves) == len(record.actions) == record.result.turns


async def test_away_then_the_bot_plays_then_back(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, away_after=60, clock=clock) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", away_bot="expert")
        bea = await join(url, welcome(ann).code, "Bea")
        token = welcome(bea).token
        await ann.send(protocol.Start())
        await ann.until(lambda: ann.stream, "the stream")
        await bea.close()  # Bea's terminal closes
        await ann.until(lambda: _presence(ann)[1] == "gone", "Bea gone")
        assert not any(isinstance(m, Away) for m in ann.stream)  # the table waits for her...
        clock.advance(60)  # ...for a minute
        await ann.until(lambda: any(isinstance(m, Away) for m in ann.stream), "Bea away")
        away = next(m for m in ann.stream if isinstance(m, Away))
        assert away == Away(1, "expert")
        await ann.until(lambda: _presence(ann)[1] == "away", "Bea shown away")
        # The away bot plays Bea's turns while Ann plays hers.
        playing = asyncio.create_task(play_my_turns(ann, 0))
        await ann.until(lambda: _bea_moved_since(ann.stream, away), "the away bot's move")
        back = await join(url, welcome(ann).code, token=token)
        await ann.until(lambda: any(isinstance(m, Back) for m in ann.stream), "Bea back")
        assert welcome(back).seat == 1
        await asyncio.gather(playing, play_my_turns(back, 1))
        record = parse_record(ann.stream[-1].record)
        assert record.seats[1].name == "Bea" and record.result is not None


async def test_a_person_away_for_their_timeouts_says_back_and_plays_again(tmp_path: Path) -> None:
    clock = ManualClock(frozen=True)  # (only the test moves time on)
    async with running_server(tmp_path, clock=clock) as (server, url):
        ann = await create(url, ("human", "open"), "Ann", clock=5)
        bea = await join(url, welcome(ann).code, "Bea")
        room = server.rooms[welcome(ann).code]
        mark = len(ann.heard)
        await ann.send(protocol.ImBack())  # not away: nothing to come back from
        assert (await ann.error(mark, instead=(protocol.Presence,))).code == protocol.NOT_NOW
        await ann.send(protocol.Start())
        # Ann lets her time run out on three turns in a row (Bea plays hers): away.
        waited: set[int] = set()
        while not any(isinstance(m, Away) for m in bea.stream):
            turn = await bea.until(
                lambda: (t := turn_to_answer(bea.stream)) and t.turn not in waited and t,
                "a turn",
            )
            waited.add(turn.turn)
            if turn.seat == 1:
                await bea.send(protocol.Act(turn.turn, SCORE))
            else:
                await ann.until(
                    lambda t=turn.turn: any(
                        isinstance(m, protocol.Clock) and m.turn == t for m in ann.heard
                    ),
                    "Ann's clock",
                )
                clock.advance(5)
            await bea.until(
                lambda t=turn.turn: (
                    any(isinstance(m, Away) for m in bea.stream)
                    or (n := turn_to_answer(bea.stream)) is None
                    or n.turn != t
                ),
                "the turn played",
            )

        # The away bot plays her turns; the game waits at a turn of Bea's she has not answered
        # (she may have answered one more before she heard Ann was away). Ann's stream may lag
        # Bea's: her mark goes after every move she is still due.
        def beas_new_turn(client) -> bool:
            turn = turn_to_answer(client.stream)
            return turn is not None and turn.seat == 1 and turn.turn not in waited

        await bea.until(lambda: beas_new_turn(bea), "Bea's turn")
        await ann.until(lambda: beas_new_turn(ann), "Bea's turn, as Ann hears it")
        assert room.seats[0].away and _presence(ann)[0] == "away"
        mark, errors = len(ann.stream), len(heard(ann, protocol.Error))
        await ann.send(protocol.ImBack())
        await ann.send(protocol.Ping(1))  # (answered once "back" has been: in order)
        await ann.until(
            lambda: heard(ann, protocol.Pong),
            "the pong after back",
            fails=lambda: heard(ann, protocol.Error)[errors:],
        )
        assert _presence(ann)[0] == "here" and not room.seats[0].away
        await ann.until(
            lambda: any(isinstance(m, Back) and m.seat == 0 for m in ann.stream[mark:]),
            "her coming back in the game's stream",
        )
        # Her turns are hers again: the game waits for her (time stands still), and every
        # move of hers from now on is the one she sends (she scores; her bot would not).
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        after = ann.stream[mark:]
        hers = [m.action for m in after if isinstance(m, CardRevealed) and m.seat == 0]
        assert hers and all(action == SCORE for action in hers)
        assert not any(isinstance(m, TimedOut) for m in after)


def _presence(client) -> tuple[str, ...]:
    return [m for m in client.heard if isinstance(m, protocol.Presence)][-1].seats


def _bea_moved_since(stream, away) -> bool:
    after = stream[stream.index(away) :]
    return any(type(m).__name__ == "CardRevealed" and m.seat == 1 for m in after)


async def test_a_client_that_drops_reconnects_by_itself_and_sends_its_move_again(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path, away_after=WAIT) as (server, url):
        ann = TableConnection(
            url,
            protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "greedy")),
            tokens=SeatTokens(tmp_path / "ann.json"),
            keys=PlayerKeys(tmp_path / "ann-keys.json"),
        )
        await ann.open()
        await ann.send(protocol.Start())
        dropped = asyncio.Event()

        async def cut_once(event) -> None:
            # On Ann's first turn, her connection dies just before her move goes out.
            if isinstance(event, StreamUpdate) and not dropped.is_set():
                last = ann.stream[-1]
                if isinstance(last, TurnStarted) and last.seat == 0:
                    dropped.set()
                    connection = ann._connection
                    assert connection is not None
                    connection.transport.abort()

        public = await asyncio.wait_for(follow_and_play(ann, on_event=cut_once), WAIT)
        await ann.close()
        assert dropped.is_set() and public.over
        record = parse_record(ann.record)
        assert all(action == SCORE for seat, action in record.actions if seat == 0)
        assert len(server.rooms) == 1


async def test_a_person_who_left_the_waiting_room_is_played_for_once_the_game_starts(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, away_after=60, clock=clock) as (_, url):
        ann = await create(url, ("human", "open", "open"), "Ann")
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        cal = await join(url, code, "Cal")
        await bea.close()
        await cal.close()
        # The host may remove a seat whose person has gone, but not their own.
        await ann.send(protocol.RemoveSeat(0))
        assert "host" in (await ann.error()).message
        mark = len(ann.heard)
        await ann.send(protocol.RemoveSeat(2))
        await ann.until(
            lambda: any(
                isinstance(m, protocol.RoomState) and len(m.seats) == 2 for m in ann.heard[mark:]
            ),
            "Cal's seat removed",
        )
        await ann.send(protocol.Start())
        await ann.until(lambda: ann.stream, "the game started")
        clock.advance(60)  # Bea is not back a minute after the start
        await ann.until(lambda: any(isinstance(m, Away) for m in ann.stream), "Bea away")
        await play_my_turns(ann, 0)
        record = parse_record(ann.stream[-1].record)
        assert [s.name for s in record.seats] == ["Ann", "Bea"]
        assert any(seat == 1 for seat, _ in record.actions)  # the away bot played Bea's turns


async def test_the_clients_back_off_runs_on_the_clock_it_is_handed(tmp_path: Path) -> None:
    clock = ManualClock(frozen=True)
    ann = TableConnection(
        "ws://127.0.0.1:1",  # (replaced below: the server's own address)
        protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "greedy")),
        tokens=SeatTokens(tmp_path / "ann.json"),
        keys=PlayerKeys(tmp_path / "ann-keys.json"),
        clock=clock,
    )
    async with running_server(tmp_path / "server") as (_, url):
        ann.url = url
        await ann.open()
    # The server is gone: every attempt fails at once, and the next waits twice as long,
    # up to five seconds, on the client's clock alone (nothing is tried before it moves).
    events = ann.events()
    waits: list[float] = []
    try:
        coming = asyncio.ensure_future(anext(events))
        while len(waits) < 7:
            event = await asyncio.wait_for(coming, WAIT)
            coming = asyncio.ensure_future(anext(events))  # (the client waits from here)
            if not isinstance(event, Dropped):
                assert not waits  # (what the server said before it went)
                continue
            waits.append(event.retry_in)
            await asyncio.wait_for(clock.until_pending(event.retry_in), WAIT)
            assert clock.pending(event.retry_in - 0.01) == 0 and not coming.done()
            clock.advance(event.retry_in)
        coming.cancel()
    finally:
        await ann.close()
    assert waits == [0.25, 0.5, 1.0, 2.0, 4.0, 5.0, 5.0]
