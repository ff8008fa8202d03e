"""The no-leak checker: what one client's frames gave away before its game's record.

Every frame a client hears is read field by field, as raw JSON (a field the
protocol has no word for is not dropped, as decoding would drop it, but
reported), against the cards not yet turned over when it came: the pile
cards from the one the table will turn next on.  ``FIELDS`` says what each
field of every message the server sends (the protocol's, version 1's, the
stream's) carries, and so how it is checked:

- a card (``CARD``, ``CARDS``, the deal's tanks) must be dealt or turned over;
- a colour (``COLOUR``) is the face of the message's own cards, no other;
- the draw pile's back (``BACK``) is the top card's, the one thing the rules
  show of a card before it is turned;
- text (``TEXT``) never holds a card's code (``R:RGB``) nor the seed's digits;
- a number (``PLAIN``: seats, turns, counts, seconds) is never the seed;
- the record (``RECORD``, with the whole pile and the seed) only ends a game.

Every frame's text is also searched for an unturned card's code and the
seed's digits, whatever field they hide in.  ``unclassified`` names each field
of a message that ``FIELDS`` does not say (a new field must be classed here
before the leak test passes), so no kind of frame is taken on trust.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass

import msgspec

from mantis.engine import (
    CardRevealed,
    ExtraTurn,
    GameOver,
    GameRecord,
    Scored,
    ScoreMissed,
    SeatInfo,
    StealMissed,
    Stolen,
    TurnStarted,
)
from mantis.engine.actions import Score, Steal
from mantis.engine.cards import BACK, FACE, card_code
from mantis.net import protocol
from mantis.net.protocol import version1
from mantis.table import (
    Away,
    Back,
    Fault,
    KeepFailed,
    Left,
    Opening,
    Recorded,
    StartFailed,
    Talk,
    TimedOut,
)
from mantis.table.messages import MESSAGE_TYPES

# ---------------------------------------------------------------------- what each field carries

PLAIN = "plain"
"""A number, a flag or nothing: a seat, a turn, a count, seconds."""
TEXT = "text"
"""A name, a code, a reason, a line of talk."""
CARD = "card"
"""One card (a number), dealt or turned over."""
COLOUR = "colour"
"""The face colour of the message's own cards."""
BACK_OF_TOP = "back"
"""The back of the draw pile's top card."""
RECORD = "record"
"""A whole game's record: its pile and seed."""


@dataclass(frozen=True)
class Many:
    """A list, each item read as ``item``."""

    item: object


@dataclass(frozen=True)
class Maybe:
    """Nothing, or ``item``."""

    item: object


@dataclass(frozen=True)
class OneOf:
    """One of ``kinds`` (structs), told apart by their ``type`` tag."""

    kinds: tuple[type, ...]


CARDS = Many(CARD)
ACTION = OneOf((Score, Steal))
STREAM_MESSAGE = OneOf(MESSAGE_TYPES)
SERVER_MESSAGE = OneOf(protocol.ServerMessage.__args__)  # type: ignore[attr-defined]

