"""Game records: round trips, reading files, and one-line errors for bad records."""

from __future__ import annotations

import copy
import json
import random

import pytest
from enginekit import play_random, state

from mantis.engine import Game, GameRecord, RecordError, SeatInfo, read_records, record_of
from mantis.engine.record import iter_records, parse_record


def finished(seed: int = 3, n: int = 3) -> Game:
    return play_random(Game.new(n, seed), random.Random(seed))


def record_dict(seed: int = 3, n: int = 3) -> dict:
    return json.loads(record_of(finished(seed, n)).to_json())


def test_round_trip_of_a_finished_game():
    seats = [SeatInfo("Ann", "human"), SeatInfo("Bea", "bot", "greedy"), SeatInfo("Cal", "bot")]
    game = finished()
    record = record_of(game, seats)
    text = record.to_json()
    assert "\n" not in text
    again = parse_record(text)
    assert again == record
    assert again.to_json() == text
    assert state(again.replay()) == state(game)
    assert record.result.turns == game.turn == len(record.actions)
    data = json.loads(text)
    assert data["version"] == 1 and data["target"] == 10 and data["players"] == 3
    assert data["seats"][1] == {"name": "Bea", "kind": "bot", "bot": "greedy"}
    assert data["seats"][2] == {"name": "Cal", "kind": "bot"}
    assert data["result"]["winners"] == list(game.winners)


def test_replay_upto_gives_the_game_after_that_many_actions():
    game = finished(seed=8, n=4)
    record = record_of(game)
    partial = Game.new(4, 8)
    for k, (seat, action) in enumerate(record.actions):
        assert state(record.replay(k)) == state(partial)
        partial.play(action, seat)


def test_record_json_matches_the_documented_shape():
    data = record_dict(seed=9, n=2)
    assert set(data) == {
        "version",
        "seed",
        "players",
        "target",
        "first",
        "tanks",
        "pile",
        "actions",
        "result",
    }
    assert data["target"] == 15 and len(data["pile"]) == 97
    assert all(len(t) == 4 for t in data["tanks"])
    for action in data["actions"]:
        assert action["action"] in ("score", "steal")
        assert ("target" in action) == (action["action"] == "steal")
    result = data["result"]
    assert set(result) == {"winners", "reason", "scores", "tanks", "turns"}
    assert result["turns"] == len(data["actions"])
    assert sum(result["scores"]) + sum(result["tanks"]) == 4 * 2 + result["turns"]


def test_unfinished_game_with_null_result_round_trips():
    game = play_random(Game.new(5, 4), random.Random(4), stop=12)
    record = record_of(game)
    assert record.result is None
    text = record.to_json()
    assert json.loads(text)["result"] is None
    again = parse_record(text)
    assert again == record and again.result is None
    assert state(again.replay()) == state(game)


