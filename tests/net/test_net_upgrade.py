"""A server's data from before games had their own rows (schema v1) is upgraded in place.

The v1 file holds a game in play (moves and a notice) and a finished one;
a server started on it brings the game back, its people take their seats
again with their tokens and play it to the end.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path

from netkit import WAIT, join, play_my_turns, running_server, welcome

from mantis.engine import SCORE, SeatInfo, record_of
from mantis.engine.game import Game
from mantis.engine.record import parse_record
from mantis.store.tables_schema import SCHEMA_VERSION
from mantis.store.tables_sqlite import DB_NAME
from mantis.table import Away, Back, dealt

# The schema as Mantis 0.1's server wrote it (user_version 1).
V1_SCHEMA = """
CREATE TABLE tables (
    id INTEGER PRIMARY KEY, code TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'playing', 'over')),
    private INTEGER NOT NULL, host INTEGER NOT NULL, away_bot TEXT NOT NULL,
    seed INTEGER, created_at TEXT NOT NULL, finished_at TEXT, record TEXT
);
CREATE UNIQUE INDEX live_codes ON tables (code) WHERE state != 'over';
CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables (id), seat INTEGER NOT NULL,
    name TEXT NOT NULL, kind TEXT NOT NULL, bot TEXT, token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE moves (
    table_id INTEGER NOT NULL REFERENCES tables (id), turn INTEGER NOT NULL,
    seat INTEGER NOT NULL, target INTEGER, PRIMARY KEY (table_id, turn)
);
CREATE TABLE notices (
    id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL REFERENCES tables (id),
    turn INTEGER NOT NULL, body TEXT NOT NULL
);
PRAGMA user_version = 1;
"""
SEATS = (SeatInfo("Ann", "human", None), SeatInfo("Bea", "human", None))
SEED = 4242
PLAYED = 4
AWAY = '{"type":"away","seat":1,"bot":"greedy"}'


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def write_v1(path: Path) -> tuple[list[tuple[int, object]], str]:
    """A v1 file: table BDFH in play after PLAYED moves (Bea away), table KLMP finished."""
    start = dealt(SEATS, SEED)
    game = Game(start.tanks, start.pile, start.first, seed=SEED)
    for _ in range(PLAYED):
        game.apply(SCORE, game.view().to_move)
    moves = list(game.history)
    finished = Game.new(2, 77)
    while not finished.over:
        finished.apply(SCORE, finished.view().to_move)
    old_record = record_of(finished, SEATS).to_json()
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    db.execute(
        "INSERT INTO tables VALUES (1, 'KLMP', 'over', 0, 0, 'greedy', 77, "
        "'2026-01-01T10:00:00.000+00:00', '2026-01-01T10:20:00.000+00:00', ?)",
        (old_record,),
    )
    db.execute(
        "INSERT INTO tables VALUES (2, 'BDFH', 'playing', 0, 0, 'greedy', ?, "
        "'2026-01-02T10:00:00.000+00:00', NULL, NULL)",
        (SEED,),
    )
    for table_id in (1, 2):
        db.executemany(
            "INSERT INTO seats VALUES (?, ?, ?, 'human', NULL, ?)",
            [(table_id, 0, "Ann", _hash("ann-token")), (table_id, 1, "Bea", _hash("bea-token"))],
        )
    db.executemany(
        "INSERT INTO moves VALUES (2, ?, ?, NULL)", [(t, s) for t, (s, _) in enumerate(moves)]
    )
    db.execute("INSERT INTO notices (table_id, turn, body) VALUES (2, 2, ?)", (AWAY,))
    db.commit()
    db.close()
    return moves, old_record


async def test_a_v1_file_with_a_game_in_play_is_upgraded_and_the_game_finishes(
    tmp_path: Path,
) -> None:
    moves, old_record = write_v1(tmp_path / DB_NAME)
    async with running_server(tmp_path, away_after=WAIT) as (server, url):
        ann = await join(url, "BDFH", token="ann-token")
        bea = await join(url, "bdfh", token="bea-token")
        assert (welcome(ann).seat, welcome(bea).seat) == (0, 1)
        # (Bea's away bot may have played her turn already.)
        assert welcome(ann).room.state == "playing" and welcome(ann).room.moves >= PLAYED
        # The notice kept by the old server is in the stream where it was: Bea was away.
        await ann.until(lambda: any(isinstance(m, Back) for m in ann.stream), "Bea back")
        away = ann.stream.index(Away(1, "greedy"))
        assert sum(type(m).__name__ == "CardRevealed" for m in ann.stream[:away]) == 2
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        record = parse_record(ann.stream[-1].record)
        assert list(record.actions[:PLAYED]) == moves  # the old moves, then the new ones
        assert record.result is not None and record.seed == SEED
        assert ann.public.view() == record.replay().view()
        deal = dealt(SEATS, SEED)
        assert (record.tanks, record.pile, record.first) == (deal.tanks, deal.pile, deal.first)
        assert await server.store.records() == [old_record, ann.stream[-1].record]
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 2
    db.close()
