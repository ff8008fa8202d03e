"""``mantis --help`` and each command's: what every command is for, usages that read right."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout

import pytest

from mantis.cli import main


def _help(*command: str) -> str:
    """What ``mantis COMMAND --help`` prints."""
    with redirect_stdout(io.StringIO()) as out, pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    return out.getvalue()


def _commands(*command: str) -> list[str]:
    """Every command and subcommand under ``command``, as typed after ``mantis``, from the
    lists of them the help gives ("{play,replay,…}")."""
    listed = re.search(r"^  \{([a-z,]+)\}$", _help(*command), re.M)
    found = []
    for name in listed.group(1).split(",") if listed else []:
        found.append(" ".join([*command, name]))
        found += _commands(*command, name)
    return found


COMMANDS = _commands()


def test_every_command_is_there() -> None:
    assert {"play", "review", "games", "games export", "key export", "stats"} <= set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_commands_help_says_what_it_is_for(command: str) -> None:
    out = _help(*command.split())
    usage, _, rest = out.partition("\n\n")
    assert usage.startswith(f"usage: mantis {command}")
    description = rest.split("\n\n")[0]
    # A sentence of its own, before the arguments, starting as `mantis --help` lists it.
    assert description.endswith(".") and not description.startswith(("positional", "options"))
    *parent, name = command.split()
    listed = re.search(rf"^    {name} +(.+)$", _help(*parent), re.M)
    assert listed and " ".join(description.split()).lower().startswith(listed.group(1).lower())


def test_key_exports_usage_reads_as_it_is_typed(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["key", "export", "--help"])
    assert capsys.readouterr().out.startswith("usage: mantis key export [-h] [SERVER] FILE\n")
    assert main(["key", "export", "ws://a:1", "one.json", "two.json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unrecognized arguments: two.json" in err
