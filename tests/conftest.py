"""Shared fixtures for the whole test suite, and the machine every test runs on."""

import itertools

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Every test runs on the same machine, whatever shell started pytest (``machinekit``)."""
    from machinekit import pin

    pin(config)


@pytest.fixture(autouse=True)
def _mantis_home(tmp_path, monkeypatch):
    """Every test gets its own empty MANTIS_HOME, so nothing touches the real one."""
    home = tmp_path / "mantis-home"
    home.mkdir()
    monkeypatch.setenv("MANTIS_HOME", str(home))
    return home


# ---------------------------------------------------------------------- real services
# One throwaway PostgreSQL cluster and one Redis server for the whole session (started
# only if a test asks); each test gets a fresh database of its own.


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL cluster of this session's own (skipped when PostgreSQL is missing)."""
    from servicekit import PostgresCluster, need

    need(binaries=("initdb", "pg_ctl", "psql"), modules=("asyncpg",))
    cluster = PostgresCluster()
    yield cluster
    cluster.close()


_databases = itertools.count(1)


@pytest.fixture
def pg_url(postgres) -> str:
    """The URL of a new, empty database in the session's cluster."""
    return postgres.create_database(f"test_{next(_databases)}")


@pytest.fixture(scope="session")
def redis_server():
    """A Redis server of this session's own (skipped when redis-server is missing)."""
    from servicekit import RedisServer, need

    need(binaries=("redis-server",), modules=("redis",))
    server = RedisServer()
    yield server
    server.close()
