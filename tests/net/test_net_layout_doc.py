"""The README's layout of ``mantis/net`` names every module in it, and nothing that is not."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NET = ROOT / "mantis" / "net"
HEADING = "### Online play, file by file (`mantis/net`)"


def section() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(HEADING)
    end = text.index("\n### ", start + len(HEADING))
    return text[start:end]


def modules() -> set[str]:
    """Every module in ``net``, as a path inside it; a package's ``__init__.py`` only if it
    holds more than its docstring (the others say what their package is)."""
    found = set()
    for path in NET.rglob("*.py"):
        body = ast.parse(path.read_text()).body
        if path.name == "__init__.py" and len(body) <= 1:
            continue
        found.add(path.relative_to(NET).as_posix())
    return found


def test_the_readme_names_every_module_of_net_and_only_those() -> None:
    named = set(re.findall(r"^\| `([\w/]+\.py)` \|", section(), re.MULTILINE))
    assert modules() - named == set(), "modules the README's layout does not name"
    assert named - modules() == set(), "names in the README's layout with no module"


def test_every_package_of_net_is_a_part_the_readme_names() -> None:
    packages = {p.parent.relative_to(NET).as_posix() for p in NET.rglob("__init__.py")}
    packages.discard(".")
    assert packages == {
        "protocol",
        "client",
        "server",
        "server/room",
        "server/limits",
        "server/pages",
        "cluster",
    }
    for package in packages:
        assert f"(`{package}/`)" in section(), package


WAITS = {"asyncio.sleep", "asyncio.wait_for", "time.monotonic", "time.time", "time.sleep"}
NOT_YET = {
    # (docs/architecture.md names these: the system clock's, not yet a handed Clock.)
    "server/server.py": {"asyncio.wait_for"},  # the shutdown's bound
    "server/pages/metrics_listener.py": {"asyncio.wait_for"},  # its reads' bound
    "server/open_files.py": {"time.monotonic"},  # (the default of the clock it is handed)
}


def test_what_waits_in_net_asks_its_clock_but_what_the_architecture_names() -> None:
    found: dict[str, set[str]] = {}
    for path in NET.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                called = f"{node.value.id}.{node.attr}"
                if called in WAITS:
                    found.setdefault(path.relative_to(NET).as_posix(), set()).add(called)
    assert found == NOT_YET
    architecture = " ".join((ROOT / "docs" / "architecture.md").read_text().split())
    for named in ("the server's shutdown", "metrics listener"):
        assert named in architecture
