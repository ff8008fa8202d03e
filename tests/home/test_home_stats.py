"""The statistics database: recording games, listing them, and each player's figures."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import UTC, datetime, timedelta, timezone

import pytest
from homekit import SEATS3, finished, game_for, play, seated, shared_win

from mantis.base.paths import data_dir
from mantis.engine import Game, SeatInfo, record_of
from mantis.home.stats import StatsDB, StatsError, Tally, default_stats_path

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


def record_results(db: StatsDB, name: str, results: str, start: int = 0, **kw) -> None:
    """One game per letter of ``results`` (W or L), a day apart."""
    for i, letter in enumerate(results):
        db.record_game(game_for(name, letter == "W", seed=start + i, **kw), day(start + i))


def test_the_database_lives_in_the_data_directory_under_mantis_home(_mantis_home):
    with StatsDB() as db:
        db.record_game(finished())
    assert default_stats_path() == data_dir() / "stats.sqlite3"
    assert default_stats_path().is_relative_to(_mantis_home)
    assert default_stats_path().is_file()


def test_a_recorded_game_is_listed_with_its_date_seats_winners_and_scores():
    record = finished(seed=4)
    with StatsDB() as db:
        game_id = db.record_game(
            record, datetime(2026, 11, 30, 4, 15, tzinfo=timezone(timedelta(hours=2)))
        )
        [past] = db.past_games()
    assert past.id == game_id
    assert past.finished_at == datetime(2026, 11, 30, 2, 15, tzinfo=UTC)
    assert past.seats == SEATS3
    assert past.winners == record.result.winners
    assert past.scores == record.result.scores
    assert past.turns == record.result.turns == len(record.actions)
    assert past.reason == record.result.reason
    assert past.winners == record.result.winners and past.left == ()


def test_the_stored_record_replays_the_same_game():
    record = finished(seed=9)
    with StatsDB() as db:
        game_id = db.record_game(record)
        again = db.game_record(game_id)
    assert again == record
    assert record_of(again.replay(), again.seats).to_json() == record.to_json()


def test_games_are_listed_newest_first_by_date_not_by_insertion():
    with StatsDB() as db:
        ids = {n: db.record_game(finished(seed=n), day(n)) for n in (2, 0, 3, 1)}
        listed = db.past_games()
        latest_two = db.past_games(limit=2)
    assert [g.id for g in listed] == [ids[3], ids[2], ids[1], ids[0]]
    assert [g.id for g in latest_two] == [ids[3], ids[2]]


def test_the_database_persists_between_openings():
    with StatsDB() as db:
        db.record_game(finished(seed=1))
    with StatsDB() as db:
        assert len(db.past_games()) == 1


def test_unfinished_games_and_naive_times_are_refused():
    with StatsDB() as db:
        with pytest.raises(ValueError, match="finished"):
            db.record_game(record_of(play(Game.new(3, 1), until=5), SEATS3))
        with pytest.raises(ValueError, match="timezone"):
            db.record_game(finished(), datetime(2026, 1, 1))
        assert db.past_games() == []


def test_an_unknown_game_id_is_a_stats_error():
    with StatsDB() as db, pytest.raises(StatsError, match="no game 42"):
        db.game_record(42)


def test_a_game_without_seat_names_is_kept_but_has_no_players():
    record = finished(seats=None)
    with StatsDB() as db:
        db.record_game(record)
        [past] = db.past_games()
        assert db.player_stats() == []
    assert [s.kind for s in past.seats] == ["unknown"] * 3
    assert [s.name for s in past.seats] == ["Seat 1", "Seat 2", "Seat 3"]


# ------------------------------------------------------------------ players


def test_games_won_and_win_rate():
    with StatsDB() as db:
        record_results(db, "Ann", "WLWW")
        [ann] = db.player_stats()
    assert ann.name == "Ann"
    assert ann.overall == Tally(games=4, wins=3)
    assert ann.overall.win_rate == 0.75


def test_a_game_left_before_its_end_is_a_loss_even_if_the_seat_went_on_to_win():
    won = game_for("Bea", won=True)
    [seat] = [s for s, info in enumerate(won.seats) if info.name == "Bea"]
    with StatsDB() as db:
        db.record_game(dataclasses.replace(won, left=(seat,)))  # the away bot won it for her
        db.record_game(won)
        [bea] = db.player_stats()
        [left, played] = sorted(db.past_games(), key=lambda game: game.id)
    assert bea.overall == Tally(games=2, wins=1)
    assert left.winners == played.winners == won.result.winners  # the game's own result


@pytest.mark.parametrize(
    "results, current, best",
    [("W", 1, 1), ("L", 0, 0), ("WWLWWWL", 0, 3), ("LWWLWW", 2, 2), ("WWWLW", 1, 3)],
)
def test_streaks_follow_the_order_games_were_played(results, current, best):
    with StatsDB() as db:
        # Recorded newest first: the streak must come from the dates.
        for i, letter in reversed(list(enumerate(results))):
            db.record_game(game_for("Ann", letter == "W", seed=i), day(i))
        [ann] = db.player_stats()
    assert (ann.current_streak, ann.best_streak) == (current, best)
    assert [won for _, won in ann.results] == [c == "W" for c in results]
    assert [when for when, _ in ann.results] == [day(i) for i in range(len(results))]


def test_win_rate_against_each_bot_counts_a_game_for_every_bot_at_the_table():
    with StatsDB() as db:
        record_results(db, "Ann", "WW", bots=("casual",))
        record_results(db, "Ann", "LWL", start=2, bots=("expert",))
        record_results(db, "Ann", "W", start=5, players=3, bots=("casual", "expert"))
        [ann] = db.player_stats()
    assert dict(ann.vs_bots) == {"casual": Tally(3, 3), "expert": Tally(4, 2)}
    assert ann.overall == Tally(6, 4)


def test_a_game_against_two_seats_of_the_same_bot_counts_once():
    with StatsDB() as db:
        record_results(db, "Ann", "W", players=4, bots=("greedy",))
        [ann] = db.player_stats()
    assert dict(ann.vs_bots) == {"greedy": Tally(1, 1)}


def test_win_rate_by_player_count():
    with StatsDB() as db:
        record_results(db, "Ann", "WL", players=2)
        record_results(db, "Ann", "WWL", start=2, players=4)
        [ann] = db.player_stats()
    assert ann.by_players == ((2, Tally(2, 1)), (4, Tally(3, 2)))


def test_a_shared_win_counts_fully_for_each_winner():
    record = seated(shared_win(), {1: "Ann", 2: "Bob"}, bots=("casual",))
    with StatsDB() as db:
        db.record_game(record)
        stats = {s.name: s for s in db.player_stats()}
    assert stats["Ann"].overall == Tally(1, 1) and stats["Bob"].overall == Tally(1, 1)
    assert dict(stats["Ann"].vs_bots) == {"casual": Tally(1, 1)}


def test_only_human_seats_are_players_and_each_has_their_own_figures():
    with StatsDB() as db:
        db.record_game(seated(finished(seed=3, seats=None), {}, bots=("expert",)))  # bots only
        db.record_game(game_for("Ann", True, seed=1), day(1))
        db.record_game(game_for("Bob", False, seed=2), day(2))
        stats = db.player_stats()
    assert [(s.name, s.overall) for s in stats] == [("Ann", Tally(1, 1)), ("Bob", Tally(1, 0))]


def test_a_player_against_another_human_only_has_no_bot_figures():
    record = finished(seed=5, players=2, seats=None)
    with StatsDB() as db:
        db.record_game(seated(record, {0: "Ann", 1: "Bob"}))
        stats = db.player_stats()
    assert [s.vs_bots for s in stats] == [(), ()]
    assert sorted(s.overall.wins for s in stats) == [0, 1]


def test_results_against_each_other_person_online_or_at_one_keyboard():
    with StatsDB() as db:
        for seed in range(6):
            record = finished(seed=seed, players=3, seats=None)
            names = {0: "Ann", 1: "Bob"} if seed % 2 else {0: "Ann", 1: "Cat", 2: "Bob"}
            db.record_game(seated(record, names), day(seed))
        stats = {s.name: s for s in db.player_stats()}
        games = {
            s.name: {p.id for p in db.past_games() if s.name in [x.name for x in p.seats]}
            for s in stats.values()
        }
    ann = stats["Ann"]
    assert [name for name, _ in ann.vs_people] == ["Bob", "Cat"]
    assert dict(ann.vs_people)["Bob"].games == 6 and dict(ann.vs_people)["Cat"].games == 3
    assert dict(stats["Cat"].vs_people).keys() == {"Ann", "Bob"}
    assert len(games["Cat"]) == 3
    # A person's wins against another are their wins in the games both sat at.
    assert dict(ann.vs_people)["Bob"].wins == ann.overall.wins


@pytest.mark.parametrize("other", ["Ann", "ANN"])
def test_one_name_in_two_seats_is_one_game_for_that_player(other: str):
    record = finished(seed=6, players=3, seats=None)
    winner = record.result.winners[0]
    loser = next(s for s in range(3) if s != winner)
    with StatsDB() as db:
        db.record_game(seated(record, {winner: "Ann", loser: other}))
        [ann] = db.player_stats()
    assert ann.overall == Tally(1, 1) and ann.vs_people == ()


def test_asking_for_one_player_ignores_case_and_others():
    with StatsDB() as db:
        record_results(db, "Ann", "WL")
        record_results(db, "Bob", "W", start=2)
        assert [s.name for s in db.player_stats("ann")] == ["Ann"]
        assert db.player_stats("ann")[0].overall == Tally(2, 1)
        assert db.player_stats("Nobody") == []


# ------------------------------------------------------------------ one person, any case


def test_one_person_in_any_case_is_one_player_named_as_most_recently_spelt():
    with StatsDB() as db:
        record_results(db, "Ann", "W", start=0)
        record_results(db, "ann", "L", start=1)
        record_results(db, "ANN", "W", start=2)
        record_results(db, "Bob", "L", start=3)
        # Recorded out of order: the spelling shown is that of the latest game played.
        db.record_game(game_for("aNN", True, seed=9), day(-5))
        stats = db.player_stats()
        assert [s.name for s in stats] == ["ANN", "Bob"]
        assert stats[0].overall == Tally(4, 3)
        assert [won for _, won in stats[0].results] == [True, True, False, True]
        assert stats[0].best_streak == 2 and stats[0].current_streak == 1
        for asked in ("ann", "Ann", "ANN", "aNN"):
            [only] = db.player_stats(asked)
            assert only == stats[0]


def test_case_folding_is_unicode_aware():
    with StatsDB() as db:
        record_results(db, "Straße", "W", start=0)
        record_results(db, "STRASSE", "L", start=1)
        [player] = db.player_stats("strasse")
    assert player.name == "STRASSE" and player.overall == Tally(2, 1)


def test_other_people_are_counted_in_any_case_under_their_latest_spelling():
    with StatsDB() as db:
        for seed, bob in enumerate(["Bob", "BOB", "bob"]):
            record = finished(seed=seed, players=3, seats=None)
            db.record_game(seated(record, {0: "Ann", 1: bob}), day(seed))
        record = finished(seed=5, players=3, seats=None)
        db.record_game(seated(record, {0: "Cat", 1: "BoB"}), day(5))  # Bob's latest game
        stats = {s.name: s for s in db.player_stats()}
        [ann] = db.player_stats("ann")
    assert set(stats) == {"Ann", "BoB", "Cat"}
    assert [name for name, _ in stats["Ann"].vs_people] == ["BoB"]
    assert dict(stats["Ann"].vs_people)["BoB"].games == 3
    assert stats["BoB"].overall.games == 4
    assert dict(stats["BoB"].vs_people).keys() == {"Ann", "Cat"}
    # One spelling everywhere: asking for one player names the others the same way.
    assert ann.vs_people == stats["Ann"].vs_people


# ------------------------------------------------------------------ failures


#: SQLite's own wait for a lock, in real time (it takes no clock): the lock is held for as
#: long as the test wants, so the wait runs out however slow the machine, and every wait
#: the test expects to succeed meets no lock at all.  Short, so the test is quick.
LOCK_WAIT = 0.05


def test_a_locked_database_is_a_one_line_stats_error_and_works_once_released():
    path = default_stats_path()
    with StatsDB(path) as db:
        db.record_game(finished())
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StatsError, match="locked") as opening:
            StatsDB(path, timeout=LOCK_WAIT)
        assert "\n" not in str(opening.value) and str(path) in str(opening.value)
    finally:
        other.execute("ROLLBACK")
    with StatsDB(path, timeout=LOCK_WAIT) as db:
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StatsError, match="locked"):
            db.record_game(finished(seed=2))
        with pytest.raises(StatsError, match="locked"):
            db.past_games()
        other.execute("ROLLBACK")
        db.record_game(finished(seed=2))
        assert len(db.past_games()) == 2
    other.close()


@pytest.mark.parametrize(
    "content",
    [b"this is not a database at all\n" * 100, b"SQLite format 3\x00" + bytes(range(256)) * 16],
)
def test_a_damaged_database_is_refused_and_left_exactly_as_it_was(content):
    path = default_stats_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with pytest.raises(StatsError, match="damaged") as refused:
        StatsDB()
    assert "\n" not in str(refused.value) and str(path) in str(refused.value)
    assert path.read_bytes() == content
    assert [p.name for p in path.parent.iterdir()] == ["stats.sqlite3"]


def test_a_database_from_a_newer_version_is_refused_untouched():
    path = default_stats_path()
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 99")
    before = path.read_bytes()
    with pytest.raises(StatsError, match="newer"):
        StatsDB()
    assert path.read_bytes() == before


def test_records_are_immutable_values():
    with StatsDB() as db:
        record_results(db, "Ann", "W")
        [ann] = db.player_stats()
        [past] = db.past_games()
    for value, field in ((ann, "name"), (past, "winners"), (ann.overall, "wins")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, 0)


def test_a_human_seat_info_is_what_player_stats_read():
    seats = (SeatInfo("Zoë", "human"), SeatInfo("Bot", "bot", "random"), SeatInfo("Cy", "bot"))
    with StatsDB() as db:
        db.record_game(finished(seed=8, seats=seats))
        [zoe] = db.player_stats()
    assert zoe.name == "Zoë"
    assert dict(zoe.vs_bots).keys() == {"random", "bot"}
