"""A finished game reviewed: every decision's worth, each card's luck, the chances over the game.

``review_game(record)`` replays a record once and, before every move, values
every legal option of the seat to move from that seat's own ``View``
(``chances.option_values``): what it could know then, never the face that
came up next.  The record's cards serve only for what happened afterwards:
which face came up (luck) and the position that followed (the chart).

Three numbers move a seat's chance over the game, and the review separates
them:

* **the chart** — every seat's chance after every move (``chart[k]``: after
  ``k`` moves, ``chart[0]`` the deal), valued before the next card's back is
  seen, exact at the end (1 for each winner, else 0);
* **luck** — for every card turned, each seat's chance after its face minus
  the expectation over the faces it could have had (given the option chosen):
  it averages to zero whatever anyone plays;
* **the move** — from one chart point to the expectation after the next
  option chosen: the next back coming into sight and the choice made on it.
  The mover's share of it that was a choice is the decision's ``loss``.

So for every seat ``chart[k + 1] = chart[k] + step[k] + luck[k]``, and a seat's
total luck is its result minus everything else: the luck-adjusted result
(``result - luck``, as GNU Backgammon adjusts a result, with each seat's
share of the others' luck exact rather than split evenly) says what the
seat's play earned had the faces been average.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import FACE, Action, Game, GameRecord, View
from .chances import (
    Chances,
    Networks,
    OptionValue,
    default_networks,
    option_values,
    position_chances,
)
from .judgement import NO_REAL_CHOICE, Label, accuracy_for, label_for

TIE = 1e-12
"""Options closer than this are equal; the first of them is the best (the expert's rule)."""


class UnfinishedGameError(ValueError):
    """Only a finished game can be reviewed."""


@dataclass(frozen=True, slots=True)
class Option:
    """A legal option at a decision and what it was worth."""

    action: Action
    win: float
    """The mover's chance of winning with it, 0..1 (expectation over the faces)."""
    chances: Chances
    """Every seat's chance with it."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One move: the options the mover had, the one it took, and what that cost."""

    move: int
    """Moves played before it: the replay's position for this decision."""
    seat: int
    options: tuple[Option, ...]
    """In ``legal_actions`` order: score first, then the steals by seat."""
    chosen: int
    """Index in ``options`` of the option taken."""
    best: int
    """Index in ``options`` of the best option (the first of equals)."""
    loss: float
    """Win-% points given up: the best option's ``win`` minus the chosen one's, x100."""
    real: bool
    """False when every option was within ``NO_REAL_CHOICE`` points of the best."""
    label: Label | None
    accuracy: float
    """lichess's per-move accuracy for ``loss``, 0..100."""

    @property
    def chosen_option(self) -> Option:
        return self.options[self.chosen]

    @property
    def best_option(self) -> Option:
        return self.options[self.best]


@dataclass(frozen=True, slots=True)
class TurnedCard:
    """The card a move turned over, and how much its face changed every seat's chance."""

    move: int
    seat: int
    """Who turned it (the mover)."""
    card: int
    faces: tuple[tuple[int, float], ...]
    """The faces it could have had, with their probabilities, as the mover saw it."""
    luck: Chances
    """Per seat: chance after this face minus the expectation over the faces (-1..1)."""


@dataclass(frozen=True, slots=True)
class SeatReview:
    """One seat's game in figures."""

    seat: int
    name: str
    decisions: int
    real_decisions: int
    avg_loss: float | None
    """Win-% points lost per real decision; ``None`` with no real decision."""
    accuracy: float | None
    """Mean per-move accuracy over real decisions, 0..100; ``None`` with none."""
    inaccuracies: int
    mistakes: int
    blunders: int
    result: float
    """1.0 for a win (a shared one too), 0.0 for a loss."""
    luck: float
    """What the faces did to this seat's chance, over every card (in wins, -1..1)."""
    own_luck: float
    """The part of ``luck`` from the cards this seat turned itself."""

    @property
    def others_luck(self) -> float:
        """The part of ``luck`` from the cards the others turned (its share of their luck)."""
        return self.luck - self.own_luck

    @property
    def luck_adjusted(self) -> float:
        """The result with the luck taken out: result - own luck + share of the others'."""
        return self.result - self.luck

    @property
    def labels(self) -> dict[Label, int]:
        """How many real decisions earned each label, mildest first."""
        return {"inaccuracy": self.inaccuracies, "mistake": self.mistakes, "blunder": self.blunders}


@dataclass(frozen=True, slots=True)
class GameReview:
    """A whole game reviewed: per seat, per decision, per card, and the chart."""

    record: GameRecord
    seats: tuple[SeatReview, ...]
    decisions: tuple[Decision, ...]
    """One per move, in order (``decisions[k].move == k``)."""
    cards: tuple[TurnedCard, ...]
    """One per move, in order: the card that move turned."""
    chart: tuple[Chances, ...]
    """Every seat's chance after every move: ``chart[k]`` after ``k`` moves, ``chart[0]``
    the deal, the last the result."""

    def decisions_of(self, seat: int) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.seat == seat)

    def position(self, move: int, seat: int | None = None) -> View:
        """The position before move ``move`` as ``seat`` (default: the mover) saw it.

        The replay shows the same position at its step ``move``.
        """
        if not 0 <= move <= len(self.decisions):
            raise IndexError(f"there is no move {move} in a game of {len(self.decisions)}")
        game = self.record.replay(move)
        return game.view(seat)


