"""A ``GameReview`` as ``mantis review`` prints it: one JSON object, or text for a person.

The JSON object (one per game and line) holds ``game`` (the record's seed),
``number`` (the game's place in the file, from 1), ``players``, ``seats``
(per seat: ``seat``, ``name``, ``result``, ``accuracy``, ``avg_loss``,
``labels``, ``decisions``, ``real_decisions``, ``luck``, ``own_luck``,
``luck_adjusted``), ``decisions`` (each: ``move``, ``seat``, ``options`` as
``{"action": "score" | "steal:T", "win": 0..1}``, ``chosen``, ``best``,
``loss``, ``real``, ``label``), ``cards`` (each: ``move``, ``seat``,
``card``, ``luck`` per seat) and ``chart`` (after every move, every seat's
chance, 0..1; the first entry is the deal).  Seats and moves count from 0,
as in the record; chances, luck and results are in wins (0..1), losses in
win-% points, accuracy in percent.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import Any

from ..engine import COLOUR_NAMES, FACE, Action, Score, card_code
from ..table.credit import credited_names, left_note, stand_ins_of
from ..table.narration import join_names, possessive
from .game_review import Decision, GameReview, SeatReview, TurnedCard

KEY_MOMENTS = 5
"""How many of the biggest losses, and of the luckiest cards, the text lists."""
TEXT_WIDTH = 88
"""Where the text report's sentences wrap."""

LUCK_MEANS = (
    "Luck: what the faces turned over did to the chance of winning, in win-% points over "
    "the game (100 make a whole win, 0 is average)."
)
"""What a seat's luck means, in one sentence: the review's own words, on screen and in text."""
ADJUSTED_MEANS = "Adjusted: the result (won 100, lost 0) minus the luck."
"""What the luck-adjusted result is, in one sentence."""


def signed_points(chance: float, *, minus: str = "-") -> str:
    """A change of chance (in wins) as signed win-% points: "+12.3", "-4.0" (``minus``: the
    sign a screen draws, "−")."""
    return f"{chance * 100:+.1f}".replace("-", minus)


def adjusted_points(seat: SeatReview, *, minus: str = "-") -> str:
    """The luck-adjusted result in win-% points (a win is 100): "86.3", "-9.9"."""
    return f"{seat.luck_adjusted * 100:.1f}".replace("-", minus)


def result_word(review: GameReview, seat: int) -> str:
    """ "won" or "lost" for the seat; "left" where its person left (a loss whatever the seat
    did after: ``GameRecord.lost_by``)."""
    if seat in review.record.left:
        return "left"
    return "won" if review.seats[seat].result else "lost"


def verdict(review: GameReview, seat: int, name: str) -> str:
    """One line for a seat: what its choices cost and what the cards did to its chance."""
    summary = review.seats[seat]
    lost = sum(d.loss for d in review.decisions_of(seat) if d.real)
    counts = [
        f"{n} {label if n == 1 else plural}"
        for n, label, plural in (
            (summary.inaccuracies, "inaccuracy", "inaccuracies"),
            (summary.mistakes, "mistake", "mistakes"),
            (summary.blunders, "blunder", "blunders"),
        )
        if n
    ]
    luck = summary.luck * 100
    whose = possessive(name)
    if abs(luck) < 0.05:
        cards = "the faces turned over were average for it"
    elif luck > 0:
        cards = f"the faces turned over added {luck:.1f} points to {whose} chance over the game"
    else:
        cards = f"the faces turned over took {-luck:.1f} points from {whose} chance over the game"
    if seat in review.record.left:
        result = "left the game (a loss)"
    else:
        result = "won" if summary.result else "lost"
    return (
        f"{name} {result}. {possessive(name, start=True)} choices gave up {lost:.1f} points "
        f"of winning chance ({join_names(counts) if counts else 'no inaccuracy'}); {cards}."
    )


def action_name(action: Action) -> str:
    """``"score"`` or ``"steal:T"`` (T the seat stolen from, from 0)."""
    return "score" if isinstance(action, Score) else f"steal:{action.target}"


def _chance(value: float) -> float:
    return round(value, 4)


