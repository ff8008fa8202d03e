"""Seats: the Player protocol, human seats, the bots and plug-in loading."""

from .human import HumanPlayer
from .protocol import InputPlayer, Player, is_player
from .registry import BOTS, PlayerSpecError, bot_factory, make_bot

__all__ = [
    "BOTS",
    "HumanPlayer",
    "InputPlayer",
    "Player",
    "PlayerSpecError",
    "bot_factory",
    "is_player",
    "make_bot",
]
