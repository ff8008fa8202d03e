"""Shared fixtures for the whole test suite."""

import pytest


@pytest.fixture(autouse=True)
def _mantis_home(tmp_path, monkeypatch):
    """Every test gets its own empty MANTIS_HOME, so nothing touches the real one."""
    home = tmp_path / "mantis-home"
    home.mkdir()
    monkeypatch.setenv("MANTIS_HOME", str(home))
    return home
