"""The demonstrations in training/ run, and run the same from the same seeds (small scale)."""

from __future__ import annotations

import json

from training import dmc, mcts_vs_expert


def test_mcts_against_the_expert_is_reproducible_from_its_seed(tmp_path):
    runs = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.json"
        mcts_vs_expert.main(
            [
                "--players",
                "2",
                "--games",
                "4",
                "--simulations",
                "8",
                "--seed",
                "5",
                "--out",
                str(out),
            ]
        )
        runs.append(json.loads(out.read_text()))
    first, second = runs
    assert first["games"] == 4 and 0 <= first["wins"] <= 4
    assert {k: v for k, v in first.items() if k != "seconds"} == {
        k: v for k, v in second.items() if k != "seconds"
    }


def test_the_deep_monte_carlo_learner_trains_and_is_evaluated_reproducibly(tmp_path):
    weights = []
    for name in ("a", "b"):
        saved = tmp_path / f"{name}.json"
        dmc.main(
            [
                "--train-games",
                "60",
                "--batch",
                "30",
                "--hidden",
                "8",
                "--eval-games",
                "6",
                "--save",
                str(saved),
                "--out",
                str(tmp_path / f"{name}-result.json"),
            ]
        )
        weights.append(json.loads(saved.read_text()))
    assert weights[0] == weights[1]
    result = json.loads((tmp_path / "a-result.json").read_text())
    assert result["eval_games"] == 6 and len(result["log"]) == 2
