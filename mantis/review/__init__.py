"""Game review: what each decision was worth, with the luck of the cards set apart.

``review_game(record)`` gives an immutable ``GameReview``: per seat a summary
(accuracy, average loss, labels, luck, luck-adjusted result), every decision
with each option's chance of winning, every turned card's luck, and every
seat's chance after every move.  No Textual here: the app and ``mantis
review`` both draw from these values.
"""

from .chances import Chances, FaceOutcome, OptionValue, option_values, position_chances
from .game_review import (
    Decision,
    GameReview,
    Option,
    SeatReview,
    TurnedCard,
    UnfinishedGameError,
    review_game,
)
from .judgement import LABELS, NO_REAL_CHOICE, THRESHOLDS, Label, accuracy_for, label_for

__all__ = [
    "LABELS",
    "NO_REAL_CHOICE",
    "THRESHOLDS",
    "Chances",
    "Decision",
    "FaceOutcome",
    "GameReview",
    "Label",
    "Option",
    "OptionValue",
    "SeatReview",
    "TurnedCard",
    "UnfinishedGameError",
    "accuracy_for",
    "label_for",
    "option_values",
    "position_chances",
    "review_game",
]