FIELDS: dict[type, dict[str, object]] = {
    # The protocol's messages (version 1's are theirs with fewer fields).
    protocol.Welcome: {
        "protocol": PLAIN,
        "code": TEXT,
        "seat": PLAIN,
        "token": TEXT,
        "room": protocol.RoomState,
    },
    protocol.RoomState: {
        "code": TEXT,
        "state": TEXT,
        "private": PLAIN,
        "host": PLAIN,
        "away_bot": TEXT,
        "seats": Many(protocol.SeatState),
        "moves": PLAIN,
        "you": PLAIN,
        "clock": PLAIN,
        "talk": PLAIN,
        "quick": PLAIN,
        "bots_in": PLAIN,
        "game": PLAIN,
    },
    protocol.SeatState: {"name": TEXT, "kind": TEXT, "bot": TEXT, "taken": PLAIN, "left": PLAIN},
    protocol.Presence: {"seats": Many(TEXT)},
    protocol.Stream: {"start": PLAIN, "messages": Many(STREAM_MESSAGE)},
    protocol.Error: {"code": TEXT, "message": TEXT, "retry_after": PLAIN},
    protocol.Clock: {"turn": PLAIN, "seat": PLAIN, "remaining": PLAIN, "seconds": PLAIN},
    protocol.Offer: {"by": PLAIN, "accepted": Many(PLAIN), "lapses_in": PLAIN},
    protocol.OfferClosed: {"reason": TEXT, "seat": PLAIN},
    protocol.Said: {"channel": TEXT, "seat": PLAIN, "name": TEXT, "text": TEXT},
    protocol.Ratings: {
        "rated": PLAIN,
        "counts": PLAIN,
        "why": TEXT,
        "seats": Many(Maybe(protocol.SeatRating)),
        "before": Many(PLAIN),
    },
    protocol.SeatRating: {
        "rating": PLAIN,
        "plus_minus": PLAIN,
        "provisional": PLAIN,
        "games": PLAIN,
    },
    protocol.Challenge: {"nonce": TEXT, "known": PLAIN},
    protocol.Rekeyed: {"names": PLAIN},
    protocol.Pong: {"id": PLAIN},
    protocol.YourTables: {"tables": Many(protocol.HeldTable)},
    protocol.HeldTable: {
        "code": TEXT,
        "state": TEXT,
        "seat": PLAIN,
        "seats": Many(protocol.SeatState),
        "moves": PLAIN,
        "game": PLAIN,
        "clock": PLAIN,
        "private": PLAIN,
        "quick": PLAIN,
        "rated": PLAIN,
    },
    protocol.People: {"players": Many(TEXT), "watchers": Many(TEXT), "watching": PLAIN},
    # The table's stream.
    Opening: {
        "version": PLAIN,
        "seats": Many(SeatInfo),
        "target": PLAIN,
        "first": PLAIN,
        "tanks": Many(Many(CARDS)),
        "pile_size": PLAIN,
    },
    SeatInfo: {"name": TEXT, "kind": TEXT, "bot": TEXT},
    TurnStarted: {
        "seat": PLAIN,
        "top_back": BACK_OF_TOP,
        "pile_size": PLAIN,
        "turn": PLAIN,
        "extra": PLAIN,
    },
    CardRevealed: {"seat": PLAIN, "action": ACTION, "card": CARD, "into": PLAIN},
    Scored: {"seat": PLAIN, "colour": COLOUR, "cards": CARDS, "score": PLAIN},
    ScoreMissed: {"seat": PLAIN, "card": CARD, "colour": COLOUR},
    Stolen: {"seat": PLAIN, "target": PLAIN, "colour": COLOUR, "cards": CARDS},
    StealMissed: {"seat": PLAIN, "target": PLAIN, "card": CARD, "colour": COLOUR},
    ExtraTurn: {"seat": PLAIN},
    GameOver: {
        "winners": Many(PLAIN),
        "reason": TEXT,
        "scores": Many(PLAIN),
        "tank_sizes": Many(PLAIN),
        "turns": PLAIN,
    },
    Fault: {"seat": PLAIN, "reason": TEXT},
    StartFailed: {"seat": PLAIN, "reason": TEXT},
    Away: {"seat": PLAIN, "bot": TEXT},
    Back: {"seat": PLAIN},
    TimedOut: {"seat": PLAIN, "bot": TEXT, "action": ACTION},
    Left: {"seat": PLAIN, "bot": TEXT},
    KeepFailed: {"what": TEXT, "reason": TEXT},
    Recorded: {"record": RECORD},
    Talk: {"seat": PLAIN, "name": TEXT, "text": TEXT},
    Score: {},
    Steal: {"target": PLAIN},
}

VERSION_1 = {
    version1.Welcome: protocol.Welcome,
    version1.RoomState: protocol.RoomState,
    version1.SeatState: protocol.SeatState,
}
"""Version 1's messages, each read as the protocol's message it is a part of."""


@functools.cache
def _tag(kind: type) -> tuple[str, str] | None:
    """(tag field, tag) of a tagged struct; None for an untagged one."""
    config = kind.__struct_config__  # type: ignore[attr-defined]
    return None if config.tag is None else (config.tag_field, config.tag)