def _points(value: float) -> float:
    return round(value, 2)


def seat_json(seat: SeatReview) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "name": seat.name,
        "result": seat.result,
        "accuracy": None if seat.accuracy is None else round(seat.accuracy, 1),
        "avg_loss": None if seat.avg_loss is None else _points(seat.avg_loss),
        "labels": seat.labels,
        "decisions": seat.decisions,
        "real_decisions": seat.real_decisions,
        "luck": _chance(seat.luck),
        "own_luck": _chance(seat.own_luck),
        "luck_adjusted": _chance(seat.luck_adjusted),
    }


def decision_json(decision: Decision) -> dict[str, Any]:
    return {
        "move": decision.move,
        "seat": decision.seat,
        "options": [
            {"action": action_name(o.action), "win": _chance(o.win)} for o in decision.options
        ],
        "chosen": action_name(decision.chosen_option.action),
        "best": action_name(decision.best_option.action),
        "loss": _points(decision.loss),
        "real": decision.real,
        "label": decision.label,
    }


def card_json(card: TurnedCard) -> dict[str, Any]:
    return {
        "move": card.move,
        "seat": card.seat,
        "card": card_code(card.card),
        "luck": [_chance(x) for x in card.luck],
    }


def review_json(review: GameReview, number: int, seats: Sequence[int]) -> dict[str, Any]:
    """The review of game ``number`` of a file, for ``seats`` (their summaries and decisions)."""
    chosen = set(seats)
    return {
        "game": review.record.seed,
        "number": number,
        "players": review.record.players,
        "seats": [seat_json(review.seats[s]) for s in seats],
        "decisions": [decision_json(d) for d in review.decisions if d.seat in chosen],
        "cards": [card_json(c) for c in review.cards],
        "chart": [[_chance(x) for x in point] for point in review.chart],
    }


# ---------------------------------------------------------------------- text


def _seat_label(review: GameReview, seat: int) -> str:
    info = review.record.seats[seat] if review.record.seats is not None else None
    name = review.seats[seat].name
    what = (info.bot or info.kind) if info is not None else None
    if not what or what.casefold() in name.casefold():  # "greedy 2" needs no "(greedy)"
        return f"{seat + 1} {name}"
    return f"{seat + 1} {name} ({what})"


def _describe_action(review: GameReview, action: Action) -> str:
    if isinstance(action, Score):
        return "score"
    return f"steal from {review.seats[action.target].name}"


def _headline(review: GameReview, heading: str) -> str:
    record = review.record
    result = record.result
    assert result is not None
    credited = credited_names([s.name for s in review.seats], stand_ins_of(record))
    names = " and ".join(credited[w] for w in result.winners)
    verb = "shared the win" if len(result.winners) > 1 else "won"
    how = "target reached" if result.reason == "target" else "the pile ran out"
    seed = "" if record.seed is None else f" (seed {record.seed})"
    return (
        f"{heading}{seed}: {record.players} players, {names} {verb} ({how}, {result.turns} moves)"
    )


def _summary(review: GameReview, seats: Sequence[int]) -> list[str]:
    labels = [_seat_label(review, s) for s in seats]
    width = max(len("seat"), *(len(label) for label in labels))
    lines = [
        f"{'seat':<{width}}  result  accuracy  avg loss  inacc.  mistakes  blunders"
        "    luck  adjusted"
    ]
    for s, label in zip(seats, labels, strict=True):
        seat = review.seats[s]
        accuracy = "-" if seat.accuracy is None else f"{seat.accuracy:.1f}%"
        loss = "-" if seat.avg_loss is None else f"{seat.avg_loss:.2f}"
        lines.append(
            f"{label:<{width}}  {result_word(review, s):<6}  {accuracy:>8}  {loss:>8}"
            f"  {seat.inaccuracies:>6}  {seat.mistakes:>8}  {seat.blunders:>8}"
            f"  {signed_points(seat.luck):>6}  {adjusted_points(seat):>8}"
        )
    left = left_note([seat.name for seat in review.seats], stand_ins_of(review.record))
    for note in (LUCK_MEANS, ADJUSTED_MEANS, left):
        lines += textwrap.wrap(note, TEXT_WIDTH)
    return lines


