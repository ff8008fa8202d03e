"""What the game-over screen is dismissed with, and which choices each board offers.

Apart from the screen itself so that a board can name its choices without
importing the game-over screen before its first frame: the screen is imported
when a game ends.
"""

from __future__ import annotations

from enum import Enum


class GameOverChoice(Enum):
    """What the game-over screen is dismissed with.

    Each choice has a key and a button; a board offers the ones that make
    sense for it (``LOCAL_CHOICES``, ``ONLINE_CHOICES``), in this order.
    """

    AGAIN = "again"
    """A new deal with the same seats (online: offer another game at the table, or accept
    the one offered)."""
    DECLINE = "decline"
    """Online: decline the other game offered at the table."""
    REMATCH = "rematch"
    """The same deal again, from the start."""
    REPLAY = "replay"
    """Watch this game again, move by move."""
    REVIEW = "review"
    """What each decision was worth, and how much was the cards."""
    NEW = "new"
    """Set up a new table."""
    LOBBY = "lobby"
    """Back to the online lobby."""
    QUIT = "quit"
    """Quit the app."""
    STAY = "stay"
    """Back to the final table (Esc): no button, and the board offers the result again."""


LOCAL_CHOICES = (
    GameOverChoice.AGAIN,
    GameOverChoice.REMATCH,
    GameOverChoice.REPLAY,
    GameOverChoice.REVIEW,
    GameOverChoice.NEW,
    GameOverChoice.QUIT,
)
"""What a game played here offers."""
ONLINE_CHOICES = (
    GameOverChoice.AGAIN,
    GameOverChoice.DECLINE,
    GameOverChoice.REPLAY,
    GameOverChoice.REVIEW,
    GameOverChoice.LOBBY,
    GameOverChoice.QUIT,
)
"""What a game played at a server's table offers (a spectator: not the first two)."""
ONLINE_ANSWERS = frozenset({GameOverChoice.AGAIN, GameOverChoice.DECLINE})
"""The choices an online game-over screen says to the table, staying up meanwhile."""
