"""Fixtures for the store's tests: every ``TableStore`` backend, fresh for each test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from mantis.store.tables_interface import TableStore
from mantis.store.tables_sqlite import SqliteTableStore


class OpenStore:
    """A store under test, and a way to open its data again (a restart, another node)."""

    def __init__(self, opener: Callable[[], Awaitable[TableStore]]) -> None:
        self.opener = opener
        self.store: TableStore

    async def open(self) -> TableStore:
        self.store = await self.opener()
        return self.store

    async def reopen(self) -> TableStore:
        await self.store.close()
        return await self.open()


@pytest.fixture(params=["sqlite", "postgresql"])
async def table_store(request, tmp_path: Path) -> AsyncIterator[OpenStore]:
    """A fresh, empty store of each backend."""

    async def sqlite() -> TableStore:
        return SqliteTableStore(tmp_path / "server.sqlite3")

    async def postgresql() -> TableStore:
        from mantis.store.tables_pg import PgTableStore

        return await PgTableStore.open(url)

    if request.param == "postgresql":
        url = request.getfixturevalue("pg_url")
    opened = OpenStore(sqlite if request.param == "sqlite" else postgresql)
    await opened.open()
    try:
        yield opened
    finally:
        await opened.store.close()
