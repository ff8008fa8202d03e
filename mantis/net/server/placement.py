"""Where tables run: on this process alone, or on whichever node of a cluster holds each.

``Placement`` is what the openings and the server ask about it: a new
table's lease is taken, a dropped one released, a table between two nodes
waited for, a table run by another node found (or taken over), a changed
listing shared.  ``OneProcess`` answers for a server on its own (every
table runs here); a node of a cluster answers with ``cluster_node``.
"""

from __future__ import annotations

from typing import Protocol

from .room.room import Room


class Placement(Protocol):
    """Where tables run: on this process alone, or on the nodes of a cluster."""

    async def lease(self, code: str) -> None:
        """A new table's code: it runs here."""

    async def release(self, code: str) -> None:
        """Table ``code`` runs here no more."""

    async def moving(self, code: str) -> bool:
        """Whether table ``code`` is in play but runs on no node just now."""

    async def running_elsewhere(self, code: str) -> str | None:
        """The live node (not this one) that runs table ``code``; None if none does —
        then it is taken over here if it is still to be played."""

    def share_soon(self, room: Room) -> None:
        """``room`` changed how it is listed: the other nodes hear of it soon."""


class OneProcess:
    """The ``Placement`` of a server on its own: every table runs here."""

    async def lease(self, code: str) -> None:
        pass

    async def release(self, code: str) -> None:
        pass

    async def moving(self, code: str) -> bool:
        return False

    async def running_elsewhere(self, code: str) -> str | None:
        return None

    def share_soon(self, room: Room) -> None:
        pass
