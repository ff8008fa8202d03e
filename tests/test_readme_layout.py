"""The README's "Project layout" names every module of ``mantis``, and its file tables name
nothing that is not there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANTIS = ROOT / "mantis"
PACKAGE_HEADING = re.compile(r"^### .*\(`mantis/([\w/]+)`\)$", re.MULTILINE)
NAMED = re.compile(r"`([\w./]+\.py)`")


def layout() -> str:
    """The README from ``## Project layout`` up to ``## Development``."""
    text = (ROOT / "README.md").read_text()
    start = text.index("\n## Project layout\n")
    return text[start : text.index("\n## Development\n", start)]


def package_sections() -> dict[str, str]:
    """Each "file by file" section of the layout, by the package its heading names."""
    text = layout()
    headings = list(PACKAGE_HEADING.finditer(text))
    sections = {}
    for heading in headings:
        end = text.find("\n### ", heading.end())
        sections[heading[1]] = text[heading.start() : end if end != -1 else len(text)]
    return sections


def modules() -> set[str]:
    """Every module of ``mantis``, as a path inside it; an ``__init__.py`` only if it holds
    more than its docstring."""
    found = set()
    for path in MANTIS.rglob("*.py"):
        if path.name == "__init__.py" and len(ast.parse(path.read_text()).body) <= 1:
            continue
        found.add(path.relative_to(MANTIS).as_posix())
    return found


def is_named(module: str, layout_names: set[str], sections: dict[str, str]) -> bool:
    """Whether the layout names ``module`` (a path inside ``mantis``) in backticks: anywhere
    by its whole path or its path inside ``mantis``; in the file table of the deepest
    package holding it by its path inside that package or its top package, or its name."""
    if {f"mantis/{module}", module} & layout_names:
        return True
    holders = [p for p in sections if module.startswith(p + "/")]
    if not holders:
        return False
    package = max(holders, key=len)
    named = set(NAMED.findall(sections[package]))
    inside_package = module.removeprefix(package + "/")
    inside_top = module.split("/", 1)[1] if "/" in module else module
    return bool({inside_package, inside_top, Path(module).name} & named)


def test_the_layout_names_every_module_of_mantis() -> None:
    layout_names = set(NAMED.findall(layout()))
    sections = package_sections()
    unnamed = sorted(m for m in modules() if not is_named(m, layout_names, sections))
    assert unnamed == [], "modules the README's layout does not name"


def table_rows(section: str) -> list[str]:
    """The first cell of each row of a section's file tables (header rows left out)."""
    return [
        line.split("|")[1]
        for line in section.splitlines()
        if line.startswith("| `") and line.count("|") >= 3
    ]


def test_every_module_the_layout_names_exists() -> None:
    missing = []
    for package, section in package_sections().items():
        for cell in table_rows(section):
            names = NAMED.findall(cell)
            # ``screens/setup.py``, ``lobby.py``: a bare name after a path is beside it.
            folder = Path(names[0]).parent if names else Path()
            for name in names:
                beside = (ROOT / name, MANTIS / package / name, MANTIS / package / folder / name)
                if not any(path.is_file() for path in beside):
                    missing.append(f"{package}: {name}")
    tops = {path.name for path in MANTIS.iterdir() if path.is_dir()}
    for name in NAMED.findall(layout()):
        inside = name.removeprefix("mantis/")
        if (name != inside or inside.split("/")[0] in tops) and not (MANTIS / inside).is_file():
            missing.append(name)
    assert missing == [], "names in the README's layout with no module"


def test_every_class_named_for_a_table_is_in_which_table_is_which() -> None:
    text = layout()
    start = text.index('### Which "table" is which')
    end = text.find("\n### ", start + 1)
    listed = set(re.findall(r"`(\w+)`", text[start : end if end != -1 else len(text)]))
    classes = {
        node.name
        for path in MANTIS.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef) and "Table" in node.name
    }
    assert classes - listed == set(), "classes named for a table that the README does not place"
