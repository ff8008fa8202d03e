"""PettingZoo's ``mantis_v0``: PettingZoo's own test suite, the wrappers, seeding and pickling."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.env import AECEnv

from mantis.engine import Game, IllegalActionError
from mantis.engine.cards import COLOUR_GLYPHS
from mantis.envs import mantis_v0
from mantis.envs.observation import describe

SIZES = (2, 3, 4, 6)


def random_moves(env: AECEnv, rng: random.Random, turns: int | None = None) -> list[int]:
    """Play legal moves at random until the end (or ``turns`` moves); the moves played."""
    played = []
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        played.append(action)
        env.step(action)
        if len(played) == turns:
            break
    return played


@pytest.mark.parametrize("players", SIZES)
def test_pettingzoo_api_test_passes(players):
    api_test(mantis_v0.env(num_players=players), num_cycles=200)


@pytest.mark.parametrize("players", SIZES)
def test_pettingzoo_seed_test_passes(players):
    seed_test(lambda: mantis_v0.env(num_players=players), num_cycles=200)


@pytest.mark.parametrize("players", SIZES)
def test_pettingzoo_render_test_passes_and_shows_every_seat_with_the_apps_glyphs(players, capsys):
    def shows_the_table(text: str) -> bool:
        return all(f"player_{s}" in text for s in range(players)) and any(
            glyph in text for glyph in COLOUR_GLYPHS
        )

    render_test(
        lambda render_mode=None: mantis_v0.env(num_players=players, render_mode=render_mode),
        custom_tests={"ansi": shows_the_table},
    )
    printed = capsys.readouterr().out  # "human" printed the same table
    assert shows_the_table(printed)


def test_the_ansi_table_names_the_top_cards_back_the_mover_and_the_last_move():
    env = mantis_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=11)
    game = env.unwrapped.game
    view = game.view()
    text = env.render()
    assert "target 10" in text and f"{view.pile_size} cards in the pile" in text
    mover_line = next(line for line in text.splitlines() if line.startswith(">"))
    assert f"player_{view.to_move}" in mover_line
    assert "Top card: back" in text
    env.step(0)
    assert "Last move: " in env.render()


def test_reset_with_a_seed_deals_the_engines_game_for_that_seed():
    env = mantis_v0.raw_env(num_players=4)
    env.reset(seed=2026)
    expected = Game.new(4, 2026)
    game = env.game
    assert game.initial_tanks == expected.initial_tanks
    assert game.initial_pile == expected.initial_pile
    assert env.agent_selection == f"player_{expected.first}"


def test_unseeded_resets_after_a_seeded_one_repeat_exactly():
    def deals(env):
        env.reset(seed=5)
        out = []
        for _ in range(3):
            env.reset()
            out.append(env.game.initial_pile)
        return out

    first = deals(mantis_v0.raw_env(num_players=2))
    assert first == deals(mantis_v0.raw_env(num_players=2))
    assert len(set(first)) == 3


@pytest.mark.parametrize("players", (2, 5))
def test_the_observation_is_the_engines_view_seen_from_the_observing_seat(players):
    env = mantis_v0.raw_env(num_players=players)
    env.reset(seed=3)
    random_moves(env, random.Random(1), turns=9)
    view = env.game.view()
    for seat, agent in enumerate(env.possible_agents):
        fields = describe(env.observe(agent)["observation"])
        order = [(seat + k) % players for k in range(players)]
        assert fields["tanks"] == [list(view.tank_counts(s)) for s in order]
        assert fields["scores"] == [view.scores[s] for s in order]
        assert fields["unseen_cards"] == list(view.unseen)
        assert fields["pile"] == view.pile_size == len(view.unseen)
        assert fields["target"] == view.target
        assert fields["to_move"] == (view.to_move - seat) % players
        faces = {colour for colour, weight in view.face_weights() if weight}
        assert {c for c in range(7) if fields["top_faces"][c]} == faces
        mask = env.observe(agent)["action_mask"]
        assert mask.tolist() == ([1] * players if seat == view.to_move else [0] * players) + [0] * (
            6 - players
        )


@pytest.mark.parametrize("players", SIZES)
def test_a_pickled_environment_plays_on_exactly_as_the_original(players):
    env = mantis_v0.env(num_players=players)
    env.reset(seed=17)
    random_moves(env, random.Random(2), turns=7)
    twin = pickle.loads(pickle.dumps(env))
    moves = random_moves(env, random.Random(3))
    assert random_moves(twin, random.Random(3)) == moves
    assert twin.unwrapped.game.history == env.unwrapped.game.history
    assert twin.unwrapped.game.winners == env.unwrapped.game.winners


def test_an_illegal_move_ends_the_game_with_minus_one_for_whoever_played_it(caplog):
    env = mantis_v0.env(num_players=3)
    env.reset(seed=4)
    cheat = env.agent_selection
    env.step(4)  # steal from the seat 4 places on: there is none at three
    assert "Illegal move" in caplog.text
    rewards = {}
    for agent in env.agent_iter():
        _obs, reward, terminated, _truncated, _info = env.last()
        assert terminated
        rewards[agent] = reward
        env.step(None)
    assert rewards.pop(cheat) == -1
    assert set(rewards.values()) == {0}


def test_the_raw_environment_refuses_an_illegal_move_in_one_line_and_changes_nothing():
    env = mantis_v0.raw_env(num_players=2)
    env.reset(seed=4)
    before = env.game.turn
    with pytest.raises(IllegalActionError, match="not legal at a table of 2"):
        env.step(3)
    assert env.game.turn == before


def test_the_wrappers_refuse_actions_outside_the_space_and_calls_before_reset():
    env = mantis_v0.env(num_players=2)
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    env.reset(seed=1)
    with pytest.raises(AssertionError):
        env.step(6)


def test_a_table_size_there_is_not_is_a_one_line_error():
    with pytest.raises(ValueError, match="2 to 6 players, not 7"):
        mantis_v0.env(num_players=7)
