"""Ratings: one number for how strong a player is, for people and bot levels alike.

- ``scale``: a rating (OpenSkill's ``mu`` and ``sigma``) and the number people read.
- ``update``: a rating after a game, by the Weng–Lin Plackett–Luce update.
- ``fit``: the ratings many bot-vs-bot games imply (the level anchors).
- ``levels``: the built-in levels' ratings, shipped in ``levels.json``.

Nothing here is imported when the app starts: the setup screen reads
``levels`` (a small JSON file) and the statistics use ``update``.
"""
