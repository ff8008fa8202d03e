"""The built-in bots, weakest first."""
