"""Exact game positions for the table's tests and screenshots.

Games are played by a tiny seeded policy (score with probability
``score_chance``, otherwise steal from a random opponent) and recorded with
``record_of``.  A position is a record with its seats and a number of moves:
the table opens there (``first_screens.Position(record, upto)``), the same path
a saved game takes.  The seeds were found by searching.
"""

from __future__ import annotations

import random
from dataclasses import replace

from mantis.engine import SCORE, Game, GameRecord, SeatInfo, record_of, steal

Position = tuple[GameRecord, int | None]
"""A record with its seats, and how many of its actions are played (None: all)."""


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


def extra_turn() -> Position:
    """Two players, mid-game, on an extra turn after a successful steal; a human moves."""
    record = played(2, 5, 0.5)
    upto = first_move_where(record, lambda v: v.extra_turn, start=8)
    to_move = record.replay(upto).to_move
    kinds = "hr" if to_move == 0 else "rh"
    names = "You,Ann" if to_move == 0 else "Ann,You"
    return replace(record, seats=seats(kinds, names)), upto


def mid_game(players: int, seed: int = 11, upto: int = 14) -> Position:
    """A table of ``players`` after ``upto`` moves, with a human ("You") to move."""
    record = played(players, seed, 0.45)
    to_move = record.replay(upto).to_move
    kinds = ["r"] * players
    kinds[to_move] = "h"
    names = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay"][:players]
    names[to_move] = "You"
    return replace(record, seats=seats("".join(kinds), ",".join(names))), upto


def shared_win() -> Position:
    """Four players, the draw pile ran out and two seats share the win."""
    record = played(4, 573, 0.2)
    assert record.result is not None and record.result.reason == "deck_out"
    assert len(record.result.winners) > 1
    return replace(record, seats=seats("hrrr", "You,Ann,Bea,Cal")), None


def single_win() -> Position:
    """Three players, one reached the target."""
    record = played(3, 4, 0.5)
    assert record.result is not None and record.result.reason == "target"
    return replace(record, seats=seats("hrr", "You,Ann,Bea")), None


def one_move_from_a_win() -> Position:
    """Three players, one score away from the end, the winner played by "You" (a human)."""
    record = played(3, 4, 0.5)
    assert record.result is not None
    winner = record.result.winners[0]
    assert record.actions[-1] == (winner, SCORE)
    names = ["Ann", "Bea", "Cal"]
    names[winner] = "You"
    kinds = "".join("h" if seat == winner else "r" for seat in range(3))
    return replace(record, seats=seats(kinds, ",".join(names))), len(record.actions) - 1


def with_mistakes() -> GameRecord:
    """Three players, "You" (seat 1) with two labelled decisions, the first at move 4
    where stealing from Ann is within 2 points of the best and stealing from Bea is not:
    the game the review's tests and pictures show."""
    return replace(played(3, 8, 0.45), seats=seats("hrr", "You,Ann,Bea"))


def last_move(players: int, seed: int, *, you_win: bool) -> Position:
    """A game one move from its end (a score that reaches the target), "You" at the table.

    With ``you_win`` "You" are to make that score; otherwise a ``greedy`` bot
    makes it.  The other seats are ``greedy`` bots named Bot1, Bot2…
    """
    record = played(players, seed, 0.5)
    assert record.result is not None and record.result.reason == "target"
    winner = record.result.winners[0]
    assert record.actions[-1] == (winner, SCORE)
    you = winner if you_win else (winner + 1) % players
    table = tuple(
        SeatInfo("You", "human") if seat == you else SeatInfo(f"Bot{seat}", "bot", "greedy")
        for seat in range(players)
    )
    return replace(record, seats=table), len(record.actions) - 1
