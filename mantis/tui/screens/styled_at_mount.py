"""A screen whose first showing keeps the styles its widgets were given as they mounted.

Textual restyles every widget of a screen each time the screen is shown
(``ScreenResume.refresh_styles``), since styles may have changed while it was
covered.  The first time, nothing has: each widget was styled as it mounted,
moments before, and a class change since restyles what it touches.  Doing it
all again was some 80M instructions of the setup screen's 1,760M before its
first frame.  Later showings (back from help or settings, a theme changed
meanwhile) restyle as usual.
"""

from __future__ import annotations

from textual import events


class StyledAtMount:
    """Mixed into a ``Screen``: its first ``ScreenResume`` leaves the styles as mounted."""

    _shown_once = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._shown_once:
            self._shown_once = True
            event.refresh_styles = False
