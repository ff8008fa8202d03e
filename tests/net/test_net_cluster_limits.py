"""One party's limits on a cluster: two nodes behind HAProxy, requests sent together.

A share enforced per node would let a party spread over N nodes have N
times it.  Here two real ``mantis serve`` nodes (one PostgreSQL, one Redis)
stand behind HAProxy with the configuration of docs/operations.md, which
tells the nodes each person's address (``option forwardfor``, believed from
the proxy only: ``--trusted-proxy``).  People connect through the proxy
from loopback addresses of their own, many at once; the proxy spreads them
over both nodes in turn; each party still gets exactly its share.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from clusterkit import Nodes
from netkit import at_once, elsewhere, outcomes, player_id, welcome

from mantis.home.player_keys import new_key
from mantis.net import protocol

V = protocol.PROTOCOL_VERSION

# One worker runs the cluster tests: they share its PostgreSQL and Redis.
pytestmark = pytest.mark.xdist_group("cluster")


@pytest.fixture(scope="module")
def pair(postgres, redis_server, tmp_path_factory):
    """Two nodes and HAProxy, believing the addresses the proxy forwards; three tables an
    address (the other limits at their defaults)."""
    from servicekit import need

    need(binaries=("haproxy", "openssl"))
    database = postgres.create_database("limits")
    nodes = Nodes(
        tmp_path_factory.mktemp("proxy"),
        database,
        redis_server.url.replace("/0", "/8"),  # a cluster of its own
        "--trusted-proxy",
        "127.0.0.1",
        "--tables-per-address",
        "3",
        count=2,
    )
    try:
        nodes.start()
        yield nodes
    finally:
        nodes.stop()


def refused_on(node_metrics: str, code: str) -> float:
    """How many ``code`` refusals a node's ``/metrics`` counts."""
    found = re.search(rf'mantis_refused_intents_total{{code="{code}"}} ([0-9.]+)', node_metrics)
    return float(found.group(1)) if found else 0.0


def metrics(nodes: Nodes) -> list[str]:
    return [node.get("/metrics", node.metrics_port)[1].decode() for node in nodes.nodes]


async def test_one_addresss_tables_and_names_are_capped_across_the_nodes(pair: Nodes) -> None:
    pair.ready()
    url = pair.proxy.url
    before = metrics(pair)
    # Ten tables asked for at once from one address, five landing on each node: three.
    asked = [protocol.Create(V, f"Eve{n}", ("human", "open")) for n in range(10)]
    eve = await at_once(url, asked, source=elsewhere(77))
    assert outcomes(eve) == {"welcome": 3, protocol.TOO_MANY_TABLES: 7}
    after = metrics(pair)
    # Both nodes refused some: neither counted only its own.
    refused = [
        refused_on(a, protocol.TOO_MANY_TABLES) - refused_on(b, protocol.TOO_MANY_TABLES)
        for a, b in zip(after, before, strict=True)
    ]
    assert sum(refused) == 7 and all(r > 0 for r in refused), refused
    # Twelve tables of four other addresses (three each), three open seats each...
    hosts = await at_once(
        url,
        [protocol.Create(V, f"Host{n}", ("human", "open", "open", "open")) for n in range(12)],
        source=[elsewhere(80 + n % 4) for n in range(12)],
    )
    assert outcomes(hosts) == {"welcome": 12}
    codes = [welcome(h).code for h in hosts]
    # ...at six of which one key asks to sit at once, under six new names: three new
    # names a key a day, whichever node runs the table.
    key = new_key()
    joins = [protocol.Join(V, codes[n], f"Tess{n}", player=player_id(key)) for n in range(6)]
    tess = await at_once(url, joins, source=elsewhere(90), key=key)
    assert outcomes(tess) == {"welcome": 3, protocol.TOO_MANY_NAMES: 3}
    # Twelve keys of one address, one at each table, at once: ten new names an address.
    keys: list[str | None] = [new_key() for _ in range(12)]
    joins = [
        protocol.Join(V, code, f"Nia{n}", player=player_id(k))
        for n, (code, k) in enumerate(zip(codes, keys, strict=True))
    ]
    nia = await at_once(url, joins, source=elsewhere(91), key=keys)
    assert outcomes(nia) == {"welcome": 10, protocol.TOO_MANY_NAMES: 2}
    await asyncio.gather(*(c.close() for c in (*eve, *hosts, *tess, *nia)))
