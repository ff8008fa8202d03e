"""The table as text: what the ``ansi`` and ``human`` render modes show.

Each colour is its letter and its glyph, as in the app (``R ●``, ``G ▲``...),
from the engine's own colour definitions; ``colour=True`` also paints them in
the app's hues (24-bit terminal colours), as ``human`` does on a terminal
unless ``NO_COLOR`` is set.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from ..engine import (
    BACKS,
    COLOUR_LETTERS,
    Event,
    ExtraTurn,
    Scored,
    ScoreMissed,
    StealMissed,
    Stolen,
    View,
)
from ..engine.cards import COLOUR_GLYPHS, COLOUR_HUES


def _paint(text: str, colour: int, painted: bool) -> str:
    if not painted:
        return text
    hue = COLOUR_HUES[colour]
    red, green, blue = (int(hue[i : i + 2], 16) for i in (1, 3, 5))
    return f"\x1b[1;38;2;{red};{green};{blue}m{text}\x1b[0m"


def chip(colour: int, *, painted: bool = False) -> str:
    """A colour as its letter and glyph: ``"R ●"``."""
    return _paint(f"{COLOUR_LETTERS[colour]} {COLOUR_GLYPHS[colour]}", colour, painted)


def _tank(counts: Sequence[int], painted: bool) -> str:
    held = [
        _paint(f"{COLOUR_LETTERS[c]} {COLOUR_GLYPHS[c] * k}", c, painted)
        for c, k in enumerate(counts)
        if k
    ]
    return "  ".join(held) if held else "(empty)"


def table_text(
    view: View,
    names: Sequence[str] | None = None,
    *,
    painted: bool = False,
    last: str | None = None,
) -> str:
    """The table of ``view``'s position: the pile, every seat, and who won once it is over.

    ``names`` label the seats (default ``seat 0``...); ``last`` is a line
    about the move just played.
    """
    n = view.players
    labels = list(names) if names is not None else [f"seat {s}" for s in range(n)]
    width = max(map(len, labels))
    lines = [
        f"Mantis, {n} players, target {view.target}: "
        f"turn {view.turn + 1}, {view.pile_size} cards in the pile"
    ]
    if view.top_back is not None:
        back = "  ".join(chip(c, painted=painted) for c in BACKS[view.top_back])
        faces = "  ".join(chip(c, painted=painted) for c, w in view.face_weights() if w)
        lines.append(f"Top card: back {back}; its face can be {faces}")
    for s in range(n):
        mark = ">" if s == view.to_move and not view.over else " "
        counts = view.tank_counts(s)
        lines.append(
            f"{mark} {labels[s]:<{width}}  score {view.scores[s]:2d}  "
            f"tank {sum(counts):2d}: {_tank(counts, painted)}"
        )
    if last is not None:
        lines.append(last)
    if view.winners is not None:
        who = " and ".join(labels[s] for s in view.winners)
        verb = "wins" if len(view.winners) == 1 else "share the win"
        why = "the target reached" if view.reason == "target" else "the pile ran out"
        lines.append(f"Game over ({why}): {who} {verb}")
    return "\n".join(lines)


def show(text: str) -> None:
    """Print ``text`` for the ``human`` mode."""
    print(text, end="\n\n", file=sys.stdout, flush=True)


def paints() -> bool:
    """Whether ``human`` paints colours: on a terminal, unless ``NO_COLOR`` is set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def move_text(events: Sequence[Event], labels: Sequence[str], *, painted: bool = False) -> str:
    """What a move did, in one line, from the events the engine gave for it."""
    parts: list[str] = []
    for event in events:
        if isinstance(event, Scored):
            parts.append(
                f"{labels[event.seat]} scored {event.count} {chip(event.colour, painted=painted)}"
            )
        elif isinstance(event, ScoreMissed):
            parts.append(
                f"{labels[event.seat]} tried to score: "
                f"{chip(event.colour, painted=painted)} went to their tank"
            )
        elif isinstance(event, Stolen):
            parts.append(
                f"{labels[event.seat]} stole {event.count} "
                f"{chip(event.colour, painted=painted)} from {labels[event.target]}"
            )
        elif isinstance(event, StealMissed):
            parts.append(
                f"{labels[event.seat]} tried to steal from {labels[event.target]}: "
                f"{chip(event.colour, painted=painted)} stayed with them"
            )
        elif isinstance(event, ExtraTurn):
            parts.append("and plays again")
    return "Last move: " + ", ".join(parts)
