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
``view_of`` reads an observation back into a ``View`` of the same position
(what a bot needs to decide from an observation).

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
from ..engine.cards import ALL_CARDS_MASK, FACE, NUM_CARDS, NUM_COLOURS, cards_in
from ..engine.deal import HAND_SIZE
from ..engine.events import EndReason, Tank
from ..engine.game import TWO_PLAYER_TARGET_SCORE, deck_out_winners, target_for
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
_HIGH32 = HIGH.astype(np.float32)

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


def scale(observation: np.ndarray) -> np.ndarray:
    """``observation`` as ``float32`` in [0, 1]: each field over its largest value (``HIGH``)."""
    scaled: np.ndarray = np.divide(observation, _HIGH32, dtype=np.float32)
    return scaled


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


#: A back's number from its three colours' bits (R = 1, G = 2, ...).
_BACK_OF_BITS = {sum(1 << c for c in back): b for b, back in enumerate(BACKS)}
_COLOUR_BITS = np.array([1 << c for c in range(NUM_COLOURS)])


def counts_of(observation: object) -> np.ndarray:
    """An observation's fields as whole numbers, whatever form it came in.

    ``observation`` is the vector (``uint8`` counts, ``scaled`` floats, or
    OpenSpiel's ``float32`` tensor with its six trailing entries), or a dict
    holding it under ``"observation"`` (PettingZoo) or ``"observations"``
    (``Mantis-v0``'s ``masked_observation``).  A scaled vector is told apart by
    its players field: a fraction of 6 there, never less than 2 unscaled.
    """
    if isinstance(observation, dict):
        key = "observation" if "observation" in observation else "observations"
        if key not in observation:
            raise ValueError("a dict observation holds 'observation' or 'observations'")
        observation = observation[key]
    values = np.asarray(observation, dtype=np.float64).reshape(-1)
    if values.size < SIZE:
        raise ValueError(f"a Mantis observation has {SIZE} fields, not {values.size}")
    values = values[:SIZE]
    if values[PLAYERS] < MIN_SEATS:  # scaled: each field over its largest value
        values = values * HIGH
    counts = np.rint(values).astype(np.int64)
    if not MIN_SEATS <= counts[PLAYERS] <= MAX_SEATS:
        raise ValueError(f"not a Mantis observation: {counts[PLAYERS]} players")
    return counts


def view_of(observation: object, seat: int = 0) -> View:
    """The position an observation shows, as the ``View`` of the observing ``seat``.

    The observation lists seats from the observer; the view numbers them as
    the table does, the observer being ``seat`` (which the vector does not
    hold: the environment knows it; default 0, ``Mantis-v0``'s learner).  Every
    field the rules and the chance of the next card depend on is the
    position's; what the vector does not hold is filled in plainly: which
    seen cards of a colour lie in a tank (the rules ask only how many),
    ``extra_turn`` (False: whether the turn follows a successful steal is
    history, not position) and ``turn`` (the cards drawn since the deal).
    """
    counts = counts_of(observation)
    n = int(counts[PLAYERS])
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} is not a seat at a table of {n}")
    unseen_bits = counts[UNSEEN_CARDS]
    seen = ALL_CARDS_MASK
    for card in np.flatnonzero(unseen_bits).tolist():
        seen ^= 1 << card
    # every card in a tank has been seen: lay the seen cards of each face colour out
    spare: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
    for card in cards_in(seen):
        spare[FACE[card]].append(card)
    slots = [(k - seat) % n for k in range(n)]  # seat k's slot in the observation
    tanks: list[Tank] = []
    for k in slots:
        tank: list[tuple[int, ...]] = []
        for colour, held in enumerate(counts[TANKS[k]].tolist()):
            cards = spare[colour]
            if held > len(cards):
                raise ValueError("not a Mantis observation: a tank holds unseen cards")
            tank.append(tuple(cards[:held]))
            del cards[:held]
        tanks.append(tuple(tank))
    slot_scores = counts[SCORES][:n].tolist()
    scores = tuple(slot_scores[k] for k in slots)
    target = int(counts[TARGET])
    pile = int(counts[PILE])
    back_bits = int(counts[TOP_BACK] @ _COLOUR_BITS)
    top_back = _BACK_OF_BITS.get(back_bits)
    if back_bits and top_back is None:
        raise ValueError("not a Mantis observation: the top card's back is not three colours")
    winners: tuple[int, ...] | None = None
    reason: EndReason | None = None
    if top_back is None:  # nobody draws again: the game is over
        reached = tuple(s for s in range(n) if scores[s] >= target)
        if reached:
            winners, reason = reached, "target"
        else:
            sizes = [sum(map(len, tank)) for tank in tanks]
            winners, reason = deck_out_winners(scores, sizes), "deck_out"
    return View(
        seat=seat,
        players=n,
        target=target,
        to_move=(seat + int(counts[TO_MOVE])) % n,
        tanks=tuple(tanks),
        scores=scores,
        pile_size=pile,
        top_back=top_back,
        seen=seen,
        extra_turn=False,
        turn=NUM_CARDS - HAND_SIZE * n - pile,
        winners=winners,
        reason=reason,
    )
