"""Retrying one's mistakes: each labelled decision again, as a position to find the better move.

A ``Drill`` holds a seat's inaccuracies and worse (``mistakes_of``), in the
order they were played, and goes through them in rounds: the first round
holds them all, each later one those not solved yet.  A position is solved
when the first answer given to it in a round is within ``ACCEPTED_WITHIN``
points of the best option (``judge``); further answers in that round, and
answers after the solution was shown, teach but do not count.  No Textual
here: the app's retry screen shows a drill's positions and answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..engine import Action
from .game_review import Decision, GameReview

ACCEPTED_WITHIN: Final = 2.0
"""Win-% points: an answer this close to the best option's chance is accepted."""


def mistakes_of(review: GameReview, seat: int) -> tuple[Decision, ...]:
    """``seat``'s decisions labelled an inaccuracy or worse, in the order played."""
    return tuple(d for d in review.decisions_of(seat) if d.label is not None)


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer given to a decision's position, and how it compares with the best."""

    decision: Decision
    option: int
    """Index of the answer in ``decision.options``."""

    @property
    def loss(self) -> float:
        """Win-% points the answer gives up to the best option (0 for the best)."""
        options = self.decision.options
        return max(0.0, options[self.decision.best].win - options[self.option].win) * 100

    @property
    def accepted(self) -> bool:
        """Within ``ACCEPTED_WITHIN`` points of the best."""
        return self.loss <= ACCEPTED_WITHIN


def judge(decision: Decision, action: Action) -> Answer:
    """The answer ``action`` at ``decision``'s position; ``ValueError`` if it was not legal."""
    for i, option in enumerate(decision.options):
        if option.action == action:
            return Answer(decision, i)
    raise ValueError(f"{action} was not an option at move {decision.move + 1}")


class Drill:
    """A seat's mistakes to retry, in rounds, with a count of those solved."""

    def __init__(self, positions: Sequence[Decision]) -> None:
        self.positions = tuple(positions)
        """Every position of the drill, in the order played."""
        self.solved: set[int] = set()
        """The moves of the positions solved so far."""
        self.round: tuple[Decision, ...] = self.positions
        """The positions of the round under way."""
        self.index = 0
        """The round's position being tried (``len(round)`` once the round is over)."""
        self._counted = False

    @property
    def total(self) -> int:
        return len(self.positions)

    @property
    def current(self) -> Decision | None:
        """The position being tried; ``None`` once the round is over."""
        return self.round[self.index] if self.index < len(self.round) else None

    @property
    def over(self) -> bool:
        """The round is over."""
        return self.index >= len(self.round)

    @property
    def left(self) -> tuple[Decision, ...]:
        """The positions not solved yet."""
        return tuple(d for d in self.positions if d.move not in self.solved)

    def answer(self, action: Action) -> Answer:
        """Judge ``action`` at the current position; the round's first answer counts."""
        decision = self.current
        if decision is None:
            raise ValueError("the round is over: there is no position to answer")
        answer = judge(decision, action)
        if not self._counted:
            self._counted = True
            if answer.accepted:
                self.solved.add(decision.move)
        return answer

    def give_up(self) -> None:
        """The solution is shown before an answer: the position counts as not solved."""
        self._counted = True

    def advance(self) -> Decision | None:
        """On to the round's next position (``None``: the round is over)."""
        if not self.over:
            self.index += 1
            self._counted = False
        return self.current

    def new_round(self) -> Decision | None:
        """A round of the positions not solved yet (all of them again once all are solved)."""
        self.round = self.left or self.positions
        if not self.left:
            self.solved.clear()
        self.index = 0
        self._counted = False
        return self.current


__all__ = ["ACCEPTED_WITHIN", "Answer", "Drill", "judge", "mistakes_of"]
