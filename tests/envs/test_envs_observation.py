"""The observation: its bounds, and an encoder that reuses the last position never goes stale."""

from __future__ import annotations

import random

import numpy as np

from mantis.engine import Game, legal_actions_for
from mantis.envs.observation import HIGH, LOW, SIZE, Encoder, describe, encode


def positions(seed: int, players: int) -> list:
    """Every view of a game of random moves, the last (over) included."""
    rng = random.Random(seed)
    game = Game.new(players, seed)
    views = [game.view()]
    while not game.over:
        moves = legal_actions_for(players, game.to_move)
        game.play(moves[rng.randrange(len(moves))])
        views.append(game.view())
    return views


def test_an_encoder_given_positions_in_any_order_agrees_with_a_fresh_count():
    views = [(v, s) for n in (2, 3, 6) for v in positions(n, n) for s in range(n)]
    in_order = Encoder()
    shuffled = Encoder()
    for view, seat in views:  # in play order: the tanks and the pile are reused
        assert np.array_equal(in_order.encode(view, seat), encode(view, seat))
    random.Random(0).shuffle(views)
    for view, seat in views:  # out of order, and games interleaved: counted afresh
        assert np.array_equal(shuffled.encode(view, seat), encode(view, seat))


def test_every_observation_is_within_the_bounds_and_counts_what_the_view_holds():
    for players in (2, 4, 6):
        encoder = Encoder()
        for view in positions(10 + players, players):
            obs = encoder.encode(view, view.to_move)
            assert obs.shape == (SIZE,) and obs.dtype == np.uint8
            assert (obs >= LOW).all() and (obs <= HIGH).all()
            fields = describe(obs)
            assert fields["pile"] == view.pile_size == len(fields["unseen_cards"])
            assert sum(fields["unseen_faces"]) == view.pile_size
            assert sum(map(sum, fields["tanks"])) + sum(fields["scores"]) + view.pile_size == 105
            assert (fields["top_back"] == [0] * 7) == view.over


def test_an_observation_can_be_changed_by_whoever_holds_it_without_touching_the_next():
    encoder = Encoder()
    view = positions(1, 2)[3]
    first = encoder.encode(view, 0)
    first[:] = 0
    assert encoder.encode(view, 0).any()
