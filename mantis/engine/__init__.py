"""The rules engine: cards, actions, events, the game state machine, views and records.

Pure Python and deterministic; nothing here knows about the terminal UI.

Its names are loaded when first used (``__getattr__``): a seat's description
(``seats``) is read by the settings before the first frame of every launch,
and should not bring the whole game with it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# Loaded now: ``deal`` names both the function and its module, and a module imported
# later would take the name over.
from .deal import bot_rng, deal, game_seed

if TYPE_CHECKING:
    from .actions import SCORE, Action, IllegalActionError, Score, Steal, legal_actions_for, steal
    from .cards import (
        BACK,
        BACKS,
        COLOUR_LETTERS,
        COLOUR_NAMES,
        FACE,
        NUM_CARDS,
        NUM_COLOURS,
        back_code,
        card_code,
        parse_card,
    )
    from .events import (
        CardRevealed,
        Event,
        ExtraTurn,
        GameOver,
        GameStarted,
        Scored,
        ScoreMissed,
        StealMissed,
        Stolen,
        TurnStarted,
    )
    from .game import Game, deck_out_winners, target_for
    from .record import GameRecord, Result, record_of
    from .seats import RecordError, SeatInfo
    from .view import View

_HOMES = {
    "SCORE": "actions",
    "Action": "actions",
    "IllegalActionError": "actions",
    "Score": "actions",
    "Steal": "actions",
    "legal_actions_for": "actions",
    "steal": "actions",
    "BACK": "cards",
    "BACKS": "cards",
    "COLOUR_LETTERS": "cards",
    "COLOUR_NAMES": "cards",
    "FACE": "cards",
    "NUM_CARDS": "cards",
    "NUM_COLOURS": "cards",
    "back_code": "cards",
    "card_code": "cards",
    "parse_card": "cards",
    "CardRevealed": "events",
    "Event": "events",
    "ExtraTurn": "events",
    "GameOver": "events",
    "GameStarted": "events",
    "Scored": "events",
    "ScoreMissed": "events",
    "StealMissed": "events",
    "Stolen": "events",
    "TurnStarted": "events",
    "Game": "game",
    "deck_out_winners": "game",
    "target_for": "game",
    "GameRecord": "record",
    "Result": "record",
    "record_of": "record",
    "View": "view",
    "RecordError": "seats",
    "SeatInfo": "seats",
}
"""Where each name of the package is defined."""


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value = getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
    return value


__all__ = [
    "BACK",
    "BACKS",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "FACE",
    "NUM_CARDS",
    "NUM_COLOURS",
    "SCORE",
    "Action",
    "CardRevealed",
    "Event",
    "ExtraTurn",
    "Game",
    "GameOver",
    "GameRecord",
    "GameStarted",
    "IllegalActionError",
    "RecordError",
    "Result",
    "Score",
    "ScoreMissed",
    "Scored",
    "SeatInfo",
    "Steal",
    "StealMissed",
    "Stolen",
    "TurnStarted",
    "View",
    "back_code",
    "bot_rng",
    "card_code",
    "deal",
    "deck_out_winners",
    "game_seed",
    "legal_actions_for",
    "parse_card",
    "record_of",
    "steal",
    "target_for",
]
