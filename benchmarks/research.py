"""The research environments' speed, beside the engine's own, in one run.

Run: ``.venv/bin/python benchmarks/research.py [--games N] [--repeat R]`` (about 3 minutes).

* PettingZoo's own ``performance_benchmark`` (turns/s over 5 s of random
  legal moves) on ``mantis_v0.env`` (its standard wrappers) and on
  ``raw_env``, at 2, 4 and 6 players.
* The cost of a turn of uniformly random moves, in CPU time (so that other
  load on the machine counts less): the engine's own step, a turn of its own
  game loop with ``random`` bots in every seat (the simulator's
  ``play_game``, what ``benchmarks/engine.py`` counts games of), and the bare
  engine (its view, a ``randrange``, ``Game.play``); beside them PettingZoo's
  turn (``env.last()``, a ``randrange``, ``env.step``: every action ``0..n-1``
  is legal in Mantis), raw and in its standard wrappers, and Gymnasium's (per
  move played: the learner's ``step`` plays its move and the ``random`` bots'
  until its next turn).
* What PettingZoo's standard wrappers cost by themselves: a turn of an AEC
  environment that does nothing (its observation a constant, its step passes
  the turn), bare, in PettingZoo's wrappers as shipped (with Gymnasium's
  ``Discrete`` and with ``mantis.envs.actions.ActionSpace`` as its action
  space), and in ``mantis.envs.wrappers.StandardWrappers``, what
  ``mantis_v0.env()`` uses (PettingZoo's own methods, the state read through
  properties): what is ours and what is the library's.
* Whole games per second: the engine with ``random`` bots (the simulator's
  ``play_game``), ``Mantis-v0`` with ``random`` opponents, and OpenSpiel's
  random playouts of ``python_mantis`` (chance drawn with its exact
  probabilities), at 2, 4 and 6 players.

Each figure is the best of ``--repeat`` runs (other load only slows a run).
Every figure but PettingZoo's own benchmark (which times itself, by the
clock on the wall) is per second of CPU time.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import re
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.test import performance_benchmark
from pettingzoo.utils import wrappers

import mantis.envs.openspiel  # noqa: F401  (registers python_mantis)
from mantis.engine import Game, legal_actions_for
from mantis.envs import MantisEnv, mantis_v0
from mantis.envs.actions import MASKS, NUM_ACTIONS, ActionSpace
from mantis.envs.aec import ILLEGAL_REWARD
from mantis.envs.wrappers import StandardWrappers
from mantis.players import make_bot
from mantis.sim.runner import play_game

SIZES = (2, 4, 6)


def best(repeat: int, run: Callable[[], float]) -> float:
    """The highest rate of ``repeat`` runs of ``run`` (a rate per second)."""
    return max(run() for _ in range(repeat))


def pettingzoo_turns(env: object) -> float:
    """PettingZoo's ``performance_benchmark`` figure: turns/s over its 5 s of play."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(env)
    found = re.search(r"([\d.]+) turns per second", out.getvalue())
    assert found, out.getvalue()
    return float(found.group(1))


def engine_turns(players: int, games: int) -> float:
    """Turns/s of the engine: its view, a random move, ``Game.play``."""
    rng = random.Random(1)
    moves = [legal_actions_for(players, s) for s in range(players)]
    turns = 0
    start = time.process_time()
    for seed in range(games):
        game = Game.new(players, seed)
        view, play = game.view, game.play
        while game.winners is None:
            view()
            play(moves[game.to_move][rng.randrange(players)])
        turns += game.turn
    return turns / (time.process_time() - start)


def aec_turns(players: int, games: int, *, wrapped: bool) -> float:
    """Turns/s of PettingZoo's environment: ``last()``, a random move, ``step``."""
    rng = random.Random(1)
    env = mantis_v0.env(num_players=players) if wrapped else mantis_v0.raw_env(players)
    turns = 0
    start = time.process_time()
    for seed in range(games):
        env.reset(seed=seed)
        last, step = env.last, env.step
        while True:
            _obs, _reward, terminated, _truncated, _info = last()
            if terminated:
                break
            step(rng.randrange(players))
            turns += 1
    return turns / (time.process_time() - start)


class Idle(AECEnv):  # type: ignore[misc]
    """An AEC environment that does nothing: two agents pass the turn, forever."""

    metadata = {"name": "idle_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, action_space: spaces.Discrete) -> None:
        super().__init__()
        self.possible_agents = ["player_0", "player_1"]
        self._space = action_space
        self._observation = {"observation": np.zeros(1, np.uint8), "action_mask": MASKS[6]}

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return spaces.Dict({"observation": spaces.Box(0, 1, (1,), np.uint8)})

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._space

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self.agent_selection = "player_0"

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._observation

    def step(self, action: int | None) -> None:
        self.agent_selection = "player_1" if self.agent_selection == "player_0" else "player_0"


IDLE: dict[str, Callable[[], AECEnv]] = {
    "bare": lambda: Idle(spaces.Discrete(NUM_ACTIONS)),
    "PettingZoo's wrappers": lambda: wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(
            wrappers.TerminateIllegalWrapper(
                Idle(spaces.Discrete(NUM_ACTIONS)), illegal_reward=ILLEGAL_REWARD
            )
        )
    ),
    "PettingZoo's wrappers, ActionSpace": lambda: wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(
            wrappers.TerminateIllegalWrapper(Idle(ActionSpace()), illegal_reward=ILLEGAL_REWARD)
        )
    ),
    "StandardWrappers": lambda: StandardWrappers(Idle(ActionSpace()), ILLEGAL_REWARD),
}
"""The do-nothing environment, bare and in each set of wrappers."""


