"""The statistics schema: versioned by ``user_version``, upgraded forward in place.

The v1 database here is written by hand, as an older Mantis left it, so the
test pins what v1 was rather than whatever the code now calls v1.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

import pytest
from homekit import finished, game_for, seated

from mantis.engine import GameRecord
from mantis.home import stats_schema
from mantis.home.stats import StatsDB, StatsError, Tally, default_stats_path
from mantis.rating.levels import level_rating
from mantis.rating.scale import Rating
from mantis.rating.update import rate

V1_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    finished_at TEXT NOT NULL,
    players INTEGER NOT NULL,
    reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    winners TEXT NOT NULL,
    scores TEXT NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX games_by_time ON games (finished_at, id);
PRAGMA user_version = 1;
"""


def make_v1(records: list[tuple[str, GameRecord]]) -> None:
    path = default_stats_path()
    path.parent.mkdir(parents=True)
    raw = sqlite3.connect(path)
    raw.executescript(V1_SCHEMA)
    for when, record in records:
        r = record.result
        raw.execute(
            "INSERT INTO games (finished_at, players, reason, turns, winners, scores, record) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                when,
                record.players,
                r.reason,
                r.turns,
                json.dumps(r.winners),
                json.dumps(r.scores),
                record.to_json(),
            ),
        )
    raw.commit()
    raw.close()


def version_and_tables() -> tuple[int, set[str]]:
    raw = sqlite3.connect(default_stats_path())
    try:
        version = raw.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        raw.close()
    return version, tables


def test_a_new_database_is_at_the_current_version():
    StatsDB().close()
    assert version_and_tables() == (stats_schema.SCHEMA_VERSION, {"games", "seats", "ratings"})
    assert stats_schema.SCHEMA_VERSION == 5


def test_a_v1_database_is_upgraded_and_its_games_keep_counting():
    won = game_for("Ann", True, bots=("casual",), seed=1)
    lost = game_for("Ann", False, bots=("expert",), seed=2)
    anonymous = finished(seed=3, seats=None)
    make_v1(
        [
            ("2026-01-01T10:00:00Z", won),
            ("2026-01-02T10:00:00Z", lost),
            ("2026-01-03T10:00:00Z", anonymous),
        ]
    )

    with StatsDB() as db:
        [ann] = db.player_stats()
        listed = db.past_games()
        again = db.game_record(listed[-1].id)
        db.record_game(game_for("Ann", True, seed=4), datetime(2026, 1, 4, tzinfo=UTC))
        [ann_after] = db.player_stats()

    assert version_and_tables() == (5, {"games", "seats", "ratings"})
    assert ann.overall == Tally(2, 1)
    assert dict(ann.vs_bots) == {"casual": Tally(1, 1), "expert": Tally(1, 0)}
    assert [g.seats for g in listed[1:]] == [lost.seats, won.seats]
    assert [s.kind for s in listed[0].seats] == ["unknown"] * 3  # a record without seats
    assert again == won
    assert ann_after.overall == Tally(3, 2) and ann_after.current_streak == 1


def test_the_upgrade_fills_every_seat_with_score_and_win():
    record = seated(finished(seed=7, seats=None), {0: "Ann", 2: "Bob"}, bots=("greedy",))
    make_v1([("2026-01-01T10:00:00Z", record)])
    StatsDB().close()
    raw = sqlite3.connect(default_stats_path())
    rows = raw.execute(
        "SELECT seat, name, kind, bot, score, won FROM seats ORDER BY seat"
    ).fetchall()
    raw.close()
    assert rows == [
        (
            s,
            seat.name,
            seat.kind,
            seat.bot,
            record.result.scores[s],
            int(s in record.result.winners),
        )
        for s, seat in enumerate(record.seats)
    ]


