"""What a server tells its operator through ``GET /metrics`` (Prometheus' text format).

One ``Metrics`` per server (its own registry, so several servers in one
process — tests — never mix their figures).  They are served only on the
listener the operator names (``mantis serve --metrics HOST:PORT``,
``metrics_listener``), never on the players' port.  docs/operations.md says
what each means and what to watch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

#: Seconds: a move's latency and a commit's time are read against these.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The figures of one server (node ``node``)."""

    def __init__(self, node: str, counts: Callable[[], dict[str, Any]]) -> None:
        """``counts()`` gives what is read when scraped: tables by state, connections."""
        self.registry = registry = CollectorRegistry(auto_describe=True)
        labels = {"node": node}
        self.moves = Counter(
            "mantis_moves", "Moves played at this node's tables", registry=registry
        )
        self.move_latency = Histogram(
            "mantis_move_latency_seconds",
            "A move from its intent received to its frame published (stored in between)",
            buckets=BUCKETS,
            registry=registry,
        )
        self.commit_seconds = Histogram(
            "mantis_store_commit_seconds",
            "A write to the store, from asked to durable",
            buckets=BUCKETS,
            registry=registry,
        )
        self.pubsub_lag = Histogram(
            "mantis_pubsub_lag_seconds",
            "Messages between nodes, sent to received (the first of each lot published together)",
            buckets=BUCKETS,
            registry=registry,
        )
        self.takeovers = Counter(
            "mantis_takeovers", "Tables this node took over from another", registry=registry
        )
        self.refused = Counter(
            "mantis_refused_intents",
            "Messages from clients refused, by error code",
            ["code"],
            registry=registry,
        )
        tables = Gauge(
            "mantis_tables", "Tables this node runs, by state", ["state"], registry=registry
        )
        connections = Gauge(
            "mantis_connections", "WebSocket connections open at this node", registry=registry
        )
        info = Gauge("mantis_node_info", "This node's name", ["node"], registry=registry)
        info.labels(**labels).set(1)
        for state in ("waiting", "playing", "over"):
            tables.labels(state).set_function(_reading(counts, "tables", state))
        connections.set_function(_reading(counts, "connections"))

    def text(self) -> tuple[bytes, str]:
        """The figures in the text format, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


def _reading(counts: Callable[[], dict[str, Any]], *path: str) -> Callable[[], float]:
    def read() -> float:
        value: Any = counts()
        for key in path:
            value = value[key]
        return float(value)

    return read
