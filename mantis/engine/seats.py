"""Who sat in a seat: a display name, a person or a bot, and which bot.

Read back wherever a seat is written down: a record, the settings'
remembered table, the statistics, the table's public stream.  Apart from the
rest of the record format, since the settings read the remembered seats
before the first frame of every launch.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec


class RecordError(ValueError):
    """A game record that cannot be read or does not follow the rules."""


SeatKind = Literal["human", "bot"]
"""Who plays a seat: a person (here or online) or a bot."""


class SeatInfo(msgspec.Struct, frozen=True):
    """Who sat in a seat: a display name, ``"human"`` or ``"bot"``, and the bot's name.

    A ``msgspec`` struct so that the table's public stream, which names the
    seats, reads them back checked (names are bounded in length there too).
    Its fields are the one set of rules for a seat wherever one is read
    back: a record, the settings' remembered table, the statistics
    (``seats_from_json``).
    """

    name: Annotated[str, msgspec.Meta(max_length=64)]
    kind: SeatKind
    bot: Annotated[str, msgspec.Meta(max_length=200)] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.bot is not None:
            data["bot"] = self.bot
        return data


def seats_from_json(data: Any) -> tuple[SeatInfo, ...]:
    """Seats from their JSON (a list of what ``SeatInfo.to_json`` writes).

    ``RecordError`` says which seat breaks which rule; keys other than
    ``name``, ``kind`` and ``bot`` are ignored.
    """
    if not isinstance(data, list):
        raise RecordError("seats must be a list")
    try:
        return msgspec.convert(data, tuple[SeatInfo, ...])
    except msgspec.ValidationError as exc:
        raise RecordError(f"a seat is not valid: {exc}") from None
