"""Records from real games pass a from-scratch checker that shares no code with mantis."""

from __future__ import annotations

import ast
import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from enginekit import MUTATIONS, play_random
from independent_checker import ALL_CODES, RecordProblem, check_lines, check_record

from mantis.engine import Game, RecordError, SeatInfo, card_code, record_of
from mantis.engine.record import parse_record

CHECKER = Path(__file__).with_name("independent_checker.py")


def random_policy_records(games: int, seed: int = 0) -> list[str]:
    """Records of games played by random policies with various appetites for stealing."""
    rng = random.Random(seed)
    lines = []
    for i in range(games):
        n = 2 + i % 5
        game = Game.new(n, rng.randrange(2**40))
        p_score = rng.choice([0.0, 0.1, 0.5, 0.9, 1.0])
        while not game.over:
            legal = game.legal_actions()
            action = legal[0] if rng.random() < p_score else rng.choice(legal[1:])
            game.play(action)
        seats = None
        if i % 3 == 0:
            seats = [SeatInfo(f"P{s}", "bot", "random") for s in range(n)]
        lines.append(record_of(game, seats).to_json())
    return lines


def test_the_checker_imports_nothing_from_mantis():
    tree = ast.parse(CHECKER.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(alias.name.split(".")[0] == "mantis" for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and (node.module or "").split(".")[0] != "mantis"
    assert "mantis" not in sys.modules or "import mantis" not in CHECKER.read_text()


def test_the_checker_knows_the_same_105_cards():
    assert {card_code(c) for c in range(105)} == ALL_CODES


def test_300_random_policy_games_pass_the_independent_checker():
    lines = random_policy_records(300)
    reasons = set()
    for line in lines:
        obj = json.loads(line)
        check_record(obj)
        reasons.add((obj["players"], obj["result"]["reason"]))
    assert check_lines(lines) == 300
    # Both endings were exercised, across table sizes.
    assert {r for _, r in reasons} == {"target", "deck_out"}
    assert {n for n, _ in reasons} == {2, 3, 4, 5, 6}


def test_unfinished_games_pass_only_when_allowed():
    game = play_random(Game.new(4, 3), random.Random(3), stop=20)
    obj = json.loads(record_of(game).to_json())
    check_record(obj, allow_unfinished=True)
    with pytest.raises(ValueError, match="unfinished"):
        check_record(obj)
    obj["actions"].append({"seat": 0, "action": "score"})  # a wrong seat is still caught
    obj["actions"][-1]["seat"] = (obj["actions"][-2]["seat"] + 2) % 4
    with pytest.raises(ValueError, match="action 21"):
        check_record(obj, allow_unfinished=True)


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_the_checker_rejects_what_the_engine_rejects(name):
    mutate, _ = MUTATIONS[name]
    good = json.loads(record_of(play_random(Game.new(3, 3), random.Random(3))).to_json())
    check_record(good)
    bad = copy.deepcopy(good)
    mutate(bad)
    with pytest.raises(ValueError):
        check_record(bad)


def test_checker_and_engine_agree_on_randomly_corrupted_records():
    rng = random.Random(5)
    verdicts = set()
    for i in range(300):
        n = 2 + i % 5
        game = play_random(Game.new(n, i), random.Random(i))
        data = json.loads(record_of(game).to_json())
        actions = data["actions"]
        k = rng.randrange(len(actions))
        kind = rng.randrange(6)
        if kind == 0:
            actions[k]["seat"] = rng.randrange(n)
        elif kind == 1:
            actions[k] = {"seat": actions[k]["seat"], "action": "steal", "target": rng.randrange(n)}
        elif kind == 2:
            actions[k] = {"seat": actions[k]["seat"], "action": "score"}
        elif kind == 3:
            del actions[k:]
            data["result"] = None
        elif kind == 4:
            j = rng.randrange(len(data["pile"]))
            data["pile"][0], data["pile"][j] = data["pile"][j], data["pile"][0]
        else:
            data["first"] = rng.randrange(n)
        text = json.dumps(data)
        try:
            parse_record(text)
            engine_ok = True
        except RecordError:
            engine_ok = False
        try:
            check_record(json.loads(text), allow_unfinished=True)
            checker_ok = True
        except ValueError:
            checker_ok = False
        assert engine_ok == checker_ok, (i, kind, text[:200])
        verdicts.add(engine_ok)
    assert verdicts == {True, False}


def test_checker_error_names_the_line(tmp_path):
    lines = random_policy_records(3)
    bad = json.loads(lines[1])
    bad["result"]["turns"] += 1
    lines[1] = json.dumps(bad)
    with pytest.raises(RecordProblem, match=r"^line 2: result\.turns"):
        check_lines(lines)
    with pytest.raises(RecordProblem, match="^line 1: not valid JSON"):
        check_lines(["{oops"])


def test_checker_command_line(tmp_path):
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(random_policy_records(20, seed=1)) + "\n\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(CHECKER), str(good)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "20 records OK"
    bad = tmp_path / "bad.jsonl"
    lines = random_policy_records(2, seed=2)
    obj = json.loads(lines[1])
    obj["result"]["winners"] = [9]
    bad.write_text(lines[0] + "\n" + json.dumps(obj) + "\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(CHECKER), str(bad)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 1
    assert "line 2: result.winners" in run.stderr
