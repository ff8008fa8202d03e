"""A seat is read by one set of rules wherever it is stored: in a game record and in
the settings' remembered table (the statistics' upgrade reads it by the same rules,
see test_home_stats_migration)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from homekit import finished

from mantis.engine import RecordError, SeatInfo
from mantis.engine.record import parse_record
from mantis.home.settings import load_settings

BAD_SEATS = {
    "not an object": ["Ann"],
    "no name": {"kind": "human"},
    "a number for a name": {"name": 7, "kind": "human"},
    "a name of 65 characters": {"name": "A" * 65, "kind": "human"},
    "an unknown kind": {"name": "Ann", "kind": "robot"},
    "no kind": {"name": "Ann"},
    "a number for a bot": {"name": "Ann", "kind": "bot", "bot": 3},
    "a bot name of 201 characters": {"name": "Ann", "kind": "bot", "bot": "b" * 201},
}


def _record_with_seat(entry: object) -> str:
    data = json.loads(finished(players=2, seats=None).to_json())
    data["seats"] = [entry, {"name": "Bea", "kind": "bot", "bot": "greedy"}]
    return json.dumps(data)


def _settings_with_seat(tmp_path: Path, entry: object) -> Path:
    path = tmp_path / "settings.json"
    seats = [entry, {"name": "Bea", "kind": "bot", "bot": "greedy"}]
    path.write_text(json.dumps({"last_seats": seats, "speed": "fast"}), encoding="utf-8")
    return path


@pytest.mark.parametrize("entry", BAD_SEATS.values(), ids=BAD_SEATS.keys())
def test_a_seat_that_breaks_a_rule_is_refused_by_records_and_settings(
    entry: object, tmp_path: Path
) -> None:
    with pytest.raises(RecordError, match="seat") as refused:
        parse_record(_record_with_seat(entry))
    assert "\n" not in str(refused.value)
    settings, warning = load_settings(_settings_with_seat(tmp_path, entry))
    assert settings.last_seats == () and settings.speed == "fast"
    assert warning is not None and "last_seats" in warning


def test_a_good_seat_reads_the_same_in_records_and_settings(tmp_path: Path) -> None:
    entry = {"name": "Ä" * 64, "kind": "bot", "bot": "mod:Bot", "colour": "ignored"}
    want = (SeatInfo("Ä" * 64, "bot", "mod:Bot"), SeatInfo("Bea", "bot", "greedy"))
    assert parse_record(_record_with_seat(entry)).seats == want
    settings, warning = load_settings(_settings_with_seat(tmp_path, entry))
    assert warning is None and settings.last_seats == want


def test_a_remembered_bot_seat_must_name_its_bot(tmp_path: Path) -> None:
    # A record may keep a bot seat without its bot's name (who played is still
    # known); a table to set up again cannot: there is no bot to offer.
    entry = {"name": "Ann", "kind": "bot"}
    assert parse_record(_record_with_seat(entry)).seats[0] == SeatInfo("Ann", "bot")
    settings, warning = load_settings(_settings_with_seat(tmp_path, entry))
    assert settings.last_seats == () and warning is not None and "last_seats" in warning
