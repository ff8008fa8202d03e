"""Seat names: nothing that shows as nothing, and no name that passes for another.

The skeleton is UTS #39's, from the Unicode data shipped beside the module;
these tests check it against pairs the standard's own data makes confusable,
and that the server and the local setup both go by it.
"""

from __future__ import annotations

import sys
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest

from mantis.cli import main
from mantis.net import protocol
from mantis.table import names
from mantis.table.names import clean_name, look_alike, looks_like_you, skeleton, unique_name
from mantis.table.seating import SeatingError, named, seats_from_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from netkit import create, join, running_server, welcome  # noqa: E402

CYRILLIC_A, CYRILLIC_O = "\u0410", "\u043e"
#: Characters that display as nothing: the Hangul fillers, zero-width and other
#: default-ignorable code points (a variation selector, a tag, the soft hyphen...).
BLANKS = [
    "\u3164",
    "\uffa0",
    "\u115f",
    "\u1160",
    "\u200b",
    "\u2060",
    "\ufe0f",
    "\U000e0041",
    "\xad",
]


def test_the_shipped_data_is_unicodes_and_says_which_version() -> None:
    header = names._DATA.read_text(encoding="utf-8").splitlines()[:6]
    assert header[0].startswith("# Unicode 17.0.0: the UTS #39 skeleton's data")
    assert "confusables.txt (2025-07-22, sha256 " in header[1]
    prototypes, blank = names._data()
    assert len(prototypes) > 6000
    # A few of Unicode's own lines, as confusables.txt states them.
    assert prototypes[0x0430] == "a"  # CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A
    assert prototypes[ord("I")] == "l"  # LATIN CAPITAL LETTER I → LATIN SMALL LETTER L
    assert prototypes[ord("m")] == "rn"  # LATIN SMALL LETTER M → R, N
    assert {ord(c) for c in BLANKS} <= blank


def test_names_that_look_alike_have_one_skeleton() -> None:
    assert skeleton(f"{CYRILLIC_A}da") == skeleton("Ada")
    assert look_alike(f"{CYRILLIC_A}da", "Ada")
    assert looks_like_you(f"Y{CYRILLIC_O}u") and looks_like_you("YOU") and looks_like_you("you")
    assert look_alike("Ann", "ann")  # one person in any case
    assert look_alike("Ian", "lan") and look_alike("Sam", "Sarn")
    assert look_alike("Ｅｖｅ", "Eve")  # fullwidth
    for other in ("Bea", "Adam", "Anna", "Yous", "Ana"):
        assert not look_alike("Ann", other), other
    assert not looks_like_you("Yuo")


@pytest.mark.parametrize("blank", BLANKS)
def test_what_shows_as_nothing_is_dropped_from_a_name(blank: str) -> None:
    assert clean_name(blank * 3) == ""
    assert clean_name(f"A{blank}nn{blank}") == "Ann"
    assert clean_name(f"{blank} Bea") == "Bea"


def test_unique_names_look_like_no_other_and_never_like_you() -> None:
    assert unique_name(f"{CYRILLIC_A}da", ["Ada"], "Player 2") == f"{CYRILLIC_A}da 2"
    assert unique_name(f"Y{CYRILLIC_O}u", [], "Player 3") == "Player 3"
    assert unique_name("", ["Player 2"], "Player 2") == "Player 2 2"
    assert unique_name("Ada", ["Ada", "ada 2", f"{CYRILLIC_A}da 3"], "P") == "Ada 4"
    assert unique_name("abcdefghijklmnop", ["abcdefghijklmnop"], "P") == "abcdefghijklmn 2"


