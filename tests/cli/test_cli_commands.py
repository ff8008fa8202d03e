"""Every command the parser knows is built by a function of its own and run by one.

The parser: ``build_parser`` makes the top-level parser and calls one function per
command (``_add_play``, ``_add_key``, and for ``key``'s subcommands ``_add_key_export``,
...); each command's parser is what its function alone builds, so nothing is added to a
command from anywhere else.  The dispatch: every command, with and without its line mode,
reaches a function of its own that runs it (``main`` is stopped as it calls it, so nothing
runs), and none falls through to ``mantis play``'s.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import mantis.cli
from mantis.cli import main, parser

#: Values a required option or argument is given: the first its type takes.
CANDIDATES = ("2", "postgresql://user@host/db")


def _subcommands(command: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next(
        (
            dict(action.choices)
            for action in command._actions
            if isinstance(action, argparse._SubParsersAction)
        ),
        {},
    )


def _commands(
    command: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command and subcommand under ``command``, by its path of names."""
    for name, subcommand in _subcommands(command).items():
        yield (*path, name), subcommand
        yield from _commands(subcommand, (*path, name))


def _tree(command: argparse.ArgumentParser) -> list[Any]:
    """Everything a command is: its help (at a fixed width) and every action's parts,
    its subcommands' included."""
    parts: list[Any] = [command.prog, command.format_help()]
    for action in command._actions:
        kind = action.type
        parts.append(
            (
                type(action).__name__,
                action.option_strings,
                action.dest,
                action.default,
                action.const,
                action.nargs,
                action.required,
                action.metavar,
                action.help,
                None if kind is None else getattr(kind, "__qualname__", kind),
                None if isinstance(action, argparse._SubParsersAction) else action.choices,
            )
        )
    for _, subcommand in sorted(_subcommands(command).items()):
        parts.append(_tree(subcommand))
    return parts


def _built_alone(path: tuple[str, ...], serving: bool) -> argparse.ArgumentParser:
    """What the command at ``path`` is when its own function alone builds it."""
    *above, name = path
    holder = parser._Parser(prog=" ".join(["mantis", *above]))
    dest = f"{above[-1]}_command" if above else "command"
    sub = holder.add_subparsers(dest=dest, parser_class=parser._Parser)
    build = getattr(parser, "_add_" + "_".join(path), None)
    assert build is not None, f"no function builds `mantis {' '.join(path)}`"
    build(sub, **({"limits": serving} if path == ("serve",) else {}))
    assert list(_subcommands(holder)) == [name], f"{build.__name__} builds more than {name}"
    return _subcommands(holder)[name]


@pytest.fixture(autouse=True)
def _fixed_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")


@pytest.mark.parametrize("serving", [False, True])
def test_every_command_is_what_its_own_function_builds(serving: bool) -> None:
    commands = dict(_commands(parser.build_parser(serving=serving)))
    assert {("play",), ("serve",), ("key",), ("key", "export"), ("games", "export")} <= set(
        commands
    )
    for path, command in commands.items():
        assert _tree(command) == _tree(_built_alone(path, serving)), " ".join(path)


def test_the_limits_are_serves_only_when_serving() -> None:
    limits = "limits (what one party may cost the server)"
    assert limits in _built_alone(("serve",), serving=True).format_help()
    assert limits not in _built_alone(("serve",), serving=False).format_help()


def test_a_tables_launch_builds_play_alone() -> None:
    only = dict(_commands(parser.build_parser(play_only=True)))
    assert list(only) == [("play",)]
    assert _tree(only[("play",)]) == _tree(dict(_commands(parser.build_parser()))[("play",)])


# ---------------------------------------------------------------------- the dispatch


class _Reached(Exception):
    """``main`` called the function that runs a command (which is not run)."""

    def __init__(self, handler: str) -> None:
        super().__init__(handler)
        self.handler = handler


_DISPATCH = Path(mantis.cli.__file__).resolve()


