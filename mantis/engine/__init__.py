"""The rules engine: cards, actions, events, the game state machine, views and records.

Pure Python and deterministic; nothing here knows about the terminal UI.
"""

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
from .deal import bot_rng, deal, game_seed
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
from .record import GameRecord, RecordError, Result, SeatInfo, record_of
from .view import View

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
