"""Which ``TableStore`` a server uses: a SQLite file (the default) or a PostgreSQL URL."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ..base.clock import SYSTEM_CLOCK, Clock
from ..base.paths import data_dir
from .tables_interface import StoreError, TableStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(database: str) -> bool:
    """Whether ``database`` names a PostgreSQL database (a URL) rather than a SQLite file."""
    return database.startswith(POSTGRES_SCHEMES)


def sqlite_file(data: str | Path | None = None) -> Path:
    """A server's SQLite file when it is given no database: ``server.sqlite3`` in the
    folder ``data`` (``--data``), else in ``server`` under the user data directory."""
    from .tables_sqlite import DB_NAME

    folder = Path(data) if data else data_dir() / "server"
    return folder / DB_NAME


def check_postgres_driver() -> None:
    """``StoreError`` in one line if the PostgreSQL driver is not installed."""
    if importlib.util.find_spec("asyncpg") is None:
        raise StoreError(
            "a PostgreSQL database needs the cluster extra: pip install 'mantis-tui[cluster]'"
        )


async def open_table_store(database: str | Path, clock: Clock = SYSTEM_CLOCK) -> TableStore:
    """The store at ``database``: ``postgresql://…`` or the path of a SQLite file
    (``clock``: what a PostgreSQL store's waits to reconnect run on).

    ``StoreError`` (one line) if it cannot be opened.
    """
    text = str(database)
    if is_postgres(text):
        check_postgres_driver()
        from .tables_pg import PgTableStore

        return await PgTableStore.open(text, clock)
    from .tables_sqlite import SqliteTableStore

    try:
        return SqliteTableStore(Path(text))
    except OSError as exc:
        raise StoreError(f"cannot use {text}: {exc.strerror or exc}") from None
