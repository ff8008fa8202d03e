"""Seeds, shuffling and the deal.

One ``random.Random`` per game, seeded with the game's seed, deals the cards
and picks the first seat; nothing else draws from it.  The same seed gives the
same deal on any machine and any Python >= 3.11, because only
``Random.randbytes`` (Mersenne Twister output) and ``Random.randrange`` are
used, and the bytes are read with an explicit byte order.

Shuffling: ``Random.shuffle`` costs one Python-level call per card, which is a
large share of a whole simulated game.  Instead each card gets a random 32-bit
key from one ``randbytes`` call and the deck is sorted by key (ties, which are
rare, keep card order, so the result is still deterministic).  This is a
uniform shuffle up to the negligible chance of a tie.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence

from .cards import NUM_CARDS

HAND_SIZE = 4
_KEYS = struct.Struct(f"<{NUM_CARDS}I")
_GAME_SEED_STRIDE = 1 << 32


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

    It never shares state with the deal's RNG.  String seeds go through
    SHA-512 in ``random``, so this is the same on every machine.
    """
    return random.Random(f"mantis-bot:{seed}:{seat}")


def shuffled_deck(rng: random.Random) -> list[int]:
    """All 105 cards in a random order drawn from ``rng``."""
    keys = _KEYS.unpack(rng.randbytes(_KEYS.size))
    return sorted(range(NUM_CARDS), key=keys.__getitem__)


def check_deal(tanks: Sequence[Sequence[int]], pile: Sequence[int], first: int) -> None:
    """``ValueError`` unless this is a deal: 2 to 6 tanks of 4 cards, the other
    cards in the pile, each of the 105 exactly once, and a first seat at the table.

    The one check of a deal, for a game started from one and a record read.
    """
    players = len(tanks)
    if not 2 <= players <= 6:
        raise ValueError(f"Mantis is played by 2 to 6 players, not {players}")
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


def deal(players: int, seed: int) -> tuple[list[list[int]], list[int], int]:
    """Shuffle and deal: (tanks per seat, draw pile top first, first seat)."""
    if not 2 <= players <= 6:
        raise ValueError(f"Mantis is played by 2 to 6 players, not {players}")
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    dealt = HAND_SIZE * players
    tanks = [deck[i : i + HAND_SIZE] for i in range(0, dealt, HAND_SIZE)]
    first = rng.randrange(players)
    return tanks, deck[dealt:], first
