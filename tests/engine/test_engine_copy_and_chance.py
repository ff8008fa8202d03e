"""``Game.copy`` (searches branch from a position) and ``Game.put_on_top`` (the pile as chance)."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from mantis.engine import SCORE, CardRevealed, Game, record_of, steal
from mantis.engine.record import parse_record
from mantis.engine.seat_count import SEAT_COUNTS


def test_a_copy_plays_on_without_touching_the_original():
    game = Game.new(3, 12)
    for _ in range(5):
        game.play(SCORE)
    before = (game.describe(), game.history, game.view())
    twin = game.copy()
    assert twin.describe() == game.describe()
    while not twin.over:
        twin.play(steal((twin.to_move + 1) % 3))
    assert (game.describe(), game.history, game.view()) == before
    game.play(SCORE)  # and the original still plays
    assert game.turn == 6


@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_the_original_plays_on_as_if_never_copied(n):
    """What the rules change in place (tanks' colour groups, scores, pile,
    history) is the copy's own: the original then plays the very game it would
    have played."""
    game, alone = Game.new(n, 50 + n), Game.new(n, 50 + n)
    rng = random.Random(n)
    for _ in range(6):
        action = rng.choice(game.legal_actions())
        game.play(action)
        alone.play(action)
    twin = game.copy()
    while not twin.over:
        twin.play(rng.choice(twin.legal_actions()))
    game.check_accounting()
    while not game.over:
        action = rng.choice(game.legal_actions())
        game.play(action)
        alone.play(action)
    assert (game.describe(), game.history, game.view()) == (
        alone.describe(),
        alone.history,
        alone.view(),
    )
    game.check_accounting()


def test_a_copy_has_no_subscribers_and_deepcopy_and_pickle_give_the_same_game():
    game = Game.new(2, 3)
    heard = []
    game.subscribe(heard.append)
    game.play(SCORE)
    heard_before = list(heard)
    for twin in (game.copy(), copy.deepcopy(game), pickle.loads(pickle.dumps(game.copy()))):
        assert twin.describe() == game.describe()
        twin.play(SCORE)
    assert heard == heard_before  # the copies' moves reach no subscriber of the original


def test_the_card_put_on_top_is_the_next_card_turned():
    game = Game.new(4, 5)
    for card in (game.view().unseen[-1], game.view().unseen[0]):
        game.put_on_top(card)
        revealed = [e for e in game.apply(SCORE) if isinstance(e, CardRevealed)]
        assert revealed[0].card == card
        game.check_accounting()


def test_a_game_whose_cards_were_chosen_replays_from_its_record():
    rng = random.Random(7)
    game = Game.new(3, 1)
    while not game.over:
        game.put_on_top(rng.choice(game.view().unseen))
        actions = game.legal_actions()
        game.play(actions[rng.randrange(len(actions))])
    record = record_of(game)
    replayed = parse_record(record.to_json()).replay()
    assert replayed.history == game.history
    assert (replayed.winners, replayed.scores) == (game.winners, game.scores)
    # the cards were drawn in the order chosen, not in the seed's
    assert record.pile != Game.new(3, 1).initial_pile


def test_only_a_card_still_in_the_pile_can_be_put_on_top():
    game = Game.new(2, 9)
    dealt = game.initial_tanks[0][0]
    with pytest.raises(ValueError, match="not in the draw pile"):
        game.put_on_top(dealt)
    with pytest.raises(ValueError, match="not in the draw pile"):
        game.put_on_top(105)
    game.play(SCORE)
    turned = game.initial_pile[0]
    with pytest.raises(ValueError, match="not in the draw pile"):
        game.put_on_top(turned)
    while not game.over:
        game.play(SCORE)
    with pytest.raises(ValueError, match="the game is over"):
        game.put_on_top(game.view().unseen[0] if game.view().unseen else 0)
