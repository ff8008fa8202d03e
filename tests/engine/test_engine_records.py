"""Game records: round trips, reading files, and one-line errors for bad records."""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest
from enginekit import MUTATIONS, play_random, state

from mantis.engine import Game, GameRecord, RecordError, SeatInfo, record_of
from mantis.engine.record import iter_records, parse_record
from mantis.home.record_file import read_records


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


def test_what_the_table_said_and_who_left_round_trip_and_are_checked():
    record = record_of(finished())
    # The seat that left is the one that won on the board: only leaving makes it lose.
    assert record.result is not None
    (winner,) = record.result.winners
    assert not record.lost_by(winner)
    talk = '{"type":"talk","seat":0,"name":"Ann","text":"gg"}'
    said = dataclasses.replace(record, notices=((0, talk), (4, '{"type":"x"}')), left=(winner,))
    back = parse_record(said.to_json())
    assert back.notices == said.notices and back.left == (winner,)
    assert back.lost_by(winner) and back == said
    assert [back.lost_by(s) for s in range(3)] == [True] * 3  # nobody else won either
    assert "notices" not in record.to_json() and parse_record(record.to_json()).left == ()
    turns = len(record.actions)
    for bad, problem in [
        ({"notices": [[turns + 1, {"type": "talk"}]]}, "names turn"),
        ({"notices": [[0, "talk"]]}, "not an object with a type"),
        ({"notices": {"0": 1}}, "must be a list"),
        ({"left": [3]}, "left must list seats"),
        ({"left": [True]}, "left must list seats"),
    ]:
        data = {**json.loads(record.to_json()), **bad}
        with pytest.raises(RecordError, match=problem):
            parse_record(json.dumps(data))
