"""The app's screens: setup, the table, game over, help, settings, too small."""
