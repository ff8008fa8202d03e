"""Properties over random seeds, table sizes and legal action sequences (hypothesis)."""

from __future__ import annotations

from collections import Counter

from enginekit import play_choices, remaining_pile, state
from hypothesis import given, settings
from hypothesis import strategies as st

from mantis.engine import GameOver, Score, Steal, record_of
from mantis.engine.cards import FACE
from mantis.engine.game import Game
from mantis.engine.record import parse_record

seeds = st.integers(min_value=0, max_value=2**64)
player_counts = st.integers(min_value=2, max_value=6)
choices = st.lists(st.integers(min_value=0, max_value=5), max_size=120)
fast = settings(deadline=None, max_examples=120)


def count_everything(game: Game) -> None:
    """My own accounting: tanks + score piles + pile = 105, every card once."""
    view = game.view()
    on_table = [c for tank in view.tanks for cards in tank for c in cards]
    pile = remaining_pile(game)
    assert len(on_table) == len(set(on_table))
    assert not set(on_table) & set(pile)
    assert len(on_table) + sum(view.scores) + len(pile) == 105
    assert view.pile_size == len(pile)
    assert sum(view.scores) + len(on_table) == 4 * game.players + game.turn
    for tank in view.tanks:
        for colour, cards in enumerate(tank):
            assert all(FACE[c] == colour for c in cards)


@fast
@given(seed=seeds, n=player_counts, picks=choices)
def test_every_card_is_accounted_for_exactly_once_after_every_action(seed, n, picks):
    game = Game.new(n, seed)
    game.check_accounting()
    count_everything(game)
    i = 0
    while not game.over:
        legal = game.legal_actions()
        game.play(legal[(picks[i % len(picks)] if picks else 0) % len(legal)])
        i += 1
        game.check_accounting()
        count_everything(game)


@fast
@given(seed=seeds, n=player_counts, picks=choices)
def test_every_game_ends_with_a_winner_within_the_pile(seed, n, picks):
    game = Game.new(n, seed)
    events = []
    game.subscribe(events.append)
    play_choices(game, picks)
    assert game.over and game.winners
    assert game.turn <= 105 - 4 * n
    assert list(game.winners) == sorted(set(game.winners))
    assert all(0 <= w < n for w in game.winners)
    over = [e for e in events if isinstance(e, GameOver)]
    assert over == [events[-1]]
    assert over[0] == GameOver(game.winners, game.reason, game.scores, game.tank_sizes, game.turn)
    if game.reason == "target":
        (winner,) = game.winners
        assert game.scores[winner] >= game.target
        assert all(s < game.target for seat, s in enumerate(game.scores) if seat != winner)
        seat, action = game.history[-1]
        assert seat == winner and isinstance(action, Score)
    else:
        assert game.reason == "deck_out"
        assert game.turn == 105 - 4 * n
        assert max(game.scores) < game.target
        best = max(game.scores)
        leaders = [s for s in range(n) if game.scores[s] == best]
        biggest = max(game.tank_sizes[s] for s in leaders)
        assert game.winners == tuple(s for s in leaders if game.tank_sizes[s] == biggest)


@fast
@given(seed=seeds, n=player_counts, picks=choices)
def test_turn_order_and_extra_turns(seed, n, picks):
    game = Game.new(n, seed)
    history_seats = []
    while not game.over:
        mover = game.to_move
        before = game.view().tanks
        legal = game.legal_actions()
        action = legal[(picks[game.turn % len(picks)] if picks else 0) % len(legal)]
        card = game.initial_pile[game.turn]
        game.play(action)
        history_seats.append(mover)
        if game.over:
            break
        stole = isinstance(action, Steal) and bool(before[action.target][FACE[card]])
        if n == 2 and stole:
            assert game.to_move == mover and game.view().extra_turn
        else:
            assert game.to_move == (mover + 1) % n and not game.view().extra_turn
    assert [seat for seat, _ in game.history] == history_seats


@fast
@given(seed=seeds, n=player_counts, picks=choices, stop=st.integers(0, 110))
def test_records_round_trip_and_replay_the_same_game(seed, n, picks, stop):
    game = play_choices(Game.new(n, seed), picks, stop=stop)
    record = record_of(game)
    assert (record.result is None) == (not game.over)
    again = parse_record(record.to_json())
    assert again == record
    assert state(again.replay()) == state(game)
    assert again.to_json() == record.to_json()


@fast
@given(seed=seeds, n=player_counts, picks=choices)
def test_same_seed_and_same_actions_give_the_same_game(seed, n, picks):
    a = play_choices(Game.new(n, seed), picks)
    b = Game.new(n, seed)
    for seat, action in a.history:
        b.apply(action, seat=seat)
    assert state(a) == state(b)
    assert state(play_choices(Game.new(n, seed), picks)) == state(a)


@fast
@given(seed=seeds, n=player_counts, picks=choices, stop=st.integers(0, 100))
def test_view_unseen_and_probabilities_are_consistent(seed, n, picks, stop):
    game = play_choices(Game.new(n, seed), picks, stop=stop)
    view = game.view()
    pile = remaining_pile(game)
    assert set(view.unseen) == set(pile)
    if game.over:
        # Nobody draws again: a finished game shows no top card, and no odds.
        assert view.top_back is None and view.face_probabilities() == {}
    elif pile:
        top = pile[0]
        same_back = [c for c in pile if c // 3 == top // 3]
        counts = Counter(FACE[c] for c in same_back)
        probs = view.face_probabilities()
        assert probs == {c: counts[c] / len(same_back) for c in probs}
        assert set(probs) == {FACE[c] for c in range(top // 3 * 3, top // 3 * 3 + 3)}
