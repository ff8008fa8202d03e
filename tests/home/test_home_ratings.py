"""Each person's rating at this computer: computed as games are recorded, kept with its history.

Bots sit at their level's anchor for the table size and never move; people
at one keyboard all move; games that cannot be rated fairly are not.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from homekit import finished, game_for, seated

from mantis.cli import main
from mantis.follow.charts import chart_text
from mantis.follow.stats_report import rating_chart
from mantis.home.stats import StatsDB
from mantis.rating.levels import level_rating
from mantis.rating.scale import Rating
from mantis.rating.update import rate

T0 = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)


def at(hours: int) -> datetime:
    return T0 + timedelta(hours=hours)


def winners_of(record) -> set[int]:
    return set(record.result.winners)


def test_a_person_s_rating_follows_their_games_against_bots_which_never_move():
    games = [
        game_for("Ann", won, bots=("greedy",), seed=seed) for seed, won in enumerate([1, 0, 1])
    ]
    with StatsDB() as db:
        ids = [db.record_game(g, at(i)) for i, g in enumerate(games)]
        changes = [db.rating_change(i) for i in ids]
        [ann] = db.player_stats("ann")
    anchor = level_rating("greedy", 3)
    expected, mine = [], Rating()
    for game in games:
        seats = [mine if s.kind == "human" else anchor for s in game.seats]
        mine = rate(seats, winners_of(game))[_ann(game)]
        expected.append(mine)
    assert [p.rating for p in ann.ratings] == expected
    assert [p.game_id for p in ann.ratings] == ids
    assert ann.rating == expected[-1] and ann.rating.provisional
    assert [c[0].after for c in changes] == expected
    assert [c[0].before for c in changes] == [Rating(), *expected[:-1]]
    assert expected[0].mu > 25 and expected[1].mu < expected[0].mu < expected[2].mu  # W L W
    assert level_rating("greedy", 3) == anchor  # the bots' anchors stay where they are


def _ann(record) -> int:
    return next(s for s, seat in enumerate(record.seats) if seat.name == "Ann")


def test_two_people_at_one_keyboard_both_move_with_the_bot_at_its_anchor():
    first = seated(finished(seed=3), {0: "Ann", 1: "Bob"}, bots=("casual",))
    second = seated(finished(seed=11), {0: "bob", 2: "ANN"}, bots=("expert",))
    with StatsDB() as db:
        db.record_game(first, at(0))
        game = db.record_game(second, at(1))
        change = {c.name: c for c in db.rating_change(game)}
        ratings = {s.name: s.rating for s in db.player_stats()}
    ann1, bob1, _ = rate([Rating(), Rating(), level_rating("casual", 3)], winners_of(first))
    bob2, _, ann2 = rate([bob1, level_rating("expert", 3), ann1], winners_of(second))
    assert ratings == {"ANN": ann2, "bob": bob2}
    assert change["bob"].before == bob1 and change["bob"].after == bob2
    assert change["ANN"].before == ann1 and change["ANN"].after == ann2
    for name, seat in (("Ann", 0), ("Bob", 1)):
        moved = (ann1 if name == "Ann" else bob1).mu - 25
        assert moved > 0 if seat in first.result.winners else moved < 0


@pytest.mark.parametrize(
    "why",
    ["an online game", "a plug-in bot", "one person in two seats", "seats nobody named"],
)
def test_a_game_that_cannot_be_rated_fairly_is_kept_but_not_rated(why):
    record = game_for("Ann", True, bots=("greedy",), seed=2)
    origin = None
    if why == "an online game":
        origin = "ws://example:8765 KXQD 7"
    elif why == "a plug-in bot":
        record = game_for("Ann", True, bots=("mybots.strong:Bot",), seed=2)
    elif why == "one person in two seats":
        record = seated(finished(seed=5), {0: "Ann", 1: "ann"}, bots=("greedy",))
    else:
        record = finished(seed=5, seats=None)
    with StatsDB() as db:
        game = db.record_game(record, at(0), origin=origin)
        assert db.rating_change(game) == ()
        assert [p.id for p in db.past_games()] == [game]
        assert all(s.rating is None and s.ratings == () for s in db.player_stats())


def test_a_game_recorded_out_of_order_is_rated_as_if_in_order(tmp_path):
    games = [game_for("Ann", i % 2 == 0, bots=("score",), seed=i) for i in range(4)]
    games.append(seated(finished(seed=8), {0: "Ann", 1: "Bob"}, bots=("score",)))
    in_order, shuffled = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    with StatsDB(in_order) as db:
        for hour, game in enumerate(games):
            db.record_game(game, at(hour))
        expected = {s.name: s.ratings for s in db.player_stats()}
    with StatsDB(shuffled) as db:
        for hour in (3, 4, 0, 2, 1):
            db.record_game(games[hour], at(hour))
        got = {s.name: s.ratings for s in db.player_stats()}
    strip = {n: [(p.finished_at, p.rating) for p in points] for n, points in expected.items()}
    assert {n: [(p.finished_at, p.rating) for p in points] for n, points in got.items()} == strip
    assert len(strip["Ann"]) == 5 and len(strip["Bob"]) == 1


def test_stats_json_shows_each_person_s_rating_and_its_history(capsys):
    with StatsDB() as db:
        for hour in range(3):
            db.record_game(game_for("Ann", hour != 1, bots=("casual",), seed=hour), at(hour))
        db.record_game(game_for("Cy", True, bots=("nope.mod:Bot",), seed=3), at(4))
        [ann] = db.player_stats("Ann")
    assert main(["stats", "--json"]) == 0
    players = {p["name"]: p for p in json.loads(capsys.readouterr().out)["players"]}
    final = ann.rating
    assert players["Ann"]["rating"] == {
        "rating": final.shown,
        "plus_minus": final.plus_minus,
        "provisional": True,
        "mu": round(final.mu, 6),
        "sigma": round(final.sigma, 6),
        "games": 3,
    }
    assert players["Ann"]["rating_history"] == [
        {
            "date": f"2026-05-01T{20 + h}:00:00Z",
            "game": p.game_id,
            "rating": p.rating.shown,
            "plus_minus": p.rating.plus_minus,
        }
        for h, p in enumerate(ann.ratings)
    ]
    assert players["Cy"]["rating"] is None and players["Cy"]["rating_history"] == []


def test_stats_text_shows_the_rating_and_its_chart(capsys):
    with StatsDB() as db:
        for hour in range(6):
            db.record_game(game_for("Ann", hour % 3 != 2, bots=("random",), seed=hour), at(hour))
        [ann] = db.player_stats()
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert f"Ann: rating {ann.rating.shown:,} ± {ann.rating.plus_minus} (provisional)" in out
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Ann: rating after each"))
    chart = lines[start + 1 : start + 11]
    # The one chart home draws it: the rating's line in its band, over the rated games.
    drawn = chart_text(*rating_chart(ann.ratings), width=64, height=10).splitlines()
    assert [line.removeprefix("  ") for line in chart] == drawn
    assert chart[-1].split() == ["2026-05-01", "2026-05-02"]  # over time: the first and last


def test_the_rating_chart_is_the_rating_after_each_game_in_its_band():
    with StatsDB() as db:
        for hour in range(4):
            db.record_game(game_for("Ann", hour != 2, bots=("random",), seed=hour), at(hour))
        [ann] = db.player_stats()
    (series,), figure = rating_chart(ann.ratings)
    assert series.ys == tuple(float(p.rating.shown) for p in ann.ratings)
    assert series.band is not None
    lower, upper = series.band
    for low, shown, high, point in zip(lower, series.ys, upper, ann.ratings, strict=True):
        assert low == shown - point.rating.plus_minus and high == shown + point.rating.plus_minus
    assert figure.x_ticks == ((1.0, "2026-05-01"), (4.0, "2026-05-01"))
    # The rating's axis: round numbers, covering the whole band.
    assert figure.y_range is not None and figure.y_ticks is not None
    bottom, top = figure.y_range
    assert bottom <= min(lower) and max(upper) <= top
    steps = {b - a for (a, _), (b, _) in zip(figure.y_ticks, figure.y_ticks[1:], strict=False)}
    assert len(steps) == 1 and steps.pop() in (50, 100, 200, 250, 500, 1000)
    assert [label for _, label in figure.y_ticks] == [f"{round(y):,}" for y, _ in figure.y_ticks]
