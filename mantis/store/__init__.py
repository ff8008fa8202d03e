"""What the app keeps on disk: user directories and settings."""

from .paths import config_dir, data_dir, settings_path
from .settings import SPEEDS, Settings, load_settings, save_settings

__all__ = [
    "SPEEDS",
    "Settings",
    "config_dir",
    "data_dir",
    "load_settings",
    "save_settings",
    "settings_path",
]
