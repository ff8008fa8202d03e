"""Online ratings: a rated game moves its people's ratings on the server, and the leaderboard.

Real servers on loopback (SQLite and PostgreSQL), real clients; time is a
``ManualClock`` where it matters; every wait is on a message.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from netkit import (
    Client,
    board_winners,
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

from mantis.base.clock import ManualClock
from mantis.home.player_keys import new_key
from mantis.net import protocol
from mantis.net.protocol.key_proof import id_of, verifier_of
from mantis.net.server.pages import leaderboard_pages
from mantis.net.server.room.rated_games import HISTORY
from mantis.rating.levels import level_rating
from mantis.rating.scale import Rating
from mantis.rating.update import rate
from mantis.store.tables_sqlite import DB_NAME
from mantis.store.tables_sqlite_db import TablesDB
from mantis.table import Away
from mantis.table.names import capitals_key

CLOCK = 30
#: A two-seat deal that the seat played by its away bot (greedy) wins against a person
#: scoring every card: the seat of whoever leaves (or runs out of time) wins on the board,
#: so only the rule that they forfeit makes it their loss.
FORFEITER_WINS = 0
#: A three-seat deal Ann (seat 0) wins alone, Bea (seat 1) and the greedy bot losing, all
#: the people scoring every card: each person's rating moves its own way.
ANN_WINS = 2


def _get(address: str) -> tuple[Any, dict[str, str]]:
    try:
        with urllib.request.urlopen(address, timeout=30) as reply:  # noqa: S310
            return json.loads(reply.read()), dict(reply.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, {}


async def leaderboard(url: str, page: int | None = None) -> tuple[Any, dict[str, str]]:
    query = "" if page is None else f"?page={page}"
    address = url.replace("ws://", "http://") + "/leaderboard" + query
    return await asyncio.to_thread(_get, address)


async def ratings_moved(client: Client) -> protocol.Ratings:
    def moved() -> protocol.Ratings | None:
        return next((r for r in heard(client, protocol.Ratings) if r.before), None)

    return await client.until(moved, "the ratings moved")


async def season(data: Path, database: str | None, games: int = HISTORY) -> dict[str, str]:
    """Ann and Bea, each holding their name with a key and ``games`` rated games behind
    them (so each weighs fully as the other's opponent); their keys, by name."""
    keys = {"Ann": new_key(), "Bea": new_key()}
    rows = [
        (name.lower(), name, verifier_of(key), id_of(verifier_of(key)), capitals_key(name))
        for name, key in keys.items()
    ]
    insert = (
        "INSERT INTO players (name_key, name, key_hash, key_id, key_up, games, created_at, "
        "last_seen) VALUES ({}, {}, {}, {}, {}, {}, {}, {})"
    )
    now = datetime.now(UTC)
    if database is None:
        TablesDB(data / DB_NAME).close()  # (the schema, made)
        with sqlite3.connect(data / DB_NAME) as db:
            db.executemany(
                insert.format(*"?" * 8),
                [(*row, games, now.isoformat(), now.isoformat()) for row in rows],
            )
    else:
        import asyncpg

        from mantis.store.tables_pg import PgTableStore

        await (await PgTableStore.open(database)).close()
        db = await asyncpg.connect(database)
        try:
            await db.executemany(
                insert.format(*(f"${n}" for n in range(1, 9))),
                [(*row, games, now, now) for row in rows],
            )
        finally:
            await db.close()
    return keys


async def rated_pair(
    url: str, seats=("human", "open"), keys: dict[str, str] | None = None, **rules: Any
) -> tuple[Client, Client]:
    """Ann's rated table and Bea at it, each from a network of their own (with ``keys``:
    those two players' keys, as ``season`` made them)."""
    keys = keys or {"Ann": new_key(), "Bea": new_key()}
    ann = await create(url, seats, "Ann", key=keys["Ann"], rated=True, source=elsewhere(1), **rules)
    bea = await join(url, welcome(ann).code, "Bea", key=keys["Bea"], source=elsewhere(2))
    return ann, bea


async def test_a_rated_game_moves_both_people_and_an_unrated_one_does_not(
    tmp_path: Path, database: str | None
) -> None:
    keys = await season(tmp_path, database)
    async with running_server(tmp_path, database, seeds=deals(ANN_WINS)) as (_, url):
        ann, bea = await rated_pair(url, ("human", "open", "greedy"), keys)
        told = await ann.until(
            lambda: [r for r in heard(ann, protocol.Ratings) if r.seats[1] is not None], "Bea's"
        )
        assert told[-1].rated and told[-1].counts and told[-1].why is None
        assert told[-1].seats[0] == protocol.SeatRating(1500, 500, True, HISTORY)
        await ann.send(protocol.Start())
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        moved = await ratings_moved(ann)
        winners = board_winners(ann)
        assert winners == (0,)
        # Exactly the update's own result, the bot at its anchor for three seats.
        expected = rate([Rating(), Rating(), level_rating("greedy", 3)], winners)
        assert moved.before == (1500, 1500, None)
        for seat in (0, 1):
            assert moved.seats[seat].rating == expected[seat].shown
            assert moved.seats[seat].games == HISTORY + 1
        assert moved.seats[2] is None
        board, _ = await leaderboard(url)
        assert sorted(row["name"] for row in board) == ["Ann", "Bea"]
        assert {row["name"]: row["wins"] for row in board} == {
            "Ann": int(0 in winners),
            "Bea": int(1 in winners),
        }
        # An unrated table: two people with keys play, nothing moves.
        cy = await create(url, ("human", "open"), "Cy", key=new_key(), source=elsewhere(3))
        dee = await join(url, welcome(cy).code, "Dee", key=new_key(), source=elsewhere(4))
        await cy.send(protocol.Start())
        await asyncio.gather(play_my_turns(cy, 0), play_my_turns(dee, 1))
        last = heard(cy, protocol.Ratings)[-1]
        assert not last.rated and not last.counts and last.before == ()
        assert [s.games for s in last.seats] == [0, 0]
        assert (await leaderboard(url))[0] == board
        for client in (ann, bea, cy, dee):
            await client.close()


async def test_a_rated_table_with_one_person_holding_a_key_plays_unrated_and_says_so(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (_, url):
        ann = await create(url, ("human", "greedy"), "Ann", key=new_key(), rated=True)
        said = await ann.next(protocol.Ratings)
        assert said.rated and not said.counts and "two people" in said.why
        await ann.send(protocol.Start())
        await play_my_turns(ann, 0)
        # A keyless person (an older Mantis) is nobody to rate against: one key, unrated.
        cy = await create(url, ("human", "open"), "Cy", key=new_key(), rated=True)
        old = await join(url, welcome(cy).code, "Old", source=elsewhere(5))  # no key
        await cy.until(
            lambda: any(
                r.seats[1] is None and "two people" in (r.why or "")
                for r in heard(cy, protocol.Ratings)
            ),
            "the reason",
        )
        await cy.send(protocol.Start())
        await asyncio.gather(play_my_turns(cy, 0), play_my_turns(old, 1))
        assert (await leaderboard(url))[0] == []
        for client in (ann, cy, old):
            await client.close()


async def test_leaving_a_rated_game_takes_the_loss(tmp_path: Path) -> None:
    keys = await season(tmp_path, None)
    async with running_server(tmp_path, seeds=deals(FORFEITER_WINS)) as (_, url):
        ann, bea = await rated_pair(url, keys=keys)
        await ann.send(protocol.Start())
        await bea.until(lambda: turn_to_answer(bea.stream), "the first turn")
        await bea.send(protocol.Leave())
        await play_my_turns(ann, 0)  # Bea's seat is played for to the end
        moved = await ratings_moved(ann)
        assert board_winners(ann) == (1,)  # her seat won: leaving is what lost it
        assert moved.seats[0].rating > 1500 > moved.seats[1].rating
        board, _ = await leaderboard(url)
        assert [(r["name"], r["wins"], r["games"]) for r in board] == [
            ("Ann", 1, HISTORY + 1),
            ("Bea", 0, HISTORY + 1),
        ]
        for client in (ann, bea):
            await client.close()


async def test_three_timeouts_in_a_rated_game_take_the_loss(tmp_path: Path) -> None:
    clock = ManualClock()
    keys = await season(tmp_path, None)
    async with running_server(tmp_path, clock=clock, seeds=deals(FORFEITER_WINS)) as (_, url):
        ann, bea = await rated_pair(url, keys=keys, clock=CLOCK)
        await ann.send(protocol.Start())
        annie = asyncio.create_task(play_my_turns(ann, 0))  # Ann plays; Bea never does
        while not any(isinstance(m, Away) for m in ann.stream):
            await ann.until(
                lambda: (
                    ((t := turn_to_answer(ann.stream)) and t.seat == 1)
                    or any(isinstance(m, Away) for m in ann.stream)
                ),
                "Bea's turn",
            )
            turn = turn_to_answer(ann.stream)
            if turn is None or turn.seat != 1 or any(isinstance(m, Away) for m in ann.stream):
                continue
            await ann.until(
                lambda t=turn.turn: any(c.turn == t for c in heard(ann, protocol.Clock)),
                "her clock",
            )
            clock.advance(CLOCK)
            await ann.until(
                lambda t=turn.turn: (n := turn_to_answer(ann.stream)) is None or n.turn != t,
                "the stand-in's move",
            )
        await annie
        moved = await ratings_moved(ann)
        assert board_winners(ann) == (1,)  # her seat won: running out of time lost it
        assert moved.seats[0].rating > 1500 > moved.seats[1].rating
        board, _ = await leaderboard(url)
        assert [(r["name"], r["wins"]) for r in board] == [("Ann", 1), ("Bea", 0)]
        for client in (ann, bea):
            await client.close()


async def test_a_restart_keeps_ratings_and_names(tmp_path: Path, database: str | None) -> None:
    keys = await season(tmp_path, database)
    async with running_server(tmp_path, database) as (_, url):
        ann, bea = await rated_pair(url, keys=keys)
        await ann.send(protocol.Start())
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        await ratings_moved(ann)
        before, _ = await leaderboard(url)
        for client in (ann, bea):
            await client.close()
    assert len(before) == 2
    async with running_server(tmp_path, database) as (_, url):
        assert (await leaderboard(url))[0] == before
        eve = await Client.connect(url)
        await eve.send(protocol.Create(protocol.PROTOCOL_VERSION, "BEA", ("human", "open")))
        assert (await eve.error()).code == protocol.NAME_TAKEN


def _seed_players(path: Path, rows: list[tuple[str, float, float, int]]) -> None:
    TablesDB(path).close()  # (the schema, made)
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO players (name_key, name, key_hash, mu, sigma, games, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, '2026-01-01T00:00:00+00:00')",
            [(n.lower(), n, "digest-" + n, mu, sigma, games) for n, mu, sigma, games in rows],
        )


async def test_the_leaderboard_is_ordered_by_the_low_end_then_games_and_paged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(leaderboard_pages, "LEADERBOARD_PAGE", 2)
    _seed_players(
        tmp_path / DB_NAME,
        [
            ("Wide", 40.0, 8.0, 3),  # high mu, but wide: low end 24
            ("Sure", 30.0, 2.0, 50),  # low end 26
            ("Tied", 28.0, 1.0, 60),  # low end 26, more games than Sure
            ("Also", 28.0, 1.0, 60),  # the same as Tied: by name
            ("Low", 20.0, 1.0, 90),
            ("None", 50.0, 1.0, 0),  # no rated game: not listed
        ],
    )
    async with running_server(tmp_path) as (_, url):
        pages = [await leaderboard(url, n) for n in (1, 2, 3)]
        names = [[row["name"] for row in rows] for rows, _ in pages]
        assert names == [["Also", "Tied"], ["Sure", "Wide"], ["Low"]]
        assert (await leaderboard(url, 4))[0] == 404  # past the last page
        first, headers = pages[0]
        assert headers["X-Total-Count"] == "5" and headers["X-Page-Size"] == "2"
        assert headers["Link"] == '</leaderboard?page=2>; rel="next"'
        assert 'rel="prev"' in pages[2][1]["Link"] and 'rel="next"' not in pages[2][1]["Link"]
        assert [row["rank"] for rows, _ in pages for row in rows] == [1, 2, 3, 4, 5]
        assert first[0]["low"] == Rating(28.0, 1.0).low and first[0]["rating"] == 1590
        assert (await leaderboard(url))[0] == first
        for bad in ("0", "-1", "x", "9999999999"):
            address = url.replace("ws://", "http://") + "/leaderboard?page=" + bad
            assert (await asyncio.to_thread(_get, address))[0] == 400
