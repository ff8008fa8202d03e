"""What a setting may hold, declared beside it: each kind reads a saved value and says,
in a few words, what is wrong with a bad one.

A ``Settings`` field is declared once, with ``setting(default, kind, label=...)``: its
name, type and default are the field's, its kind holds its bounds or choices, and its
label (if it has one) puts it on the app's settings form.  Reading the JSON file,
checking it and building the form all follow the declarations.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class BadSetting(ValueError):
    """A saved value the setting cannot hold; the text is its rule ("must be 5 to 3600")."""


@dataclass(frozen=True, slots=True)
class Kind:
    """What a setting holds: ``read`` a JSON value into it, ``write`` it back as JSON."""

    def read(self, value: object) -> Any:
        """``value`` as the setting holds it; ``BadSetting`` if it cannot."""
        raise NotImplementedError

    def write(self, value: Any) -> Any:
        """The setting's ``value`` as JSON."""
        return value


@dataclass(frozen=True, slots=True)
class Switch(Kind):
    """On or off."""

    def read(self, value: object) -> bool:
        if not isinstance(value, bool):
            raise BadSetting("must be true or false")
        return value


@dataclass(frozen=True, slots=True)
class OneOf(Kind):
    """One of ``choices``; with none, any name (what the app offers, such as its themes)."""

    choices: tuple[str, ...] | None = None

    def read(self, value: object) -> str:
        if self.choices is None:
            if not isinstance(value, str) or not value:
                raise BadSetting("must be a name")
        elif value not in self.choices:
            *most, last = self.choices
            raise BadSetting(f"must be {', '.join(most)} or {last}" if most else f"must be {last}")
        return value


@dataclass(frozen=True, slots=True)
class Text(Kind):
    """Text of at most ``longest`` characters."""

    longest: int = 200

    def read(self, value: object) -> str:
        if not isinstance(value, str) or len(value) > self.longest:
            raise BadSetting(f"must be text of at most {self.longest} characters")
        return value


@dataclass(frozen=True, slots=True)
class Number(Kind):
    """A number from ``low`` to ``high`` (more than ``low`` if ``above_low``), of ``unit``s;
    ``whole``: an int; ``optional``: None too (no value)."""

    low: float
    high: float
    whole: bool = False
    above_low: bool = False
    optional: bool = False
    unit: str = ""

    @property
    def bounds(self) -> str:
        """The range in words: "5 to 3600", "more than 0 and at most 600"."""
        if self.above_low:
            return f"more than {self.low:g} and at most {self.high:g}"
        return f"{self.low:g} to {self.high:g}"

    @property
    def rule(self) -> str:
        """What a value out of range is told: "must be 5 to 3600"."""
        return f"must be {self.bounds}"

    @property
    def words(self) -> str:
        """What the setting is, for a form: "a number of seconds, more than 0 and at most 600"."""
        what = "a whole number" if self.whole else "a number"
        return f"{what}{f' of {self.unit}' if self.unit else ''}, {self.bounds}"

    def read(self, value: object) -> int | float | None:
        if value is None and self.optional:
            return None
        if self.whole and type(value) is not int:
            raise BadSetting(f"must be a whole number, {self.bounds}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BadSetting(f"must be a number, {self.bounds}")
        low = value > self.low if self.above_low else value >= self.low
        if not (low and value <= self.high):
            raise BadSetting(self.rule)
        return value if self.whole else float(value)


@dataclass(frozen=True, slots=True)
class Made(Kind):
    """A value of its own shape: ``reads`` makes it from JSON (None: it cannot, for
    ``rule``'s reason), ``writes`` makes its JSON."""

    reads: Callable[[Any], Any]
    rule: str
    writes: Callable[[Any], Any] = lambda value: value

    def read(self, value: object) -> Any:
        made = self.reads(value)
        if made is None:
            raise BadSetting(self.rule)
        return made

    def write(self, value: Any) -> Any:
        return self.writes(value)


@dataclass(frozen=True, slots=True)
class Declared:
    """A setting's declaration beyond its field: its ``kind``, and its ``label`` on the
    settings form (None: not on the form); ``about`` names it in the form's messages."""

    kind: Kind
    label: str | None = None
    about: str = ""


_DECLARED = "setting"


def setting(default: Any, kind: Kind, label: str | None = None, about: str = "") -> Any:
    """A ``Settings`` field: its ``default``, its ``kind`` and its form ``label``."""
    return dataclasses.field(default=default, metadata={_DECLARED: Declared(kind, label, about)})


def declared(cls: type) -> dict[str, Declared]:
    """Every field of the dataclass ``cls`` by name, in order, with its declaration;
    ``TypeError`` for a field declared without ``setting``."""
    found = {}
    for item in dataclasses.fields(cls):
        declaration = item.metadata.get(_DECLARED)
        if not isinstance(declaration, Declared):
            raise TypeError(f"{cls.__name__}.{item.name} is not declared with setting()")
        found[item.name] = declaration
    return found
