"""Search over ``python_mantis`` stops in the right place: the value at the face's chance node."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.minimax import expectiminimax

import mantis.envs.openspiel  # noqa: F401  (registers python_mantis)
from mantis.engine import Game, record_of
from mantis.envs.actions import from_engine
from mantis.envs.openspiel import FIRST_BACK, MantisState, state_from_record
from mantis.envs.search import ExpertEvaluator, expected_over_faces
from mantis.players.bots.expert import ExpertBot


def decision_states(players: int, seed: int, count: int):
    """Decision nodes of random games (a move's back drawn, the move to choose)."""
    game = pyspiel.load_game("python_mantis", {"players": players})
    rng = random.Random(seed)
    found = 0
    while found < count:
        state = game.new_initial_state()
        while not state.is_terminal() and found < count:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            if rng.random() < 0.3:
                found += 1
                yield state.clone()
            state.apply_action(rng.randrange(players))


@pytest.mark.parametrize("players", (2, 4))
def test_the_value_of_a_move_waiting_for_its_face_is_what_the_expert_expects_of_it(players):
    evaluator = ExpertEvaluator(players)
    expert = ExpertBot()
    for state in decision_states(players, players, 25):
        mover = state.current_player()
        view = state.view().for_seat(mover)
        expects = dict(
            zip(
                [from_engine(players, mover, a) for a in view.legal_actions()],
                expert.action_values(view),
                strict=True,
            )
        )
        for action in state.legal_actions():
            waiting = state.child(action)
            assert waiting.is_chance_node() and waiting.pending_move == action
            value = evaluator.evaluate(waiting)
            assert value.sum() == pytest.approx(1.0)
            faces = waiting.chance_outcomes()
            if not any(waiting.child(face).is_terminal() for face, _p in faces):
                assert value[mover] == pytest.approx(expects[action], abs=1e-9)


def test_the_expectation_over_faces_weighs_each_face_by_its_probability():
    state = next(decision_states(3, 7, 1))
    waiting = state.child(0)
    faces = waiting.chance_outcomes()
    assert 1 <= len(faces) <= 3 and sum(p for _face, p in faces) == pytest.approx(1.0)
    moved = {face: waiting.child(face) for face, _p in faces}

    def turn(s: MantisState) -> float:  # any value of a settled position
        return float(s.engine_game.turn * 10 + s.engine_game.scores[0])

    expected = sum(p * turn(moved[face]) for face, p in faces)
    assert expected_over_faces(waiting, turn) == pytest.approx(expected)
    assert expected_over_faces(state, turn) == turn(state)  # no move waiting: its own value


def test_a_finished_game_is_worth_its_returns():
    game = Game.new(2, 3)
    game.play_out([ExpertBot().choose] * 2)
    state = state_from_record(pyspiel.load_game("python_mantis", {"players": 2}), record_of(game))
    assert state.is_terminal()
    assert ExpertEvaluator(2).evaluate(state).tolist() == state.returns()


def test_expectiminimax_to_depth_two_chooses_and_values_a_move():
    game = pyspiel.load_game("python_mantis", {"players": 2})
    engine = Game.new(2, 11)
    state = state_from_record(game, record_of(engine))
    state.apply_action(FIRST_BACK + engine.view().top_back)
    me = state.current_player()
    evaluator = ExpertEvaluator(2)
    value, action = expectiminimax(state, 1, lambda s: evaluator.evaluate(s)[me], me)
    expects = ExpertBot().action_values(state.view().for_seat(me))
    # depth one is the expert's own one-step expectation, exactly
    assert value == pytest.approx(max(expects), abs=1e-9)
    assert action == int(np.argmax(expects))
    assert action == from_engine(2, me, ExpertBot().choose(state.view().for_seat(me)))
    deeper, move = expectiminimax(state, 2, lambda s: evaluator.evaluate(s)[me], me)
    assert 0.0 < deeper < 1.0 and move in state.legal_actions()
