"""Retrying mistakes and the chances chart: what the app's review draws and judges."""

from __future__ import annotations

import pytest
from reviewkit import record_of_bots

from mantis.follow.review_chart import chances_chart, marked_moves
from mantis.review import GameReview, review_game
from mantis.review.retry import ACCEPTED_WITHIN, Drill, judge, mistakes_of


@pytest.fixture(scope="module")
def review() -> GameReview:
    """A random bot against two stronger ones: the random seat makes mistakes."""
    return review_game(record_of_bots(["random", "casual", "greedy"], seed=5))


def test_the_mistakes_are_the_seats_labelled_decisions_in_order(review):
    mistakes = mistakes_of(review, 0)
    assert len(mistakes) >= 2
    assert all(d.seat == 0 and d.label is not None for d in mistakes)
    assert [d.move for d in mistakes] == sorted(d.move for d in mistakes)
    labelled = [d for d in review.decisions if d.seat == 0 and d.label is not None]
    assert list(mistakes) == labelled


def test_an_answer_is_accepted_within_two_points_of_the_best(review):
    for decision in review.decisions:
        best = decision.best_option.win
        for option in decision.options:
            answer = judge(decision, option.action)
            assert answer.loss == pytest.approx(max(0.0, best - option.win) * 100)
            assert answer.accepted == ((best - option.win) * 100 <= ACCEPTED_WITHIN)
        assert judge(decision, decision.best_option.action).accepted
        if decision.label is not None:  # what was played there lost 3 points or more
            assert not judge(decision, decision.chosen_option.action).accepted


def test_an_illegal_answer_is_refused(review):
    decision = review.decisions[0]
    from mantis.engine import steal

    with pytest.raises(ValueError):
        judge(decision, steal(decision.seat))


def test_a_drill_counts_the_first_answer_of_each_position_then_retries_the_missed(review):
    mistakes = mistakes_of(review, 0)
    drill = Drill(mistakes)
    assert drill.total == len(mistakes) and drill.current == mistakes[0]
    # First position: a wrong answer first, then the best: not solved.
    assert not drill.answer(mistakes[0].chosen_option.action).accepted
    assert drill.answer(mistakes[0].best_option.action).accepted
    assert drill.solved == set()
    # Second: the best at once: solved.
    assert drill.advance() == mistakes[1]
    assert drill.answer(mistakes[1].best_option.action).accepted
    assert drill.solved == {mistakes[1].move}
    # The rest: the solution asked for before any answer counts as missed.
    while drill.advance() is not None:
        drill.give_up()
        assert drill.answer(drill.current.best_option.action).accepted  # type: ignore[union-attr]
    assert drill.over and drill.solved == {mistakes[1].move}
    # The next round holds every position not solved, in order.
    assert drill.new_round() == mistakes[0]
    assert drill.round == tuple(d for d in mistakes if d.move != mistakes[1].move)
    for decision in drill.round:
        assert drill.current == decision
        drill.answer(decision.best_option.action)
        drill.advance()
    assert len(drill.solved) == drill.total
    # Once all are solved, a new round starts over with all of them, none solved.
    assert drill.new_round() == mistakes[0]
    assert drill.round == mistakes and drill.solved == set()


def test_the_chart_draws_every_seats_chances_marked_at_the_labelled_decisions(review):
    series, figure = chances_chart(review, {0}, top=0)
    by_seat = {int(line.marker) - 1: line for line in series}
    assert sorted(by_seat) == list(range(len(review.seats)))
    for seat, line in by_seat.items():
        assert line.ys == tuple(point[seat] for point in review.chart)
        assert line.at == tuple(float(x) for x in range(len(review.chart)))
    assert series[-1].marker == "1"  # the top seat is drawn last, over the others
    assert len({line.colour for line in series}) == len(series)
    labelled = [d.move + 1 for d in review.decisions if d.seat == 0 and d.label is not None]
    assert (
        figure.marks
        == tuple(float(x) for x in labelled)
        == tuple(float(x) for x in marked_moves(review, {0}))
    )
    assert figure.y_range == (0.0, 1.0)
    every, figure = chances_chart(review, range(3))
    assert len(figure.marks) == sum(1 for d in review.decisions if d.label is not None)
    assert [line.marker for line in every] == ["1", "2", "3"]
