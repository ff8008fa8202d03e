"""PettingZoo's standard wrappers, reading the environment's state directly.

``mantis_v0.env()`` wraps ``raw_env`` as PettingZoo's classic games are, in
PettingZoo's own classes: ``TerminateIllegalWrapper`` (an illegal action ends
the game with a penalty), ``AssertOutOfBoundsWrapper`` (an action outside the
space is an error) and ``OrderEnforcingWrapper`` (calls out of order are
errors).  As PettingZoo ships them they cost about 20 µs a turn whatever the
environment (``benchmarks/research.py`` measures them on one that does
nothing), mostly because every attribute a wrapper does not hold
(``agent_selection``, ``terminations``, ``infos``...) is forwarded by
``BaseWrapper.__getattr__``, which Python calls only after an ordinary lookup
has failed and raised an ``AttributeError``: a raised and caught exception
per layer and per read, about thirty a turn.

So each wrapper here is a subclass that defines those reads as class-level
properties reading the environment itself (what ``__getattr__`` would return,
without the failed lookup), and the inner two ask the environment for its
spaces directly; the bounds check asks ``actions.ActionSpace``, which
answers a plain ``int`` without numpy.  Every method called is PettingZoo's
own, unchanged, and nothing here reads or writes the wrappers' private
records: what they do is PettingZoo's, whatever its version.
``tests/envs/test_envs_wrappers.py`` plays the same calls, in order, out of
order and illegal, on these and on PettingZoo's classes as shipped, and
checks every result is the same.
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


class _Direct:
    """What the inner wrappers add: the environment's state and spaces read from it
    directly, not through each layer in turn."""

    _inner: Any

    def action_space(self, agent: str) -> Any:
        return self._inner.action_space(agent)

    def observation_space(self, agent: str) -> Any:
        return self._inner.observation_space(agent)


@_reads("_inner")
class TerminateIllegal(_Direct, TerminateIllegalWrapper):  # type: ignore[misc]  # (untyped)
    """PettingZoo's ``TerminateIllegalWrapper``, reading the state directly."""

    def __init__(self, env: Any, illegal_reward: float) -> None:
        self._inner = env.unwrapped
        super().__init__(env, illegal_reward=illegal_reward)


@_reads("_inner")
class AssertOutOfBounds(_Direct, AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's ``AssertOutOfBoundsWrapper``, reading the state directly."""

    def __init__(self, env: Any) -> None:
        self._inner = env.unwrapped
        super().__init__(env)


# Before reset ``_state`` is None, so a read fails and Python asks
# OrderEnforcingWrapper.__getattr__, which refuses as PettingZoo does.
@_reads("_state")
class StandardWrappers(OrderEnforcingWrapper):  # type: ignore[misc]
    """``env`` in PettingZoo's standard wrappers: ``OrderEnforcingWrapper`` around
    ``AssertOutOfBoundsWrapper`` around ``TerminateIllegalWrapper(illegal_reward)``.

    This object is the outer one (``.env`` is the bounds check, ``.env.env`` the
    illegal-move check, ``.unwrapped`` the environment).  Every call is
    PettingZoo's own method; only the state's reads are direct.
    """

    def __init__(self, env: Any, illegal_reward: float) -> None:
        self._state: Any = None  # the environment itself, once reset
        super().__init__(AssertOutOfBounds(TerminateIllegal(env, illegal_reward=illegal_reward)))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        self._state = self.unwrapped

    def __str__(self) -> str:
        # as PettingZoo's OrderEnforcingWrapper is shown: by the environment alone
        return str(self.env)
