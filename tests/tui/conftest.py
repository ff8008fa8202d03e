"""Every TUI test writes under a fresh ``MANTIS_HOME``, never the user's directories."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def mantis_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A private ``MANTIS_HOME`` for the test; colour stays on unless a test says otherwise."""
    home = tmp_path / "mantis-home"
    monkeypatch.setenv("MANTIS_HOME", str(home))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return home