def idle_turns(make: Callable[[], AECEnv], turns: int) -> float:
    """Turns/s of ``make()``'s environment: ``last()``, a random move, ``step``."""
    rng = random.Random(1)
    env = make()
    env.reset(seed=0)
    last, step = env.last, env.step
    start = time.process_time()
    for _ in range(turns):
        last()
        step(rng.randrange(2))
    return turns / (time.process_time() - start)


def engine_games(players: int, games: int) -> tuple[float, float]:
    """Games/s and moves/s of the engine with ``random`` bots in every seat."""
    bots = [make_bot("random") for _ in range(players)]
    turns = 0
    start = time.process_time()
    for seed in range(games):
        turns += play_game(bots, seed).turn
    seconds = time.process_time() - start
    return games / seconds, turns / seconds


def gymnasium_games(players: int, games: int) -> tuple[float, float]:
    """Games/s and moves/s (everyone's) of ``Mantis-v0``: a random learner, ``random`` bots."""
    rng = random.Random(1)
    env = MantisEnv(num_players=players, opponents="random")
    turns = 0
    start = time.process_time()
    for seed in range(games):
        env.reset(seed=seed)
        step = env.step
        done = env.game.winners is not None
        while not done:
            _obs, _reward, done, _truncated, _info = step(rng.randrange(players))
        turns += env.game.turn
    seconds = time.process_time() - start
    return games / seconds, turns / seconds


def openspiel_games(players: int, games: int, *, clone: bool = False) -> tuple[float, float]:
    """Games/s and moves/s of random playouts of ``python_mantis``, chance exact
    (``clone``: the state cloned at every node, as a search branching there does)."""
    game = pyspiel.load_game("python_mantis", {"players": players})
    rng = random.Random(1)
    moves = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if clone:
                state = state.clone()
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.randrange(players))
                moves += 1
    seconds = time.process_time() - start
    return games / seconds, moves / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per timed loop")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    games, repeat = args.games, args.repeat
    np.random.seed(0)
    random.seed(0)  # performance_benchmark draws its moves from the global random

    print("PettingZoo performance_benchmark, turns/s")
    for players in SIZES:
        wrapped = pettingzoo_turns(mantis_v0.env(num_players=players))
        raw = pettingzoo_turns(mantis_v0.raw_env(players))
        print(f"  {players} players: env() {wrapped:9,.0f}   raw_env {raw:9,.0f}")

    print(f"A turn of random moves, µs of CPU (best of {repeat} x {games} games)")
    print("  engine: its own game loop (random seats), and bare (view + Game.play)")
    for players in SIZES:
        own = 1e6 / best(repeat, lambda n=players: engine_games(n, games)[1])
        bare = 1e6 / best(repeat, lambda n=players: engine_turns(n, games))
        raw = 1e6 / best(repeat, lambda n=players: aec_turns(n, games, wrapped=False))
        wrapped = 1e6 / best(repeat, lambda n=players: aec_turns(n, games, wrapped=True))
        gym = 1e6 / best(repeat, lambda n=players: gymnasium_games(n, games)[1])
        print(
            f"  {players} players: engine {own:4.2f} (bare {bare:4.2f}); "
            f"PettingZoo raw_env {raw:5.2f} = {raw / own:.1f}x (bare {raw / bare:.1f}x), "
            f"env() {wrapped:5.2f} = {wrapped / own:.1f}x; "
            f"Mantis-v0 {gym:5.2f} a move = {gym / own:.1f}x"
        )

    turns = games * 50
    print("What the standard wrappers cost alone: a turn of an environment that does nothing, µs")
    print(f"  of CPU (best of {repeat} x {turns:,} turns)")
    idle = {
        name: 1e6 / best(repeat, lambda m=make: idle_turns(m, turns)) for name, make in IDLE.items()
    }
    print("  " + "   ".join(f"{name} {cost:5.2f}" for name, cost in idle.items()))

    spiel_games = max(1, games // 10)
    print(f"Whole games of random moves a CPU second (best of {repeat}; OpenSpiel {spiel_games})")
    for players in SIZES:
        engine, engine_moves = max(engine_games(players, games) for _ in range(repeat))
        gym, _ = max(gymnasium_games(players, games) for _ in range(repeat))
        spiel, spiel_moves = max(openspiel_games(players, spiel_games) for _ in range(repeat))
        print(
            f"  {players} players: engine {engine:8,.0f}   Mantis-v0 {gym:8,.0f}   "
            f"OpenSpiel {spiel:6,.0f} ({engine_moves / spiel_moves:.0f}x the engine's move)"
        )


if __name__ == "__main__":
    main()
