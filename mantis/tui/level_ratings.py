"""The bot levels' ratings, shown beside their names wherever a level is chosen.

Every built-in level has a fixed rating at each table size (its anchor,
``mantis.rating.levels``): where the table's size is known the app shows
that one, else the level's overall rating.  A bot that is not a built-in
level (a plug-in) has none.  A rating choice is relabelled when the size
changes, keeping what was chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.content import Content
from textual.widgets import Select

from ..rating.levels import rating_text

__all__ = ["rated", "rating_text", "relabel"]


def rated(label: str, bot: str, players: int | None = None) -> str:
    """``label`` with the level's rating after it ("Bot · Expert (expert) · 1,678")."""
    text = rating_text(bot, players)
    return f"{label} · {text}" if text else label


def relabel(select: Select[Any], options: Sequence[tuple[str | Content, Any]]) -> None:
    """Give ``select`` these options (new labels for the same values), keeping its choice."""
    chosen = select.value
    select.set_options(options)
    if any(value == chosen for _, value in options):
        select.value = chosen
