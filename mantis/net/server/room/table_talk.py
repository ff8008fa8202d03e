"""Talk at a table: the seated people among themselves, the spectators among themselves.

A seated person talks under their seat's name, and their line is kept in the
game's record (up to ``MAX_TALK_LINES`` a game); a spectator talks under the
name they watched with ("Watcher" if none), never one seated at the table
nor one like it, and their line is heard by the spectators only.  The
server checks a line (talk on, its length, its rate) before it comes here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ....table import Message, Table, Talk
from ....table.messages import MAX_TALK_LINES
from ....table.names import unique_name
from ... import protocol
from .audience import Connection

WATCHER = "Watcher"
"""What a spectator who gave no name is called when they talk."""

Broadcast = Callable[[protocol.ServerMessage, Iterable[Connection]], None]


class TableTalk:
    """Who talks under which name at one table, and who hears each line."""

    def __init__(self, broadcast: Broadcast) -> None:
        self.broadcast = broadcast
        self.watchers: dict[Connection, str] = {}
        """The names spectators talk under."""

    def watching(self, connection: Connection, name: str) -> None:
        """A spectator came (``name``: the one they talk under; none: ``WATCHER``)."""
        self.watchers[connection] = name or WATCHER

    def gone(self, connection: Connection) -> None:
        self.watchers.pop(connection, None)

    def watcher_names(self, names: Sequence[str], spectators: Iterable[Connection]) -> list[str]:
        """The names the ``spectators`` talk under (like none of ``names``), sorted."""
        return sorted(unique_name(self.watchers.get(c, ""), names, WATCHER) for c in spectators)

    def watcher_says(
        self,
        connection: Connection,
        names: Sequence[str],
        spectators: Iterable[Connection],
        text: str,
    ) -> None:
        """A spectator's line, to the ``spectators`` (under a name like none of ``names``)."""
        name = unique_name(self.watchers.get(connection, ""), names, WATCHER)
        self.broadcast(protocol.Said("watchers", None, name, text), spectators)

    async def player_says(
        self,
        seat: int,
        name: str,
        seated: Iterable[Connection],
        text: str,
        table: Table | None,
    ) -> list[Message]:
        """Seat ``seat``'s line (``name``'s), to the ``seated`` people, and kept in the
        record of the game being played (``table``), if any: what could not be kept."""
        self.broadcast(protocol.Said("players", seat, name, text), seated)
        if table is None or table.talked >= MAX_TALK_LINES:
            return []
        return list(await table.remark(Talk(seat, name, text)))
