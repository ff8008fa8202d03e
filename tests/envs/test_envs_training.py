"""The demonstrations in training/ run, and run the same from the same seeds (small scale)."""

from __future__ import annotations

import json
import random

import numpy as np

from mantis.engine import Game
from mantis.envs.observation import encode
from mantis.players.odds import odds_for
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
                *("--train-games", "60", "--batch", "30", "--envs", "4", "--hidden", "8"),
                *("--check-every", "30", "--check-games", "4", "--eval-games", "6"),
                *("--save", str(saved), "--out", str(tmp_path / f"{name}-result.json")),
            ]
        )
        weights.append(json.loads(saved.read_text()))
    assert weights[0] == weights[1]
    result = json.loads((tmp_path / "a-result.json").read_text())
    assert result["eval_games"] == 6 and len(result["checks"]) == 2
    # the network kept is the best of those measured on the held-out games
    assert result["kept"] == max(result["checks"], key=lambda check: check["win_rate"])


def test_the_learners_odds_are_those_of_the_project_for_every_option():
    rng = random.Random(4)
    for players in (2, 3, 5):
        for seed in range(4):
            game = Game.new(players, seed)
            for _ in range(rng.randrange(40)):
                if game.winners is not None:
                    break
                game.play(rng.choice(game.legal_actions()))
            view = game.view()
            odds = odds_for(view)
            if odds is None:
                continue
            p_match, cards, _p_win = dmc.promises(
                obs := encode(view, view.to_move)[None, :], dmc.top_card(obs)
            )
            mover = view.to_move
            expected = [(odds.p_score, odds.expected_score_cards)] + [
                next((s.p_match, s.expected_cards) for s in odds.steals if s.target == target)
                for target in ((mover + k) % players for k in range(1, players))
            ]
            assert np.allclose(p_match[0, :players], [float(p) for p, _ in expected])
            assert np.allclose(cards[0, :players], [float(c) for _, c in expected])
