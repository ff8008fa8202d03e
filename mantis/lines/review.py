"""A game's review in sentences: a line per seat, per costly decision, per lucky card.

The figures are the review's (``mantis.review``), the same the app's review
screen and ``mantis review`` show; only the wording is this mode's: no
columns to line up by eye, each line whole on its own, the name first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from ..engine import COLOUR_NAMES, FACE, Action, GameRecord, Score
from ..review import GameReview, review_game
from ..review.report import (
    ADJUSTED_MEANS,
    LUCK_MEANS,
    adjusted_points,
    costliest,
    luckiest,
    result_word,
)
from ..table.credit import credited_names, left_note, stand_ins_of
from .console import Console
from .wording import spoken, who


def _action(review: GameReview, action: Action) -> str:
    if isinstance(action, Score):
        return "score"
    return f"steal from {review.seats[action.target].name}"


def _points(value: float) -> str:
    """Win chance in points, signed in words: "up 4.2 points", "down 0.8 points"."""
    points = value * 100
    return f"{'up' if points >= 0 else 'down'} {abs(points):.1f} points"


def seat_line(review: GameReview, seat: int) -> str:
    """One seat's game in a sentence: its luck and adjusted result in the review's own units
    (win-% points; a win counts 100), which ``LUCK_MEANS`` and ``ADJUSTED_MEANS`` explain."""
    s = review.seats[seat]
    result = result_word(review, seat)
    if s.accuracy is None:
        play = "no real decision"
    else:
        errors = [
            f"{count} {word}{'' if count == 1 else 's'}"
            for count, word in (
                (s.blunders, "blunder"),
                (s.mistakes, "mistake"),
                (s.inaccuracies, "inaccuracy"),
            )
            if count
        ]
        play = f"accuracy {s.accuracy:.0f} percent, " + (
            ", ".join(errors) if errors else "no inaccuracy"
        )
        play = play.replace("inaccuracys", "inaccuracies")
    return (
        f"{s.name} {result}: {play}; luck {_points(s.luck)}; "
        f"adjusted result {adjusted_points(s, minus='minus ')} points."
    )


def review_lines(review: GameReview, heading: str, seats: Sequence[int]) -> list[str]:
    """The review of the game ``heading`` names ("Game 3", "Past game 12") for ``seats``:
    the headline, a line per seat and what its figures mean, then the costliest decisions
    and the luckiest cards."""
    record = review.record
    result = record.result
    assert result is not None
    played_on = stand_ins_of(record)
    credited = credited_names([seat.name for seat in review.seats], played_on)
    winners = " and ".join(credited[w] for w in result.winners)
    verb = "shared the win" if len(result.winners) > 1 else "won"
    how = "reaching the target" if result.reason == "target" else "when the pile ran out"
    seed = "" if record.seed is None else f", seed {record.seed}"
    game = heading[:1].lower() + heading[1:]
    lines = [_heard(f"Review of {game}{seed}: {winners} {verb} {how}, in {result.turns} moves.")]
    lines += [seat_line(review, s) for s in seats]
    left = left_note([seat.name for seat in review.seats], played_on)
    lines += [_heard(LUCK_MEANS), _heard(ADJUSTED_MEANS), *([left] if left else [])]
    worst = costliest(review, seats)
    if not worst:
        lines.append("Costliest decisions: none, every real decision was the best one.")
    for d in worst:
        taken, best = d.chosen_option, d.best_option
        label = f", {d.label}" if d.label else ""
        lines.append(
            f"Move {d.move + 1}, {who(review.seats[d.seat].name)}: "
            f"{_action(review, taken.action)}, {taken.win * 100:.0f} percent to win; "
            f"best {_action(review, best.action)}, {best.win * 100:.0f} percent; "
            f"{d.loss:.1f} points lost{label}."
        )
    for card in luckiest(review, seats):
        seat = max(seats, key=lambda s: abs(card.luck[s]))
        lines.append(
            f"Move {card.move + 1}, {review.seats[card.seat].name} turned "
            f"{COLOUR_NAMES[FACE[card.card]]}: {who(review.seats[seat].name)} "
            f"{_points(card.luck[seat])}."
        )
    return lines


def _heard(text: str) -> str:
    """The review's own sentences without signs or brackets ("win-% points" is read as
    "win percentage points")."""
    return spoken(text.replace("win-% ", "win percentage "))


def review_text(review: GameReview, heading: str, seats: Sequence[int]) -> str:
    """``mantis review --lines``: the review as lines of text."""
    return "\n".join(review_lines(review, heading, seats))


async def say_review(console: Console, record: GameRecord, seats: list[int] | None) -> None:
    """Review a finished game (off the event loop) and say it."""
    console.say("Reviewing the game, a moment.")
    review = await asyncio.to_thread(review_game, record)
    chosen = seats if seats is not None else list(range(record.players))
    console.say(*review_lines(review, "Game 1", chosen))
