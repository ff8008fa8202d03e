"""``mantis migrate``: a server's SQLite tables copied into an empty PostgreSQL database
(the copy itself: ``store.table_migration``)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from ..base.printable import echo
from ..store.tables_interface import StoreError


def run_migrate(args: argparse.Namespace) -> int:
    """Copy a server's SQLite tables into an empty PostgreSQL database; 1 with one line if not."""
    from ..store.table_migration import copy_to_postgres
    from ..store.tables_choice import check_postgres_driver, sqlite_file

    source = sqlite_file(args.data)
    try:
        check_postgres_driver()
        counts = asyncio.run(copy_to_postgres(source, args.database))
    except StoreError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 1
    echo(
        f"copied {counts['tables']} tables ({counts['playing']} in play, "
        f"{counts['games']} games, {counts['moves']} moves) from {source}",
        flush=True,
    )
    return 0
