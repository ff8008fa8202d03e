"""How a server table keeps its game: every move and notice in the server's database."""

from __future__ import annotations

from ..engine import GameRecord
from ..store.tables_db import TablesDB
from ..store.writer import Writer
from ..table import Notice, encode


class ServerKeeper:
    """A ``Keeper`` writing one table's moves (appended, never rewritten) through ``Writer``."""

    def __init__(self, writer: Writer, table_id: int, kept_moves: int = 0) -> None:
        self.writer = writer
        self.table_id = table_id
        self.kept = kept_moves

    async def save(self, record: GameRecord) -> None:
        new = record.actions[self.kept :]
        if not new:
            return
        table_id, first = self.table_id, self.kept
        await self.writer.write(lambda db: db.add_moves(table_id, first, new))
        self.kept += len(new)

    async def note(self, notice: Notice, turn: int) -> None:
        table_id, body = self.table_id, encode(notice).decode()
        await self.writer.write(lambda db: db.add_notice(table_id, turn, body))

    async def finish(self, record: GameRecord) -> None:
        new = record.actions[self.kept :]
        table_id, first, text = self.table_id, self.kept, record.to_json()

        def finish(db: TablesDB) -> None:
            db.add_moves(table_id, first, new)
            db.finish(table_id, text)

        await self.writer.write(finish)
        self.kept += len(new)
