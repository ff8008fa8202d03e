"""Game reviews in the app: the review screen, a decision opened on the board, retried mistakes.

A review opens over whatever is up (the game-over screen's table, the past
games) for the seat of the person who played, when there is one.  The
review screen asks for a decision on the board (``ReviewScreen.Jump``: the
replay at that move, with each option's chance) and for a drill of mistakes
(``ReviewScreen.Retry``): each position in turn on a retry board, the next
one replacing it when asked (``RetryScreen.Next``), then back to the review.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import plain

# The review (the expert's networks, the chart's plotext) loads when a review opens.
if TYPE_CHECKING:
    from ..base.clock import Clock
    from ..engine import GameRecord
    from .preferences import Preferences
    from .screens.retry import RetryScreen
    from .screens.review import ReviewScreen
    from .shell import Shell


def person_of(record: GameRecord, name: str | None = None) -> int | None:
    """The seat of the person a review is for: the human seat called ``name`` (any case),
    else the first human seat; ``None`` if only bots played."""
    humans = [s for s, seat in enumerate(record.seats or ()) if seat.kind == "human"]
    if name:
        for seat in humans:
            assert record.seats is not None
            if record.seats[seat].name.casefold() == name.casefold():
                return seat
    return humans[0] if humans else None


class Reviews:
    """The app's reviews: what the review and retry screens ask for."""

    def __init__(self, shell: Shell, prefs: Preferences, clock: Clock) -> None:
        self.shell = shell
        self.prefs = prefs
        self.clock = clock

    def open(self, record: GameRecord, *, title: str = "", person: int | None = None) -> None:
        """Review the finished ``record`` over whatever is up, for ``person``'s seat."""
        from .screens.review import ReviewScreen

        self.shell.push_screen(ReviewScreen(record, title=title, person=person))

    def jump(self, message: ReviewScreen.Jump) -> None:
        """Show the board at the decision asked for, with each option's chance."""
        review = message.review
        self.shell.open_replay(
            review.record, title=message.title, review=review, at=message.move, focus=message.seats
        )

    def retry(self, message: ReviewScreen.Retry) -> None:
        """Start (or go on with) retrying the mistakes: the drill's position on a board."""
        drill = message.drill
        if drill.over:
            drill.new_round()
        self.shell.push_screen(self._board(message))

    def next(self, message: RetryScreen.Next) -> None:
        """The drill's next position in place of the last; back to the review after the round."""
        drill = message.drill
        if drill.advance() is not None:
            self.shell.switch_screen(self._board(message))
            return
        self.shell.pop_screen()
        solved, total = len(drill.solved), drill.total
        if solved == total:
            text = f"All {total} solved: well played. r starts again from the first."
        else:
            left = total - solved
            text = f"Solved {solved} of {total}: r tries the {left} left again."
        plain.notify(self.shell, text, timeout=8)

    def _board(self, message: ReviewScreen.Retry | RetryScreen.Next) -> RetryScreen:
        from .screens.retry import RetryScreen

        return RetryScreen(message.review, message.drill, self.prefs, clock=self.clock)
