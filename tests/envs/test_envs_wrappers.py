"""``mantis_v0.env()``'s wrappers behave exactly as PettingZoo's standard wrappers as shipped.

The same calls (in order and out of it, legal, illegal, out of bounds, before
``reset`` and after the end) are made on ``mantis_v0.env()`` and on
``raw_env`` inside PettingZoo's own ``OrderEnforcingWrapper``,
``AssertOutOfBoundsWrapper`` and ``TerminateIllegalWrapper``; every result,
error, warning and the environment's whole state after each call must be the
same.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.spaces import Discrete
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import (
    AssertOutOfBoundsWrapper,
    OrderEnforcingWrapper,
    TerminateIllegalWrapper,
)

import mantis.envs
from mantis.envs import mantis_v0
from mantis.envs.actions import NUM_ACTIONS, ActionSpace
from mantis.envs.aec import ILLEGAL_REWARD
from mantis.envs.wrappers import STATE, AssertOutOfBounds, StandardWrappers, TerminateIllegal

NOT_ACTIONS = (6, -1, 2.5, None, "0", [0], np.array([0]), 2**70)
"""Values that are not actions, or (None) only a finished agent's."""
SAME_AS_INTS = (np.int64(1), np.int32(1), np.uint64(1), np.int64(7), True, False)
"""Values Gymnasium's Discrete judges by type as well as value."""


def pettingzoos_own(players: int) -> OrderEnforcingWrapper:
    raw = mantis_v0.raw_env(num_players=players)
    return OrderEnforcingWrapper(
        AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw, illegal_reward=ILLEGAL_REWARD))
    )


def plain(value: Any) -> Any:
    """``value`` with numpy arrays as lists, so that results compare with ``==``."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.tolist())
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return type(value)(plain(item) for item in value)
    return value


def outcome(call: Callable[[], Any]) -> Any:
    EnvLogger.flush()
    try:
        result: Any = ("returned", plain(call()))
    except Exception as error:  # every error is part of the behaviour compared
        result = ("raised", type(error).__name__, str(error))
    return result, tuple(EnvLogger.mqueue)


RECORDS = ("_has_reset", "_has_updated", "_prev_obs", "_prev_info", "_terminated")
"""What PettingZoo's wrappers remember between calls."""


def state(env: Any) -> Any:
    """Everything the environment and the wrappers hold, read past the wrappers and through them."""
    raw = env.unwrapped
    layers = (env, env.env, env.env.env)
    records = [{key: plain(vars(layer).get(key, "unset")) for key in RECORDS} for layer in layers]
    inside = {name: plain(getattr(raw, name, "unset")) for name in STATE}
    game = raw._game
    history = game.history if game is not None else None
    through = {name: outcome(lambda name=name: getattr(env, name)) for name in STATE}
    return inside, history, through, outcome(lambda: env.num_agents), str(env), records


def script(rng: random.Random, players: int, calls: int) -> list[tuple[str, Any]]:
    """A random sequence of calls, most of them legal turns."""
    # weights: long runs of turns, so that games also end by the rules
    kinds = {"step": 60, "last": 30, "iterate": 10, "observe": 3, "last_blind": 2, "none": 2}
    kinds |= {"illegal": 1, "odd": 2, "render": 1, "reset": 1}
    out: list[tuple[str, Any]] = [("step", 0), ("observe", "player_0"), ("iterate", None)]
    out.append(("reset", 3))
    for _ in range(calls):
        (kind,) = rng.choices(list(kinds), list(kinds.values()))
        if kind == "step":
            out.append((kind, rng.randrange(players)))
        elif kind == "illegal":
            out.append(("step", rng.randrange(players, NUM_ACTIONS)))
        elif kind == "odd":
            out.append(("step", rng.choice(NOT_ACTIONS + SAME_AS_INTS)))
        elif kind == "none":
            out.append(("step", None))
        elif kind == "observe":
            out.append((kind, f"player_{rng.randrange(players)}"))
        elif kind == "reset":
            out.append((kind, rng.randrange(1000)))
        else:
            out.append((kind, None))
    return out


def act(env: Any, kind: str, arg: Any, turns: list[Iterator[str]]) -> Any:
    """One call of a script; ``turns`` holds the agent_iter made at the last reset."""
    if kind == "reset":
        env.reset(seed=arg)
        turns[:] = [iter(env.agent_iter())]
        return None
    if kind == "step":
        return env.step(arg)
    if kind == "observe":
        return env.observe(arg)
    if kind == "last":
        return env.last()
    if kind == "last_blind":
        return env.last(observe=False)
    if kind == "render":
        return env.render()
    # iterate: the next agent of agent_iter (which checks that a step came between)
    return next(turns[0] if turns else iter(env.agent_iter()))


