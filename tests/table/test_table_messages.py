"""Stream messages go to JSON and back unchanged; anything else is refused in one line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mantis.engine import Game, SeatInfo, record_of
from mantis.engine.seat_count import MAX_SEATS, MIN_SEATS, valid_seat_count
from mantis.table import (
    Away,
    Back,
    Fault,
    KeepFailed,
    Recorded,
    StartFailed,
    StreamError,
    decode,
    encode,
    stream_of,
)
from mantis.table.messages import MESSAGE_TYPES, from_builtins, to_builtins

seats = st.integers(0, MAX_SEATS - 1)
texts = st.text(max_size=200)
notices = st.one_of(
    st.builds(Fault, seats, texts),
    st.builds(StartFailed, seats, texts),
    st.builds(Away, seats, st.sampled_from(["random", "casual", "greedy", "expert"])),
    st.builds(Back, seats),
    st.builds(KeepFailed, st.sampled_from(["save", "record"]), texts),
)


@st.composite
def game_streams(draw) -> list:
    """The whole stream of a game played by hypothesis's choices, record included."""
    players = draw(st.integers(MIN_SEATS, MAX_SEATS))
    game = Game.new(players, draw(st.integers(0, 2**32)))
    while not game.over:
        actions = game.legal_actions()
        game.play(actions[draw(st.integers(0, len(actions) - 1))])
    names = draw(st.lists(st.text(min_size=1, max_size=16), min_size=players, max_size=players))
    record = record_of(game, [SeatInfo(n, "bot", "random") for n in names])
    return [*stream_of(record), Recorded(record.to_json())]


@settings(max_examples=30, deadline=None)
@given(stream=game_streams(), extra=st.lists(notices, max_size=8))
def test_every_message_goes_to_json_and_back_unchanged(stream, extra) -> None:
    for message in [*stream, *extra]:
        data = encode(message)
        assert decode(data) == message
        assert decode(data.decode()) == message
        assert from_builtins(json.loads(data)) == message
        assert json.loads(data) == json.loads(json.dumps(to_builtins(message)))
    # Every kind of message shows up in streams and notices.
    assert {type(m) for m in stream} >= {MESSAGE_TYPES[0], Recorded}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=json_values, kind=st.sampled_from([t.__struct_config__.tag for t in MESSAGE_TYPES]))
def test_a_malformed_message_is_refused_with_one_line(value, kind) -> None:
    for data in (json.dumps(value), json.dumps({"type": kind, "seat": value})):
        try:
            decode(data)
        except StreamError as exc:
            assert "\n" not in str(exc) and str(exc)
        # A value that happens to be a valid message is fine: it decoded cleanly.


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"{",
        b"[]",
        b'{"type": "scored"}',
        b'{"type": "scored", "seat": 9, "colour": 0, "cards": [1], "score": 2}',
        b'{"type": "card_revealed", "seat": 0, "action": {"type": "fly"}, "card": 1, "into": 0}',
        b'{"type": "stolen", "seat": 0, "target": 1, "colour": 0, "cards": [105]}',
        b'{"type": "fault", "seat": 0, "reason": "' + b"x" * 300 + b'"}',
    ],
)
def test_typical_bad_messages_name_the_problem(data: bytes) -> None:
    with pytest.raises(StreamError) as caught:
        decode(data)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("players", [MIN_SEATS - 1, MIN_SEATS, MAX_SEATS, MAX_SEATS + 1])
def test_the_stream_takes_the_table_sizes_the_rules_allow_and_no_other(players) -> None:
    """An opening and a result hold one entry per seat, bounded by engine/seat_count.py."""
    game = Game.new(MAX_SEATS, 3)
    while not game.over:
        game.play(game.legal_actions()[0])
    record = record_of(game, [SeatInfo(f"Seat {n}", "bot", "score") for n in range(MAX_SEATS)])
    opening, *_, over = (json.loads(encode(m)) for m in stream_of(record))
    assert isinstance(opening, dict) and isinstance(over, dict)

    def resize(entries: list) -> list:
        """``players`` entries: the last seat's repeated, or the list cut short."""
        return [*entries, *entries[-1:] * MAX_SEATS][:players]

    opening |= {"seats": resize(opening["seats"]), "tanks": resize(opening["tanks"])}
    over |= {"scores": resize(over["scores"]), "tank_sizes": resize(over["tank_sizes"])}
    for message in (opening, over):
        data = json.dumps(message)
        if valid_seat_count(players):
            assert json.loads(encode(decode(data))) == message
        else:
            with pytest.raises(StreamError):
                decode(data)
