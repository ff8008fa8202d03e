"""Charts of figures over a game or over time: what to draw, drawn once for screen and text.

The one home of every chart: ``Series`` says what to draw (each series in
its own letter, and its own colour where there is colour, so a chart reads
with ``NO_COLOR`` too; a band of uncertainty around it if it has one),
``draw`` draws series on a plotext figure (the chart widget's, on screen),
and ``chart_text`` draws them as plain lines for a text report such as
``mantis stats``.  plotext is imported only when a chart is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

BAND_MARKER = "·"
"""What a band is drawn with: lighter than any series' own marker."""


@dataclass(frozen=True)
class Series:
    """One line of a chart: ``ys`` at ``xs`` (default 1, 2, 3…)."""

    label: str
    ys: tuple[float, ...]
    xs: tuple[float, ...] | None = None
    marker: str = "•"
    """The character the line is drawn with: a letter tells series apart without colour."""
    colour: str | tuple[int, int, int] | None = None
    """A plotext colour name or an RGB triple (None: the chart's foreground)."""
    band: tuple[tuple[float, ...], tuple[float, ...]] | None = None
    """Lower and upper bounds at each x (an uncertainty band), drawn in small dots."""

    @property
    def at(self) -> tuple[float, ...]:
        """The x of every point."""
        return self.xs if self.xs is not None else tuple(range(1, len(self.ys) + 1))


@dataclass(frozen=True)
class Figure:
    """What a chart shows besides its series: the axes' range and marks, and its title."""

    y_range: tuple[float, float] | None = None
    marks: tuple[float, ...] = ()
    """x positions marked with a vertical line (a chosen move, a rematch…)."""
    x_ticks: tuple[tuple[float, str], ...] | None = None
    """Where the horizontal axis is labelled, and with what (None: plotext decides)."""
    y_ticks: tuple[tuple[float, str], ...] | None = None
    title: str = ""
    x_label: str = ""
    y_label: str = ""
    legend: bool = True
    """Name the series in a corner (when there are several): off where a table beside says it."""


PLAIN = Figure()
"""A figure with nothing but its series: plotext's own axes."""


def draw(plt: Any, series: Sequence[Series], figure: Figure = PLAIN) -> None:
    """Draw ``series`` on ``plt``: the plotext module, or a chart widget's plotext figure."""
    plt.clear_data()
    plt.clear_figure()
    for line in series:
        colour = line.colour if line.colour is not None else "default"
        if line.band is not None:
            lower, upper = line.band
            plt.plot(line.at, lower, marker=BAND_MARKER, color=colour)
            plt.plot(line.at, upper, marker=BAND_MARKER, color=colour)
        labelled = figure.legend and (len(series) > 1 or line.band is not None)
        plt.plot(
            line.at, line.ys, marker=line.marker, color=colour, label=line.label if labelled else ""
        )
    for x in figure.marks:
        plt.vline(x, "default")
    if figure.y_range is not None:
        plt.ylim(*figure.y_range)
    if figure.x_ticks is not None:
        plt.xticks([x for x, _ in figure.x_ticks], [label for _, label in figure.x_ticks])
    if figure.y_ticks is not None:
        plt.yticks([y for y, _ in figure.y_ticks], [label for _, label in figure.y_ticks])
    plt.title(figure.title)
    plt.xlabel(figure.x_label)
    plt.ylabel(figure.y_label)


def chart_text(
    series: Sequence[Series], figure: Figure = PLAIN, *, width: int = 60, height: int = 12
) -> str:
    """The chart as ``height`` plain lines of ``width`` characters (no colour, no escapes)."""
    import plotext

    draw(plotext, series, figure)
    plotext.plotsize(width, height)
    plotext.theme("clear")
    text: str = plotext.build()
    plotext.clear_figure()
    return "\n".join(line.rstrip() for line in plotext.uncolorize(text).splitlines())