def play(env: Any, calls: list[tuple[str, Any]]) -> list[Any]:
    turns: list[Iterator[str]] = []
    return [
        ((kind, repr(arg)), outcome(partial(act, env, kind, arg, turns)), state(env))
        for kind, arg in calls
    ]


@pytest.mark.parametrize("players", (2, 3))
def test_every_call_gives_what_pettingzoos_own_wrappers_give(players):
    calls = script(random.Random(players), players, calls=1500)
    ours = play(mantis_v0.env(num_players=players), calls)
    theirs = play(pettingzoos_own(players), calls)
    for step, (mine, expected) in enumerate(zip(ours, theirs, strict=True)):
        assert mine == expected, f"call {step}: {mine[0]}"
    # the script did meet what it is meant to: ends by the rules and by illegal moves,
    # errors for calls out of order and for actions out of bounds, and warnings
    results = [result for _call, (result, _log), _state in theirs]
    errors = {result[2] for result in results if result[0] == "raised"}
    assert "action is not in action space" in errors
    assert "reset() needs to be called before step." in errors
    assert "when an agent is dead, the only valid action is None" in errors
    _inside, _history, before_reset, *_rest = theirs[0][2]
    assert (
        before_reset["agent_selection"][0][2] == "agent_selection cannot be accessed before reset"
    )
    logged = " ".join(message for _call, (_result, log), _state in theirs for message in log)
    assert "Illegal move" in logged
    ends = [inside["infos"] for _call, _outcome, (inside, *_rest) in theirs]
    assert any("winners" in str(infos) for infos in ends)


def test_the_wrappers_are_pettingzoos_classes_in_pettingzoos_order():
    env = mantis_v0.env(num_players=2)
    assert isinstance(env, OrderEnforcingWrapper)
    assert isinstance(env.env, AssertOutOfBoundsWrapper)
    assert isinstance(env.env.env, TerminateIllegalWrapper)
    assert env.env.env.env is env.unwrapped
    assert str(env) == str(pettingzoos_own(2)) == "mantis_v0"


def test_each_wrapper_reads_the_state_through_a_property_not_getattr():
    # The installed PettingZoo leaves every name of STATE to BaseWrapper.__getattr__;
    # if a release defines one itself, it keeps its own and this says so.
    for cls in (TerminateIllegal, AssertOutOfBounds, StandardWrappers):
        assert all(isinstance(vars(cls).get(name), property) for name in STATE), cls


@pytest.mark.parametrize("value", (*range(-2, 9), *NOT_ACTIONS, *SAME_AS_INTS, 3.0, 2**63))
def test_the_action_space_holds_what_gymnasiums_discrete_holds(value):
    space = ActionSpace()
    assert space.contains(value) is Discrete(NUM_ACTIONS).contains(value)
    assert space == Discrete(NUM_ACTIONS)


#: The private records PettingZoo's wrappers keep, which may change in any release.
PETTINGZOO_PRIVATE = {"_has_reset", "_has_updated", "_prev_obs", "_prev_info", "_terminated"}


def test_the_environments_use_pettingzoo_through_its_public_api_only():
    # Neither read nor written anywhere in mantis.envs: what the wrappers do is
    # PettingZoo's own code, so the research extra takes any PettingZoo 1.x.
    for module in sorted((Path(mantis.envs.__file__).parent).glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        touched = {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in PETTINGZOO_PRIVATE
        }
        touched |= {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in PETTINGZOO_PRIVATE
        }
        assert not touched, f"{module.name} touches PettingZoo's private {sorted(touched)}"


@pytest.mark.parametrize("players", (2, 5))
def test_table_actions_and_scaled_observations_give_what_pettingzoos_own_wrappers_give(players):
    calls = script(random.Random(players + 10), players, calls=400)
    raw = mantis_v0.raw_env(num_players=players, table_actions=True, scaled=True)
    theirs = OrderEnforcingWrapper(
        AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw, illegal_reward=ILLEGAL_REWARD))
    )
    ours = mantis_v0.env(num_players=players, table_actions=True, scaled=True)
    for step, (mine, expected) in enumerate(
        zip(play(ours, calls), play(theirs, calls), strict=True)
    ):
        assert mine == expected, f"call {step}: {mine[0]}"
