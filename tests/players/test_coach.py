"""The coach recommends the expert's own choice and explains it with real odds."""

from __future__ import annotations

import random
import re

import pytest

from mantis.engine import Game, Score, Steal
from mantis.players import coach
from mantis.players.coach import advise, percent
from mantis.players.registry import make_bot

NAMES = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay"]


def positions(count: int = 60):
    """Views from random games of every size, at varied moves."""
    rng = random.Random(7)
    for i in range(count):
        players = 2 + i % 5
        game = Game.new(players, 1000 + i)
        for _ in range(rng.randrange(0, 40)):
            if game.over:
                break
            actions = game.legal_actions()
            game.play(actions[rng.randrange(len(actions))])
        if not game.over:
            yield game


def test_advice_is_the_experts_choice() -> None:
    expert = make_bot("expert")
    for game in positions():
        view = game.view()
        advice = advise(view, NAMES[: game.players])
        assert advice is not None
        assert advice.bot == "expert"
        assert advice.action == expert.choose(view)


def test_reason_names_the_target_and_gives_a_probability() -> None:
    steals = scores = 0
    for game in positions(120):
        view = game.view()
        names = NAMES[: game.players]
        advice = advise(view, names)
        assert advice is not None
        if isinstance(advice.action, Steal):
            steals += 1
            assert advice.reason.startswith(f"steal from {names[advice.action.target]}")
            if "possible faces" in advice.reason:
                assert re.search(r"\d+%", advice.reason)
        else:
            assert isinstance(advice.action, Score)
            scores += 1
            assert advice.reason.startswith("score")
    assert steals and scores


def test_default_names_are_seat_numbers() -> None:
    for game in positions(40):
        advice = advise(game.view())
        assert advice is not None
        if isinstance(advice.action, Steal):
            assert f"seat {advice.action.target + 1}" in advice.reason
            return
    pytest.fail("no steal advised in any position")


def test_no_advice_once_the_game_is_over() -> None:
    game = Game.new(3, 1)
    while not game.over:
        game.play(game.legal_actions()[0])
    assert advise(game.view()) is None


def test_falls_back_to_greedy_without_an_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coach, "_coach_bot", None)
    monkeypatch.delitem(coach.BOTS, "expert")
    game = next(positions(1))
    advice = advise(game.view())
    assert advice is not None and advice.bot == "greedy"
    assert advice.action == make_bot("greedy").choose(game.view())
    monkeypatch.setattr(coach, "_coach_bot", None)


def test_percent_never_rounds_to_certainty() -> None:
    assert percent(0.004) == "<1%"
    assert percent(0.996) == ">99%"
    assert percent(0) == "0%" and percent(1) == "100%"
    assert percent(2 / 3) == "67%"
