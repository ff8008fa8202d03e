"""Mantis batched plays the engine's games: same seeds, same actions, same everything.

Every step of every game of a batch is played again on the engine's own
``Game`` for the same seed, and compared: the move's events, the tanks, the
scores, the seat to move, the seen cards, the end, its reason and winners,
and every seat's observation against the environments' ``encode`` of the
engine's view.  The actions are random legal ones, some games leaning to
steals so that piles run out (deck-outs, ties broken by tanks, shared wins).
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from mantis.engine import Game, IllegalActionError, game_seed
from mantis.engine.cards import FACE
from mantis.engine.deal import dealt_deck
from mantis.engine.events import (
    CardRevealed,
    ExtraTurn,
    GameOver,
    Scored,
    ScoreMissed,
    StealMissed,
    Stolen,
    TurnStarted,
)
from mantis.envs.actions import to_engine
from mantis.envs.batched import DECK_OUT, REASONS, TARGET_REACHED, MantisBatch
from mantis.envs.observation import encode
from mantis.envs.rewards import win_shares


def check_position(batch: MantisBatch, g: int, game: Game) -> None:
    view = game.view()
    assert batch.seeds[g] == game.seed
    assert batch.tanks[g].tolist() == [list(map(len, tank)) for tank in view.tanks]
    assert batch.scores[g].tolist() == list(view.scores)
    assert batch.to_move[g] == view.to_move
    assert bool(batch.extra[g]) == view.extra_turn
    assert batch.turn[g] == view.turn
    assert batch.pile_size[g] == view.pile_size
    assert bool(batch.over[g]) == view.over
    unseen = [c for c in range(105) if not view.seen >> c & 1]
    assert np.flatnonzero(batch.unseen[g]).tolist() == unseen
    assert batch.top_back[g] == (-1 if view.top_back is None else view.top_back)


def check_events(step, g: int, events: list, players: int) -> None:
    """The step's row ``g`` says what the engine's events for the same move say."""
    revealed = events[0]
    assert isinstance(revealed, CardRevealed)
    assert (step.mover[g], step.card[g], step.victim[g]) == (
        revealed.seat,
        revealed.card,
        revealed.into,
    )
    outcome = events[1]
    if isinstance(outcome, Scored | Stolen):
        assert step.hit[g] and step.taken[g] == len(outcome.cards)
        assert outcome.colour == FACE[revealed.card]
        assert isinstance(outcome, Scored) == (step.action[g] == 0)
    else:
        assert isinstance(outcome, ScoreMissed | StealMissed)
        assert not step.hit[g] and step.taken[g] == 0
    assert bool(step.extra_turn[g]) == any(isinstance(e, ExtraTurn) for e in events)
    over = [e for e in events if isinstance(e, GameOver)]
    assert bool(step.ended[g]) == bool(over)
    if over:
        end = over[0]
        assert REASONS[step.reason[g]] == end.reason
        assert np.flatnonzero(step.winners[g]).tolist() == list(end.winners)
        assert step.rewards[g].tolist() == pytest.approx(win_shares(end.winners, players))
        assert step.final_scores[g].tolist() == list(end.scores)
        assert step.final_tank_sizes[g].tolist() == list(end.tank_sizes)
        assert step.turns[g] == end.turns
    else:
        assert isinstance(events[-1], TurnStarted)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_step_is_the_engines(players):
    games = 12
    rng = np.random.default_rng(players)
    batch = MantisBatch(games, players, seed=players)
    engine = [Game.new(players, game_seed(players, g)) for g in range(games)]
    # per game, the chance of scoring: some games mostly steal, so piles run out
    lean = rng.choice([0.05, 0.3, 0.5, 0.9], size=games)
    seen_reasons = set()
    shared = extra = 0
    for turn in range(400):
        for g in range(games):
            check_position(batch, g, engine[g])
        for seat in range(players) if turn % 3 == 0 else ():
            observed = batch.observe(seat)
            for g in range(games):
                assert observed[g].tolist() == encode(engine[g].view(), seat).tolist()
        assert (batch.observe() == batch.observe(batch.to_move)).all()
        assert batch.action_mask()[:, :players].all() and not batch.action_mask()[:, players:].any()
        steal = rng.integers(1, players, size=games)
        actions = np.where(rng.random(games) < lean, 0, steal)
        step = batch.step(actions)
        for g in range(games):
            action = to_engine(players, engine[g].to_move, int(actions[g]))
            assert step.seeds[g] == engine[g].seed
            events = engine[g].apply(action)
            check_events(step, g, events, players)
            extra += bool(step.extra_turn[g])
            if step.ended[g]:
                seen_reasons.add(int(step.reason[g]))
                shared += int(step.winners[g].sum()) > 1
                assert step.reset[g]
                engine[g] = Game.new(players, int(batch.seeds[g]))
    assert seen_reasons == {TARGET_REACHED, DECK_OUT}
    if players == 2:
        assert extra > 0
    else:
        assert extra == 0


def test_the_seed_stream_deals_the_engines_games_in_order():
    batch = MantisBatch(3, 2, seed=5)
    assert batch.seeds.tolist() == [game_seed(5, i) for i in range(3)]
    # play score until games end: the ended games get the next seeds, lowest first
    dealt = 3
    while dealt < 8:
        step = batch.step(np.zeros(3, dtype=int))
        for g in np.flatnonzero(step.ended):
            assert batch.seeds[g] == game_seed(5, dealt)
            dealt += 1
    batch.reset(seeds=[7, 8, 9])
    assert batch.seeds.tolist() == [7, 8, 9]
    check_position(batch, 1, Game.new(2, 8))


def test_deals_are_the_engines_key_ties_included():
    # 96170 and 806169: deals in which two cards draw the same sort key (about one
    # in 790,000), whose order the engine keeps in card order
    seeds = [*range(600), 96170, 806169, 2**40 + 3]
    for players in (2, 5):
        batch = MantisBatch(len(seeds), players)
        batch.reset(seeds=seeds)
        for g, seed in enumerate(seeds):
            deck, first = dealt_deck(players, seed)
            assert batch.deck[g].tolist() == list(deck)
            assert batch.to_move[g] == first


def test_without_autoreset_an_ended_game_waits_and_ignores_its_actions():
    batch = MantisBatch(4, 3, seed=1, autoreset=False)
    while not batch.over.all():
        before = batch.turn.copy()
        over = batch.over.copy()
        step = batch.step(np.where(over, 99, 0))  # an over game's action is not looked at
        assert (batch.turn[over] == before[over]).all() and not step.moved[over].any()
        assert not step.reset.any()
    assert (batch.action_mask() == 0).all()
    assert (batch.observe()[:, 48:62] == 0).all()  # no top card once over


def test_an_illegal_action_is_refused_and_changes_nothing():
    batch = MantisBatch(4, 3, seed=2)
    before = pickle.dumps(batch)
    with pytest.raises(IllegalActionError, match="game 2: action 3"):
        batch.step(np.array([0, 1, 3, 2]))
    with pytest.raises(ValueError, match="one action per game"):
        batch.step(np.array([0, 1]))
    assert pickle.dumps(batch) == before


def test_a_batch_pickles_mid_game_and_plays_on_the_same():
    batch = MantisBatch(5, 4, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(20):
        batch.step(rng.integers(0, 4, size=5))
    copy = pickle.loads(pickle.dumps(batch))
    actions = rng.integers(0, 4, size=5)
    assert (copy.step(actions).card == batch.step(actions).card).all()
    assert (copy.observe() == batch.observe()).all()


def test_deck_out_winners_are_the_engines_shared_wins_included():
    from mantis.engine.game import deck_out_winners
    from mantis.envs.batched import _deck_out_winners

    rng = np.random.default_rng(0)
    for players in (2, 3, 6):
        # small ranges: many rows level on score, on tank, or on both
        scores = rng.integers(0, 3, size=(300, players))
        sizes = rng.integers(0, 3, size=(300, players))
        ours = _deck_out_winners(scores, sizes)
        for row in range(300):
            want = deck_out_winners(scores[row].tolist(), sizes[row].tolist())
            assert np.flatnonzero(ours[row]).tolist() == list(want)
        assert (ours.sum(axis=1) > 1).any()