def _handler(argv: list[str]) -> str | None:
    """The function ``mantis ARGV`` hands its parsed options to (``module.name``), stopped
    as it is called: the first call ``main`` makes, outside the dispatch itself, with a
    ``Namespace`` first."""

    def trace(frame: FrameType, event: str, _: object) -> None:
        caller = frame.f_back
        if event != "call" or caller is None or caller.f_code is not main.__code__:
            return
        code = frame.f_code
        if Path(code.co_filename).resolve() == _DISPATCH or not code.co_argcount:
            return
        if isinstance(frame.f_locals.get(code.co_varnames[0]), argparse.Namespace):
            raise _Reached(f"{frame.f_globals['__name__']}.{code.co_qualname}")

    before = sys.gettrace()
    sys.settrace(trace)
    try:
        main(argv)
    except _Reached as reached:
        return reached.handler
    finally:
        sys.settrace(before)
    return None


def _least_argv(path: tuple[str, ...], command: argparse.ArgumentParser) -> list[str]:
    """``path`` and what it needs to parse: a value for each required argument."""
    argv = list(path)
    for action in command._actions:
        needed = action.required or (not action.option_strings and action.nargs is None)
        if not needed or isinstance(action, argparse._SubParsersAction):
            continue
        if action.choices is not None:
            value = str(next(iter(action.choices)))
        else:
            value = next(v for v in CANDIDATES if _takes(action, v))
        argv += [*action.option_strings[:1], value]
    return argv


def _takes(action: argparse.Action, value: str) -> bool:
    if not callable(action.type):
        return True
    try:
        action.type(value)
    except (argparse.ArgumentTypeError, ValueError):
        return False
    return True


def _leaves() -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command a user runs (``key`` itself is not run: one of its subcommands is)."""
    everything = _commands(parser.build_parser(serving=True))
    return [(path, command) for path, command in everything if not _subcommands(command)]


LEAVES = _leaves()


def _has_lines(command: argparse.ArgumentParser) -> bool:
    return any("--lines" in action.option_strings for action in command._actions)


def test_every_command_a_user_runs_is_tried() -> None:
    names = {" ".join(path) for path, _ in LEAVES}
    assert {"play", "serve", "key export", "key rotate", "games export", "stats"} <= names
    assert "key" not in names and "games" not in names


@pytest.mark.parametrize(("path", "command"), LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
def test_every_command_reaches_a_function_of_its_own_that_runs_it(
    path: tuple[str, ...], command: argparse.ArgumentParser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With no line mode of its own, the lines setting must not matter to where it goes.
    monkeypatch.setenv("MANTIS_LINES", "1")
    plays = {_handler(["play", "--no-lines"]), _handler(["play", "--lines"])}
    assert None not in plays and len(plays) == 2
    least = _least_argv(path, command)
    tries = [(least + ["--lines"], True), (least + ["--no-lines"], False)]
    for argv, lines in tries if _has_lines(command) else [(least, None)]:
        handler = _handler(argv)
        assert handler is not None, f"nothing runs mantis {' '.join(argv)}"
        assert handler.rsplit(".", 1)[1].startswith("run_"), handler
        if path != ("play",):
            assert handler not in plays, f"mantis {' '.join(argv)} falls through to play"
        if lines is not None:
            # The line mode's own function, or the full screen's.
            assert handler.startswith("mantis.lines.") == lines, (argv, handler)


def test_every_key_subcommand_run_here_has_a_function_of_its_own() -> None:
    # ``key``'s subcommands all reach run_key, which hands each to its own function: one the
    # parser has and the table lacks would fail there, never list the keys instead.
    from mantis.cli.key import KEY_COMMANDS

    key = dict(_commands(parser.build_parser()))[("key",)]
    assert set(_subcommands(key)) == {*KEY_COMMANDS, "rotate"}  # rotate: the client's
    assert len(set(KEY_COMMANDS.values())) == len(KEY_COMMANDS)
