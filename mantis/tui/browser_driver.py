"""The driver of an app shown in a browser tab by ``mantis web``.

It is Textual's web driver with one addition: when the server is gone (its
end of the app's input closes — the server was killed, or crashed) the app
quits as if the tab had closed, instead of running on unseen and holding
its save slot.  A server that stops cleanly tells each app to quit itself.
"""

from __future__ import annotations

from textual import messages
from textual.drivers.web_driver import WebDriver


class BrowserDriver(WebDriver):
    """Textual's web driver; the app quits when the server's end of its input closes."""

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if not self.exit_event.is_set():  # the input ended, but not because the app is quitting
            self._app.post_message(messages.ExitApp())
