"""A table's rules: one value, chosen when the table is opened and kept with it.

The server's room holds it, the store keeps it (``TableStore.create_table``)
and gives it back (``StoredRoom.rules``): each rule is named here alone.
Who sits where is not a rule (the seats change while a table waits); how
many seats it has is theirs to say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class TableRules:
    """How a table plays, from its opening to its end."""

    private: bool = False
    """Listed nowhere: found by its code alone."""
    away_bot: str = "greedy"
    """The bot level that plays for a person away (and fills a quick-play table)."""
    clock: int | None = None
    """Seconds a person has for each move (None: as long as they like)."""
    talk: bool = True
    """Whether the people at the table (and its spectators) may talk."""
    quick: bool = False
    """A quick-play table: seated by the server, started when full, filled with bots."""
    rated: bool = False
    """Its games move its players' ratings (when at least two people with keys play)."""

    def values(self) -> tuple[Any, ...]:
        """Each rule's value, in ``RULE_NAMES``' order (a store's row)."""
        return astuple(self)

    @classmethod
    def of(cls, values: Sequence[Any]) -> TableRules:
        """The rules of a store's row (``RULE_NAMES``' values; 0 and 1 read as true/false)."""
        private, away_bot, clock, talk, quick, rated = values
        return cls(bool(private), str(away_bot), clock, bool(talk), bool(quick), bool(rated))


RULE_NAMES = tuple(field.name for field in fields(TableRules))
"""Each rule's name, in order: the store keeps each in a column of that name."""
