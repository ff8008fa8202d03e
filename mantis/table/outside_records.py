"""Game records from outside this app, made safe to keep and to show.

A record that comes in (a server's ``recorded`` at the end of a game, a file
given to ``mantis review`` or ``mantis replay``, a past game kept by an
older Mantis) is checked by the engine as it is read (``parse_record``: the
deal, every move, the result).  What the rules never read is outside text:
the seats' names (any 64 characters), a bot's name, what the table said
(talk, a bot's fault).  A terminal obeys the escape sequences it may carry,
so it is cleaned before the record is kept or shown, by the rules a server
holds people to (``names``): a seat's name as the name a person sits under
(``clean_name``; one left empty is "Seat N"), everything else as a line of
talk (``clean_line``).  The names this app gives follow those rules already:
its own records keep theirs.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ..engine.record import GameRecord, parse_record
from ..engine.seats import SeatInfo
from .names import clean_line, clean_name


def read_outside_record(text: str) -> GameRecord:
    """The record ``text`` holds, checked (``RecordError`` in one line if it is not one)
    and cleaned (``clean_record``)."""
    return clean_record(parse_record(text))


def clean_record(record: GameRecord) -> GameRecord:
    """``record`` with its names and what its table said cleaned as a server cleans names
    and talk."""
    seats = record.seats
    if seats is not None:
        seats = tuple(_clean_seat(seat, s) for s, seat in enumerate(seats))
    notices = tuple(
        (turn, json.dumps(_clean(json.loads(body)), separators=(",", ":")))
        for turn, body in record.notices
    )
    return replace(record, seats=seats, notices=notices)


def _clean_seat(seat: SeatInfo, index: int) -> SeatInfo:
    bot = (clean_line(seat.bot) or None) if seat.bot is not None else None
    return SeatInfo(clean_name(seat.name) or f"Seat {index + 1}", seat.kind, bot)


def _clean(value: Any, key: str = "") -> Any:
    """A notice's JSON value with every string in it cleaned (a ``name`` as a name)."""
    if isinstance(value, str):
        return clean_name(value) if key == "name" else clean_line(value)
    if isinstance(value, dict):
        cleaned = {k: _clean(v, k) for k, v in value.items()}
        seat = cleaned.get("seat")
        if cleaned.get("name") == "" and type(seat) is int:
            cleaned["name"] = f"Seat {seat + 1}"
        return cleaned
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value
