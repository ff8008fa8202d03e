"""Whom a finished game credits, and how a seat a bot played on for its person is named.

A person who leaves an online game before its end loses it, whatever their
seat does afterwards (``GameRecord.lost_by``): a bot plays the seat on, and
if the seat wins, the win is the seat's, not the person's.  Every place that
names a game's winners (the game-over screen, the log, past games, the
review) names such a seat the same way, from here: "Ann's seat (played by
greedy)", never "Ann".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..engine.record import GameRecord
from .history import record_notices
from .messages import Left, Message
from .names import YOU
from .narration import possessive

A_BOT = "a bot"
"""Who played a seat on, where the record kept does not say which bot it was."""


def stand_ins(messages: Iterable[Message]) -> dict[int, str]:
    """Per seat whose person left, the bot that played it on (from a table's stream)."""
    return {message.seat: message.bot for message in messages if isinstance(message, Left)}


def stand_ins_of(record: GameRecord) -> dict[int, str]:
    """Per seat whose person left ``record``'s game, the bot that played it on (``A_BOT``
    where the record's notices do not say)."""
    said = stand_ins(notice for _, notice in record_notices(record.notices))
    return {seat: said.get(seat, A_BOT) for seat in record.left}


def seat_played_on(name: str, bot: str) -> str:
    """ "Ann's seat (played by greedy)": a seat whose person left, as a result names it
    ("Your seat (…)" for this screen's own: it stands for a name, wherever it comes)."""
    return f"{possessive(name, start=True)} seat (played by {bot})"


def credited_names(names: Sequence[str], played_on: Mapping[int, str]) -> list[str]:
    """The seats' names as a result credits them: a seat whose person left is called
    "Ann's seat (played by greedy)", the others by their names."""
    return [
        seat_played_on(name, played_on[seat]) if seat in played_on else name
        for seat, name in enumerate(names)
    ]


def left_note(names: Sequence[str], played_on: Mapping[int, str]) -> str:
    """ "Ann left the game: it counts as a loss for Ann." for each person who left ("" for none)."""
    notes = []
    for seat in sorted(played_on):
        name = names[seat]
        if name == YOU:
            notes.append("You left the game: it counts as a loss for you.")
        else:
            notes.append(f"{name} left the game: it counts as a loss for {name}.")
    return " ".join(notes)


__all__ = ["A_BOT", "credited_names", "left_note", "seat_played_on", "stand_ins", "stand_ins_of"]
