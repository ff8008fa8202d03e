"""What the followed online table told, as a Textual message to the screens showing it.

``follow.OnlineTable`` tells each change of the table (``follow.changes``:
the seats, the stream, the clock, an offer, talk, the connection) to whoever
listens; a screen listens through ``listener``, which posts the change to
it as a ``Heard`` message, so a change that arrives while the screen is
being pushed waits in its queue instead of being lost, and one that arrives
after it closed is dropped (and the screen stops listening).
"""

from __future__ import annotations

from textual.message import Message
from textual.message_pump import MessagePump

from ..follow import changes
from ..follow.changes import Change
from ..follow.online_table import Listener


class Heard(Message):
    """A change of the followed table (``change``, with its data), for one screen."""

    bubble = False

    def __init__(self, change: Change) -> None:
        super().__init__()
        self.change = change


def listener(screen: MessagePump) -> Listener:
    """What ``screen`` listens to the table with: each change posted to it as ``Heard``."""
    return lambda change: screen.post_message(Heard(change))


def connection_note(change: Change) -> str | None:
    """How this app's own connection is, as a screen notes it ("" once it is back); None
    for a change that is not about the connection."""
    match change:
        case changes.Dropped(reason=reason, retry_in=retry_in):
            return f"{reason}: reconnecting in {retry_in:g} s…"
        case changes.Reconnected():
            return ""
        case changes.Stopped(reason=reason):
            return f"Online play stopped: {reason}"
    return None
