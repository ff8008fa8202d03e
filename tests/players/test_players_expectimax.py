"""The depth-2 expectimax that measures how close ``expert`` plays to the best found
(``training.expectimax_vs_expert``): its values are the engine's, move by move."""

from __future__ import annotations

import math

import pytest
from botkit import random_positions

from mantis.engine import Game
from mantis.engine.cards import ALL_CARDS_MASK
from mantis.players.bots.expert import (
    ExpertBot,
    networks_by_players,
    next_card_odds,
    position_strengths,
)
from mantis.players.counting import unseen_face_counts
from training.expectimax_vs_expert import Expectimax, expert_pick


def _unseen(seen: int, back: int) -> list[int]:
    return [back * 3 + k for k in range(3) if not seen >> (back * 3 + k) & 1]


def _reference(game: Game) -> list[float]:
    """Two moves played out on the engine, card by card, every leaf valued by the network."""
    view = game.view()
    me, n = view.to_move, view.players
    net = networks_by_players()[n]
    expert = ExpertBot()

    def leaf(g: Game) -> float:
        if g.over:
            winners = g.winners or ()
            return 1 / len(winners) if me in winners else 0.0
        after = g.view()
        counts = [tuple(map(len, tank)) for tank in after.tanks]
        q = next_card_odds(unseen_face_counts(after.seen), after.pile_size)
        phase = after.pile_size / (105 - 4 * n)
        us = position_strengths(net, counts, after.scores, after.to_move, q, after.target, phase)
        return 1 / sum(math.exp(u - us[me]) for u in us)

    values = []
    for action in view.legal_actions():
        faces = _unseen(view.seen, view.top_back)
        total = 0.0
        for card in faces:
            g = game.copy()
            g.put_on_top(card)
            g.play(action)
            if g.over:
                total += leaf(g) / len(faces)
                continue
            seen = g.view().seen
            left = (ALL_CARDS_MASK ^ seen).bit_count()
            value = 0.0
            for back in range(35):
                cards = _unseen(seen, back)
                if not cards:
                    continue
                g.put_on_top(cards[0])
                second = g.view()

                def value_of(move, g=g, cards=cards):
                    out = 0.0
                    for face in cards:
                        g3 = g.copy()
                        g3.put_on_top(face)
                        g3.play(move)
                        out += leaf(g3) / len(cards)
                    return out

                if second.to_move == me:
                    best = max(value_of(m) for m in second.legal_actions())
                else:
                    best = value_of(expert.choose(second))
                value += len(cards) / left * best
            total += value / len(faces)
        values.append(total)
    return values


@pytest.mark.parametrize("players", [2, 3])
def test_the_search_values_each_move_as_the_engine_plays_it_out(players):
    games = [g for g in random_positions(60, 71) if g.players == players][:1]
    assert games
    for game in games:
        search = Expectimax(players).action_values(game)
        assert search == pytest.approx(_reference(game), abs=1e-9)


def test_the_search_breaks_ties_as_expert_does():
    assert expert_pick([0.5, 0.5 + 1e-13, 0.4]) == 0
    assert expert_pick([0.1, 0.3, 0.3]) == 1
