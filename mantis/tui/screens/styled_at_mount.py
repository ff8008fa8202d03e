"""A screen whose first showing keeps the styles its widgets were given as they mounted,
when that is safe: its own style sheets were read before its widgets were made.

Textual restyles every widget of a screen each time the screen is shown
(``ScreenResume.refresh_styles``), since styles may have changed while it was
covered.  The first time, nothing has, as a rule: each widget was styled as it
mounted, moments before, and a class change since restyles what it touches.
Doing it all again was some 80M instructions of the setup screen's 1,760M
before its first frame.

Not so when the screen's own ``CSS_PATH`` is read as it is pushed (the first
table after the setup screen, a replay, a retry): on Python 3.12 and later
Textual runs each message loop as an eager task (``App.run`` sets asyncio's
eager task factory), so a pushed screen composes inside ``push_screen`` and
its widgets are made, and styled, before Textual reads that sheet.  The
restyle on showing is then what gives them its rules: without it the board's
own layout (board.tcss, play.tcss) was missing for the whole game.  So the
restyle is skipped only when the screen's sheets were in the app's style sheet
before its widgets were made (the setup screen, a table opened from the
command line, every later table): ``note_sheets`` says so from ``compose``.
Later showings (back from help or settings, a theme changed meanwhile)
restyle as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import events

if TYPE_CHECKING:
    from textual.screen import Screen


class StyledAtMount:
    """Mixed into a ``Screen``: its first ``ScreenResume`` leaves the styles as mounted,
    if ``note_sheets`` (called first thing in ``compose``) found its sheets read already."""

    _shown_once = False
    _sheets_first = False

    def note_sheets(self) -> None:
        """Note whether the screen's own style sheets are read already (before its widgets)."""
        screen = cast("Screen[object]", self)
        stylesheet = screen.app.stylesheet
        self._sheets_first = all(stylesheet.has_source(str(path)) for path in screen.css_path)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._shown_once:
            self._shown_once = True
            if self._sheets_first:
                event.refresh_styles = False
