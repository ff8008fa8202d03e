"""Seeds and the deal: deterministic, pinned, and the right shape for every table."""

from __future__ import annotations

import pytest

from mantis.engine import Game, bot_rng, card_code, deal, game_seed

# deal(4, 0), pinned: any machine and any Python >= 3.11 must deal exactly this.
SEED0_4P_TANKS = [
    ["Y:BPY", "K:GKO", "P:RGP", "O:GPO"],
    ["Y:BYO", "Y:RYO", "O:KYO", "Y:KYO"],
    ["O:GKO", "R:RPK", "O:RKO", "K:GBK"],
    ["Y:RBY", "B:RBO", "P:PYO", "R:RKO"],
]
SEED0_4P_PILE_TOP = ["O:BYO", "G:GPK", "R:RBY", "Y:PKY", "P:PKO", "Y:BKY", "R:RPY", "R:RGK"]
SEED0_4P_FIRST = 2


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


@pytest.mark.parametrize("n", range(2, 7))
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


@pytest.mark.parametrize("n", range(2, 7))
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
