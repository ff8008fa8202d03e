"""A table server put together: every part made, and handed the parts it uses.

``table_server`` is the one place the server's parts are made and wired:
what counts and limits, how connections are reached, the rooms and what
each room is handed, the openings, the requests, the plain pages and, on a
cluster, this node's part.  ``TableServer`` (``server``) is handed them
whole; no part builds another.  ``mantis serve`` (``serve_cli``), the app's
own server and the tests call it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...base.clock import Clock, SystemClock
from ...store.tables_interface import TableStore
from ..cluster.membership import Cluster
from .background import Background
from .cluster_node import ClusterNode
from .directory import Directory
from .key_proofs import KeyProofs
from .limits.addresses import ClientAddresses, Network
from .limits.bot_share import BotShare
from .limits.server_limits import GuessLimiter, ServerLimits, SharedCounts
from .limits.table_counts import TableCounts
from .limits.talk_limits import TalkLimits
from .metrics import Metrics
from .name_claims import NameClaims
from .open_files import OVERFLOW
from .openings import Openings
from .pages.plain_pages import PlainPages
from .placement import OneProcess, Placement
from .quick_play import QuickPlay
from .requests import Requests
from .room.rated_games import RatedGames
from .room.room import RoomConfig, RoomHooks, RoomServices
from .rooms import Rooms
from .seating import Seating
from .sending import LIVENESS_TIMEOUT, Sender
from .server import HELLO_TIMEOUT, OVER_ROOM, TableServer, secret_seed
from .sockets import SocketGate


def table_server(
    store: TableStore,
    directory: Directory,
    *,
    config: RoomConfig | None = None,
    clock: Clock | None = None,
    seeds: Callable[[], int] | None = None,
    limits: ServerLimits | None = None,
    trusted_proxies: Sequence[Network] = (),
    hello_timeout: float = HELLO_TIMEOUT,
    node: str = "",
    cluster: Cluster | None = None,
) -> TableServer:
    """A server keeping its tables in ``store``, sharing codes and counts in ``directory``.

    ``seeds``: where each game's seed comes from, one call a game (the server's
    own tests hand it the deals they need; None: a secret seed each time).
    ``trusted_proxies``: the reverse proxies whose ``X-Forwarded-For`` is
    believed.  ``node``: this server's name in logs and metrics.  ``cluster``:
    this node's place among others sharing the store (None: one process).
    """
    config = config or RoomConfig()
    clock = clock or SystemClock()
    limits = limits or ServerLimits()
    name = cluster.node if cluster is not None else node
    background = Background()
    addresses = ClientAddresses(trusted_proxies)
    sockets = SocketGate(
        limits.max_connections + OVERFLOW,
        limits.connections_per_address + OVERFLOW,
        addresses,
        limits.send_buffer,
    )
    # Read when scraped, once the server holds its rooms and connections.
    metrics = Metrics(name or "mantis", lambda: server.counts())
    sender = Sender(
        limits.max_buffered,
        lambda code: metrics.refused.labels(code).inc(),
        clock,
        background.spawn,
    )

    def moved(latency: float | None) -> None:
        metrics.moves.inc()
        if latency is not None:
            metrics.move_latency.observe(latency)

    bots = BotShare(clock, limits.bot_moves)
    rooms = Rooms(
        RoomServices(
            config,
            store,
            sender.frame,
            clock,
            directory,
            seeds or secret_seed,
            RoomHooks(moved=moved, committed=metrics.commit_seconds.observe),
            bots,
            RatedGames(store, clock),
        ),
        sender.close,
        name,
    )
    tables = TableCounts(directory, limits, rooms)
    talk = TalkLimits(clock, directory)
    guesses = GuessLimiter(directory, limits.guesses, limits.guess_window)
    cluster_node: ClusterNode | None = None
    placement: Placement = OneProcess()
    if cluster is not None:
        placement = cluster_node = ClusterNode(
            cluster,
            store,
            directory,
            clock,
            guesses,
            over_room=OVER_ROOM,
            liveness=LIVENESS_TIMEOUT,
            took_over=metrics.takeovers.inc,
        )
        cluster.on_lag = metrics.pubsub_lag.observe
    seating = Seating(
        rooms, placement, store, directory, NameClaims(store, directory, clock, limits)
    )
    openings = Openings(
        rooms,
        sender,
        placement,
        directory,
        limits,
        seating=seating,
        quick=QuickPlay(rooms, seating, placement, directory, tables, config),
        guesses=guesses,
        proofs=KeyProofs(store),
        tables=tables,
    )
    requests = Requests(
        sender,
        directory,
        tables,
        talk,
        group_of=lambda connection: server.group_of(connection),
        share_soon=placement.share_soon,
    )
    pages = PlainPages(
        rooms,
        store,
        directory,
        clock,
        addresses,
        status=lambda: server.status(),
        listed_elsewhere=lambda: server.listed_elsewhere(),
    )
    server = TableServer(
        store,
        directory,
        rooms,
        clock,
        limits,
        addresses,
        sockets,
        set(),
        SharedCounts(directory, "connections:"),
        sender,
        openings,
        requests,
        pages,
        talk,
        tables,
        bots,
        metrics,
        background,
        placement,
        hello_timeout=hello_timeout,
        node=name,
        cluster=cluster,
        cluster_node=cluster_node,
    )
    if cluster_node is not None:
        # The node serves the server's rooms, and reaches the connections other nodes
        # hold for it: both once the server is made.
        sender.remote = cluster_node.join(server)
    return server