def _best(options: tuple[OptionValue, ...], me: int) -> int:
    best = 0
    for i in range(1, len(options)):
        if options[i].chances[me] > options[best].chances[me] + TIE:
            best = i
    return best


def _decision(move: int, seat: int, values: tuple[OptionValue, ...], action: Action) -> Decision:
    options = tuple(Option(v.action, v.chances[seat], v.chances) for v in values)
    chosen = next(i for i, o in enumerate(options) if o.action == action)
    best = _best(values, seat)
    loss = max(0.0, options[best].win - options[chosen].win) * 100
    spread = (options[best].win - min(o.win for o in options)) * 100
    real = spread > NO_REAL_CHOICE
    return Decision(
        move=move,
        seat=seat,
        options=options,
        chosen=chosen,
        best=best,
        loss=loss,
        real=real,
        label=label_for(loss) if real else None,
        accuracy=accuracy_for(loss),
    )


def review_game(record: GameRecord, networks: Networks | None = None) -> GameReview:
    """Review a finished game; ``UnfinishedGameError`` if it has no result yet."""
    result = record.result
    if result is None:
        raise UnfinishedGameError("the game is not finished: there is nothing to review yet")
    nets = networks if networks is not None else default_networks()
    n = record.players
    game = Game(record.tanks, record.pile, record.first, seed=record.seed)
    chart: list[Chances] = [position_chances(game.view(), nets)]
    decisions: list[Decision] = []
    cards: list[TurnedCard] = []
    for move, (seat, action) in enumerate(record.actions):
        view = game.view(seat)
        values = option_values(view, nets)
        decision = _decision(move, seat, values, action)
        taken = values[decision.chosen]
        card = record.pile[move]
        after = taken.outcome(FACE[card]).chances
        luck = tuple(a - e for a, e in zip(after, taken.chances, strict=True))
        faces = tuple((f.colour, f.probability) for f in taken.faces)
        decisions.append(decision)
        cards.append(TurnedCard(move, seat, card, faces, luck))
        chart.append(after)
        game.play(action, seat)
    seats = tuple(
        _seat_review(s, record, decisions, cards, 1.0 if s in result.winners else 0.0)
        for s in range(n)
    )
    return GameReview(record, seats, tuple(decisions), tuple(cards), tuple(chart))


def _seat_review(
    seat: int,
    record: GameRecord,
    decisions: list[Decision],
    cards: list[TurnedCard],
    result: float,
) -> SeatReview:
    mine = [d for d in decisions if d.seat == seat]
    real = [d for d in mine if d.real]
    labels = [d.label for d in real]
    name = record.seats[seat].name if record.seats is not None else f"Seat {seat + 1}"
    return SeatReview(
        seat=seat,
        name=name,
        decisions=len(mine),
        real_decisions=len(real),
        avg_loss=sum(d.loss for d in real) / len(real) if real else None,
        accuracy=sum(d.accuracy for d in real) / len(real) if real else None,
        inaccuracies=labels.count("inaccuracy"),
        mistakes=labels.count("mistake"),
        blunders=labels.count("blunder"),
        result=result,
        luck=sum(c.luck[seat] for c in cards),
        own_luck=sum(c.luck[seat] for c in cards if c.seat == seat),
    )


__all__ = [
    "Decision",
    "GameReview",
    "Option",
    "SeatReview",
    "TurnedCard",
    "UnfinishedGameError",
    "review_game",
]
