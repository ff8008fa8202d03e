"""What an operator protects: nodes reach Redis with a password, an ACL user and TLS, and
PostgreSQL with its TLS settings, all from their URLs (docs/operations.md).

A Redis of this test's own (``redis-server`` with TLS, the default user off
and one user allowed only ``mantis:*`` keys and channels), two nodes in this
process sharing it and the session's PostgreSQL, playing one game across them.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from netkit import WAIT, create, join, play_my_turns, running_server, welcome
from servicekit import _wait_for_port, find_binary, free_port, need

from mantis.net import protocol
from mantis.net.cluster.membership import Cluster, ClusterError
from mantis.store.tables_interface import StoreError

SECRET = "s3cret-horse"


@pytest.fixture
def guarded_redis(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A Redis behind TLS and an ACL: its port, and the certificate to trust."""
    need(binaries=("redis-server", "openssl"), modules=("redis",))
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        + ["-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=WAIT,
    )
    port = free_port()
    binary = find_binary("redis-server")
    assert binary is not None
    process = subprocess.Popen(
        [binary, "--port", "0", "--tls-port", str(port), "--bind", "127.0.0.1"]
        + ["--tls-cert-file", str(cert), "--tls-key-file", str(key)]
        + ["--tls-ca-cert-file", str(cert), "--tls-auth-clients", "no"]
        + ["--save", "", "--appendonly", "no", "--dir", str(tmp_path)]
        + ["--user", "default", "off"]
        + ["--user", "mantis", "on", f">{SECRET}", "~mantis:*", "&mantis:*", "+@all"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port, process, "redis-server (TLS)")
        yield str(port), cert
    finally:
        process.terminate()
        process.wait(WAIT)


def redis_url(port: str, cert: Path, password: str = SECRET) -> str:
    return f"rediss://mantis:{password}@127.0.0.1:{port}/0?ssl_ca_certs={cert}"


async def test_nodes_play_through_a_redis_behind_a_password_an_acl_and_tls(
    tmp_path: Path, pg_url: str, guarded_redis: tuple[str, Path]
) -> None:
    port, cert = guarded_redis
    url = redis_url(port, cert)
    async with (
        running_server(tmp_path / "a", pg_url, url, node="east") as (_, one),
        running_server(tmp_path / "b", pg_url, url, node="west") as (_, two),
    ):
        ann = await create(one, ("human", "open", "greedy"), "Ann")
        bea = await join(two, welcome(ann).code, "Bea")  # relayed through the guarded Redis
        assert welcome(bea).seat == 1
        await ann.send(protocol.Start())
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        assert ann.stream == bea.stream
        for client in (ann, bea):
            await client.close()


async def test_a_wrong_password_is_one_line_that_never_shows_it(
    guarded_redis: tuple[str, Path],
) -> None:
    port, cert = guarded_redis
    wrong = "not-the-" + SECRET
    with pytest.raises(ClusterError) as refused:
        await Cluster(redis_url(port, cert, wrong), "east").start()
    said = str(refused.value)
    assert "\n" not in said and wrong not in said and SECRET not in said
    # Without TLS the guarded Redis is not reached at all.
    with pytest.raises(ClusterError):
        await Cluster(f"redis://mantis:{SECRET}@127.0.0.1:{port}/0", "east").start()


async def test_postgresql_takes_its_tls_settings_from_the_url(pg_url: str) -> None:
    from mantis.store.tables_pg import PgTableStore

    # The session's PostgreSQL has no TLS: a URL that requires it is refused, in one line.
    with pytest.raises(StoreError) as refused:
        await PgTableStore.open(pg_url + "?sslmode=require")
    assert "\n" not in str(refused.value)
    store = await PgTableStore.open(pg_url + "?sslmode=disable")
    await store.close()
