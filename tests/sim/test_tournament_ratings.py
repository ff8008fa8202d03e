"""``mantis tournament --ratings``: the ratings games imply, and what the anchors predict."""

from __future__ import annotations

import json

import pytest

from mantis.cli import main
from mantis.rating.levels import level_rating
from mantis.rating.update import win_chances
from mantis.sim.stats import wilson_interval
from mantis.sim.tournament import tournament

FAST = ("random", "score", "casual", "greedy")


@pytest.mark.parametrize(("players", "games"), [(2, 100), (3, 40)])
def test_the_win_rates_a_tournament_measures_are_those_the_anchors_predict(players, games):
    st = tournament(FAST, players, games, seed=404)
    for bot, tally in st.totals.items():
        # Alone against copies of each other level in turn, as the tournament seats it.
        predicted = sum(
            win_chances(
                [level_rating(bot, players)] + [level_rating(other, players)] * (players - 1)
            )[0]
            for other in FAST
            if other != bot
        ) / (len(FAST) - 1)
        low, high = wilson_interval(tally.wins, tally.games)
        assert low <= predicted <= high, (bot, tally, predicted)


def test_ratings_json_has_every_bot_beside_its_shipped_rating(capsys):
    status = main(
        [
            "tournament",
            "--bots",
            "random,greedy,casual",
            "--players",
            "3",
            "--games",
            "10",
            "--ratings",
            "--json",
        ]
    )
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    ratings = data["ratings"]
    assert sorted(ratings) == ["casual", "greedy", "random"]
    for bot, row in ratings.items():
        assert set(row) == {
            "rating",
            "plus_minus",
            "provisional",
            "mu",
            "sigma",
            "games",
            "level_rating",
        }
        assert row["games"] == data["games"] * 2 // 3  # every game seats two of the three bots
        assert row["level_rating"] == level_rating(bot, 3).shown
    # Placed against the shipped levels: the three keep their shipped mean.
    mean = sum(row["mu"] for row in ratings.values()) / 3
    assert mean == pytest.approx(sum(level_rating(b, 3).mu for b in ratings) / 3, abs=1e-5)
    assert ratings["random"]["mu"] < ratings["casual"]["mu"]
    assert ratings["random"]["mu"] < ratings["greedy"]["mu"]


def test_ratings_text_lists_the_bots_best_first(capsys):
    status = main(["tournament", "--bots", "random,greedy", "--games", "20", "--ratings"])
    assert status == 0
    out = capsys.readouterr().out
    lines = out[out.index("Ratings these games imply") :].splitlines()
    rows = [line.split() for line in lines[3:]]  # below the two lines of title and the header
    assert [row[0] for row in rows] == ["greedy", "random"]
    for row in rows:
        shipped = level_rating(row[0], 2)
        assert row[-3:] == [f"{shipped.shown:,}", "±", str(shipped.plus_minus)]


def test_without_the_flag_no_ratings_are_fitted(capsys):
    assert main(["tournament", "--bots", "random,greedy", "--games", "2", "--json"]) == 0
    assert "ratings" not in json.loads(capsys.readouterr().out)