async def test_the_server_seats_no_look_alike_of_a_bot_another_seat_or_you(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (_, url):
        host = await create(url, ("human", "open", "open", "open", "greedy"), "Ann")
        code = welcome(host).code
        typed = [f"{CYRILLIC_A}da", f"Y{CYRILLIC_O}u", "\u3164\uffa0\u115f"]
        for name in typed:
            await join(url, code, name)
        room = [m for m in host.heard if isinstance(m, protocol.RoomState)][-1]
        seated = [seat.name for seat in room.seats]
        # The bot is Ada; Cyrillic Аda is numbered, Yоu and a blank name are "Player N".
        assert seated == ["Ann", f"{CYRILLIC_A}da 2", "Player 3", "Player 4", "Ada"]
        for i, name in enumerate(seated):
            assert not any(look_alike(name, other) for other in seated[i + 1 :]), seated
            assert not looks_like_you(name)
            assert all(unicodedata.category(c)[0] in "LNZP" for c in name), name


async def test_a_bot_added_later_is_not_named_like_a_person_already_seated(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (_, url):
        host = await create(url, ("human", "open"), f"{CYRILLIC_A}DA")
        await host.send(protocol.AddBot("greedy"))
        room = await host.until(lambda: _room_with(host, 3), "the bot's seat")
        assert [seat.name for seat in room.seats] == [f"{CYRILLIC_A}DA", "", "Alan"]


def _room_with(client, seats: int) -> protocol.RoomState | None:
    rooms = [m for m in client.heard if isinstance(m, protocol.RoomState)]
    return rooms[-1] if rooms and len(rooms[-1].seats) == seats else None


@pytest.mark.parametrize(
    ("given", "says"),
    [
        (f"Ada,{CYRILLIC_A}da", "look alike"),
        (f"Y{CYRILLIC_O}u,Bea", "looks like 'You'"),
        ("YOU,Bea", "looks like 'You'"),
        ("Ian,lan", "look alike"),
    ],
)
def test_local_setup_refuses_names_that_look_alike(given: str, says: str, capsys) -> None:
    with pytest.raises(SeatingError, match=says):
        named(seats_from_text("human,random"), given.split(","))
    assert main(["play", "--seats", "human,random", "--names", given]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err
    assert named(seats_from_text("human,random"), ["You", "Bea"])[0].name == "You"


def test_seats_read_from_text_say_what_is_wrong_without_naming_an_option() -> None:
    # The line mode's new table reads them too: only the command line names --seats.
    for text, says in [("human,,random", "an empty entry"), ("human, nobody", "unknown bot")]:
        with pytest.raises(SeatingError, match=f"^{says}"):
            seats_from_text(text)
    with pytest.raises(SeatingError, match="^3 names for 2 seats"):
        named(seats_from_text("human, random"), ["A", "B", "C"])


# ---------------------------------------------------------------------- the rules, alone


@pytest.mark.parametrize(
    ("held", "alike"),
    [
        ("Alice", "AIice"),  # capital I looks like l
        ("Ian", "lan"),
        ("Bill", "BiII"),
        ("Olga", "0lga"),  # zero looks like O
        ("Ann", "ANN"),
        ("Ann", "\u0410nn"),  # a Cyrillic А
        ("Igor", "Igo\u0433"),  # a Cyrillic г
        ("Arnold", "Amold"),  # rn looks like m
    ],
)
def test_look_alikes_clash_on_a_name_key_in_any_case(held: str, alike: str) -> None:
    for a in (alike, alike.lower(), alike.upper(), alike.swapcase()):
        assert names.NameKeys.of(held).clash(names.NameKeys.of(a)), (held, a)
        assert names.NameKeys.of(a).clash(names.NameKeys.of(held.upper())), (held, a)


@pytest.mark.parametrize(("one", "other"), [("Bob", "Rob"), ("Ann", "Anna"), ("Eve", "Ewe")])
def test_names_that_do_not_look_alike_do_not_clash(one: str, other: str) -> None:
    assert not names.NameKeys.of(one).clash(names.NameKeys.of(other))


def test_a_name_keys_low_key_is_the_name_key_kept_before() -> None:
    assert names.NameKeys.of("Ann").low == names.name_key("Ann") == "ann"
    assert names.capitals_key("AIice") == names.capitals_key("alice") == "allce"


def test_a_talk_line_keeps_a_few_marks_on_a_letter_and_no_blank_cells() -> None:
    piled = "o" + "\u0301" * 180 + "k"
    kept = names.clean_line(piled)
    assert kept.startswith("\u00f3") and kept.endswith("k")  # (ó: o and its first mark)
    marks = unicodedata.normalize("NFD", kept)
    assert sum(unicodedata.category(c) == "Mn" for c in marks) == names.MAX_MARKS
    assert names.clean_line("Tiếng Việt") == "Tiếng Việt"  # real diacritics stay
    assert names.clean_line("\u0301\u0301 hi") == "hi"  # marks on nothing go
    for blank in ("\u2800", "\u3164", "\U0001d159", "\uffa0"):
        assert names.clean_line(f"a{blank * 5}b {blank}") == "ab"
        assert names.clean_line(blank * 30) == ""
    # What held before still does: markup, escapes, bidi and zero-width are gone.
    assert names.clean_line("[b]x\x1b\u202e\u200by") == "b xy"


def test_a_record_from_outside_is_cleaned_by_the_names_and_talk_rules() -> None:
    import json

    from hostilekit import CLEANED, hostile_game

    from mantis.engine import SeatInfo
    from mantis.engine.record import parse_record
    from mantis.table.outside_records import clean_record, read_outside_record

    hostile = hostile_game()
    record = read_outside_record(hostile.to_json())
    assert record.seats is not None
    assert [seat.name for seat in record.seats] == list(CLEANED)
    assert [seat.bot for seat in record.seats] == [None, "random 5m", "greedy 5m"]
    talk, fault = (json.loads(body) for _, body in record.notices)
    assert talk == {"type": "talk", "seat": 0, "name": CLEANED[0], "text": "gg 2J 0;owned!"}
    assert fault == {"type": "fault", "seat": 1, "reason": "timed out 2Jc"}
    # The same game, still a valid record; a name that cleans to nothing is the seat's.
    assert parse_record(record.to_json()).actions == hostile.actions
    blank = clean_record(
        replace(record, seats=(SeatInfo("\x1b\x07\u202e", "human"), *record.seats[1:]))
    )
    assert blank.seats is not None and blank.seats[0].name == "Seat 1"
    # A record this app wrote keeps its names, its bots and its table's words.
    assert clean_record(record) == record
