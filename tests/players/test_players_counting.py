"""Card counting: the odds bots use equal brute-force counts from the deal history."""

from __future__ import annotations

from fractions import Fraction

from botkit import random_positions
from facekit import brute_force_face_odds

from mantis.engine import BACKS, NUM_CARDS, Game
from mantis.players.bots.expert import next_card_odds
from mantis.players.counting import naive_face_odds, top_face_odds, unseen_face_counts


def _brute_force_unseen(game: Game) -> list[int]:
    """The unseen cards, rebuilt from the deal and the cards played so far."""
    shown = {card for tank in game.initial_tanks for card in tank}
    shown |= set(game.initial_pile[: game.turn])  # one card is revealed per action
    return [card for card in range(NUM_CARDS) if card not in shown]


def test_top_face_odds_match_brute_force() -> None:
    checked = 0
    for game in random_positions(400, 11):
        view = game.view()
        unseen = _brute_force_unseen(game)
        assert list(view.unseen) == unseen
        back = view.top_back
        assert back == game.initial_pile[game.turn] // 3
        expected = brute_force_face_odds(unseen, back)
        got = {colour: Fraction(p).limit_denominator(6) for colour, p in top_face_odds(view)}
        assert got == expected
        assert abs(sum(p for _, p in top_face_odds(view)) - 1) < 1e-12
        assert {
            c: Fraction(p).limit_denominator(6) for c, p in view.face_probabilities().items() if p
        } == expected
        # the true face is always among the possible ones
        assert game.initial_pile[game.turn] % 3 in [BACKS[back].index(c) for c in expected]
        checked += 1
    assert checked == 400


def test_unseen_face_counts_match_brute_force() -> None:
    for game in random_positions(300, 12):
        view = game.view()
        unseen = _brute_force_unseen(game)
        counts = [0] * 7
        for card in unseen:
            counts[BACKS[card // 3][card % 3]] += 1
        assert list(unseen_face_counts(view.seen)) == counts
        odds = next_card_odds(counts, len(unseen))
        assert abs(sum(odds) - 1) < 1e-12
        assert all(abs(o - c / len(unseen)) < 1e-12 for o, c in zip(odds, counts, strict=True))


def test_casual_does_not_count() -> None:
    for game in random_positions(50, 13):
        view = game.view()
        assert sorted(c for c, _ in naive_face_odds(view)) == list(BACKS[view.top_back])
        assert all(abs(p - 1 / 3) < 1e-12 for _, p in naive_face_odds(view))
