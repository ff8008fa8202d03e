"""``mantis serve``: run the table server until SIGINT or SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from typing import TYPE_CHECKING

from ...base.printable import echo
from ...store.tables_interface import StoreError

if TYPE_CHECKING:
    from .limits.server_limits import ServerLimits

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def run_serve(args: argparse.Namespace) -> int:
    """Serve until told to stop; 1 with one line if the server cannot start."""
    from ...base.clock import SystemClock
    from ...store.tables_choice import check_postgres_driver, is_postgres, open_table_store
    from ..cluster.membership import Cluster, ClusterError
    from .assembly import table_server
    from .collector import collect_on_time, tune_garbage_collector
    from .directory import Directory, LocalDirectory
    from .limits.addresses import parse_networks
    from .open_files import fit_open_files, quiet_accept_errors
    from .pages.metrics_listener import MetricsError, MetricsListener, parse_listen
    from .redis_directory import RedisDirectory
    from .room.room import RoomConfig
    from .server import seeded

    database = _database(args)
    try:
        if is_postgres(database):
            check_postgres_driver()
        if args.redis is not None:
            _check_cluster(database)
    except StoreError as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 1
    node = args.node or f"{args.host}:{args.port}"
    logging.basicConfig(
        level=logging.WARNING,
        format=f"%(asctime)s {node} %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if args.host not in LOCAL_HOSTS:
        echo(
            f"mantis: warning: listening on {args.host}: anyone who can reach this machine "
            "may join its tables",
            file=sys.stderr,
            lines=False,
            flush=True,
        )

    def ready(host: str, port: int) -> None:
        shown = f"[{host}]" if ":" in host else host
        echo(f"mantis server on ws://{shown}:{port}", flush=True)
        echo(files.line(), file=sys.stderr, flush=True)

    tune_garbage_collector()
    files = fit_open_files(args.max_connections)
    limits = limits_of(args, files.connections)

    async def main() -> None:
        clock = SystemClock()
        store = await open_table_store(database, clock)
        cluster: Cluster | None = None
        directory: Directory
        try:
            if args.redis is not None:
                cluster = Cluster(args.redis, node, clock)
                await cluster.start()
                directory = RedisDirectory(cluster.redis, cluster.node, clock)
                await directory.start_afresh()
            else:
                directory = LocalDirectory(clock)
        except BaseException:
            await store.close()
            raise
        server = table_server(
            store,
            directory,
            config=RoomConfig(
                away_after=args.away_after,
                bot_pace=args.bot_pace,
                quick_fill=args.quick_wait,
                quick_bot=args.quick_bot,
            ),
            clock=clock,
            seeds=None if args.seed is None else seeded(args.seed),
            limits=limits,
            trusted_proxies=parse_networks(args.trusted_proxy),
            node=node,
            cluster=cluster,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(quiet_accept_errors())
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        collector = asyncio.create_task(collect_on_time(clock))
        metrics = MetricsListener(server.metrics.text)
        try:
            if args.metrics is not None:
                where = parse_listen(args.metrics)
                try:
                    bound = await metrics.start(*where)
                except OSError as exc:
                    raise MetricsError(
                        f"cannot serve metrics on {args.metrics}: {exc.strerror}"
                    ) from None
                shown = f"[{where[0]}]" if ":" in where[0] else where[0]
                echo(
                    f"mantis: metrics on http://{shown}:{bound}/metrics",
                    file=sys.stderr,
                    lines=False,
                )
            await server.run(args.host, args.port, stop, ready)
        finally:
            await metrics.close()
            collector.cancel()
            await directory.close()
            if cluster is not None:
                await cluster.close()
            await store.close()  # every write finished before the database is closed

    try:
        asyncio.run(main())
    except (StoreError, ClusterError, MetricsError) as exc:
        echo(f"mantis: error: {exc}", file=sys.stderr, lines=False)
        return 1
    except OSError as exc:  # the port is taken, the host is not this machine's...
        echo(
            f"mantis: error: cannot listen on {args.host}:{args.port}: {exc.strerror}",
            file=sys.stderr,
            lines=False,
        )
        return 1
    echo("mantis server stopped; every table is kept", flush=True)
    return 0


def limits_of(args: argparse.Namespace, connections: int) -> ServerLimits:
    """The limits ``mantis serve`` was given, with at most ``connections`` connections."""
    from .limits.server_limits import ServerLimits

    return ServerLimits(
        tables_per_address=args.tables_per_address,
        max_tables=args.max_tables,
        idle_waiting=args.idle_waiting,
        connections_per_address=args.connections_per_address,
        max_connections=connections,
        spectators_per_table=args.spectators_per_table,
        bot_moves=args.bot_moves,
    )


def _check_cluster(database: str) -> None:
    """``StoreError`` in one line unless a cluster node can run (PostgreSQL, redis-py)."""
    import importlib.util

    from ...store.tables_choice import is_postgres

    if not is_postgres(database):
        raise StoreError(
            "nodes of a cluster share one PostgreSQL database: add --database postgresql://..."
        )
    if importlib.util.find_spec("redis") is None:
        raise StoreError("a cluster needs the cluster extra: pip install 'mantis-tui[cluster]'")


def _database(args: argparse.Namespace) -> str:
    """Where the tables are kept: ``--database``, else ``server.sqlite3`` in ``--data``."""
    from ...store.tables_choice import sqlite_file

    if args.database:
        return str(args.database)
    return str(sqlite_file(args.data))
