"""The chances chart of a review: every seat's chance of winning over the game, as series.

``chances_chart(review, marked)`` says what to draw (``follow.charts``): one
line per seat, from the deal (x = 0) to the end (x = the number of moves),
each in its seat's colour and drawn with its seat's number, so the lines
read apart with ``NO_COLOR`` too; and a vertical mark after every labelled
decision of the ``marked`` seats.  A decision at ``move`` k (k moves before
it) leads to the chart's point k + 1, which is where it is marked, and is
called "move k + 1" wherever a person reads it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from ..review.game_review import Decision, GameReview
from .charts import Figure, Series

SEAT_COLOURS: Final = ("#4ea1ff", "#ff8c42", "#5fd068", "#e05ad2", "#f2d13d", "#4fd6d6")
"""Each seat's colour on the chart (seat 1 first): six hues apart from one another."""


def seat_colour(seat: int) -> str:
    """The colour of ``seat``'s line (a hex string)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def move_number(decision: Decision) -> int:
    """The move a person reads the decision as (from 1), and its mark's place on the chart."""
    return decision.move + 1


def marked_moves(review: GameReview, seats: Collection[int]) -> tuple[int, ...]:
    """The chart's x of every labelled decision of ``seats``, in order."""
    return tuple(
        move_number(d) for d in review.decisions if d.seat in seats and d.label is not None
    )


def chances_chart(
    review: GameReview,
    marked: Collection[int] = (),
    *,
    top: int | None = None,
    legend: bool = True,
) -> tuple[list[Series], Figure]:
    """Every seat's chance after every move (0 to 100%), marked at ``marked`` seats' labels.

    Seat ``top``'s line is drawn last, over the others where they cross.
    ``legend=False`` leaves the seats' names out of the chart, for a screen that
    names them beside it (by the number each line is drawn with, in its colour).
    """
    xs = tuple(float(x) for x in range(len(review.chart)))
    series = [
        Series(
            f"{seat.seat + 1} {seat.name}",
            tuple(point[seat.seat] for point in review.chart),
            xs,
            marker=str(seat.seat + 1),
            colour=_rgb(seat_colour(seat.seat)),
        )
        for seat in sorted(review.seats, key=lambda seat: seat.seat == top)
    ]
    end = len(review.chart) - 1
    figure = Figure(
        y_range=(0.0, 1.0),
        marks=tuple(float(x) for x in marked_moves(review, marked)),
        x_ticks=_move_ticks(end),
        y_ticks=((0.0, "0%"), (0.5, "50%"), (1.0, "100%")),
        legend=legend,
    )
    return series, figure


def _move_ticks(end: int) -> tuple[tuple[float, str], ...]:
    """The deal, the end, and every tenth move between (so a mark's move can be read off)."""
    step = 10 if end <= 60 else 20
    ticks = [(0.0, "deal")]
    ticks += [(float(x), str(x)) for x in range(step, end - step // 2, step)]
    ticks.append((float(end), str(end)))
    return tuple(ticks)


__all__ = [
    "SEAT_COLOURS",
    "chances_chart",
    "marked_moves",
    "move_number",
    "seat_colour",
]