#: The least loss, in points, that makes a decision one of the costliest.
COSTLY = 0.05
#: The least swing of a chance, in win share, that makes a card one of the luckiest.
LUCKY = 0.005


def costliest(review: GameReview, seats: Sequence[int]) -> list[Decision]:
    """The costliest real decisions of ``seats`` (a loss of ``COSTLY`` points or more), at
    most ``KEY_MOMENTS`` of them, the costliest kept, in the order they were made: the
    review's one rule, whichever front end lists them."""
    chosen = set(seats)
    worst = sorted(
        (d for d in review.decisions if d.seat in chosen and d.real and d.loss >= COSTLY),
        key=lambda d: -d.loss,
    )[:KEY_MOMENTS]
    return sorted(worst, key=lambda d: d.move)


def luckiest(review: GameReview, seats: Sequence[int]) -> list[TurnedCard]:
    """The cards that moved ``seats``' chances most (by ``LUCKY`` or more), at most
    ``KEY_MOMENTS`` of them, in the order they were turned."""

    def swing(card: TurnedCard) -> float:
        return max(abs(card.luck[s]) for s in seats)

    lucky = sorted((c for c in review.cards if swing(c) >= LUCKY), key=lambda c: -swing(c))
    return sorted(lucky[:KEY_MOMENTS], key=lambda c: c.move)


def _losses(review: GameReview, seats: Sequence[int]) -> list[str]:
    worst = costliest(review, seats)
    if not worst:
        return ["Biggest losses: none (every real decision was the best one)"]
    lines = ["Biggest losses (each option's chance of winning; the loss in points):"]
    for d in worst:
        taken, best = d.chosen_option, d.best_option
        lines.append(
            f"  move {d.move + 1:>3}  {review.seats[d.seat].name}: "
            f"{_describe_action(review, taken.action)} {taken.win:.1%}, "
            f"best {_describe_action(review, best.action)} {best.win:.1%}: "
            f"-{_tenths_down(d.loss):.1f}" + (f" {d.label}" if d.label else "")
        )
    return lines


def _tenths_down(points: float) -> float:
    """Cut to tenths, never rounded up: a 2.97-point loss (no label) never shows as 3.0."""
    return math.floor(points * 10) / 10


def _odds(card: TurnedCard) -> str:
    p = next(p for colour, p in card.faces if colour == FACE[card.card])
    if p >= 1:
        return "certain"
    return f"1 in {round(1 / p)}"


def _cards(review: GameReview, seats: Sequence[int]) -> list[str]:
    lucky = luckiest(review, seats)
    if not lucky:
        return ["Luckiest cards: none moved anyone's chance by half a point"]
    lines = ["Luckiest cards (what the face did to each chance, in points):"]
    for card in lucky:
        effects = sorted(
            (s for s in seats if abs(card.luck[s]) >= LUCKY), key=lambda s: -abs(card.luck[s])
        )[:3]
        what = ", ".join(f"{review.seats[s].name} {signed_points(card.luck[s])}" for s in effects)
        lines.append(
            f"  move {card.move + 1:>3}  {review.seats[card.seat].name} turned "
            f"{COLOUR_NAMES[FACE[card.card]]} ({_odds(card)}): {what}"
        )
    return lines


def format_review(review: GameReview, heading: str, seats: Sequence[int]) -> str:
    """The text report: the headline (``heading`` names the game: "Game 3", "Past game 12"),
    the summary per seat and a line on each one's game, then the key moments."""
    lines = [_headline(review, heading), ""]
    lines += _summary(review, seats)
    lines.append("")
    for s in seats:
        lines += textwrap.wrap(verdict(review, s, review.seats[s].name), TEXT_WIDTH)
    lines.append("")
    lines += _losses(review, seats)
    lines.append("")
    lines += _cards(review, seats)
    return "\n".join(lines)


__all__ = [
    "ADJUSTED_MEANS",
    "LUCK_MEANS",
    "action_name",
    "adjusted_points",
    "format_review",
    "result_word",
    "review_json",
    "signed_points",
    "verdict",
]