@functools.cache
def _by_tag(kinds: tuple[type, ...]) -> dict[object, type]:
    """Tagged structs by their tag (all of ``kinds`` share the tag field ``type``)."""
    assert all(_tag(kind) == ("type", _tag(kind)[1]) for kind in kinds)  # type: ignore[index]
    return {_tag(kind)[1]: kind for kind in kinds}  # type: ignore[index]


def _names(kind: type) -> set[str]:
    return {f.encode_name for f in msgspec.structs.fields(kind)}


def unclassified() -> list[str]:
    """Every field of a message the server sends that ``FIELDS`` does not class (or classes
    though the message has no such field)."""
    kinds = {*SERVER_MESSAGE.kinds, *STREAM_MESSAGE.kinds, *ACTION.kinds}
    kinds |= {protocol.SeatState, protocol.SeatRating, SeatInfo}
    problems = [f"{kind.__name__} is not classed" for kind in kinds if kind not in FIELDS]
    for kind, fields in FIELDS.items():
        for name in _names(kind) ^ set(fields):
            problems.append(f"{kind.__name__}.{name}")
    for old, new in VERSION_1.items():
        problems.extend(f"version 1's {old.__name__}.{n}" for n in _names(old) - _names(new))
    return sorted(problems)


# ---------------------------------------------------------------------- reading a frame


def _leaves(value: object, kind: object, path: str) -> Iterator[tuple[str, str, object]]:
    """(what the field carries, where, value) for each leaf of ``value`` read as ``kind``;
    ("unknown", where, why) for whatever does not fit the protocol."""
    if isinstance(kind, Many):
        if not isinstance(value, list):
            yield "unknown", path, "not a list"
            return
        for i, item in enumerate(value):
            yield from _leaves(item, kind.item, f"{path}[{i}]")
    elif isinstance(kind, Maybe):
        if value is not None:
            yield from _leaves(value, kind.item, path)
    elif isinstance(kind, OneOf | type):
        yield from _struct(value, kind.kinds if isinstance(kind, OneOf) else (kind,), path)
    else:
        assert isinstance(kind, str)
        yield kind, path, value


def _struct(value: object, kinds: tuple[type, ...], path: str) -> Iterator[tuple[str, str, object]]:
    if not isinstance(value, dict):
        yield "unknown", path, "not an object"
        return
    found = kinds[0] if _tag(kinds[0]) is None else _by_tag(kinds).get(value.get("type"))
    if found is None:
        yield "unknown", path, f"a message of type {value.get('type')!r}"
        return
    tag = _tag(found)
    fields = FIELDS[found]
    for key, item in value.items():
        if tag is not None and key == tag[0]:
            continue
        if key not in fields:
            yield "unknown", f"{path}.{key}", f"a field {found.__name__} has no word for"
        else:
            yield from _leaves(item, fields[key], f"{path}.{key}")


