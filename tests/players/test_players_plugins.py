"""Bring your own bot: ``--bots package.module:ClassName``."""

from __future__ import annotations

import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from mantis.players import PlayerSpecError, bot_factory
from mantis.sim.runner import play_game


@pytest.fixture
def plugin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A temporary working directory for plug-in modules; imports undone afterwards."""
    monkeypatch.chdir(tmp_path)
    modules = set(sys.modules)
    path = list(sys.path)
    yield tmp_path
    for name in set(sys.modules) - modules:
        del sys.modules[name]
    sys.path[:] = path


def _module(where: Path, source: str) -> str:
    name = f"plugin_{uuid.uuid4().hex[:12]}"
    (where / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return name


GOOD = """
    from mantis.engine import SCORE, steal

    class MyBot:
        def choose(self, view):
            return steal((view.seat + 1) % view.players) if view.turn % 2 else SCORE
"""


def test_a_plugin_bot_loads_and_plays(plugin_dir: Path) -> None:
    name = _module(plugin_dir, GOOD)
    factory = bot_factory(f"{name}:MyBot")
    game = play_game([factory(), bot_factory("greedy")()], 5)
    assert game.over
    assert name in sys.modules


def test_a_plugin_in_a_package(plugin_dir: Path) -> None:
    package = plugin_dir / f"pkg_{uuid.uuid4().hex[:8]}"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "bots.py").write_text(textwrap.dedent(GOOD), encoding="utf-8")
    factory = bot_factory(f"{package.name}.bots:MyBot")
    assert play_game([factory(), factory(), factory()], 6).over


def test_missing_module(plugin_dir: Path) -> None:
    with pytest.raises(PlayerSpecError, match="cannot import 'no_such_module_xyz'"):
        bot_factory("no_such_module_xyz:Bot")


def test_module_failing_on_import(plugin_dir: Path) -> None:
    name = _module(plugin_dir, "raise ImportError('needs torch')\n")
    with pytest.raises(PlayerSpecError, match="needs torch"):
        bot_factory(f"{name}:Bot")


def test_missing_class(plugin_dir: Path) -> None:
    name = _module(plugin_dir, GOOD)
    with pytest.raises(PlayerSpecError, match="has no 'Nope'"):
        bot_factory(f"{name}:Nope")


def test_not_a_player(plugin_dir: Path) -> None:
    name = _module(
        plugin_dir, "class Bot:\n    def play(self, view):\n        return None\nnotaclass = 3\n"
    )
    with pytest.raises(PlayerSpecError, match="not a class with a choose"):
        bot_factory(f"{name}:Bot")
    with pytest.raises(PlayerSpecError, match="not a class with a choose"):
        bot_factory(f"{name}:notaclass")


def test_constructor_raising(plugin_dir: Path) -> None:
    source = (
        "class Bot:\n    def __init__(self):\n        raise ValueError('no config')\n"
        "    def choose(self, view):\n        return None\n"
    )
    name = _module(plugin_dir, source)
    with pytest.raises(PlayerSpecError, match="cannot be made.*ValueError: no config"):
        bot_factory(f"{name}:Bot")


@pytest.mark.parametrize("spec", ["nonsense", ":Bot", "module:", "  "])
def test_bad_specs(plugin_dir: Path, spec: str) -> None:
    with pytest.raises(PlayerSpecError):
        bot_factory(spec)


def test_errors_are_one_line(plugin_dir: Path) -> None:
    name = _module(plugin_dir, "def broken(:\n")
    with pytest.raises(PlayerSpecError) as info:
        bot_factory(f"{name}:Bot")
    assert "\n" not in str(info.value)


def test_loading_a_plugin_leaves_sys_path_as_it_was(plugin_dir: Path) -> None:
    before = list(sys.path)
    assert str(plugin_dir) not in before
    name = _module(plugin_dir, GOOD)
    factory = bot_factory(f"{name}:MyBot")
    assert sys.path == before
    with pytest.raises(PlayerSpecError):
        bot_factory("no_such_module_xyz:Bot")
    assert sys.path == before
    assert play_game([factory(), bot_factory("greedy")()], 5).over  # the bot still plays


def test_a_directory_already_on_sys_path_stays_there(plugin_dir: Path) -> None:
    sys.path.append(str(plugin_dir))
    before = list(sys.path)
    bot_factory(f"{_module(plugin_dir, GOOD)}:MyBot")
    assert sys.path == before
