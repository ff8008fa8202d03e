"""A game's public stream rebuilt from the engine: the opening, then every event.

The driver publishes a live game through these functions, and a record read
move by move (a replay, a resumed game, a test position) gives exactly the
stream the table published when it was played, with the notices its record
kept (and the players' talk) where they were said.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

from ..engine import GameRecord, GameStarted, SeatInfo, TurnStarted, record_of
from ..engine.game import Game
from .messages import (
    STREAM_VERSION,
    KeepFailed,
    Message,
    Notice,
    Opening,
    StreamError,
    Talk,
    decode,
)


def opening_of(game: Game, seats: Sequence[SeatInfo]) -> tuple[Opening, TurnStarted]:
    """The opening of ``game``'s stream: who sits where, the deal, and the first turn.

    Everything the engine's ``GameStarted`` says but the seed, which would
    deal the rest of the pile again.
    """
    started, first_turn = game.opening_events()
    assert isinstance(started, GameStarted) and isinstance(first_turn, TurnStarted)
    opening = Opening(
        version=STREAM_VERSION,
        seats=tuple(seats),
        target=started.target,
        first=started.first,
        tanks=started.tanks,
        pile_size=started.pile_size,
    )
    return opening, first_turn


def dealt(seats: Sequence[SeatInfo], seed: int) -> GameRecord:
    """A new game for ``seats`` dealt from ``seed``, as a record with no action yet."""
    return record_of(Game.new(len(seats), seed), seats)


#: New deals get seeds below this, so a seed is short enough to note and retype.
SEED_RANGE = 1_000_000


def new_seed() -> int:
    """A fresh seed for a new deal (below ``SEED_RANGE``)."""
    import secrets  # loads OpenSSL's hashes: not before a first frame that needs none

    return secrets.randbelow(SEED_RANGE)


def seats_of(record: GameRecord) -> tuple[SeatInfo, ...]:
    """The record's seats, or "Seat 1", "Seat 2"… when it does not name them."""
    if record.seats is not None:
        return record.seats
    return tuple(SeatInfo(f"Seat {s + 1}", "bot", "?") for s in range(record.players))


def moves_of(record: GameRecord, upto: int | None = None) -> list[list[Message]]:
    """The stream of ``record`` cut by move: the opening first, then each action's events.

    ``moves_of(record)[k]`` (k ≥ 1) is what action k published, then what
    the table said after it (the record's notices, the players' talk), which
    a fault or a person's time running out is said before move k + 1.
    ``upto`` stops after that many actions.
    """
    game = Game(record.tanks, record.pile, record.first, seed=record.seed)
    moves: list[list[Message]] = [list(opening_of(game, seats_of(record)))]
    for seat, action in record.actions[:upto]:
        moves.append(list(game.apply(action, seat)))
    for turn, notice in record_notices(record.notices):
        if turn < len(moves):
            moves[turn].append(notice)
    return moves


def record_notices(notices: Iterable[tuple[int, str]]) -> list[tuple[int, Notice | Talk]]:
    """A record's (or a store's) notices read back; one this Mantis cannot read is skipped."""
    read: list[tuple[int, Notice | Talk]] = []
    for turn, body in notices:
        with contextlib.suppress(StreamError):
            message = decode(body)
            if isinstance(message, Notice | Talk) and not isinstance(message, KeepFailed):
                read.append((turn, message))
    return read


def stream_of(record: GameRecord, upto: int | None = None) -> list[Message]:
    """The whole stream of ``record`` (up to ``upto`` actions), in one list."""
    return [message for move in moves_of(record, upto) for message in move]
