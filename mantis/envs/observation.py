"""The observation every environment gives: the public state seen from one seat.

A flat ``uint8`` vector of ``SIZE`` (178) small whole numbers, the same
layout at every table size (seats past the table's size are zeros), so that
one network can play 2 to 6 players.  Seats are listed from the observer:
slot 0 is the observer, slot ``k`` the seat ``k`` places after it, which is
also the seat that action ``k`` steals from.

=========  ======  =====================================================
slice      length  what
=========  ======  =====================================================
0:48       6 x 8   per seat slot: its tank's cards of each colour
                   (R G B P K Y O), then its score pile's size
48:55      7       the top card's back: 1 for each of its three colours
55:62      7       the faces the top card can still have (1 each; every
                   possible face is equally likely: each card is unique)
62:69      7       unseen cards of each face colour (the draw pile's)
69:174     105     1 for each unseen card, card ``b * 3 + k`` having back
                   ``b`` and the ``k``-th colour of that back as its face
174        1       cards left in the draw pile
175        1       the target (15 with two players, else 10)
176        1       players at the table
177        1       seats from the observer to the seat to move (0: its turn)
=========  ======  =====================================================

The top card's fields are zero once the game is over.  Everything here is
read from the engine's ``View``: the layout adds no rule of its own.
"""

from __future__ import annotations

import numpy as np

from ..engine import BACKS, View
from ..engine.cards import ALL_CARDS_MASK, NUM_CARDS, NUM_COLOURS
from ..engine.deal import HAND_SIZE
from ..engine.events import Tank
from ..engine.game import TWO_PLAYER_TARGET_SCORE
from ..engine.seat_count import MAX_SEATS, MIN_SEATS
from ..players.counting import unseen_face_counts

SEAT_FIELDS = NUM_COLOURS + 1
SEATS = slice(0, MAX_SEATS * SEAT_FIELDS)
TOP_BACK = slice(SEATS.stop, SEATS.stop + NUM_COLOURS)
TOP_FACES = slice(TOP_BACK.stop, TOP_BACK.stop + NUM_COLOURS)
UNSEEN_FACES = slice(TOP_FACES.stop, TOP_FACES.stop + NUM_COLOURS)
UNSEEN_CARDS = slice(UNSEEN_FACES.stop, UNSEEN_FACES.stop + NUM_CARDS)
PILE = UNSEEN_CARDS.stop
TARGET = PILE + 1
PLAYERS = TARGET + 1
TO_MOVE = PLAYERS + 1
SIZE = TO_MOVE + 1

#: A colour's cards: 105 cards, 15 of each face colour.
_PER_COLOUR = NUM_CARDS // NUM_COLOURS
#: The largest score pile: at most target - 1 before the last score, which banks
#: at most a whole colour.
MAX_SCORE = TWO_PLAYER_TARGET_SCORE - 1 + _PER_COLOUR


def _bounds() -> np.ndarray:
    high = np.zeros(SIZE, dtype=np.uint8)
    for slot in range(MAX_SEATS):
        start = slot * SEAT_FIELDS
        high[start : start + NUM_COLOURS] = _PER_COLOUR
        high[start + NUM_COLOURS] = MAX_SCORE
    high[TOP_BACK] = 1
    high[TOP_FACES] = 1
    high[UNSEEN_FACES] = _PER_COLOUR
    high[UNSEEN_CARDS] = 1
    high[PILE] = NUM_CARDS - HAND_SIZE * MIN_SEATS
    high[TARGET] = TWO_PLAYER_TARGET_SCORE
    high[PLAYERS] = MAX_SEATS
    high[TO_MOVE] = MAX_SEATS - 1
    high.flags.writeable = False
    return high


LOW = np.zeros(SIZE, dtype=np.uint8)
LOW.flags.writeable = False
HIGH = _bounds()
"""The largest value of each field, the same at every table size."""

