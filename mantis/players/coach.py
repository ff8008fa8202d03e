"""The coach: which action the strongest bot would take now, and why, in a few words.

The advice is the ``expert`` bot's own choice (``greedy`` if there is no
expert), so it is exactly what the strongest opponent would do in your seat.
The reason is built separately from the exact public odds (``odds.py``):
the chance the chosen action matches, the cards at stake and who leads, so
it never claims more than the numbers say.  A decision takes well under a
millisecond, so callers may ask on every turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..engine import COLOUR_NAMES, Action, Score, Steal, View
from .odds import Odds, odds_for
from .protocol import Player
from .registry import BOTS, make_bot

PREFERRED_BOTS = ("expert", "greedy")
"""The coach's bot, strongest first: the first one that exists is asked."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The action the coach recommends for the seat to move, and a short reason."""

    action: Action
    reason: str
    bot: str
    """Which bot gave the advice (its CLI name)."""


_coach_bot: tuple[str, Player] | None = None


def coach_bot() -> tuple[str, Player]:
    """The bot the coach asks (made once): its name and the bot."""
    global _coach_bot
    if _coach_bot is None:
        name = next((n for n in PREFERRED_BOTS if n in BOTS), "score")
        _coach_bot = (name, make_bot(name))
    return _coach_bot


def percent(p: Fraction | float) -> str:
    """``"67%"``; never rounds a possible event to 0% or an uncertain one to 100%."""
    value = float(p) * 100
    if 0 < value < 1:
        return "<1%"
    if 99 < value < 100:
        return ">99%"
    return f"{round(value)}%"


def advise(
    view: View,
    names: Sequence[str] | None = None,
    *,
    chance: Callable[[Fraction], str] = percent,
) -> Advice | None:
    """What the coach's bot would play for the seat to move, with its reason.

    ``names`` are the seat names (default "seat 1", "seat 2"…); ``chance`` words a
    chance (default "67%"; the line mode says "2 in 3", as its questions do).  ``None``
    once the game is over (or while no top card is up).
    """
    odds = odds_for(view)
    if odds is None:
        return None
    bot_name, bot = coach_bot()
    asked = view if view.seat == view.to_move else view.for_seat(view.to_move)
    action = bot.choose(asked)
    seat_names = (
        list(names) if names is not None else [f"seat {s + 1}" for s in range(view.players)]
    )
    return Advice(action, reason_for(view, odds, action, seat_names, chance=chance), bot_name)


def reason_for(
    view: View,
    odds: Odds,
    action: Action,
    names: Sequence[str],
    *,
    chance: Callable[[Fraction], str] = percent,
) -> str:
    """A short, honest reason for ``action`` from the exact odds."""
    faces = [colour for colour, _ in odds.faces]
    if isinstance(action, Steal):
        target = action.target
        steal_odds = next(s for s in odds.steals if s.target == target)
        counts = view.tank_counts(target)
        held = [c for c in faces if counts[c]]
        who = names[target]
        if not held:
            text = f"steal from {who}: a miss costs you nothing"
        else:
            stack = max(counts[c] for c in held)
            if len(held) == len(faces):
                share = f"every possible face is in {who}'s tank"
            else:
                share = f"{len(held)} of {len(faces)} possible faces in {who}'s tank"
            text = (
                f"steal from {who}: {share} ({chance(steal_odds.p_match)}), up to {stack + 1} cards"
            )
        return text + _leader_note(view, target, names)
    assert isinstance(action, Score)
    mover = view.to_move
    counts = view.tank_counts(mover)
    held = [c for c in faces if counts[c]]
    need = view.target - view.scores[mover]
    if not held:
        best = max(odds.steals, key=lambda s: s.p_match, default=None)
        if best is not None and best.p_match:
            return (
                f"score: no match for you, but stealing from {names[best.target]} "
                f"({chance(best.p_match)}) would hand over a card if it missed"
            )
        return "score: nothing can match anywhere, so keep the card in your own tank"
    colours = "/".join(COLOUR_NAMES[c] for c in held)
    text = (
        f"score: {chance(odds.p_score)} to match your {colours}, "
        f"~{float(odds.expected_score_cards):.1f} cards banked on average"
    )
    if any(counts[c] + 1 >= need for c in held):
        text += f"; it can win now ({need} to go)"
    return text


def _leader_note(view: View, target: int, names: Sequence[str]) -> str:
    """ "; Cal leads with 8/10" when the target is the sole leader with a score."""
    scores = view.scores
    best = max(scores)
    if best and scores[target] == best and scores.count(best) == 1:
        return f"; {names[target]} leads with {best}/{view.target}"
    return ""


__all__ = ["Advice", "advise", "coach_bot", "percent", "reason_for"]
