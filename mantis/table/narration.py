"""The game log's sentences: one event plus the seat names gives one line.

Kept free of Textual so the wording can be tested on its own.  A seat named
"You" (the default for a lone human) is narrated in the second person:
"You scored 4 blue", "… went to your tank".
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import (
    Action,
    Event,
    ExtraTurn,
    GameOver,
    Scored,
    ScoreMissed,
    Steal,
    StealMissed,
    Stolen,
)
from ..engine.cards import COLOUR_NAMES
from .messages import (
    Away,
    Back,
    Fault,
    Left,
    Message,
    Opening,
    StartFailed,
    Talk,
    TimedOut,
)
from .names import YOU


def possessive(name: str, *, start: bool = False) -> str:
    """``"Ann's"``, or ``"your"`` / ``"Your"`` for the seat called You."""
    if name == YOU:
        return "Your" if start else "your"
    return f"{name}'s"


def _object(name: str) -> str:
    return "you" if name == YOU else name


def join_names(names: Sequence[str]) -> str:
    """``"Ann"``, ``"Ann and Bea"``, ``"Ann, Bea and Cal"``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def narrate(event: Event | Message, names: Sequence[str]) -> str | None:
    """The log line for an event or stream message, or ``None`` for those the log leaves out.

    ``names`` are the seat names, seat 0 first.  The opening has no seed
    (the stream never carries one): ``opening_line`` adds a table's own.
    """
    if isinstance(event, Scored):
        who = names[event.seat]
        return f"{who} scored {event.count} {COLOUR_NAMES[event.colour]} (score {event.score})"
    if isinstance(event, ScoreMissed):
        who = names[event.seat]
        colour = COLOUR_NAMES[event.colour]
        return f"{who} missed a score: {colour} went to {possessive(who)} tank"
    if isinstance(event, Stolen):
        who, victim = names[event.seat], names[event.target]
        return f"{who} stole {event.count} {COLOUR_NAMES[event.colour]} from {_object(victim)}"
    if isinstance(event, StealMissed):
        who, victim = names[event.seat], names[event.target]
        colour = COLOUR_NAMES[event.colour]
        return (
            f"{who} tried to steal from {_object(victim)} and missed: "
            f"{colour} went to {possessive(victim)} tank"
        )
    if isinstance(event, ExtraTurn):
        return f"Extra turn for {_object(names[event.seat])}"
    if isinstance(event, GameOver):
        return game_over_line(event, names)
    if isinstance(event, Opening):
        return opening_line(event.target, event.first, names)
    if isinstance(event, Fault):
        return fault_line(names[event.seat], event.reason)
    if isinstance(event, StartFailed):
        return f"{possessive(names[event.seat], start=True)} bot failed to start ({event.reason})"
    if isinstance(event, Away):
        who = names[event.seat]
        if who == YOU:
            return f"You are away: {event.bot} plays for you until you are back"
        return f"{who} is away: {event.bot} plays for {who} until {who} is back"
    if isinstance(event, Back):
        who = names[event.seat]
        return "You are back" if who == YOU else f"{who} is back"
    if isinstance(event, TimedOut):
        who = names[event.seat]
        move = _move(event.action, names)
        return f"{possessive(who, start=True)} time ran out: {event.bot} {move} for {_object(who)}"
    if isinstance(event, Left):
        who = names[event.seat]
        return f"{who} left the game: {event.bot} plays for {_object(who)} to the end"
    if isinstance(event, Talk):
        return talk_line(event, names)
    return None


def _move(action: Action, names: Sequence[str]) -> str:
    """ "scores", or "steals from Bea" (a stand-in's move, said before its outcome)."""
    if isinstance(action, Steal) and 0 <= action.target < len(names):
        return f"steals from {_object(names[action.target])}"
    return "scores"


def talk_line(talk: Talk, names: Sequence[str]) -> str:
    """A line said at the table, as the log shows it: who said it, then what, in quotes."""
    if talk.seat is None:
        who = f"{talk.name} (watching)"
    else:
        who = names[talk.seat] if 0 <= talk.seat < len(names) else talk.name
    return f"{who} {'say' if who == YOU else 'says'} “{talk.text}”"


def opening_line(target: int, first: int, names: Sequence[str], seed: int | None = None) -> str:
    """The log's first line: the table, the target and who starts (and the seed, if known)."""
    shown = "" if seed is None else f" (seed {seed})"
    return (
        f"New game{shown}: {len(names)} players, first to {target} scored cards wins. "
        f"{names[first]} start{'' if names[first] == YOU else 's'}."
    )


def fault_line(name: str, fault: str) -> str:
    """The log line for a bot whose decision was replaced by a score."""
    return f"{possessive(name, start=True)} bot {fault}; {name} scores instead"


def game_over_line(event: GameOver, names: Sequence[str]) -> str:
    """One line on who won and why."""
    winners = [names[s] for s in event.winners]
    if event.reason == "target":
        who = winners[0]
        return f"Game over: {who} reached the target with {event.scores[event.winners[0]]} cards"
    if len(winners) == 1:
        return f"Game over: the draw pile ran out and {winners[0]} has the most scored cards"
    return f"Game over: the draw pile ran out and {join_names(winners)} share the win"


def reason_text(event: GameOver, names: Sequence[str]) -> str:
    """Why the game ended, with the deck-out tiebreak spelled out."""
    if event.reason == "target":
        seat = event.winners[0]
        return f"{names[seat]} reached the target: {event.scores[seat]} scored cards."
    best = max(event.scores)
    leaders = [s for s, score in enumerate(event.scores) if score == best]
    text = f"The draw pile ran out. The most scored cards: {best}"
    if len(leaders) == 1:
        return f"{text}, by {names[leaders[0]]}."
    tied = join_names([names[s] for s in leaders])
    text += f", a tie between {tied}. Tiebreak: the larger tank"
    if len(event.winners) == 1:
        seat = event.winners[0]
        return f"{text}, and {names[seat]} has {event.tank_sizes[seat]} cards there."
    size = event.tank_sizes[event.winners[0]]
    return f"{text}, still tied at {size} cards, so the win is shared."
