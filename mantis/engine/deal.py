"""Seeds, shuffling and the deal.

A game's seed alone fixes its deal and first seat, through one SHAKE-128 call
(``hashlib.shake_128``, FIPS 202): the same seed deals the same game on every
machine and every Python, since SHAKE-128 is a standard and everything read
from its output is read with an explicit byte order.

Shuffling: each card gets a random 32-bit sort key from the digest and the
deck is sorted by key; ties, which are rare (about one deal in 790,000),
keep card order, so the result is still deterministic.  This is a uniform
shuffle up to that tie.  The sort runs in C on floats: each key is packed
as a double in [1, 2) with the 32 key bits at the top of its mantissa and
the card number in its lowest byte, so sorting the doubles sorts by key,
then by card, and the card is read back from the low byte.  A Python-level
shuffle (one call per card) or a sort with a key function costs several
times as much, and the deal is a large share of a simulated game.

Deals made before this scheme (version 1 of ``mantis``, ``random.Random``
keys) differ for the same seed; their records still replay, because a
record holds its deal, not just its seed.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Sequence
from typing import Any

from .cards import NUM_CARDS
from .seat_count import SEAT_RANGE, valid_seat_count

HAND_SIZE = 4
_GAME_SEED_STRIDE = 1 << 32

_KEY_BYTES = 4
_KEYS_END = _KEY_BYTES * NUM_CARDS
#: Digest bytes: a sort key per card, then 8 bytes for the first seat.
_DIGEST_SIZE = _KEYS_END + 8
_DOUBLES = struct.Struct(f"<{NUM_CARDS}d")


def _key_template() -> bytes:
    """Little-endian doubles 1.0 + (card number) * 2**-52: key bytes go in at 2..5."""
    template = bytearray(_DOUBLES.size)
    template[0::8] = bytes(range(NUM_CARDS))  # the mantissa's lowest byte: the card
    template[6::8] = b"\xf0" * NUM_CARDS  # with the next byte, exponent 0: [1, 2)
    template[7::8] = b"\x3f" * NUM_CARDS
    return bytes(template)


_TEMPLATE = _key_template()


def game_seed(base_seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a run started with ``base_seed``.

    ``game_seed(S, i) = S * 2**32 + i``: with the default base seed 0, game i
    is simply seed i, so ``mantis play --seed i`` deals it again.
    """
    if base_seed < 0 or not 0 <= index < _GAME_SEED_STRIDE:
        raise ValueError("seeds are non-negative and game indexes below 2**32")
    return base_seed * _GAME_SEED_STRIDE + index


def bot_rng(seed: int | None, seat: int) -> random.Random:
    """A bot's own RNG for one game, derived from the game seed and its seat.

    It never shares state with the deal.  String seeds go through SHA-512 in
    ``random``, so this is the same on every machine.
    """
    return random.Random(f"mantis-bot:{seed}:{seat}")


def _digest(seed: int) -> bytes:
    shake_128 = _shake_128 or _import_shake_128()
    digest: bytes = shake_128(b"mantis-deal:%d" % seed).digest(_DIGEST_SIZE)
    return digest


def deal_digest(seed: int) -> bytes:
    """The bytes the deal of ``seed`` is read from: card ``c``'s sort key is the
    little-endian 32-bit number at ``4 * c`` (the deck is sorted by key, ties in
    card order), then 8 little-endian bytes give the first seat (modulo the
    players).  For dealing many games at once (``mantis.envs.batched`` sorts
    them in one call); ``dealt_deck`` reads the same bytes."""
    return _digest(seed)


_shake_128: Callable[[bytes], Any] | None = None


def _import_shake_128() -> Callable[[bytes], Any]:
    # On the first deal, not at the top: hashlib loads OpenSSL, which only a deal
    # needs, and the setup screen loads this module (for the seats' rules) before its
    # first frame.  Kept in a global once imported: an import statement costs 2% of
    # a deal.
    global _shake_128
    import hashlib

    _shake_128 = hashlib.shake_128
    return _shake_128


def _order(digest: bytes) -> bytes:
    """The shuffled deck, one card a byte: the cards sorted by their keys in ``digest``."""
    doubles = bytearray(_TEMPLATE)
    # byte k of every card's key goes to byte 2 + k of its double (key bytes
    # little-endian, so the key's top byte is the mantissa's top random byte);
    # four statements rather than a loop, 3% cheaper
    doubles[2::8] = digest[0:_KEYS_END:_KEY_BYTES]
    doubles[3::8] = digest[1:_KEYS_END:_KEY_BYTES]
    doubles[4::8] = digest[2:_KEYS_END:_KEY_BYTES]
    doubles[5::8] = digest[3:_KEYS_END:_KEY_BYTES]
    return _DOUBLES.pack(*sorted(_DOUBLES.unpack(doubles)))[0::8]


def shuffled_deck(seed: int) -> list[int]:
    """All 105 cards in the order ``seed`` shuffles them to."""
    return list(_order(_digest(seed)))


def check_deal(tanks: Sequence[Sequence[int]], pile: Sequence[int], first: int) -> None:
    """``ValueError`` unless this is a deal: 2 to 6 tanks of 4 cards, the other
    cards in the pile, each of the 105 exactly once, and a first seat at the table.

    The one check of a deal, for a game started from one and a record read.
    """
    players = len(tanks)
    if not valid_seat_count(players):
        raise ValueError(f"Mantis is played by {SEAT_RANGE} players, not {players}")
    if any(len(t) != HAND_SIZE for t in tanks):
        raise ValueError(f"every tank must be dealt {HAND_SIZE} cards")
    want = NUM_CARDS - HAND_SIZE * players
    if len(pile) != want:
        raise ValueError(f"the pile must hold {want} cards, not {len(pile)}")
    every = [card for t in tanks for card in t] + list(pile)
    if any(type(c) is not int or not 0 <= c < NUM_CARDS for c in every):
        raise ValueError("a card number is out of range")
    if len(set(every)) != NUM_CARDS:
        raise ValueError("the deal repeats a card (each of the 105 must appear once)")
    if type(first) is not int or not 0 <= first < players:
        raise ValueError(f"first seat {first} is not at a table of {players}")


def dealt_deck(players: int, seed: int) -> tuple[bytes, int]:
    """The deal as one ``bytes``: the tanks' cards seat by seat, then the pile top
    first (one card a byte); and the first seat.  What ``deal`` cuts up."""
    if not valid_seat_count(players):
        raise ValueError(f"Mantis is played by {SEAT_RANGE} players, not {players}")
    digest = _digest(seed)
    # 64 bits reduced mod 2..6: the bias is below 2**-61
    return _order(digest), int.from_bytes(digest[_KEYS_END:], "little") % players


def deal(players: int, seed: int) -> tuple[list[list[int]], list[int], int]:
    """Shuffle and deal: (tanks per seat, draw pile top first, first seat)."""
    deck, first = dealt_deck(players, seed)
    dealt = HAND_SIZE * players
    tanks = [list(deck[i : i + HAND_SIZE]) for i in range(0, dealt, HAND_SIZE)]
    return tanks, list(deck[dealt:]), first