def test_an_interrupted_upgrade_leaves_the_v1_database_as_it_was(monkeypatch):
    make_v1([("2026-01-01T10:00:00Z", game_for("Ann", True, seed=1))])
    before = default_stats_path().read_bytes()

    def power_cut(*args):
        raise sqlite3.OperationalError("disk I/O error")

    # Only this patch is undone below: undoing the whole monkeypatch would also
    # drop the MANTIS_HOME the suite set, and reach the real user directory.
    with monkeypatch.context() as patch:
        patch.setattr(stats_schema, "seat_rows", power_cut)
        with pytest.raises(StatsError, match="disk I/O error"):
            StatsDB()
    assert version_and_tables() == (1, {"games"})
    assert default_stats_path().read_bytes() == before

    with StatsDB() as db:
        assert db.player_stats()[0].overall == Tally(1, 1)


def test_opening_an_up_to_date_database_changes_nothing():
    with StatsDB() as db:
        db.record_game(finished())
    before = default_stats_path().read_bytes()
    with StatsDB() as db:
        db.past_games()
    assert default_stats_path().read_bytes() == before


def test_an_online_game_heard_of_twice_is_kept_once():
    game = game_for("Ann", True, bots=("greedy",), seed=7)
    with StatsDB() as db:
        first = db.record_game(game, origin="ws://example:8765 KXQD")
        again = db.record_game(game, origin="ws://example:8765 KXQD")
        other = db.record_game(game, origin="ws://example:8765 BDFH")
        local = db.record_game(game)
        listed = db.past_games()
    assert first == again and len({first, other, local}) == 3
    assert sorted(g.origin or "" for g in listed) == [
        "",
        "ws://example:8765 BDFH",
        "ws://example:8765 KXQD",
    ]


def test_the_upgrade_reads_stored_seats_by_the_records_rules():
    # Seats that a record may not hold (a number for a name, an unknown kind)
    # are not half-read into the statistics: that game's seats are unknown.
    good, bad = finished(seed=1), finished(seed=2)
    make_v1([("2026-01-01T10:00:00Z", good), ("2026-01-02T10:00:00Z", bad)])
    raw = sqlite3.connect(default_stats_path())
    data = json.loads(bad.to_json())
    data["seats"][0] = {"name": 7, "kind": "robot"}
    raw.execute("UPDATE games SET record = ? WHERE id = 2", (json.dumps(data),))
    raw.commit()
    raw.close()
    StatsDB().close()
    raw = sqlite3.connect(default_stats_path())
    rows = raw.execute("SELECT game_id, name, kind, bot FROM seats ORDER BY game_id, seat")
    seats = rows.fetchall()
    raw.close()
    assert seats[:3] == [(1, s.name, s.kind, s.bot) for s in good.seats]
    assert seats[3:] == [(2, f"Seat {s + 1}", "unknown", None) for s in range(3)]


V3_SEATS = """
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    score INTEGER NOT NULL,
    won INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_name ON seats (kind, name);
ALTER TABLE games ADD COLUMN origin TEXT;
CREATE UNIQUE INDEX games_by_origin ON games (origin) WHERE origin IS NOT NULL;
PRAGMA user_version = 3;
"""


def make_v3(records: list[tuple[str, GameRecord]]) -> None:
    """A database as v3 left it: each seat's name as typed, nothing to match it by."""
    make_v1(records)
    raw = sqlite3.connect(default_stats_path())
    raw.executescript(V3_SEATS)
    for game_id, (_, record) in enumerate(records, start=1):
        r = record.result
        raw.executemany(
            "INSERT INTO seats (game_id, seat, name, kind, bot, score, won) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, s, seat.name, seat.kind, seat.bot, r.scores[s], int(s in r.winners))
                for s, seat in enumerate(record.seats)
            ],
        )
    raw.commit()
    raw.close()


