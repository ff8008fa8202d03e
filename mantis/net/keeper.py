"""How a server table keeps its game: every move and notice in the server's store."""

from __future__ import annotations

from collections.abc import Callable

from ..engine import GameRecord
from ..store.player_ratings import GameRating
from ..store.table_store import TableStore
from ..table import Notice, Talk, encode


class ServerKeeper:
    """A ``Keeper`` writing one game's moves (appended, never rewritten) to a ``TableStore``."""

    def __init__(
        self,
        store: TableStore,
        game_id: int,
        kept_moves: int = 0,
        rating: Callable[[GameRecord], GameRating | None] | None = None,
    ) -> None:
        """``rating``: how the finished game moves ratings (kept in the same write as its end)."""
        self.store = store
        self.game_id = game_id
        self.kept = kept_moves
        self.rating = rating

    async def save(self, record: GameRecord) -> None:
        new = record.actions[self.kept :]
        if not new:
            return
        await self.store.add_moves(self.game_id, self.kept, new)
        self.kept += len(new)

    async def note(self, notice: Notice | Talk, turn: int) -> None:
        await self.store.add_notice(self.game_id, turn, encode(notice).decode())

    async def finish(self, record: GameRecord) -> None:
        new = record.actions[self.kept :]
        rating = self.rating(record) if self.rating is not None else None
        await self.store.finish_game(self.game_id, self.kept, new, record.to_json(), rating)
        self.kept += len(new)
