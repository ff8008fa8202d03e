"""How a server table keeps its game: every move and notice in the server's store.

A move is published only once it is kept.  While the store cannot be
reached, the keeper tries again (waiting a little longer each time, at most
``RETRY_MAX`` seconds) and the table waits with it: nothing is published
unkept, and play goes on by itself once the store is back.  A move the store
already holds under that number means another node holds the table now: the
keeper then never returns, and its room is let go.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from time import perf_counter
from typing import TypeVar

from ....base.clock import Clock, SystemClock
from ....engine import GameRecord
from ....store.player_ratings import GameRating
from ....store.tables_interface import StoreConflict, StoreUnavailable, TableStore
from ....table import Notice, Talk, encode

T = TypeVar("T")

#: Seconds between two tries at most, while the store cannot be reached.
RETRY_MAX = 2.0


class ServerKeeper:
    """A ``Keeper`` writing one game's moves (appended, never rewritten) to a ``TableStore``."""

    def __init__(
        self,
        store: TableStore,
        game_id: int,
        kept_moves: int = 0,
        rating: Callable[[GameRecord], GameRating | None] | None = None,
        *,
        clock: Clock | None = None,
        busy: Callable[[bool], None] = lambda busy: None,
        lost: Callable[[], None] = lambda: None,
        timed: Callable[[float], None] = lambda seconds: None,
    ) -> None:
        """``rating``: how the finished game moves ratings (kept in the same write as its
        end); ``busy(True)`` once the store cannot be reached, ``busy(False)`` once it is
        back; ``lost()`` once another node turns out to hold the game; ``timed(seconds)``
        after every write."""
        self.store = store
        self.game_id = game_id
        self.kept = kept_moves
        self.rating = rating
        self.clock = clock or SystemClock()
        self.busy = busy
        self.lost = lost
        self.timed = timed

    async def save(self, record: GameRecord) -> None:
        new = record.actions[self.kept :]
        if not new:
            return
        await self._keep(lambda: self.store.add_moves(self.game_id, self.kept, new))
        self.kept += len(new)

    async def note(self, notice: Notice | Talk, turn: int) -> None:
        body = encode(notice).decode()
        await self._keep(lambda: self.store.add_notice(self.game_id, turn, body))

    async def finish(self, record: GameRecord) -> None:
        new = record.actions[self.kept :]
        text = record.to_json()
        rating = self.rating(record) if self.rating is not None else None
        await self._keep(lambda: self.store.finish_game(self.game_id, self.kept, new, text, rating))
        self.kept += len(new)

    async def _keep(self, write: Callable[[], Awaitable[T]]) -> T:
        wait, waiting = 0.25, False
        while True:
            start = perf_counter()
            try:
                result = await write()
            except StoreUnavailable:
                if not waiting:
                    waiting = True
                    self.busy(True)
                await self.clock.sleep(wait)
                wait = min(RETRY_MAX, wait * 2)
                continue
            except StoreConflict:
                self.lost()
                await asyncio.Event().wait()  # never: this node does not hold the game
            self.timed(perf_counter() - start)
            if waiting:
                self.busy(False)
            return result
