"""Lists with one home: every list derived from the bot levels or the turn clock's range
names what its home names, so a level or a bound added there reaches them all."""

from __future__ import annotations

import argparse

import msgspec
import pytest

from mantis.cli import UsageError
from mantis.cli.parser import build_parser
from mantis.engine.turn_clock_range import CLOCK_RULE, MAX_CLOCK, MIN_CLOCK
from mantis.home.settings import load_settings
from mantis.lines.help import help_lines
from mantis.net import protocol
from mantis.players.registry import BOT_LEVELS, BOTS, BUILT_IN, LEVELS, level_label
from mantis.sim.jobs import DECISION_SECONDS, UNKNOWN_DECISION_SECONDS, game_seconds

NAMES = [level.name for level in BOT_LEVELS]
LABELLED = [level.name for level in BOT_LEVELS if level.label is not None]


def _choices(command: str, option: str) -> list[str]:
    parser = build_parser(serving=True)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in sub.choices[command]._actions if option in a.option_strings)
    return list(action.choices or ())


def test_the_registry_reads_the_level_table() -> None:
    assert list(BUILT_IN) == NAMES and list(BOTS)[: len(NAMES)] == NAMES
    assert [name for _, name in LEVELS] == LABELLED and "score" not in LABELLED
    for level in BOT_LEVELS:
        assert callable(BOTS[level.name])  # its home holds its class
        if level.label is not None:
            assert level_label(level.name) == f"{level.label} ({level.name})"


@pytest.mark.parametrize(("command", "option"), [("serve", "--quick-bot"), ("host", "--away-bot")])
def test_the_cli_offers_every_built_in_bot(command: str, option: str) -> None:
    assert _choices(command, option) == NAMES


def test_the_simulator_has_a_cost_for_every_level() -> None:
    assert {level.name: level.decision_seconds for level in BOT_LEVELS} == DECISION_SECONDS
    # A level's own cost is used, not the plug-ins' guess.
    assert all(game_seconds([n]) != game_seconds(["some.plugin:Bot"]) for n in NAMES)
    assert UNKNOWN_DECISION_SECONDS not in DECISION_SECONDS.values()


def test_the_line_modes_help_names_every_level() -> None:
    said = " ".join(help_lines(playing=False, online=True, waiting=True, host=True))
    line = next(line for line in said.split(". ") if line.startswith("bot, or bot expert"))
    assert all(name in line for name in LABELLED) and "score" not in line


@pytest.mark.parametrize("seconds", [MIN_CLOCK - 1, MAX_CLOCK + 1])
def test_a_clock_out_of_range_is_refused_everywhere_alike(tmp_path, seconds: int) -> None:
    assert CLOCK_RULE == "must be 5 to 3600"
    create = {"type": "create", "protocol": 2, "name": "Ann", "seats": ["human", "open"]}
    with pytest.raises(protocol.ProtocolError, match=str(MIN_CLOCK if seconds < 5 else MAX_CLOCK)):
        protocol.decode_client(msgspec.json.encode({**create, "clock": seconds}))
    with pytest.raises(UsageError, match=f"{CLOCK_RULE}, not {seconds}"):
        build_parser().parse_args(
            ["host", "ws://x", "--seats", "human,open", "--clock", f"{seconds}"]
        )
    saved = tmp_path / "settings.json"
    saved.write_text(f'{{"online_clock": {seconds}}}', encoding="utf-8")
    settings, warning = load_settings(saved)
    assert settings.online_clock is None and warning is not None
    assert f"online_clock ({CLOCK_RULE})" in warning


@pytest.mark.parametrize("seconds", [MIN_CLOCK, MAX_CLOCK])
def test_a_clock_in_range_is_taken_everywhere(tmp_path, seconds: int) -> None:
    create = {"type": "create", "protocol": 2, "name": "Ann", "seats": ["human", "open"]}
    assert (
        protocol.decode_client(msgspec.json.encode({**create, "clock": seconds})).clock == seconds
    )
    args = build_parser().parse_args(
        ["host", "ws://x", "--seats", "human,open", "--clock", f"{seconds}"]
    )
    assert args.clock == seconds
    saved = tmp_path / "settings.json"
    saved.write_text(f'{{"online_clock": {seconds}}}', encoding="utf-8")
    assert load_settings(saved) == (load_settings(saved)[0], None)
    assert load_settings(saved)[0].online_clock == seconds


def test_the_batched_bots_are_built_in_levels() -> None:
    # The vector env's LEVELS are the bots with a batched twin (a subset, not derived).
    vector = pytest.importorskip("mantis.envs.vector", reason="the research extra")
    assert set(vector.LEVELS) <= set(BUILT_IN)
