"""Exact game positions for the table's tests and screenshots.

Games are played by a tiny seeded policy (score with probability
``score_chance``, otherwise steal from a random opponent), recorded with
``record_of`` and reopened at a chosen move with ``GameRecord.replay`` — the
same path a saved game takes.  The seeds were found by searching.
"""

from __future__ import annotations

import random

from mantis.engine import SCORE, Game, GameRecord, SeatInfo, record_of, steal


def played(players: int, seed: int, score_chance: float) -> GameRecord:
    """The record of a whole game dealt from ``seed`` and played by the policy."""
    game = Game.new(players, seed)
    rng = random.Random(seed * 7 + int(score_chance * 100))
    while not game.over:
        if rng.random() < score_chance:
            game.play(SCORE)
        else:
            others = [s for s in range(players) if s != game.to_move]
            game.play(steal(others[rng.randrange(len(others))]))
    return record_of(game)


def seats(kinds: str, names: str = "You,Ann,Bea,Cal,Dee,Eve") -> tuple[SeatInfo, ...]:
    """Seats from letters: ``h`` human, ``r`` random bot, ``s`` score bot."""
    bots = {"r": "random", "s": "score"}
    return tuple(
        SeatInfo(name, "human", None) if kind == "h" else SeatInfo(name, "bot", bots[kind])
        for kind, name in zip(kinds, names.split(","), strict=False)
    )


def first_move_where(record: GameRecord, test, start: int = 0) -> int:
    """The first number of moves after which ``test(view)`` holds."""
    for upto in range(start, len(record.actions) + 1):
        if test(record.replay(upto).view()):
            return upto
    raise LookupError("no such position")


def extra_turn() -> tuple[Game, tuple[SeatInfo, ...]]:
    """Two players, mid-game, on an extra turn after a successful steal; a human moves."""
    record = played(2, 5, 0.5)
    upto = first_move_where(record, lambda v: v.extra_turn, start=8)
    game = record.replay(upto)
    kinds = "hr" if game.to_move == 0 else "rh"
    names = "You,Ann" if game.to_move == 0 else "Ann,You"
    return game, seats(kinds, names)


def mid_game(players: int, seed: int = 11, upto: int = 14) -> tuple[Game, tuple[SeatInfo, ...]]:
    """A table of ``players`` after ``upto`` moves, with a human ("You") to move."""
    game = played(players, seed, 0.45).replay(upto)
    kinds = ["r"] * players
    kinds[game.to_move] = "h"
    names = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay"][:players]
    names[game.to_move] = "You"
    return game, seats("".join(kinds), ",".join(names))


def shared_win() -> tuple[Game, tuple[SeatInfo, ...]]:
    """Four players, the draw pile ran out and two seats share the win."""
    game = played(4, 419, 0.2).replay()
    assert game.reason == "deck_out" and game.winners is not None and len(game.winners) > 1
    return game, seats("hrrr", "You,Ann,Bea,Cal")


def single_win() -> tuple[Game, tuple[SeatInfo, ...]]:
    """Three players, one reached the target."""
    game = played(3, 4, 0.5).replay()
    assert game.reason == "target"
    return game, seats("hrr", "You,Ann,Bea")
