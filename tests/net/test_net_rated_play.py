"""Rated play nobody can farm: earned against someone else, and every way out costs the same.

Each test is one of the ways a security review farmed or stalled rated play
on a real server (raw protocol clients on loopback, each person from a
network of their own where it matters); time is a ``ManualClock`` where a
clock or a day is involved, and every wait is on a message.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from netkit import (
    Client,
    create,
    deals,
    elsewhere,
    heard,
    join,
    play_my_turns,
    running_server,
    turn_to_answer,
    welcome,
)
from test_net_ratings import (
    CLOCK,
    FORFEITER_WINS,
    leaderboard,
    rated_pair,
    ratings_moved,
    season,
)

from mantis.base.clock import ManualClock
from mantis.engine import SCORE
from mantis.home.player_keys import new_key
from mantis.net import protocol
from mantis.net.server.room.rated_games import HISTORY
from mantis.rating.scale import Rating
from mantis.table import Away, TimedOut

DAY = 86_400.0


async def judged(client: Client, seats: int) -> protocol.Ratings:
    """The table's ``ratings`` once every seat's person is in it (judged with them)."""

    def told() -> protocol.Ratings | None:
        said = heard(client, protocol.Ratings)
        return said[-1] if said and sum(s is not None for s in said[-1].seats) >= seats else None

    return await client.until(told, "the ratings with everyone seated")


def rated(client: Client) -> int:
    """Rated games the client has heard the end of (their ratings moved)."""
    return len([r for r in heard(client, protocol.Ratings) if r.before])


async def walk_out(client: Client) -> None:
    """Leave for good as soon as the game is on."""
    await client.until(lambda: turn_to_answer(client.stream), "the first turn")
    await client.send(protocol.Leave())


# ---------------------------------------------------------------------- 1. farming


async def test_throwaway_keys_that_leave_at_once_credit_the_farmer_nothing(tmp_path: Path) -> None:
    farmer = new_key()
    async with running_server(tmp_path) as (server, url):
        # The review's case: a fresh key from the farmer's own address joins and leaves.
        for n in range(2):
            ann = await create(url, ("human", "open"), "Ann", key=farmer, rated=True)
            eve = await join(url, welcome(ann).code, f"Eve {n}", key=new_key())
            told = await judged(ann, 2)
            assert not told.counts and "sit from one network" in told.why
            await ann.send(protocol.Start())
            await asyncio.gather(walk_out(eve), play_my_turns(ann, 0))
            for client in (ann, eve):
                await client.close()
        assert (await server.store.players(["ann"]))["ann"].games == 0  # nothing was rated
        # The same from other networks: counted, but a key with no rated games behind it
        # weighs nothing as an opponent, so beating it is worth nothing.
        for n in range(2):
            ann = await create(
                url, ("human", "open"), "Ann", key=farmer, rated=True, source=elsewhere(1)
            )
            eve = await join(
                url, welcome(ann).code, f"Zed {n}", key=new_key(), source=elsewhere(10 + n)
            )
            assert (await judged(ann, 2)).counts
            await ann.send(protocol.Start())
            await asyncio.gather(walk_out(eve), play_my_turns(ann, 0))
            moved = await ratings_moved(ann)
            assert moved.before[0] == moved.seats[0].rating == 1500
            for client in (ann, eve):
                await client.close()
        farmed = (await server.store.players(["ann"]))["ann"]
        assert (farmed.rating, farmed.games, farmed.wins) == (Rating(), 2, 2)


async def test_a_pair_plays_three_rated_games_a_day_and_more_the_next(tmp_path: Path) -> None:
    # docs/ratings.md: at most 3 rated games a day between two people.
    clock = ManualClock()
    keys = await season(tmp_path, None)
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann, bea = await rated_pair(url, keys=keys, clock=CLOCK)
        await ann.send(protocol.Start())
        for game in range(1, 6):
            rated_before, seen = rated(ann), len(ann.heard)
            await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
            if game in (1, 2, 3, 5):
                await ann.until(lambda n=rated_before: rated(ann) > n, f"game {game} rated")
            if game == 3:  # the next game would not count: said at once
                told = await ann.until(
                    lambda s=seen: next(
                        (r for r in heard(ann, protocol.Ratings, s) if r.before == ()), None
                    ),
                    "what the next game would be",
                )
                assert not told.counts and "played 3 rated games together today" in told.why
            if game == 4:
                assert rated(ann) == rated_before
                clock.advance(DAY)  # a day later they may rate each other again
            clock.advance(61)  # (each offer of another game within its minute's allowance)
            started = len(heard(ann, protocol.RoomState))
            for client in (ann, bea):
                await client.send(protocol.Again())
            await ann.until(
                lambda n=started: any(
                    r.state == "playing" for r in heard(ann, protocol.RoomState, n)
                ),
                "the next game",
            )
            for client in (ann, bea):
                await client.until(lambda c=client: not c.over, "the next game's stream")
        board, _ = await leaderboard(url)
        assert {row["name"]: row["games"] for row in board} == {
            "Ann": HISTORY + 4,
            "Bea": HISTORY + 4,
        }
        for client in (ann, bea):
            await client.close()


async def test_a_pair_is_two_people_whatever_names_they_sit_under(tmp_path: Path) -> None:
    # One key sits as Tess, Tessa and Tina against Bea: one person, three names.  Their
    # fourth rated game of the day is unrated, under whichever name.
    tess, bea = new_key(), new_key()
    async with running_server(tmp_path) as (server, url):
        for n, name in enumerate(("Tess", "Tessa", "Tina", "Tess")):
            host = await create(
                url, ("human", "open"), name, key=tess, rated=True, source=elsewhere(1)
            )
            guest = await join(url, welcome(host).code, "Bea", key=bea, source=elsewhere(2))
            told = await judged(host, 2)
            if n < 3:
                assert told.counts, told
            else:  # said before the game, and the game is played unrated
                assert not told.counts and "played 3 rated games together today" in told.why
            await host.send(protocol.Start())
            await asyncio.gather(play_my_turns(host, 0), play_my_turns(guest, 1))
            for client in (host, guest):
                await client.close()
        bea_games = (await server.store.players(["bea"]))["bea"].games
        names = await server.store.players(["tess", "tessa", "tina"])
        assert bea_games == 3 and sum(p.games for p in names.values()) == 3


async def test_two_addresses_of_one_24_are_one_network_and_play_unrated(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        # Two addresses (two address groups for the limits), one /24: one network.
        ann = await create(
            url, ("human", "open"), "Ann", key=new_key(), rated=True, source=elsewhere(5, 1)
        )
        eve = await join(url, welcome(ann).code, "Eve", key=new_key(), source=elsewhere(5, 2))
        told = await judged(ann, 2)
        assert not told.counts and "Ann and Eve sit from one network" in told.why
        await ann.send(protocol.Start())
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(eve, 1))
        assert not rated(ann)  # the game ended, nobody's rating moved
        # The neighbouring /24 is another network.
        bea = await create(
            url, ("human", "open"), "Bea", key=new_key(), rated=True, source=elsewhere(6, 1)
        )
        cy = await join(url, welcome(bea).code, "Cy", key=new_key(), source=elsewhere(7, 1))
        assert (await judged(bea, 2)).counts
        for client in (ann, eve, bea, cy):
            await client.close()


# ---------------------------------------------------------------------- 5. a clock, always


async def test_a_rated_table_always_has_a_clock_of_at_most_two_minutes(tmp_path: Path) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "open"), "Ann", key=new_key(), rated=True)
        assert welcome(ann).room.clock == protocol.RATED_CLOCK
        slow = await Client.connect(url)  # (a clock that holds a table for an hour a move)
        await slow.send(
            protocol.Create(
                protocol.PROTOCOL_VERSION, "Bo", ("human", "open"), rated=True, clock=3600
            )
        )
        refused = await slow.error()
        assert refused.code == protocol.BAD_SEATS and "at most 120 s" in refused.message
        await slow.closes()
        await ann.close()


async def test_three_timeouts_in_the_game_lose_it_even_when_not_in_a_row(tmp_path: Path) -> None:
    # This deal: Bea, played by a greedy stand-in three times and scoring the rest, wins on
    # the board; running out of time three times in the game, she loses it all the same.
    clock = ManualClock()
    keys = await season(tmp_path, None)
    async with running_server(tmp_path, clock=clock, seeds=deals(FORFEITER_WINS)) as (_, url):
        ann, bea = await rated_pair(url, keys=keys, clock=CLOCK)
        await ann.send(protocol.Start())
        annie = asyncio.create_task(play_my_turns(ann, 0, lambda view: SCORE))
        turns = 0
        while not bea.over:
            await bea.until(
                lambda: bea.over or ((t := turn_to_answer(bea.stream)) and t.seat == 1),
                "Bea's turn",
            )
            turn = turn_to_answer(bea.stream)
            if bea.over or turn is None:
                continue
            if turns in (0, 1, 3):  # out of time, out of time, a move, out of time
                await bea.until(
                    lambda t=turn.turn: any(c.turn == t for c in heard(bea, protocol.Clock)),
                    "her clock",
                )
                clock.advance(CLOCK)
            else:
                await bea.send(protocol.Act(turn.turn, SCORE))
            await bea.until(
                lambda t=turn.turn: (
                    bea.over or (n := turn_to_answer(bea.stream)) is None or n.turn != t
                ),
                "her move played",
            )
            turns += 1
        await annie
        assert sum(isinstance(m, TimedOut) for m in bea.stream) == 3
        assert not any(isinstance(m, Away) for m in bea.stream)  # never three in a row
        assert bea.stream[-2].winners == (1,)  # the board's winner
        moved = await ratings_moved(ann)
        assert moved.seats[0].rating > 1500 > moved.seats[1].rating
        board, _ = await leaderboard(url)
        assert {row["name"]: row["wins"] for row in board} == {"Ann": 1, "Bea": 0}
        for client in (ann, bea):
            await client.close()


# ---------------------------------------------------------------------- 6. walking off


async def test_walking_off_a_rated_game_loses_it_like_leaving(tmp_path: Path) -> None:
    # The same deal: the away bot (greedy) playing for Bea wins on the board.
    clock = ManualClock()
    keys = await season(tmp_path, None)
    async with running_server(
        tmp_path, clock=clock, seeds=deals(FORFEITER_WINS), away_after=60.0
    ) as (_, url):
        ann, bea = await rated_pair(url, keys=keys, clock=CLOCK)
        await ann.send(protocol.Start())
        await bea.until(lambda: turn_to_answer(bea.stream), "the first turn")
        await bea.close()  # she walks off: no leave, her connection just goes
        annie = asyncio.create_task(play_my_turns(ann, 0, lambda view: SCORE))
        while not any(isinstance(m, Away) for m in ann.stream):
            await ann.until(
                lambda: (
                    any(isinstance(m, Away) for m in ann.stream)
                    or (
                        (t := turn_to_answer(ann.stream))
                        and t.seat == 1
                        and any(c.turn == t.turn for c in heard(ann, protocol.Clock))
                    )
                ),
                "Bea's clock running",
            )
            if not any(isinstance(m, Away) for m in ann.stream):
                turn = turn_to_answer(ann.stream)
                clock.advance(CLOCK)  # her away timer (60 s) fires before a third timeout
                await ann.until(
                    lambda t=turn.turn: (
                        (n := turn_to_answer(ann.stream)) is None
                        or n.turn != t
                        or any(isinstance(m, Away) for m in ann.stream)
                    ),
                    "the stand-in's move",
                )
        await annie
        assert sum(isinstance(m, TimedOut) for m in ann.stream) < 3
        assert ann.stream[-2].winners == (1,)  # her away bot won on the board
        moved = await ratings_moved(ann)
        assert moved.seats[0].rating > 1500 > moved.seats[1].rating
        board, _ = await leaderboard(url)
        assert {row["name"]: row["wins"] for row in board} == {"Ann": 1, "Bea": 0}
        await ann.close()
