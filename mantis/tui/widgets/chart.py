"""The chart widget: every chart in the app, drawn by plotext (``textual-plotext``).

``Chart.show(series, figure)`` draws one or several ``follow.charts.Series``
(each in its colour and its own letter, so a chart reads with ``NO_COLOR``
too; a band of uncertainty where a series has one) with vertical marks at
chosen x positions.  The drawing itself is ``follow.charts.draw``, which
``mantis stats`` uses for its text charts too.  This module loads plotext:
import it only where a chart is shown, never before a first frame.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual_plotext import PlotextPlot

from ...follow.charts import PLAIN, Figure, Series, draw


class Chart(PlotextPlot):
    """A chart of one or more series, sized by its container (height 10 unless styled)."""

    DEFAULT_CSS = """
    Chart {
        height: 10;
        width: 1fr;
    }
    """

    def __init__(
        self,
        series: Sequence[Series] = (),
        figure: Figure = PLAIN,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.series = tuple(series)
        self.figure = figure
        draw(self.plt, self.series, figure)

    def show(self, series: Sequence[Series], figure: Figure | None = None) -> None:
        """Draw ``series`` instead (with ``figure``, or the one shown so far)."""
        self.series = tuple(series)
        if figure is not None:
            self.figure = figure
        draw(self.plt, self.series, self.figure)
        self.refresh()
