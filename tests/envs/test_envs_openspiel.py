"""OpenSpiel's ``python_mantis``: OpenSpiel's own checks, exact chance nodes, Shimmy's loader."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test
from shimmy import OpenSpielCompatibilityV0

import mantis.envs.openspiel  # noqa: F401  (registers python_mantis)
from mantis.engine import BACK, Game, record_of
from mantis.engine.cards import COLOUR_GLYPHS, NUM_CARDS
from mantis.envs.openspiel import FIRST_BACK, FIRST_SEAT, state_from_record
from mantis.envs.rewards import win_shares
from mantis.players.bots.greedy import GreedyBot

SIZES = (2, 3, 4, 6)


def load(players: int) -> pyspiel.Game:
    return pyspiel.load_game("python_mantis", {"players": players})


@pytest.mark.parametrize("players", (2, 3, 4, 5, 6))
def test_openspiel_random_sim_test_passes_with_serialization(players):
    pyspiel.random_sim_test(load(players), num_sims=3, serialize=True, verbose=False)


def test_the_game_declares_what_it_is():
    game = load(4)
    kind = game.get_type()
    assert kind.short_name == "python_mantis"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.num_players() == 4 and game.num_distinct_actions() == 6
    # every move draws a card: no more moves than the pile holds at the deal
    assert game.max_game_length() == NUM_CARDS - 4 * 4
    assert game.max_chance_nodes_in_history() == 16 + 1 + 2 * (NUM_CARDS - 16)
    assert pyspiel.load_game("python_mantis(players=6)").num_players() == 6


def test_a_table_size_there_is_not_is_refused():
    with pytest.raises(Exception, match="2 to 6 players, not 7"):
        load(7)


@pytest.mark.parametrize("players", (2, 5))
def test_every_chance_node_gives_the_exact_probabilities_of_a_shuffled_pile(players):
    rng = random.Random(players)
    state = load(players).new_initial_state()
    while not state.is_terminal():
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        outcomes = dict(state.chance_outcomes())
        assert sum(outcomes.values()) == pytest.approx(1.0, abs=1e-12)
        game = state.engine_game
        if game is None:
            dealt = state.history()
            if len(dealt) < 4 * players:  # a card dealt: any card not dealt yet
                assert set(outcomes) == set(range(NUM_CARDS)) - set(dealt)
            else:  # the first seat
                assert set(outcomes) == {FIRST_SEAT + s for s in range(players)}
            assert len(set(outcomes.values())) == 1
        else:
            unseen = state.view().unseen  # the draw pile, as every seat can count it
            by_back = Counter(BACK[c] for c in unseen)
            if state.pending_move is None:  # the top card's back, before the move
                assert outcomes == pytest.approx(
                    {FIRST_BACK + b: k / len(unseen) for b, k in by_back.items()}
                )
            else:  # its face, after the move: back then face is 1 / (unseen cards)
                back = state.view().top_back
                faces = [c for c in unseen if BACK[c] == back]
                assert outcomes == pytest.approx({c: 1 / len(faces) for c in faces})
                assert by_back[back] / len(unseen) * outcomes[faces[0]] == pytest.approx(
                    1 / len(unseen)
                )
        actions, probs = zip(*outcomes.items(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])


@pytest.mark.parametrize("players", SIZES)
def test_a_seeded_engine_game_is_one_sample_of_the_chance_process(players):
    for seed in range(3):
        game = Game.new(players, seed)
        bots = [GreedyBot() for _ in range(players)]
        game.play_out([bot.choose for bot in bots])
        state = state_from_record(load(players), record_of(game))
        assert state.is_terminal()
        assert state.returns() == win_shares(game.winners, players)
        assert state.engine_game.history == game.history


def test_the_observation_tensor_shows_the_position_and_the_move_waiting_for_its_face():
    game = load(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    mover = state.current_player()
    tensor = np.array(state.observation_tensor(mover))
    assert tensor.shape == (184,) and not tensor[178:].any()
    assert tensor[48:55].sum() == 3  # the top card's back is drawn: three colours
    state.apply_action(2)  # steal from the seat two places on
    assert state.is_chance_node()
    assert np.array(state.observation_tensor(mover))[178:].tolist() == [0, 0, 1, 0, 0, 0]
    text = state.observation_string(mover)
    assert "face is to be turned" in text and any(g in text for g in COLOUR_GLYPHS)


@pytest.mark.parametrize("players", SIZES)
def test_shimmys_openspiel_loader_plays_the_game_as_a_pettingzoo_environment(players):
    env = OpenSpielCompatibilityV0(game_name="python_mantis", config={"players": players})
    api_test(env, num_cycles=200)
    env.reset(seed=1)
    assert env.possible_agents == [f"player_{s}" for s in range(players)]
    mover = env.agent_selection
    assert env.infos[mover]["action_mask"].tolist() == [1] * players + [0] * (6 - players)
