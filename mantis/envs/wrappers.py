"""PettingZoo's standard wrappers, with a direct path for a legal turn.

``mantis_v0.env()`` wraps ``raw_env`` as PettingZoo's classic games are, in
PettingZoo's own classes: ``TerminateIllegalWrapper`` (an illegal action ends
the game with a penalty), ``AssertOutOfBoundsWrapper`` (an action outside the
space is an error) and ``OrderEnforcingWrapper`` (calls out of order are
errors).  As PettingZoo ships them they cost about 20 µs a turn whatever the
environment (``benchmarks/research.py`` measures them on one that does
nothing), for two reasons:

* every attribute a wrapper does not hold (``agent_selection``,
  ``terminations``, ``infos``...) is forwarded by ``BaseWrapper.__getattr__``,
  which Python calls only after an ordinary lookup has failed and raised an
  ``AttributeError``: a raised and caught exception per layer and per read,
  about thirty a turn (~15 µs);
* every call goes through each layer's method and ``BaseWrapper``'s
  forwarding one (about fifteen Python calls a turn), and the bounds check
  asks Gymnasium's ``Discrete.contains`` (~3 µs; ``actions.ActionSpace``
  answers a plain ``int`` without numpy).

So here each wrapper reads the state through class-level properties (what
``__getattr__`` would return, without the failed lookup), and the outermost
one, ``StandardWrappers``, plays a legal turn directly: ``last()`` observes
and remembers the observation as ``TerminateIllegalWrapper.observe`` does,
and ``step(action)``, when the action is in the space, the agent is live and
the mask it was shown allows the action (the one case in which all three
wrappers only pass the action on), keeps their books as they do and steps the
environment.  Everything else (a call before ``reset``, an illegal or
out-of-bounds action, a finished agent's step, an action not an ``int``)
goes through PettingZoo's own methods, unchanged.

The direct path keeps the wrappers' own records (``_has_updated``,
``_prev_obs``, ``_prev_info``): it is written against
PettingZoo 1.25 to 1.27, whose three wrappers are the same code, and
``pyproject.toml`` pins that range.  ``tests/envs/test_envs_wrappers.py``
plays the same calls, in order, out of order and illegal, on these and on
PettingZoo's classes as shipped, and checks every result is the same.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

from pettingzoo.utils.wrappers import (
    AssertOutOfBoundsWrapper,
    OrderEnforcingWrapper,
    TerminateIllegalWrapper,
)

STATE = (
    "agent_selection",
    "agents",
    "terminations",
    "truncations",
    "rewards",
    "_cumulative_rewards",
    "infos",
)
"""The environment's state the wrappers read every turn, and ``last()`` returns."""

Wrapper = TypeVar("Wrapper", bound=type)


def left_to_getattr(cls: type, name: str) -> bool:
    """Whether ``cls`` leaves ``name`` to ``__getattr__`` (no class of its own defines it)."""
    return not any(name in vars(klass) for klass in cls.__mro__)


def _reads(source: str) -> Callable[[Wrapper], Wrapper]:
    """A class decorator: each ``STATE`` name the class leaves to ``__getattr__``
    becomes a property reading ``self.<source>.<name>``."""

    def decorate(cls: Wrapper) -> Wrapper:
        for name in STATE:
            if left_to_getattr(cls, name):
                doc = f"The environment's {name}, read through."
                setattr(cls, name, property(attrgetter(f"{source}.{name}"), doc=doc))
        return cls

    return decorate


@_reads("env")
class TerminateIllegal(TerminateIllegalWrapper):  # type: ignore[misc]  # (PettingZoo: untyped)
    """PettingZoo's ``TerminateIllegalWrapper``, reading the state through directly."""


@_reads("env")
class AssertOutOfBounds(AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's ``AssertOutOfBoundsWrapper``, reading the state through directly."""


# Before reset ``_state`` is None, so a read fails and Python asks
# OrderEnforcingWrapper.__getattr__, which refuses as PettingZoo does.
@_reads("_state")
class StandardWrappers(OrderEnforcingWrapper):  # type: ignore[misc]
    """``env`` in PettingZoo's standard wrappers: ``OrderEnforcingWrapper`` around
    ``AssertOutOfBoundsWrapper`` around ``TerminateIllegalWrapper(illegal_reward)``.

    This object is the outer one (``.env`` is the bounds check, ``.env.env`` the
    illegal-move check, ``.unwrapped`` the environment), with a direct path for
    a legal turn (see the module's docstring).
    """

    def __init__(self, env: Any, illegal_reward: float) -> None:
        self._state: Any = None  # the environment itself, once reset
        self._illegal = TerminateIllegal(env, illegal_reward=illegal_reward)
        super().__init__(AssertOutOfBounds(self._illegal))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        self._state = self.unwrapped

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        env = self._state
        if env is None:
            return super().last(observe)  # type: ignore[no-any-return]
        agent = env.agent_selection
        assert agent is not None
        observation = None
        if observe:
            # as TerminateIllegalWrapper.observe: the mover's observation and info
            # are remembered, for step to check the action against that mask
            observation = env.observe(agent)
            illegal = self._illegal
            illegal._prev_obs = observation
            illegal._prev_info = env.infos.get(agent, {})
        return (
            observation,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        )

    def step(self, action: Any) -> None:
        env = self._state
        illegal = self._illegal
        if env is not None and type(action) is int and env.agents:
            agent = env.agent_selection
            shown = illegal._prev_obs
            if (
                type(shown) is dict
                and not env.terminations[agent]
                and not env.truncations[agent]
                and env.action_space(agent).contains(action)
                and shown["action_mask"][action]
            ):
                # what the three wrappers do with a legal action: record the
                # step, forget the observation it was checked against, pass it on
                self._has_updated = True
                illegal._prev_obs = illegal._prev_info = None
                env.step(action)
                return
        super().step(action)

    def __str__(self) -> str:
        # as PettingZoo's OrderEnforcingWrapper is shown: by the environment alone
        return str(self.env)
