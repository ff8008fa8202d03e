"""The bot levels' ratings, shown beside their names wherever a level is chosen.

Every built-in level has a fixed rating at each table size (its anchor,
``mantis.rating.levels``): where the table's size is known the app shows
that one, else the level's overall rating.  A bot that is not a built-in
level (a plug-in) has none.  A rating choice is relabelled when the size
changes, keeping what was chosen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from textual.content import Content
from textual.widgets import Select

from ..players import BOTS
from ..players.registry import level_choices
from ..rating.levels import rating_text

__all__ = ["bot_choices", "provisional_key", "rated", "rated_bots", "rating_text", "relabel"]

#: Built-in bots offered beside the levels, each after the level it plays about as well as.
OTHER_BOTS: tuple[tuple[str, str, str], ...] = (("Always scores", "score", "casual"),)


def bot_choices() -> tuple[tuple[str, str], ...]:
    """Every built-in bot a seat may be, as (label, bot name), easiest first: the levels, and
    ``score`` (which ``--seats`` takes too) beside the level it plays like."""
    choices = list(level_choices())
    for label, bot, beside in OTHER_BOTS:
        if bot in BOTS and bot not in (name for _, name in choices):
            after = next((i + 1 for i, (_, name) in enumerate(choices) if name == beside), None)
            choices.insert(len(choices) if after is None else after, (label, bot))
    return tuple(choices)


def provisional_key(shown: Iterable[str], *, why: bool = False) -> str:
    """What the "?" after a person's rating means ("1,500?"), if any of ``shown`` has one
    ("" if none); ``why``: and why it is so."""
    if not any("?" in text for text in shown):
        return ""
    key = "rating? = provisional"
    return f"{key}: its first 20 or so rated games, and it moves fast" if why else key


def rated_bots(players: int | None) -> list[tuple[str, str]]:
    """Each bot a seat may be, labelled with its rating at a table of ``players``:
    ("Bot · Expert (expert) · 1,678", "expert")."""
    return [(rated(f"Bot · {label} ({bot})", bot, players), bot) for label, bot in bot_choices()]


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
