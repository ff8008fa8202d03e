"""The public view: immutable, plain data, no draw-pile order, exact card counting."""

from __future__ import annotations

import random

import msgspec
import pytest
from enginekit import faces, play_random, remaining_pile, table
from facekit import brute_force_face_odds

from mantis.engine import SCORE, Game, View, steal
from mantis.engine.cards import BACK, BACKS, FACE, card_code, parse_card

R, G, B, P, K = (faces(letter) for letter in "RGBPK")


def random_positions(count: int, seed: int = 0):
    """Games at random points: random seeds, players, numbers of random actions."""
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(2, 6)
        game = Game.new(n, rng.randrange(10**9))
        play_random(game, rng, stop=rng.randint(0, 105 - 4 * n))
        yield game


def walk(value, path="view"):
    """Yield (path, value) for every leaf and node of a view's data."""
    yield path, value
    if isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")


def test_view_is_immutable():
    game = Game.new(3, 5)
    view = game.view()
    assert isinstance(view, View)
    with pytest.raises(AttributeError):
        view.scores = (99, 0, 0)
    with pytest.raises(AttributeError):
        view.seat = 2
    assert hash(view) == hash(game.view())
    assert type(view.tanks) is tuple
    for tank in view.tanks:
        assert type(tank) is tuple and len(tank) == 7
        assert all(type(cards) is tuple for cards in tank)
    assert type(view.scores) is tuple


def test_a_view_is_a_snapshot_that_later_play_does_not_change():
    game = Game.new(4, 11)
    view = game.view()
    copy = msgspec.structs.replace(view)
    rng = random.Random(1)
    play_random(game, rng)
    assert view == copy
    assert game.view() != view


def test_view_holds_only_plain_tuples_ints_strings_bools_and_none():
    for game in random_positions(60):
        for seat in range(game.players):
            view = game.view(seat)
            for path, value in walk(msgspec.structs.astuple(view)):
                assert value is not game, path
                assert type(value) in (tuple, int, str, bool, type(None)), (path, type(value))
                assert not isinstance(value, list | dict | set | random.Random), path


def test_view_fields():
    game = table([[R[0], G[0]], [], []], top=[P[0]], first=1)
    view = game.view(0)
    assert view.seat == 0 and view.to_move == 1 and view.players == 3 and view.target == 10
    assert view.pile_size == 93 and view.top_back == BACK[parse_card(P[0])]
    assert view.scores == (0, 0, 0) and view.turn == 0
    assert view.winners is None and view.reason is None and not view.over
    assert not view.extra_turn
    assert view.tank_counts(0) == (1, 1, 0, 0, 0, 1, 1)
    assert view.tank_size(0) == 4
    assert game.view().seat == 1


def test_views_do_not_depend_on_the_order_of_the_pile_below_the_top_back():
    """Two piles with the same cards, the same top back and a different order give
    identical views: the draw order (and even the top card's face) is not in the view."""
    a = table([[], [], []], top=[R[0], G[0], B[1], P[2]])  # R:RGB, G:RGB on top
    b = table([[], [], []], top=[G[0], R[0], P[2], B[1]])
    assert a.initial_pile != b.initial_pile
    assert a.view() == b.view()
    for seat in range(3):
        assert a.view(seat) == b.view(seat)


def test_unseen_is_exactly_the_cards_still_in_the_pile():
    for game in random_positions(80, seed=1):
        view = game.view()
        pile = remaining_pile(game)
        assert view.unseen == tuple(sorted(pile))
        assert view.pile_size == len(pile)
        assert view.top_back == (BACK[pile[0]] if pile and not game.over else None)


def brute_force_probabilities(pile: tuple[int, ...], back: int) -> dict[int, float]:
    """The brute-force odds, with the back's impossible faces at 0 (as the view gives them)."""
    odds = brute_force_face_odds(pile, back)
    if not odds:
        return {}
    return {colour: float(odds.get(colour, 0)) for colour in BACKS[back]}


def test_face_probabilities_match_brute_force_counts_over_the_unseen_cards():
    checked = 0
    for game in random_positions(150, seed=2):
        pile = remaining_pile(game)
        view = game.view()
        if not pile:
            assert view.face_probabilities() == {}
            continue
        if game.over:  # nobody draws again, so there is no top card to judge
            assert view.face_probabilities() == {}
        else:
            expected = brute_force_probabilities(pile, BACK[pile[0]])
            got = view.face_probabilities()
            assert got.keys() == expected.keys()
            for colour in expected:
                assert got[colour] == pytest.approx(expected[colour])
            assert sum(got.values()) == pytest.approx(1)
            assert got[FACE[pile[0]]] > 0  # the real face is always possible
        for back in range(35):  # any back, on request
            expected = brute_force_probabilities(pile, back)
            got = view.face_probabilities(back)
            assert got.keys() == expected.keys()
            assert all(got[c] == pytest.approx(expected[c]) for c in expected)
        checked += 1
    assert checked > 100


def test_face_probabilities_by_hand():
    # R:RGB is dealt face up, so a top card with back RGB is green or blue, 50/50.
    game = table([[R[0]], [], []], top=[G[0], B[0]])
    assert game.view().face_probabilities() == {0: 0.0, 1: 0.5, 2: 0.5}
    game.apply(SCORE)  # G:RGB revealed: the next top card (back RGB) must be blue
    assert game.view().face_probabilities() == {0: 0.0, 1: 0.0, 2: 1.0}
    game.apply(steal(0))
    assert game.view().face_probabilities(0) == {}
    assert card_code(game.initial_pile[1]) == "B:RGB"