def test_read_records_reads_a_file_and_ignores_blank_lines(tmp_path):
    records = [record_of(finished(seed, 2 + seed % 5)) for seed in range(6)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n" + "\n\n".join(r.to_json() for r in records) + "\n   \n", encoding="utf-8")
    assert read_records(path) == records
    assert read_records(str(path)) == records


def test_unknown_extra_fields_are_ignored():
    data = record_dict()
    data["comment"] = "later versions may add fields"
    data["result"]["duration"] = 12.5
    data["actions"][0]["thinking_ms"] = 3
    record = parse_record(json.dumps(data))
    assert record == record_of(finished())


def test_unreadable_or_missing_file_is_a_record_error(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        read_records(tmp_path / "nope.jsonl")
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(b"\xff\xfe{}\n")
    with pytest.raises(RecordError):
        read_records(bad)


# ---------------------------------------------------------------------- malformed records


def other_seat(data):
    return (data["actions"][0]["seat"] + 1) % data["players"]


def _drop_last_action(d):
    d["actions"].pop()


MUTATIONS = {
    "unknown card": (lambda d: d["tanks"][0].__setitem__(0, "X:RGB"), "unknown card"),
    "badly ordered back": (lambda d: d["pile"].__setitem__(0, "R:GRB"), "unknown card"),
    "duplicated card": (
        lambda d: d["pile"].__setitem__(0, d["tanks"][0][0]),
        "repeats a card",
    ),
    "tank with 3 cards": (lambda d: d["tanks"][1].pop(), "4 cards"),
    "tank with 5 cards": (lambda d: d["tanks"][1].append(d["pile"].pop()), "4 cards"),
    "pile too short": (lambda d: d["pile"].pop(), "pile must hold 93 cards"),
    "pile too long": (lambda d: d["pile"].append("R:RGB"), "pile must hold 93 cards"),
    "missing tank": (lambda d: d["tanks"].pop(), "tanks"),
    "steal from self": (
        lambda d: d["actions"].__setitem__(
            0, {"seat": d["first"], "action": "steal", "target": d["first"]}
        ),
        "action 1 is illegal",
    ),
    "steal from a missing seat": (
        lambda d: d["actions"].__setitem__(0, {"seat": d["first"], "action": "steal", "target": 7}),
        "action 1 is illegal",
    ),
    "wrong seat": (
        lambda d: d["actions"][0].__setitem__("seat", other_seat(d)),
        "action 1 is illegal",
    ),
    "unknown action": (lambda d: d["actions"][0].__setitem__("action", "pass"), "action 1"),
    "steal without target": (
        lambda d: d["actions"].__setitem__(0, {"seat": d["first"], "action": "steal"}),
        "action 1",
    ),
    "wrong winners": (
        lambda d: d["result"].__setitem__("winners", [(d["result"]["winners"][0] + 1) % 3]),
        "result.winners",
    ),
    "wrong reason": (
        lambda d: d["result"].__setitem__(
            "reason", "deck_out" if d["result"]["reason"] == "target" else "target"
        ),
        "result.reason",
    ),
    "wrong scores": (lambda d: d["result"]["scores"].__setitem__(0, 99), "result.scores"),
    "wrong tanks": (lambda d: d["result"]["tanks"].__setitem__(0, 99), "result.tanks"),
    "wrong turns": (lambda d: d["result"].__setitem__("turns", 1), "result.turns"),
    "result not an object": (lambda d: d.__setitem__("result", [1]), "result"),
    "unsupported version": (lambda d: d.__setitem__("version", 2), "version"),
    "missing version": (lambda d: d.pop("version"), "version"),
    "wrong target": (lambda d: d.__setitem__("target", 15), "target must be 10"),
    "players out of range": (lambda d: d.__setitem__("players", 7), "players"),
    "first out of range": (lambda d: d.__setitem__("first", 3), "first seat"),
    "actions stop before the end": (
        _drop_last_action,
        "stop before the game ends",
    ),
    "actions after the end": (
        lambda d: d["actions"].append({"seat": 0, "action": "score"}),
        "illegal",
    ),
    "finished game with null result": (
        lambda d: d.__setitem__("result", None),
        "result is null",
    ),
    "missing result": (lambda d: d.pop("result"), "result"),
    # JSON values that merely compare equal to the right integers are still wrong.
    "version true": (lambda d: d.__setitem__("version", True), "version"),
    "version 1.0": (lambda d: d.__setitem__("version", 1.0), "version"),
    "target 10.0": (lambda d: d.__setitem__("target", 10.0), "target must be 10"),
    "seat true": (lambda d: d["actions"][0].__setitem__("seat", True), "action 1"),
    "turns as a float": (
        lambda d: d["result"].__setitem__("turns", float(d["result"]["turns"])),
        "result.turns",
    ),
    "winners as floats": (
        lambda d: d["result"].__setitem__("winners", [float(w) for w in d["result"]["winners"]]),
        "result.winners",
    ),
    "scores as floats": (
        lambda d: d["result"].__setitem__("scores", [float(s) for s in d["result"]["scores"]]),
        "result.scores",
    ),
    "not an object": (lambda d: d.clear() or d.__setitem__("x", 1), "version"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_malformed_record_is_rejected_with_a_one_line_error_naming_line_and_problem(name, tmp_path):
    mutate, problem = MUTATIONS[name]
    good = record_dict()
    bad = copy.deepcopy(good)
    mutate(bad)
    with pytest.raises(RecordError) as direct:
        parse_record(json.dumps(bad))
    assert problem in str(direct.value)
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as excinfo:
        read_records(path)
    message = str(excinfo.value)
    assert message.startswith("line 3: "), message
    assert problem in message, message
    assert "\n" not in message


@pytest.mark.parametrize(
    "text, problem",
    [
        ("{not json", "not valid JSON"),
        ('{"version": 1,', "not valid JSON"),
        ("[1, 2, 3]", "JSON object"),
        ("42", "JSON object"),
    ],
)
def test_bad_json_is_rejected_with_the_line_number(text, problem):
    lines = [record_of(finished()).to_json(), text]
    with pytest.raises(RecordError) as excinfo:
        list(iter_records(lines))
    message = str(excinfo.value)
    assert message.startswith("line 2: ") and problem in message and "\n" not in message


def test_bad_json_in_a_file_names_its_line(tmp_path):
    path = tmp_path / "games.jsonl"
    good = record_of(finished()).to_json()
    path.write_text(good + "\n" + good + "\n" + good[:-1] + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as excinfo:
        read_records(path)
    message = str(excinfo.value)
    assert message.startswith("line 3: not valid JSON") and "\n" not in message


def test_an_unfinished_record_must_still_be_legal():
    data = record_dict()
    data["actions"] = data["actions"][:5]
    data["result"] = None
    assert parse_record(json.dumps(data)).result is None
    data["actions"][4]["seat"] = (data["actions"][4]["seat"] + 1) % 3
    with pytest.raises(RecordError, match="action 5 is illegal"):
        parse_record(json.dumps(data))


def test_a_record_is_equal_to_its_replay_record():
    record = record_of(finished(seed=21, n=6))
    assert isinstance(record, GameRecord)
    assert record_of(record.replay()) == record
