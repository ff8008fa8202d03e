"""A whole game reviewed: judged by the view only, luck that adds up, the bots' properties."""

from __future__ import annotations

from dataclasses import replace

import pytest
from reviewkit import finish, game_of, record_of_bots

from mantis.engine import BACK, FACE, GameRecord
from mantis.review import (
    UnfinishedGameError,
    accuracy_for,
    label_for,
    option_values,
    position_chances,
    review_game,
)


def swap_a_face(record: GameRecord, move: int) -> GameRecord | None:
    """The same game but for the face that came up at ``move``: the card there is
    swapped with a later card of the same back and another face, and the game goes on
    (the record's actions while they last, then greedy) to a finished record."""
    pile = list(record.pile)
    card = pile[move]
    later = next(
        (i for i in range(move + 1, len(pile)) if BACK[pile[i]] == BACK[card]),
        None,
    )
    if later is None or FACE[pile[later]] == FACE[card]:
        return None
    pile[move], pile[later] = pile[later], pile[move]
    game = game_of(record.tanks, pile, record.first, [])
    for seat, action in record.actions:
        if game.over:
            break
        game.play(action, seat)
    return finish(game)


def test_a_decision_is_judged_by_the_view_not_by_the_face_that_came_up():
    record = record_of_bots(["casual", "random", "greedy"], seed=11)
    checked = 0
    for move in range(0, len(record.actions) - 1):
        other = swap_a_face(record, move)
        if other is None:
            continue
        mine, theirs = review_game(record), review_game(other)
        assert FACE[record.pile[move]] != FACE[other.pile[move]]
        for k in range(move + 1):  # every decision up to and including that move
            assert theirs.decisions[k] == mine.decisions[k]
        # ... while what the face did differs: the luck of that card and the chart after it
        assert theirs.cards[move].luck != mine.cards[move].luck
        assert theirs.chart[move + 1] != mine.chart[move + 1]
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.parametrize(
    ("names", "seed"),
    [(["greedy", "random"], 1), (["expert", "casual", "random", "greedy"], 2), (["random"] * 6, 3)],
)
def test_each_seats_chance_moves_only_by_decisions_and_faces(names, seed):
    record = record_of_bots(names, seed)
    review = review_game(record)
    n = record.players
    assert len(review.chart) == len(record.actions) + 1 == len(review.cards) + 1
    assert review.chart[0] == position_chances(record.replay(0).view())
    for k, (decision, card) in enumerate(zip(review.decisions, review.cards, strict=True)):
        after = record.replay(k + 1).view()
        # the chart is the value of the real position after each move ...
        assert review.chart[k + 1] == pytest.approx(position_chances(after), abs=1e-12)
        # ... reached from the option chosen by the face's luck alone
        taken = decision.chosen_option.chances
        for s in range(n):
            assert taken[s] + card.luck[s] == pytest.approx(review.chart[k + 1][s], abs=1e-12)
        # luck averages to zero over the faces the card could have had
        value = option_values(record.replay(k).view())[decision.chosen]
        for s in range(n):
            mean = sum(f.probability * (f.chances[s] - value.chances[s]) for f in value.faces)
            assert mean == pytest.approx(0.0, abs=1e-12)
    result = record.result
    assert review.chart[-1] == tuple(1.0 if s in result.winners else 0.0 for s in range(n))
    for seat in review.seats:
        s = seat.seat
        assert seat.luck == pytest.approx(sum(c.luck[s] for c in review.cards), abs=1e-12)
        assert seat.own_luck == pytest.approx(
            sum(c.luck[s] for c in review.cards if c.seat == s), abs=1e-12
        )
        moves = sum(d.chosen_option.chances[s] - review.chart[d.move][s] for d in review.decisions)
        # start + the moves + luck = the result; the result less luck = start + the moves
        assert review.chart[0][s] + moves + seat.luck == pytest.approx(seat.result, abs=1e-9)
        assert seat.luck_adjusted == pytest.approx(review.chart[0][s] + moves, abs=1e-9)
    if len(result.winners) == 1:  # one winner: every card's luck is a transfer between seats
        for card in review.cards:
            assert sum(card.luck) == pytest.approx(0.0, abs=1e-9)


def test_the_experts_own_games_lose_nothing():
    for players, seed in ((2, 4), (3, 5), (5, 6)):
        review = review_game(record_of_bots(["expert"] * players, seed))
        assert {d.loss for d in review.decisions} == {0.0}
        assert all(d.chosen == d.best and d.label is None for d in review.decisions)
        for seat in review.seats:
            assert seat.accuracy in (100.0, None)
            assert seat.labels == {"inaccuracy": 0, "mistake": 0, "blunder": 0}


def test_random_play_blunders_and_the_levels_lose_in_order():
    def mean_loss(level: str) -> tuple[float, int]:
        real = []
        blunders = 0
        for seed in range(6):
            review = review_game(record_of_bots([level] * 3, 100 + seed))
            real += [d.loss for d in review.decisions if d.real]
            blunders += sum(s.blunders for s in review.seats)
        return sum(real) / len(real), blunders

    random_loss, random_blunders = mean_loss("random")
    casual_loss, _ = mean_loss("casual")
    greedy_loss, _ = mean_loss("greedy")
    expert_loss, expert_blunders = mean_loss("expert")
    assert random_loss > casual_loss > greedy_loss > expert_loss == 0.0
    assert random_blunders >= 5 and expert_blunders == 0


def test_a_seat_summary_counts_only_real_decisions():
    review = review_game(record_of_bots(["random", "casual"], 8))
    for seat in review.seats:
        mine = review.decisions_of(seat.seat)
        real = [d for d in mine if d.real]
        assert seat.decisions == len(mine) and seat.real_decisions == len(real)
        assert seat.avg_loss == pytest.approx(sum(d.loss for d in real) / len(real))
        assert seat.accuracy == pytest.approx(sum(accuracy_for(d.loss) for d in real) / len(real))
        assert sum(seat.labels.values()) == sum(d.label is not None for d in real)
    for d in review.decisions:
        spread = max(o.win for o in d.options) - min(o.win for o in d.options)
        assert d.real == (spread * 100 > 1.0)
        assert d.label == (label_for(d.loss) if d.real else None)
        assert d.loss == pytest.approx((d.best_option.win - d.chosen_option.win) * 100)
        assert d.best_option.win == max(o.win for o in d.options)


def test_labels_and_accuracy_follow_the_thresholds_and_lichess_curve():
    assert [label_for(x) for x in (0.0, 2.99, 3.0, 7.99, 8.0, 19.99, 20.0, 100.0)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    # lichess.org/page/accuracy: 103.1668 * exp(-0.04354 * loss) - 3.1669
    assert accuracy_for(0.0) == 100.0
    assert accuracy_for(10.0) == pytest.approx(63.58, abs=0.01)
    assert accuracy_for(40.0) == pytest.approx(14.91, abs=0.01)
    assert accuracy_for(100.0) == 0.0


def test_the_position_of_a_decision_is_the_one_the_replay_shows():
    record = record_of_bots(["greedy", "casual", "random"], 9)
    review = review_game(record)
    decision = review.decisions[7]
    view = review.position(decision.move)
    assert view == record.replay(7).view() and view.to_move == decision.seat
    assert [o.win for o in decision.options] == [
        v.chances[decision.seat] for v in option_values(view)
    ]
    assert review.position(7, seat=0).seat == 0


def test_an_unfinished_game_is_refused():
    record = record_of_bots(["greedy", "greedy"], 1)
    with pytest.raises(UnfinishedGameError):
        review_game(replace(record, actions=record.actions[:5], result=None))
