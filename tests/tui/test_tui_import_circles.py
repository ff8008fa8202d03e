"""The UI's contract against import circles counts imports made only for type checking.

The contract (``pyproject.toml``) is run, with the project's own import-linter
options, on a package of two modules: one importing the other, which imports
it back only under ``if TYPE_CHECKING:``.  The circle is caught, and named.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

CONTRACT = "No import circle in the UI"
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def lint(tmp_path: Path, back: str) -> subprocess.CompletedProcess[str]:
    """Run the UI's contract on ``planted``: ``planted.screen`` imports ``planted.app``,
    whose code is ``back``."""
    options = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = (c for c in options["contracts"] if c["name"].startswith(CONTRACT))
    package = tmp_path / "planted"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "screen.py").write_text("from . import app\n")
    (package / "app.py").write_text(f"from typing import TYPE_CHECKING\n\n{back}\n")
    session = {k: v for k, v in options.items() if k not in ("root_package", "contracts")}
    lines = ["[tool.importlinter]", 'root_package = "planted"']
    lines += [f"{key} = {_toml(value)}" for key, value in session.items()]
    lines += [
        "[[tool.importlinter.contracts]]",
        f"name = {_toml(contract['name'])}",
        f"type = {_toml(contract['type'])}",
        'ancestors = ["planted"]',
    ]
    config = tmp_path / "pyproject.toml"
    config.write_text("\n".join(lines) + "\n")
    script = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(script), "--config", str(config), "--no-cache"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_a_circle_of_type_only_imports_breaks_the_contract(tmp_path: Path) -> None:
    typed_back = "if TYPE_CHECKING:\n    from .screen import Screen"
    caught = lint(tmp_path, typed_back)
    assert caught.returncode == 1, caught.stdout + caught.stderr
    assert ".app -> .screen" in caught.stdout or ".screen -> .app" in caught.stdout