#: Per back, its three colours as 7 bytes of 0/1.
_BACK_BYTES = tuple(bytes(int(c in back) for c in range(NUM_COLOURS)) for back in BACKS)
#: Per back and per 3-bit mask of its cards already seen, the faces still possible.
_FACE_BYTES = tuple(
    tuple(
        bytes(int(c in back and not seen >> back.index(c) & 1) for c in range(NUM_COLOURS))
        for seen in range(8)
    )
    for back in BACKS
)
_NO_TOP = bytes(2 * NUM_COLOURS)
_SCORES = tuple(bytes((k,)) for k in range(MAX_SCORE + 1))
#: The empty seat slots past a table's size.
_PADDING = {n: bytes((MAX_SEATS - n) * SEAT_FIELDS) for n in range(MIN_SEATS, MAX_SEATS + 1)}
#: _ORDER[n][seat]: the seats from ``seat`` on, in turn.
_ORDER = {
    n: tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
    for n in range(MIN_SEATS, MAX_SEATS + 1)
}
#: "0"/"1" digits to bytes 0/1.
_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
_UNSEEN_FORMAT = f"0{NUM_CARDS}b"

#: A tank's counts by colour, by the tank's identity: the engine replaces a tank
#: only when it changes, so most tanks of a position were counted at the last one.
#: The tank itself is kept beside its counts, so that its id is not reused while
#: it is here; the memo is emptied when it is full.
_COUNTED: dict[int, tuple[Tank, bytes]] = {}
_COUNTED_MAX = 4096


def _counts(tank: Tank) -> bytes:
    memo = _COUNTED.get(id(tank))
    if memo is not None and memo[0] is tank:
        return memo[1]
    if len(_COUNTED) >= _COUNTED_MAX:
        _COUNTED.clear()
    counts = bytes(map(len, tank))
    _COUNTED[id(tank)] = (tank, counts)
    return counts


def encode(view: View, seat: int) -> np.ndarray:
    """The observation of ``view``'s position from ``seat`` (see the module's table)."""
    n = view.players
    tanks = view.tanks
    scores = view.scores
    parts = []
    for s in _ORDER[n][seat]:
        parts.append(_counts(tanks[s]))
        parts.append(_SCORES[scores[s]])
    parts.append(_PADDING[n])
    back = view.top_back
    seen = view.seen
    if back is None:
        parts.append(_NO_TOP)
    else:
        parts.append(_BACK_BYTES[back])
        parts.append(_FACE_BYTES[back][seen >> 3 * back & 7])
    parts.append(bytes(unseen_face_counts(seen)))
    # bit i of the unseen mask is card i: its binary digits, lowest first
    parts.append(format(ALL_CARDS_MASK ^ seen, _UNSEEN_FORMAT).encode()[::-1].translate(_DIGITS))
    parts.append(bytes((view.pile_size, view.target, n, (view.to_move - seat) % n)))
    # a bytearray, so that the array is writable (whoever is given it may change it)
    return np.frombuffer(bytearray(b"".join(parts)), dtype=np.uint8)


def describe(observation: np.ndarray) -> dict[str, object]:
    """The fields of an observation by name (for reading one, and for tests)."""
    obs = observation.astype(int).tolist()
    players = obs[PLAYERS]
    return {
        "tanks": [obs[k * SEAT_FIELDS : k * SEAT_FIELDS + NUM_COLOURS] for k in range(players)],
        "scores": [obs[k * SEAT_FIELDS + NUM_COLOURS] for k in range(players)],
        "top_back": obs[TOP_BACK],
        "top_faces": obs[TOP_FACES],
        "unseen_faces": obs[UNSEEN_FACES],
        "unseen_cards": [c for c in range(NUM_CARDS) if obs[UNSEEN_CARDS.start + c]],
        "pile": obs[PILE],
        "target": obs[TARGET],
        "players": players,
        "to_move": obs[TO_MOVE],
    }
