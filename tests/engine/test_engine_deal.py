"""Seeds and the deal: deterministic, pinned, and the right shape for every table."""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import pytest

from mantis.engine import Game, bot_rng, card_code, deal, game_seed
from mantis.engine.deal import shuffled_deck
from mantis.engine.seat_count import SEAT_COUNTS
from mantis.home.record_file import read_records

# deal(4, 0), pinned: any machine and any Python >= 3.11 must deal exactly this.
# (Deals changed once, from random.Random keys to SHAKE-128 keys: these are the new ones.)
SEED0_4P_TANKS = [
    ["O:GBO", "K:PKY", "R:RGY", "B:BPO"],
    ["K:BKO", "P:PKO", "P:RPK", "K:PKO"],
    ["P:BPO", "O:PYO", "O:BYO", "P:GPK"],
    ["G:GYO", "B:BKY", "P:RBP", "P:BPY"],
]
SEED0_4P_PILE_TOP = ["K:RGK", "P:BPK", "O:RGO", "Y:PKY", "Y:RPY", "G:GPY", "K:RPK", "B:GBK"]
SEED0_4P_FIRST = 2

DATA = Path(__file__).parent / "data"


def codes(deal_):
    tanks, pile, first = deal_
    return [[card_code(c) for c in t] for t in tanks], [card_code(c) for c in pile], first


def test_known_answer_seed_0_four_players():
    tanks, pile, first = codes(deal(4, 0))
    assert tanks == SEED0_4P_TANKS
    assert pile[:8] == SEED0_4P_PILE_TOP
    assert len(pile) == 89
    assert first == SEED0_4P_FIRST
    game = Game.new(4, 0)
    assert game.first == game.to_move == SEED0_4P_FIRST and game.seed == 0
    assert [[card_code(c) for c in t] for t in game.initial_tanks] == SEED0_4P_TANKS


@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_same_seed_same_deal_and_first_player(n):
    for seed in (0, 1, 12345, 2**40 + 3):
        assert deal(n, seed) == deal(n, seed)
        a, b = Game.new(n, seed), Game.new(n, seed)
        assert (a.initial_tanks, a.initial_pile, a.first) == (
            b.initial_tanks,
            b.initial_pile,
            b.first,
        )
        tanks, pile, first = deal(n, seed)
        assert a.initial_tanks == tuple(tuple(t) for t in tanks)
        assert a.initial_pile == tuple(pile) and a.first == first


def test_different_seeds_give_different_deals():
    deals = {
        tuple(c for t in deal(4, seed)[0] for c in t) + tuple(deal(4, seed)[1])
        for seed in range(200)
    }
    assert len(deals) == 200
    firsts = {deal(4, seed)[2] for seed in range(200)}
    assert firsts == {0, 1, 2, 3}


@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_every_player_count_deals_4_per_seat_and_the_rest_to_the_pile(n):
    for seed in range(20):
        tanks, pile, first = deal(n, seed)
        assert len(tanks) == n and all(len(t) == 4 for t in tanks)
        assert len(pile) == 105 - 4 * n
        assert sorted([c for t in tanks for c in t] + pile) == list(range(105))
        assert 0 <= first < n
        game = Game.new(n, seed)
        assert game.view().pile_size == 105 - 4 * n
        assert game.tank_sizes == (4,) * n
        game.check_accounting()
    assert {105 - 4 * k for k in (2, 6)} == {97, 81}


@pytest.mark.parametrize("n", [0, 1, 7, 8])
def test_deal_rejects_bad_player_counts(n):
    with pytest.raises(ValueError):
        deal(n, 0)
    with pytest.raises(ValueError):
        Game.new(n, 0)


def test_game_seed_formula():
    assert game_seed(0, 0) == 0
    assert game_seed(0, 17) == 17
    assert game_seed(1, 0) == 2**32
    assert game_seed(3, 5) == 3 * 2**32 + 5
    assert game_seed(12345, 2**32 - 1) == 12345 * 2**32 + 2**32 - 1
    for base in range(5):
        for index in (0, 1, 999):
            assert game_seed(base, index) == base * 2**32 + index
    with pytest.raises(ValueError):
        game_seed(-1, 0)
    with pytest.raises(ValueError):
        game_seed(0, 2**32)
    with pytest.raises(ValueError):
        game_seed(0, -1)


def test_bot_rng_is_deterministic_and_separate_per_seat():
    assert bot_rng(5, 1).random() == bot_rng(5, 1).random()
    assert bot_rng(5, 1).random() != bot_rng(5, 2).random()
    assert bot_rng(5, 1).random() != bot_rng(6, 1).random()


def _reference_deal(players: int, seed: int) -> tuple[list[list[int]], list[int], int]:
    """The deal as specified, the slow plain way: SHAKE-128 of ``mantis-deal:<seed>``,
    a little-endian 32-bit key per card (ties by card number), then 8 bytes for the first seat."""
    digest = hashlib.shake_128(f"mantis-deal:{seed}".encode()).digest(105 * 4 + 8)
    keys = struct.unpack("<105I", digest[:420])
    deck = sorted(range(105), key=lambda card: (keys[card], card))
    tanks = [deck[4 * s : 4 * s + 4] for s in range(players)]
    return tanks, deck[4 * players :], int.from_bytes(digest[420:], "little") % players


@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_the_deal_is_the_specified_sort_by_shake_128_keys(n):
    for seed in (0, 1, 7, 999, 2**32 + 5, 2**70 + 1):
        assert deal(n, seed) == _reference_deal(n, seed)
    assert (
        shuffled_deck(123)
        == _reference_deal(2, 123)[0][0]
        + _reference_deal(2, 123)[0][1]
        + (_reference_deal(2, 123)[1])
    )


def test_a_record_dealt_before_the_deal_changed_still_replays():
    # written by the version that dealt from random.Random(seed): its deal is not
    # what seed 3 deals now, and the record, which holds its deal, replays as played
    (record,) = read_records(DATA / "dealt-before-shake.jsonl")
    assert record.seed == 3
    assert (record.tanks, record.pile) != (
        Game.new(2, 3).initial_tanks,
        Game.new(2, 3).initial_pile,
    )
    game = record.replay()
    assert game.over and game.winners == record.result.winners == (0,)
    assert game.initial_tanks == record.tanks and game.turn == 26
