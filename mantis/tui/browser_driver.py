"""The driver of an app shown in a browser tab by ``mantis web``.

It is Textual's web driver with one addition: when the server is gone (its
end of the app's input closes — the server was killed, or crashed) the app
quits as if the tab had closed, instead of running on unseen and holding
its save slot.  A server that stops cleanly tells each app to quit itself.
"""

from __future__ import annotations

import os

from textual import messages
from textual.drivers.web_driver import WebDriver

#: The exit status of an app ended because it did not quit by itself once its server was gone.
ENDED = 1


class BrowserDriver(WebDriver):
    """Textual's web driver; the app quits when the server's end of its input closes."""

    #: Seconds an app whose server is gone has to quit by itself before its process ends
    #: anyway.  Its game loses nothing: the save is written after every move, atomically.
    quit_within: float = 30.0

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if self.exit_event.is_set():
            return  # the input ended because the app is quitting
        self._app.post_message(messages.ExitApp())
        # An app too busy to quit would outlive its server for ever, unseen and out of
        # reach, holding its save slot: one caught in an endless round of resizes was
        # seen taking half a core long after its server had gone.
        if not self.exit_event.wait(self.quit_within):
            os._exit(ENDED)