class Reader:
    """One client's frames of one game, read in order against the game's ``record``."""

    def __init__(self, record: GameRecord) -> None:
        assert record.seed is not None
        self.record = record
        self.seed = record.seed
        self.pile_index = {card: i for i, card in enumerate(record.pile)}
        self.codes = [card_code(card) for card in record.pile]
        self.stream: list[object] = []
        self.turned: list[int] = []
        """Cards turned over by the end of each message of the stream so far."""
        self.seen: set[str] = set()
        """The kinds of message read (their ``type`` tags)."""
        self.problems: list[str] = []

    @property
    def turned_now(self) -> int:
        return self.turned[-1] if self.turned else 0

    def frame(self, where: str, frame: str) -> bool:
        """Read one frame; True once it carried the game's record (the end)."""
        try:
            protocol.decode_server(frame)  # (it is a message of the protocol at all)
            data = json.loads(frame)
        except (protocol.ProtocolError, ValueError) as exc:
            self.problems.append(f"{where}: unreadable ({exc})")
            return False
        if not isinstance(data, dict):
            self.problems.append(f"{where}: not an object")
            return False
        self.seen.add(str(data.get("type")))
        if data.get("type") != "stream" or not isinstance(data.get("messages"), list):
            self._text(where, frame, self.turned_now)
            self._message(where, data, SERVER_MESSAGE, self.turned_now)
            return False
        start = data.get("start")
        if not isinstance(start, int) or not 0 <= start <= len(self.stream):
            self.problems.append(f"{where}: stream from {start!r}")
            return False
        for key in set(data) - {"type", "start", "messages"}:
            self.problems.append(f"{where}.{key}: a field Stream has no word for")
        del self.stream[start:]
        del self.turned[start:]
        for i, message in enumerate(data["messages"], start):
            at = f"{where} (stream message {i})"
            kind = message.get("type") if isinstance(message, dict) else None
            self.seen.add(str(kind))
            if kind == "recorded":
                if not any(m.get("type") == "game_over" for m in self.stream):
                    self.problems.append(f"{at}: a record before the game's end")
                return True  # what comes with the record and after it is public
            before = self.turned_now
            turned = before + (kind == "card_revealed")
            self.stream.append(message)
            self.turned.append(turned)
            self._text(at, json.dumps(message), turned)
            self._message(at, message, STREAM_MESSAGE, turned, top=before)
        return False

    def _text(self, where: str, text: str, turned: int) -> None:
        """No unturned card's code, and not the seed's digits, anywhere in ``text``."""
        for k in range(turned, len(self.codes)):
            if self.codes[k] in text:
                self.problems.append(f"{where}: pile card #{k}'s code {self.codes[k]}")
        if str(self.seed) in text:
            self.problems.append(f"{where}: the seed's digits")

    def _message(
        self, where: str, data: object, kind: OneOf, turned: int, top: int | None = None
    ) -> None:
        leaves = list(_leaves(data, kind, ""))
        own = {value for what, _, value in leaves if what == CARD and isinstance(value, int)}
        name = data.get("type") if isinstance(data, dict) else None
        for what, path, value in leaves:
            at = f"{where}: {name}{path}"
            if what == "unknown":
                self.problems.append(f"{at}: {value}")
            elif what == CARD:
                self._card(at, value, turned)
            elif what == COLOUR:
                if value not in {FACE[card] for card in own if 0 <= card < len(FACE)}:
                    self.problems.append(f"{at}: colour {value!r} is not its own cards' face")
            elif what == BACK_OF_TOP:
                pile = self.record.pile
                if top is None or top >= len(pile) or value != BACK[pile[top]]:
                    self.problems.append(f"{at}: back {value!r} is not the top card's")
            elif what == RECORD:
                self.problems.append(f"{at}: a record before the game's end")
            elif what == TEXT:
                if value is not None and not isinstance(value, str):
                    self.problems.append(f"{at}: {value!r} where text goes")
            elif isinstance(value, dict | list | str):
                self.problems.append(f"{at}: {value!r} where a number goes")
            elif value == self.seed and not isinstance(value, bool):
                self.problems.append(f"{at}: the seed as a number")

    def _card(self, at: str, value: object, turned: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            self.problems.append(f"{at}: {value!r} where a card goes")
            return
        k = self.pile_index.get(value)
        if k is not None and k >= turned:
            self.problems.append(f"{at}: pile card #{k} with only {turned} cards turned over")


def read_frames(frames: list[str], record: GameRecord) -> Reader:
    """One client's ``frames`` of one game (in order), read up to the game's ``Recorded``
    (all of them for a connection that never sat at the table: ``my_tables``'s)."""
    reader = Reader(record)
    for f, frame in enumerate(frames):
        if reader.frame(f"frame {f}", frame):
            return reader
    if not any('"type":"your_tables"' in frame for frame in frames):
        reader.problems.append("the frames never reach the game's Recorded")
    return reader


def leaks(frames: list[str], record: GameRecord) -> list[str]:
    """What one client's ``frames`` (in order) gave away before the game's ``Recorded``."""
    return read_frames(frames, record).problems
