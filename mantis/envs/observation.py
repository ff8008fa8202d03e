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
                   (R G B P K Y O), then the size of its score pile
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

An ``Encoder`` builds them; each environment has its own, which reuses what
the position before had (the tanks the engine did not replace, the unseen
cards but the one just turned), so that an observation costs about what a
move of the engine does.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not

import numpy as np

from ..engine import BACKS, View
from ..engine.cards import ALL_CARDS_MASK, FACE, NUM_CARDS, NUM_COLOURS
from ..engine.deal import HAND_SIZE
from ..engine.events import Tank
from ..engine.game import TWO_PLAYER_TARGET_SCORE, target_for
from ..engine.seat_count import MAX_SEATS, MIN_SEATS
from ..players.counting import unseen_face_counts

SEAT_FIELDS = NUM_COLOURS + 1
SEATS = slice(0, MAX_SEATS * SEAT_FIELDS)
TANKS = tuple(slice(k * SEAT_FIELDS, k * SEAT_FIELDS + NUM_COLOURS) for k in range(MAX_SEATS))
"""Per seat slot, where its tank's counts are."""
SCORES = slice(NUM_COLOURS, SEATS.stop, SEAT_FIELDS)
"""Every seat slot's score."""
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
    for tank in TANKS:
        high[tank] = _PER_COLOUR
    high[SCORES] = MAX_SCORE
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

#: Per back and per 3-bit mask of its cards already seen: the back's colours (7
#: bytes of 0/1), then the faces the card can still have (7 more).
_TOP = tuple(
    tuple(
        bytes(int(c in back) for c in range(NUM_COLOURS))
        + bytes(int(c in back and not seen >> back.index(c) & 1) for c in range(NUM_COLOURS))
        for seen in range(8)
    )
    for back in BACKS
)
_NO_TOP = bytes(2 * NUM_COLOURS)
_SEAT_NUMBERS = range(MAX_SEATS)
#: The empty seat slots past a table's size.
_PADDING = {n: bytes((MAX_SEATS - n) * SEAT_FIELDS) for n in range(MIN_SEATS, MAX_SEATS + 1)}
#: _TAIL[n][k]: the last fields but the pile's size, k seats from the observer to the mover.
_TAIL = {
    n: tuple(bytes((target_for(n), n, k)) for k in range(n))
    for n in range(MIN_SEATS, MAX_SEATS + 1)
}
#: "0"/"1" digits to bytes 0/1.
_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
_UNSEEN_FORMAT = f"0{NUM_CARDS}b"
#: numpy's dtype object: given the type ``np.uint8``, ``np.frombuffer`` looks it up
#: at every call (150 ns of its 320).
_UINT8 = np.dtype(np.uint8)


def _unseen_of(seen: int) -> bytearray:
    """The unseen cards' fields: counts per face colour, a byte per card, their number."""
    unseen = ALL_CARDS_MASK ^ seen
    # bit i of the unseen mask is card i: its binary digits, lowest first
    digits = format(unseen, _UNSEEN_FORMAT).encode()[::-1].translate(_DIGITS)
    return bytearray(bytes(unseen_face_counts(seen)) + digits + bytes((unseen.bit_count(),)))


class Encoder:
    """Builds observations, reusing what the position it saw last had.

    Every piece it reuses is checked first: a tank is reused only if it is the
    very tuple counted before (the engine's tanks are immutable, and replaced
    when they change), the unseen cards only if one card more has been seen
    since.  So any view may be given in any order, of any game: it is then
    only counted afresh.
    """

    __slots__ = ("_tanks", "_slots", "_scores", "_seen", "_unseen")

    def __init__(self) -> None:
        self._tanks: tuple[Tank, ...] = ()
        self._slots = bytearray()
        self._scores: tuple[int, ...] = ()
        self._seen = 0
        self._unseen = _unseen_of(0)

    def encode(self, view: View, seat: int) -> np.ndarray:
        """The observation of ``view``'s position from ``seat`` (see the module's table)."""
        n = view.players
        tanks = view.tanks
        scores = view.scores
        slots = self._slots
        known = self._tanks
        if len(known) != n:
            slots = self._slots = bytearray().join(
                bytes(map(len, tank)) + bytes((score,))
                for tank, score in zip(tanks, scores, strict=True)
            )
            self._scores = scores
        else:
            # the seats whose tank was replaced, found without a Python loop over all
            for s in compress(_SEAT_NUMBERS, map(is_not, tanks, known)):
                at = s * SEAT_FIELDS
                slots[at : at + NUM_COLOURS] = map(len, tanks[s])
            if scores != self._scores:
                slots[NUM_COLOURS::SEAT_FIELDS] = bytes(scores)
                self._scores = scores
        self._tanks = tanks
        back = view.top_back
        seen = view.seen
        unseen = self._unseen
        if seen != self._seen:
            new = seen ^ self._seen
            if new & (new - 1) == 0 and new & seen:  # one card more was seen (and none less)
                card = new.bit_length() - 1
                unseen[FACE[card]] -= 1
                unseen[NUM_COLOURS + card] = 0
                unseen[-1] -= 1
            else:
                unseen = _unseen_of(seen)
            self._seen = seen
            self._unseen = unseen
        cut = seat * SEAT_FIELDS
        out = bytearray().join(
            (
                slots[cut:],
                slots[:cut],
                _PADDING[n],
                _NO_TOP if back is None else _TOP[back][seen >> 3 * back & 7],
                unseen,  # (the pile's size is the number of unseen cards)
                _TAIL[n][(view.to_move - seat) % n],
            )
        )
        # a bytearray's array is writable: whoever is given it may change it
        return np.frombuffer(out, _UINT8)


def encode(view: View, seat: int) -> np.ndarray:
    """The observation of ``view``'s position from ``seat``, counted afresh."""
    return Encoder().encode(view, seat)


def describe(observation: np.ndarray) -> dict[str, object]:
    """The fields of an observation by name (for reading one, and for tests)."""
    obs = observation.astype(int).tolist()
    players = obs[PLAYERS]
    return {
        "tanks": [obs[TANKS[k]] for k in range(players)],
        "scores": obs[SCORES][:players],
        "top_back": obs[TOP_BACK],
        "top_faces": obs[TOP_FACES],
        "unseen_faces": obs[UNSEEN_FACES],
        "unseen_cards": [c for c in range(NUM_CARDS) if obs[UNSEEN_CARDS.start + c]],
        "pile": obs[PILE],
        "target": obs[TARGET],
        "players": players,
        "to_move": obs[TO_MOVE],
    }
