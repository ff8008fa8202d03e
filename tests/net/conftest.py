"""The network tests import their kit (``netkit``) from this folder."""

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request) -> str | None:
    """Where a test's server keeps its tables: None (its SQLite file) or a PostgreSQL URL."""
    if request.param == "sqlite":
        return None
    return request.getfixturevalue("pg_url")
