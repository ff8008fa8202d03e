"""Each option's chance equals an independent brute-force computation on hand-made positions."""

from __future__ import annotations

from fractions import Fraction

import pytest
from facekit import brute_force_face_odds
from reviewkit import (
    brute_force_options,
    finish,
    game_of,
    hand_made,
    positions_along_games,
    steal_only_until,
)

from mantis.engine import BACK, COLOUR_LETTERS, FACE, SCORE, steal
from mantis.players.bots.expert import ExpertBot
from mantis.review import option_values, position_chances, review_game

# Three players, seat 0 to move; the top card's back is RGB and G:RGB is in seat 1's
# tank, so its face is red or blue, one in two each.
HALF_AND_HALF = (
    [
        ["R:RGP", "R:RGK", "B:RBP", "Y:RKY"],
        ["G:RGB", "G:GBP", "B:GBK", "O:GBO"],
        ["P:RPK", "K:GPK", "Y:BPY", "O:PYO"],
    ],
    ["B:RGB"],
)
# The same, but R:RGB is in seat 2's tank too: the top card can only be blue.
CERTAIN = (
    [
        ["R:RGP", "R:RGK", "B:RBP", "Y:RKY"],
        ["G:RGB", "G:GBP", "B:GBK", "O:GBO"],
        ["R:RGB", "K:GPK", "Y:BPY", "O:PYO"],
    ],
    ["B:RGB"],
)
# Seat 0 scores five reds, steals seat 1's three blues, and after six moves holds four
# blues with a score of 5: a blue face (one in three under a BKO back) wins at once.
WIN_IN_REACH = (
    [
        ["R:RGB", "R:RGP", "R:RGK", "R:RGY"],
        ["B:RBP", "B:GBP", "B:GBK", "P:GPK"],
        ["K:RPK", "Y:RKY", "O:RKO", "G:GYO"],
    ],
    ["R:RGO", "Y:GPY", "P:BPO", "B:BPK", "R:RPO", "R:RKY", "B:BKO"],
    [SCORE, SCORE, SCORE, steal(1), SCORE, SCORE],
)


def assert_matches_brute_force(game) -> None:
    expected = brute_force_options(game)
    values = option_values(game.view())
    assert [v.action for v in values] == list(expected)
    for value in values:
        assert value.chances[game.to_move] == pytest.approx(expected[value.action], abs=1e-9)


@pytest.mark.parametrize("position", [HALF_AND_HALF, CERTAIN], ids=["half-and-half", "certain"])
def test_options_over_the_faces_exact_odds(position):
    tanks, top = position
    deal = hand_made(tanks, top)
    game = game_of(*deal, first=0, actions=())
    assert_matches_brute_force(game)
    pile = game.initial_pile
    odds = brute_force_face_odds(pile, BACK[pile[0]])
    for value in option_values(game.view()):
        assert {f.colour: Fraction(f.probability).limit_denominator(10) for f in value.faces} == (
            odds
        )
        assert sum(f.probability for f in value.faces) == pytest.approx(1.0)


def test_the_face_odds_are_the_ones_the_review_reports_for_the_turned_card():
    tanks, top = HALF_AND_HALF
    record = finish(game_of(*hand_made(tanks, top), first=0, actions=()))
    card = review_game(record).cards[0]
    assert {COLOUR_LETTERS[c]: p for c, p in card.faces} == {"R": 0.5, "B": 0.5}
    assert card.card == record.pile[0]


def test_a_win_reached_is_worth_exactly_one():
    tanks, top, actions = WIN_IN_REACH
    game = game_of(*hand_made(tanks, top), first=0, actions=actions)
    view = game.view()
    assert (view.to_move, view.scores[0], view.tank_counts(0)[2]) == (0, 5, 4)
    assert_matches_brute_force(game)
    score = option_values(view)[0]
    blue = score.outcome(2)
    assert blue.probability == pytest.approx(1 / 3)
    assert blue.chances == (1.0, 0.0, 0.0)
    # the other two faces leave the game going: valued, and below a sure win
    assert all(0 < f.chances[0] < 1 for f in score.faces if f.colour != 2)


@pytest.mark.parametrize("players", [2, 3])
def test_the_last_card_is_valued_exactly_by_the_deck_out_rule(players):
    game = steal_only_until(players, seed=5, cards_left=1)
    assert_matches_brute_force(game)
    values = option_values(game.view())
    mover = game.to_move
    for value in values:
        assert value.chances[mover] in (0.0, 1.0)
        played = steal_only_until(players, seed=5, cards_left=1)
        played.play(value.action)
        assert played.over
        assert value.chances == tuple(
            1.0 if s in (played.winners or ()) else 0.0 for s in range(players)
        )


def test_the_movers_numbers_are_the_experts_to_the_last_bit():
    expert = ExpertBot()
    for game in positions_along_games(3, seed=22):
        view = game.view()
        mine = [v.chances[view.to_move] for v in option_values(view)]
        assert mine == expert.action_values(view)


def test_a_position_after_a_move_is_valued_as_the_option_valued_it():
    """The chart's value of a real position equals the option's value for the face that
    came up (so the chart, the options and the luck are one set of numbers)."""
    for game in list(positions_along_games(1, seed=3))[::3]:
        face_of_top = FACE[game.initial_pile[game.turn]]
        for value in option_values(game.view()):
            after = game_of(game.initial_tanks, game.initial_pile, game.first, [])
            for seat, action in game.history:
                after.play(action, seat)
            after.play(value.action)
            expected = position_chances(after.view())
            assert value.outcome(face_of_top).chances == pytest.approx(expected, abs=1e-12)
