"""Bots by name, and plug-in bots by ``package.module:ClassName``."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import sys
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from types import ModuleType
from typing import cast

from .protocol import Player, is_player


class _BuiltIn(MutableMapping[str, Callable[[], Player]]):
    """Bots by name, each bot's module imported when its class is first asked for.

    Naming the bots (the CLI's choices, the setup screen's levels, a seat
    spec's check) imports none: a launch does that before its first frame.
    """

    def __init__(self, homes: dict[str, str]) -> None:
        self._homes = dict(homes)  # name: "module:Class" under .bots
        self._classes: dict[str, Callable[[], Player]] = {}

    def __getitem__(self, name: str) -> Callable[[], Player]:
        if name not in self._classes:
            module, _, cls = self._homes[name].partition(":")
            home = importlib.import_module(f"{__package__}.bots.{module}")
            self._classes[name] = getattr(home, cls)
        return self._classes[name]

    def __setitem__(self, name: str, bot: Callable[[], Player]) -> None:
        self._homes[name] = ""
        self._classes[name] = bot

    def __delitem__(self, name: str) -> None:
        del self._homes[name]
        self._classes.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._homes  # (Mapping's own would import the bot)

    def __iter__(self) -> Iterator[str]:
        return iter(self._homes)

    def __len__(self) -> int:
        return len(self._homes)


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A built-in bot: the one place its name, its home, its label and its cost are written."""

    name: str
    """What the CLI, seat specs and records call it."""
    home: str
    """``module:Class`` under ``mantis.players.bots``: what ``BOTS`` imports when asked."""
    label: str | None
    """What the app and the line mode call the level ("Hard"); None: not offered as a level
    (``score``: a plain bot for the simulator and tests)."""
    decision_seconds: float
    """Rough seconds one decision takes (measured, 4 players): the simulator's estimate of a
    run's length (``sim.jobs``)."""


BOT_LEVELS: tuple[BotLevel, ...] = (
    BotLevel("random", "random_bot:RandomBot", "Beginner", 1.5e-6),
    BotLevel("score", "score:ScoreLevel", None, 1e-6),
    BotLevel("casual", "casual:CasualBot", "Easy", 8e-6),
    BotLevel("greedy", "greedy:GreedyLevel", "Hard", 7e-6),
    BotLevel("expert", "expert:ExpertBot", "Expert", 3e-4),
)
"""Every built-in bot, weakest first: what ``BOTS``, ``LEVELS``, the CLI's choices, the
simulator's estimate and the line mode's help read."""

BUILT_IN: tuple[str, ...] = tuple(level.name for level in BOT_LEVELS)
"""The built-in bots' names, weakest first (a server's ``--quick-bot``, ``--away-bot``)."""

BOTS: MutableMapping[str, Callable[[], Player]] = _BuiltIn(
    {level.name: level.home for level in BOT_LEVELS}
)
"""Bots by CLI name, weakest first: the built-in ones and any a plug-in adds."""


class PlayerSpecError(ValueError):
    """A bot name or plug-in reference that does not give a working bot."""


def bot_factory(spec: str) -> Callable[[], Player]:
    """What makes a bot for ``spec``: a built-in name or ``module:Class``.

    Raises ``PlayerSpecError`` with a one-line reason.
    """
    spec = spec.strip()
    if spec in BOTS:
        return BOTS[spec]
    if ":" not in spec:
        known = ", ".join(BOTS)
        raise PlayerSpecError(f"unknown bot {spec!r} (known: {known}, or package.module:Class)")
    return _load_plugin(spec)


def make_bot(spec: str) -> Player:
    """A fresh bot for ``spec``."""
    return bot_factory(spec)()


def _load_plugin(spec: str) -> Callable[[], Player]:
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise PlayerSpecError(f"bad plug-in {spec!r}: write it as package.module:ClassName")
    try:
        module = _import_from_here(module_name)
    except Exception as exc:  # any import failure is the plug-in's, reported in one line
        raise PlayerSpecError(
            f"cannot import {module_name!r} for bot {spec!r}: {type(exc).__name__}: {exc}"
        ) from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise PlayerSpecError(f"module {module_name!r} has no {class_name!r}")
    if not inspect.isclass(cls) or not is_player(cls):
        raise PlayerSpecError(f"{spec} is not a class with a choose(view) method")
    try:
        instance = cls()
    except Exception as exc:
        raise PlayerSpecError(
            f"{spec} cannot be made with no arguments: {type(exc).__name__}: {exc}"
        ) from None
    if not is_player(instance):
        raise PlayerSpecError(f"{spec} is not a class with a choose(view) method")
    return cast("Callable[[], Player]", cls)  # checked just above: its instances choose


def _import_from_here(module_name: str) -> ModuleType:
    """Import ``module_name``, finding it in the current directory too (as ``python`` would).

    The directory is on ``sys.path`` for this import only: left there, it
    would decide what every later import in the process finds.
    """
    cwd = os.getcwd()
    added = cwd not in sys.path
    if added:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(module_name)
    finally:
        if added:
            with contextlib.suppress(ValueError):  # the plug-in took it off itself
                sys.path.remove(cwd)


LEVELS: tuple[tuple[str, str], ...] = tuple(
    (level.label, level.name) for level in BOT_LEVELS if level.label is not None
)
"""How the UI names the bots: (label, CLI name), easiest first."""


def level_choices() -> tuple[tuple[str, str], ...]:
    """The levels whose bot exists, as (label, bot name)."""
    return tuple((label, name) for label, name in LEVELS if name in BOTS)


def level_label(bot: str) -> str:
    """A bot as the app names it: "Expert (expert)" for a level, its own name otherwise
    (``score``, a plug-in)."""
    for label, name in LEVELS:
        if name == bot:
            return f"{label} ({bot})"
    return bot
