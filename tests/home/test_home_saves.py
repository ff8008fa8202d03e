"""Saving the game in progress, resuming it, and never losing a save that cannot be read."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from homekit import SEATS3, finished, play, policy

from mantis.base.paths import data_dir
from mantis.engine import Game, record_of
from mantis.home import saves
from mantis.home.record_file import read_records
from mantis.home.saves import autosave, clear_save, default_save_path, load_save, save_game


def midgame(turns: int = 12, seed: int = 7, players: int = 3) -> Game:
    return play(Game.new(players, seed), until=turns)


def corrupt_files():
    return sorted(default_save_path().parent.glob("current-game.corrupt-*.json"))


def test_no_save_means_nothing_to_resume_and_no_warning():
    assert load_save() == (None, None)


def test_the_save_lives_in_the_data_directory_under_mantis_home(_mantis_home):
    save_game(record_of(midgame(), SEATS3))
    assert default_save_path().parent == data_dir()
    assert default_save_path().is_relative_to(_mantis_home)
    assert default_save_path().is_file()


def test_a_save_round_trips_with_its_seats_time_and_app_data():
    record = record_of(midgame(), SEATS3)
    when = datetime(2026, 11, 30, 3, 15, tzinfo=UTC)
    save_game(record, app={"speed": "fast", "bot_timeout": 2.5}, saved_at=when)
    loaded, warning = load_save()
    assert warning is None and loaded is not None
    assert loaded.record == record
    assert loaded.record.seats == SEATS3
    assert loaded.saved_at == when
    assert dict(loaded.app) == {"speed": "fast", "bot_timeout": 2.5}
    with pytest.raises(TypeError):
        loaded.app["speed"] = "slow"  # handed out read-only


def test_a_save_is_a_game_record_with_a_null_result():
    save_game(record_of(midgame(), SEATS3))
    data = json.loads(default_save_path().read_text(encoding="utf-8"))
    assert data["result"] is None and data["version"] == 1
    assert data["saved_at"].endswith("Z")
    # Extra fields are ignored by record readers: the save is a valid record file.
    [again] = read_records(default_save_path())
    assert again == record_of(midgame(), SEATS3)


@pytest.mark.parametrize("players, turns", [(2, 1), (3, 12), (4, 20), (6, 25)])
def test_a_resumed_game_continues_exactly_like_the_original(players, turns):
    original = midgame(turns, seed=players * 11, players=players)
    assert not original.over
    save_game(record_of(original, SEATS3[:1] * players))
    loaded, _ = load_save()
    assert loaded is not None
    resumed = loaded.resume()
    assert resumed.turn == turns and resumed.to_move == original.to_move
    # Same deterministic choices on both: every later view (which includes the
    # back of the next card) and the final record must agree.
    while not original.over:
        assert resumed.view() == original.view()
        action = policy(original)
        original.play(action)
        resumed.play(action)
    assert resumed.over
    assert record_of(resumed).to_json() == record_of(original).to_json()


def test_each_save_replaces_the_last_one():
    game = Game.new(3, 2)
    for _ in range(5):
        game.play(policy(game))
        save_game(record_of(game, SEATS3))
    loaded, _ = load_save()
    assert loaded is not None and loaded.record.actions == game.history
    assert [p.name for p in data_dir().iterdir()] == ["current-game.json"]  # no temp files left


def test_a_finished_game_is_not_saved_and_autosave_clears_the_save_instead():
    record = finished()
    with pytest.raises(ValueError, match="finished"):
        save_game(record)
    autosave(record_of(midgame(), SEATS3))
    assert load_save()[0] is not None
    autosave(record)
    assert not default_save_path().exists()
    assert load_save() == (None, None)


def test_clear_save_forgets_the_save_and_is_fine_without_one():
    clear_save()
    save_game(record_of(midgame()))
    clear_save()
    assert load_save() == (None, None)


def test_an_explicit_path_is_honoured(tmp_path):
    path = tmp_path / "elsewhere" / "slot.json"
    save_game(record_of(midgame()), path)
    assert path.is_file() and not default_save_path().exists()
    loaded, _ = load_save(path)
    assert loaded is not None and loaded.path == path
    clear_save(path)
    assert not path.exists()


def _good_text() -> str:
    return record_of(midgame(), SEATS3).to_json()


def _with(**changes) -> bytes:
    data = json.loads(_good_text())
    data.update(changes)
    return json.dumps(data).encode()


def _illegal_action() -> bytes:
    data = json.loads(_good_text())
    data["actions"][3]["seat"] = (data["actions"][3]["seat"] + 1) % 3
    return json.dumps(data).encode()


BAD_SAVES = {
    "empty": lambda: b"",
    "truncated": lambda: _good_text().encode()[: len(_good_text()) // 2],
    "garbage": lambda: bytes(range(256)) * 4,
    "not utf-8": lambda: _good_text().encode().replace(b'"Ann"', b'"\xffnn"'),
    "wrong version": lambda: _with(version=2),
    "not an object": lambda: b"[1, 2, 3]",
    "illegal action": _illegal_action,
    "finished game": lambda: finished().to_json().encode(),
}


@pytest.mark.parametrize("kind", BAD_SAVES)
def test_a_save_that_cannot_be_used_is_moved_aside_never_deleted(kind):
    content = BAD_SAVES[kind]()
    path = default_save_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)

    loaded, warning = load_save()

    assert loaded is None
    assert warning is not None and "\n" not in warning
    [aside] = corrupt_files()
    assert str(aside) in warning
    assert aside.read_bytes() == content
    assert not path.exists()
    # The caller starts a new game, and its saves work as usual.
    save_game(record_of(midgame(), SEATS3))
    assert load_save()[0] is not None
    assert aside.read_bytes() == content


def test_the_warning_says_what_was_wrong():
    path = default_save_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(_illegal_action())
    _, warning = load_save()
    assert "action 4 is illegal" in warning


def test_a_save_cut_short_is_said_in_plain_words_not_the_json_parsers():
    path = default_save_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"version": 1, "seed')  # cut inside a string
    _, warning = load_save()
    assert warning.startswith(
        "The saved game is damaged (not valid JSON: it breaks off or is garbled at character 16)"
    )
    assert "Unterminated" not in warning and "at at" not in warning


def test_moving_aside_never_overwrites_an_earlier_damaged_save():
    contents = [f"broken {i}".encode() for i in range(4)]
    for content in contents:
        default_save_path().parent.mkdir(parents=True, exist_ok=True)
        default_save_path().write_bytes(content)
        assert load_save()[1] is not None
    assert sorted(p.read_bytes() for p in corrupt_files()) == contents


def test_the_no_clobber_rename_refuses_a_taken_name(tmp_path):
    source, taken = tmp_path / "a", tmp_path / "b"
    source.write_text("new")
    taken.write_text("old")
    with pytest.raises(FileExistsError):
        saves._rename_no_clobber(source, taken)
    assert source.read_text() == "new" and taken.read_text() == "old"
    saves._rename_no_clobber(source, tmp_path / "c")
    assert not source.exists() and (tmp_path / "c").read_text() == "new"


def test_a_save_that_is_a_directory_is_moved_aside_too():
    default_save_path().mkdir(parents=True)
    loaded, warning = load_save()
    assert loaded is None and "moved to" in warning
    [aside] = corrupt_files()
    assert aside.is_dir()


def test_odd_extra_fields_are_ignored():
    data = json.loads(_good_text())
    data.update(saved_at="yesterday", app=[1, 2], future_field={"x": 1})
    default_save_path().parent.mkdir(parents=True)
    default_save_path().write_text(json.dumps(data), encoding="utf-8")
    loaded, warning = load_save()
    assert warning is None and loaded is not None
    assert loaded.saved_at is None and dict(loaded.app) == {}
