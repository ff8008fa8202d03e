"""What the app keeps on disk: its settings (the user directories are ``mantis.base.paths``)."""

from .settings import SPEEDS, Settings, load_settings, save_settings

__all__ = [
    "SPEEDS",
    "Settings",
    "load_settings",
    "save_settings",
]
