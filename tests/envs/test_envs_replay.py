"""Every environment's games, replayed into the engine action by action, give the engine's results.

The environments are views of the engine: what they report (who won, the
rewards, when the game ended) must be what ``Game`` itself gives for the same
deal and the same moves, replayed here from what the environment showed its
players, not from its own game.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import mantis.envs.openspiel  # noqa: F401  (registers python_mantis)
from mantis.engine import Game
from mantis.engine.cards import NUM_CARDS
from mantis.envs import MantisEnv, mantis_v0
from mantis.envs.actions import to_engine
from mantis.envs.openspiel import FIRST_SEAT
from mantis.envs.rewards import win_shares
from mantis.players import make_bot

SIZES = (2, 3, 4, 6)
GAMES = 8


def same_result(replayed: Game, rewards: list[float], turns: int) -> None:
    assert replayed.over
    assert replayed.turn == turns
    assert rewards == win_shares(replayed.winners, replayed.players)


@pytest.mark.parametrize("players", SIZES)
def test_pettingzoo_games_replay_into_the_engine(players):
    rng = random.Random(players)
    env = mantis_v0.env(num_players=players)
    for seed in range(GAMES):
        env.reset(seed=seed)
        moves: list[tuple[int, int]] = []
        rewards = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                rewards[agent] = reward
                env.step(None)
                continue
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            moves.append((int(agent.removeprefix("player_")), action))
            env.step(action)
        replayed = Game.new(players, seed)
        for seat, action in moves:
            replayed.play(to_engine(players, seat, action), seat)
        same_result(replayed, [rewards[f"player_{s}"] for s in range(players)], len(moves))


@pytest.mark.parametrize("players", SIZES)
def test_gymnasium_games_replay_into_the_engine_with_the_same_bots(players):
    # bots without noise (the levels with it draw from generators the environment seeds)
    levels = ["mantis.players.bots.greedy:GreedyBot", "expert"] * 3
    opponents = levels[: players - 1]
    rng = random.Random(players)
    env = MantisEnv(num_players=players, opponents=opponents)
    for seed in range(GAMES):
        env.reset(seed=seed)
        mine: list[int] = []
        done = False
        reward = 0.0
        while not done:
            action = rng.randrange(players)
            mine.append(action)
            _obs, reward, done, _truncated, _info = env.step(action)
        replayed = Game.new(players, seed)
        bots = [None] + [make_bot(level) for level in opponents]
        learner = iter(mine)
        while not replayed.over:
            seat = replayed.to_move
            bot = bots[seat]
            if bot is None:
                replayed.play(to_engine(players, 0, next(learner)))
            else:
                replayed.play(bot.choose(replayed.view()))
        assert next(learner, None) is None
        assert reward == win_shares(replayed.winners, players)[0]
        assert replayed.history == env.game.history


@pytest.mark.parametrize("players", SIZES)
def test_openspiel_games_replay_into_the_engine_with_the_cards_chance_drew(players):
    game = pyspiel.load_game("python_mantis", {"players": players})
    rng = random.Random(players)
    dealt = 4 * players
    for _ in range(GAMES):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        history = state.history()
        cards, first = history[:dealt], history[dealt] - FIRST_SEAT
        turns = [history[i : i + 3] for i in range(dealt + 1, len(history), 3)]
        drawn = [face for _back, _move, face in turns]
        pile = drawn + [c for c in range(NUM_CARDS) if c not in cards and c not in drawn]
        replayed = Game([cards[s * 4 : s * 4 + 4] for s in range(players)], pile, first)
        for _back, move, _face in turns:
            replayed.play(to_engine(players, replayed.to_move, move))
        same_result(replayed, state.returns(), len(turns))