def test_a_v3_database_is_upgraded_so_one_person_in_any_case_is_one_player():
    make_v3(
        [
            ("2026-01-01T10:00:00Z", game_for("Ann", True, seed=1)),
            ("2026-01-02T10:00:00Z", game_for("ann", False, seed=2)),
            ("2026-01-03T10:00:00Z", game_for("Straße", True, seed=3)),
        ]
    )
    with StatsDB() as db:
        names = [(s.name, s.overall) for s in db.player_stats()]
        [ann] = db.player_stats("ANN")
        db.record_game(game_for("STRASSE", False, seed=4), datetime(2026, 1, 4, tzinfo=UTC))
        [strasse] = db.player_stats("strasse")
    assert version_and_tables() == (5, {"games", "seats", "ratings"})
    assert names == [("ann", Tally(2, 1)), ("Straße", Tally(1, 1))]
    assert ann.name == "ann" and ann.overall == Tally(2, 1)
    assert strasse.name == "STRASSE" and strasse.overall == Tally(2, 1)
    raw = sqlite3.connect(default_stats_path())
    try:
        keys = raw.execute("SELECT name, player FROM seats WHERE kind = 'human'").fetchall()
        indexes = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    finally:
        raw.close()
    assert sorted(keys) == [
        ("Ann", "ann"),
        ("STRASSE", "strasse"),
        ("Straße", "strasse"),
        ("ann", "ann"),
    ]
    assert "seats_by_player" in indexes and "seats_by_name" not in indexes


V4_STEP = """
ALTER TABLE seats ADD COLUMN player TEXT NOT NULL DEFAULT '';
DROP INDEX seats_by_name;
CREATE INDEX seats_by_player ON seats (kind, player);
PRAGMA user_version = 4;
"""


def make_v4(records: list[tuple[str, GameRecord, str | None]]) -> None:
    """A database as v4 left it: each person known by their name in any case, no ratings."""
    make_v3([(when, record) for when, record, _ in records])
    raw = sqlite3.connect(default_stats_path())
    raw.executescript(V4_STEP)
    names = raw.execute("SELECT DISTINCT name FROM seats").fetchall()
    raw.executemany(
        "UPDATE seats SET player = ? WHERE name = ?", [(n.casefold(), n) for (n,) in names]
    )
    raw.executemany(
        "UPDATE games SET origin = ? WHERE id = ?",
        [(origin, game_id) for game_id, (*_, origin) in enumerate(records, start=1)],
    )
    raw.commit()
    raw.close()


def test_a_v4_database_is_upgraded_and_rated_from_the_games_it_holds():
    vs_bots = game_for("Ann", True, players=4, bots=("casual", "expert"), seed=1)
    together = seated(finished(seed=4), {1: "ann", 2: "Bob"}, bots=("random",))
    online = game_for("Ann", False, bots=("greedy",), seed=6)
    make_v4(
        [
            ("2026-01-01T10:00:00Z", vs_bots, None),
            ("2026-01-02T10:00:00Z", online, "ws://example:8765 KXQD 6"),
            ("2026-01-03T10:00:00Z", together, None),
        ]
    )
    with StatsDB() as db:
        rated = {s.name: s.ratings for s in db.player_stats()}
        db.record_game(
            game_for("Bob", True, players=2, bots=("score",), seed=9),
            datetime(2026, 1, 4, tzinfo=UTC),
        )
        [bob] = db.player_stats("bob")
    assert version_and_tables() == (5, {"games", "seats", "ratings"})
    ann = next(s for s, seat in enumerate(vs_bots.seats) if seat.kind == "human")
    first = [level_rating(s.bot, 4) if s.kind == "bot" else Rating() for s in vs_bots.seats]
    ann1 = rate(first, vs_bots.result.winners)[ann]
    _, ann2, bob1 = rate([level_rating("random", 3), ann1, Rating()], together.result.winners)
    assert [p.rating for p in rated["ann"]] == [ann1, ann2]  # the online game is not rated here
    assert [p.game_id for p in rated["ann"]] == [1, 3]
    assert [p.rating for p in rated["Bob"]] == [bob1]
    assert [p.rating for p in bob.ratings][:1] == [bob1] and len(bob.ratings) == 2  # goes on
