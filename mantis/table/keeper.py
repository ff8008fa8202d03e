"""Where a table keeps its game: a sink the caller supplies.

The driver hands its ``Keeper`` the game after every move and waits for it
before it publishes the move, so anything that hears of a move can count on
it being kept.  The app keeps a local game in its save file and, once it is
over, in the statistics (``LocalKeeper``); a server keeps its tables in its
database.  A keeper that fails raises: the driver reports it and plays on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..engine import GameRecord
from ..home.saves import autosave, clear_save
from .messages import Notice, Talk

if TYPE_CHECKING:
    from ..home.finished import Finished

_T = TypeVar("_T")


class Keeper(Protocol):
    """What a table needs to keep its game."""

    async def save(self, record: GameRecord) -> None:
        """Keep the unfinished game as it is now (called after every move)."""
        ...

    async def note(self, notice: Notice | Talk, turn: int) -> None:
        """Keep a table notice published (or a line of talk said) after ``turn`` actions."""
        ...

    async def finish(self, record: GameRecord) -> None:
        """Keep the finished game (its ``result`` is set)."""
        ...


class KeepError(Exception):
    """A keeper could not keep part of the game; the message is one line."""


class LocalKeeper:
    """The app's keeper: the save file after every move, the statistics at the end.

    Both are written off the event loop, so a screen never waits on the disk,
    in ``writes`` when given (the save slot's: it waits for them before it
    lets the slot go).  A write once handed over is finished even if the
    table is closed while it waits (the app quitting as a move is saved).
    """

    def __init__(
        self,
        save_path: Path | None = None,
        stats_path: Path | None = None,
        *,
        writes: Executor | None = None,
    ) -> None:
        self.save_path = save_path
        self.stats_path = stats_path
        self.writes = writes
        self.finished: Finished | None = None
        """What the statistics made of the game once it is recorded (its rating changes)."""

    async def _write(self, work: Callable[[], _T]) -> _T:
        loop = asyncio.get_running_loop()
        # Shielded: cancelling the table must not cancel a write still queued.
        return await asyncio.shield(loop.run_in_executor(self.writes, work))

    async def save(self, record: GameRecord) -> None:
        await self._write(lambda: autosave(record, self.save_path))

    async def note(self, notice: Notice | Talk, turn: int) -> None:
        """A local save keeps moves only: notices are not needed to resume."""

    async def finish(self, record: GameRecord) -> None:
        """Record the game in the statistics, then clear the save (even if that failed)."""
        # Imported at the end of a game, not when a table opens: SQLite is not needed before.
        from ..home.finished import record_finished
        from ..home.stats import StatsError

        def store() -> Finished:
            try:
                return record_finished(record, path=self.stats_path)
            finally:
                clear_save(self.save_path)

        try:
            self.finished = await self._write(store)
        except StatsError as exc:
            raise KeepError(str(exc)) from None
