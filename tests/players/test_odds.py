"""The odds panel's numbers equal brute-force enumeration of the unseen cards."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from mantis.engine import BACK, FACE, Game
from mantis.players.odds import odds_for


def play_randomly(players: int, seed: int, moves: int) -> Game:
    game = Game.new(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        actions = game.legal_actions()
        game.play(actions[rng.randrange(len(actions))])
    return game


def brute_force(game: Game) -> tuple[Fraction, Fraction, dict[int, tuple[Fraction, Fraction]]]:
    """Enumerate every card that could be on top, straight from the real pile."""
    in_pile = list(game.initial_pile[game.turn :])
    top_back = BACK[in_pile[0]]
    candidates = [card for card in in_pile if BACK[card] == top_back]
    view = game.view()
    n = len(candidates)

    def outcome(seat: int) -> tuple[Fraction, Fraction]:
        counts = view.tank_counts(seat)
        hits = [card for card in candidates if counts[FACE[card]]]
        cards = sum(counts[FACE[card]] + 1 for card in hits)
        return Fraction(len(hits), n), Fraction(cards, n)

    p, cards = outcome(game.to_move)
    steals = {t: outcome(t) for t in range(game.players) if t != game.to_move}
    return p, cards, steals


@settings(deadline=None, max_examples=300)
@given(st.integers(2, 6), st.integers(0, 10_000), st.integers(0, 60))
def test_odds_match_enumeration(players, seed, moves):
    game = play_randomly(players, seed, moves)
    odds = odds_for(game.view())
    if game.over:
        assert odds is None
        return
    p, cards, steals = brute_force(game)
    assert odds.p_score == p
    assert odds.expected_score_cards == cards
    assert {s.target: (s.p_match, s.expected_cards) for s in odds.steals} == steals
    assert sum(q for _, q in odds.faces) == 1


def test_a_counted_face_is_impossible():
    # Find a position where one face of the top back has already been seen.
    for seed in range(200):
        game = play_randomly(3, seed, 30)
        if game.over:
            continue
        view = game.view()
        faces = dict(odds_for(view).faces)
        if len(faces) < 3:
            assert all(q == Fraction(1, len(faces)) for q in faces.values())
            return
    raise AssertionError("no position with a counted face in 200 games")
