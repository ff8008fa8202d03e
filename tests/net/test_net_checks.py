"""The checks that hold net's shape bite: a planted cross-import fails ``lint-imports``,
and a dispatch left without a kind fails mypy (not a test reading a private table).

Each runs the real tool on a copy of the package with the fault planted.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def planted_copy(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> Path:
    """A copy of the package and its configuration, each file in ``edits`` with one text
    replaced by another (the text must be there: a check of nothing would pass)."""
    shutil.copytree(
        ROOT / "mantis", tmp_path / "mantis", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for name, (old, new) in edits.items():
        path = tmp_path / "mantis" / name
        text = path.read_text()
        assert old in text, f"{old!r} is not in {name}"
        path.write_text(text.replace(old, new, 1))
    return tmp_path


def run(tool: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    if not (BIN / tool).exists():
        pytest.skip(f"{tool} is not installed")
    env = {**os.environ, "PYTHONPATH": str(cwd)}  # (the copy, not the installed package)
    return subprocess.run(
        [str(BIN / tool), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def without_arm(text: str, kind: str, module: str | None = "protocol") -> tuple[str, str]:
    """The ``case MODULE.KIND(...):`` arm of a match in ``text`` (``module`` None: ``case
    KIND(...):``, a name imported on its own), to replace by nothing."""
    name = kind if module is None else f"{module}\\.{kind}"
    arm = re.search(rf"\n( +)case {name}\([^)]*\):\n(?:\1 .*\n)+", text)
    assert arm is not None, kind
    return arm.group(0), "\n"


def test_a_planted_import_across_nets_parts_fails_lint_imports(tmp_path: Path) -> None:
    def planted(name: str, part: str) -> tuple[str, str]:
        """An import of ``part`` at the end of ``name``."""
        text = (ROOT / "mantis" / name).read_text()
        return text, f"{text}\nfrom .. import {part} as _planted  # noqa: F401\n"

    copy = planted_copy(
        tmp_path,
        {
            "net/client/server_lists.py": planted("net/client/server_lists.py", "server"),
            "net/protocol/codes.py": planted("net/protocol/codes.py", "client"),
            "net/cluster/outages.py": planted("net/cluster/outages.py", "server"),
        },
    )
    result = run("lint-imports", "--no-cache", cwd=copy)
    assert result.returncode != 0
    out = " ".join(result.stdout.split())
    for contract in (
        "The client never imports the server, nor the cluster BROKEN",
        "The protocol imports nothing else of net BROKEN",
        "The cluster imports of net only what it relays (the protocol): never the server, "
        "nor the client BROKEN",
    ):
        assert contract in out, result.stdout
    # Unplanted, the same copy keeps every contract (so it is the plants that broke them).
    clean = planted_copy(tmp_path / "clean", {})
    assert run("lint-imports", "--no-cache", cwd=clean).returncode == 0


def test_a_dispatch_without_a_kind_fails_mypy(tmp_path: Path) -> None:
    client = (ROOT / "mantis/net/client/__init__.py").read_text()
    requests = (ROOT / "mantis/net/server/requests.py").read_text()
    followed = (ROOT / "mantis/follow/online_table.py").read_text()
    app = (ROOT / "mantis/tui/online.py").read_text()
    lines = (ROOT / "mantis/lines/online.py").read_text()
    node = (ROOT / "mantis/net/server/cluster_node.py").read_text()
    copy = planted_copy(
        tmp_path,
        {
            "net/client/__init__.py": without_arm(client, "People"),
            "net/server/requests.py": without_arm(requests, "Who"),
            "follow/online_table.py": without_arm(followed, "People"),
            # The two front ends, each over the followed table's changes.
            "tui/online.py": without_arm(app, "People", module="changes"),
            "lines/online.py": without_arm(lines, "People", module="changes"),
            # A message from another node of a cluster.
            "net/server/cluster_node.py": without_arm(node, "Adopt", module=None),
        },
    )
    files = (
        "mantis/net/client/__init__.py",
        "mantis/net/server/requests.py",
        "mantis/follow/online_table.py",
        "mantis/tui/online.py",
        "mantis/lines/online.py",
        "mantis/net/server/cluster_node.py",
    )
    result = run("mypy", "--cache-dir", str(copy / ".mypy_cache"), *files, cwd=copy)
    assert result.returncode != 0
    kinds = ("People", "Who", "People", "People", "People", "Adopt")
    for file, kind in zip(files, kinds, strict=True):
        said = rf'{re.escape(file)}:\d+: error: Argument 1 to "assert_never" has incompatible'
        assert re.search(rf'{said} type "{kind}"', result.stdout), result.stdout
