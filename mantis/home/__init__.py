"""What the app keeps in the player's home (``MANTIS_HOME``, or the platform's user
directories): its settings, the saved game in progress, the statistics and past games,
local ratings, seat tokens and player keys.  The table server's store is ``mantis.store``.

Named here: the settings, which nearly every front end reads."""

from .settings import SPEEDS, Settings, load_settings, save_settings

__all__ = [
    "SPEEDS",
    "Settings",
    "load_settings",
    "save_settings",
]
