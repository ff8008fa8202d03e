"""Helpers for the tests of the app's files: deterministic games, finished records
with chosen seats."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from mantis.engine import Game, GameRecord, SeatInfo, record_of, steal
from mantis.engine.actions import Action

SEATS3 = (SeatInfo("Ann", "human"), SeatInfo("Bea", "bot", "expert"), SeatInfo("Cal", "bot"))


def policy(game: Game) -> Action:
    """A fixed choice for every position: depends only on the seed and the turn number."""
    return random.Random(f"{game.seed}:{game.turn}").choice(game.legal_actions())


def play(game: Game, until: int | None = None) -> Game:
    """Play ``game`` with ``policy`` up to turn ``until`` (default: the end)."""
    while not game.over and (until is None or game.turn < until):
        game.play(policy(game))
    return game


def finished(
    seed: int = 1, players: int = 3, seats: Sequence[SeatInfo] | None = SEATS3
) -> GameRecord:
    """A finished game's record."""
    return record_of(play(Game.new(players, seed)), seats)


def shared_win() -> GameRecord:
    """A real game that ends at deck-out with seats 1 and 2 sharing the win."""
    game = Game.new(3, 196)  # the first seed where always stealing ends so
    while not game.over:
        game.play(steal((game.to_move + 1) % 3))
    assert game.winners == (1, 2), game.winners
    return record_of(game)


def seated(
    record: GameRecord, human_seats: dict[int, str], bots: Sequence[str] = ("expert",)
) -> GameRecord:
    """``record`` with humans at the given seats and ``bots`` (cycled) everywhere else."""
    others = iter(bots * record.players)
    seats = tuple(
        SeatInfo(human_seats[s], "human") if s in human_seats else _bot(next(others), s)
        for s in range(record.players)
    )
    return dataclasses.replace(record, seats=seats)


def _bot(name: str, seat: int) -> SeatInfo:
    return SeatInfo(f"{name.title()} {seat}", "bot", name)


def game_for(
    name: str, won: bool, players: int = 3, bots: Sequence[str] = ("expert",), seed: int = 0
) -> GameRecord:
    """A finished game with ``name`` at a seat that won (or lost), the others bots."""
    while True:
        record = finished(seed, players, None)
        assert record.result is not None
        winners = record.result.winners
        seat = next((s for s in range(players) if (s in winners) == won), None)
        if seat is not None:
            return seated(record, {seat: name}, bots)
        seed += 1
