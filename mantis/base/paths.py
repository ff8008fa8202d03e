"""Where the app writes: the platform's user directories, or ``MANTIS_HOME``.

``MANTIS_HOME`` puts everything under one directory (``config/`` and
``data/`` inside it), which is what tests and portable installs want.
Without it the platform's conventions apply (XDG on Linux).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "mantis"
HOME_VARIABLE = "MANTIS_HOME"


def _home() -> Path | None:
    home = os.environ.get(HOME_VARIABLE)
    return Path(home).expanduser() if home else None


def config_dir() -> Path:
    """The directory for settings (not created here)."""
    home = _home()
    if home is not None:
        return home / "config"
    return platformdirs.user_config_path(APP_NAME, appauthor=False)


def data_dir() -> Path:
    """The directory for saves, records and statistics (not created here)."""
    home = _home()
    if home is not None:
        return home / "data"
    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def settings_path() -> Path:
    """The settings file."""
    return config_dir() / "settings.json"
