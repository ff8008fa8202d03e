"""What a journey checks of any screen, whatever it shows: its key bar whole, its focus seen.

``assert_key_bar_whole`` reads the key bar (the bottom row) and checks that
every key on it is whole: its description one of the app's bindings', as
written ("f2 S" is not "f2 Settings"). ``assert_focus_shows`` moves the focus
round a screen with Tab and checks that each move shows without colour: the
cells drawn underlined or reversed (what a terminal with ``NO_COLOR`` still
draws) change with every press, and come back to where they started once the
focus has been round every widget.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re

from journeykit import Lines, Terminal
from textual.binding import Binding

PALETTE = "^p palette"


@functools.cache
def descriptions() -> frozenset[str]:
    """Every description a key of the app's may show on a key bar."""
    import mantis.tui.screens as screens
    from mantis.tui.app import MantisApp

    found = {"palette"}
    classes: list[object] = [MantisApp]
    for info in pkgutil.iter_modules(screens.__path__):
        module = importlib.import_module(f"{screens.__name__}.{info.name}")
        classes += [kind for kind in vars(module).values() if isinstance(kind, type)]
    for kind in classes:
        for binding in getattr(kind, "BINDINGS", ()):
            if isinstance(binding, Binding):
                found.add(binding.description)
            elif isinstance(binding, tuple) and len(binding) > 2:
                found.add(binding[2])
    return frozenset(found)


def bar_items(lines: Lines) -> list[str]:
    """The keys on the key bar (the bottom row), left of the palette's: "s Score", "f1 Help"."""
    left = lines[-1].split("▏")[0]
    return [item for item in re.split(r"\s{2,}", left.strip()) if item]


def assert_key_bar_whole(term: Terminal, *, showing: str = "") -> list[str]:
    """The key bar holds only whole keys (``showing`` among them, once drawn); its keys."""

    def drawn(lines: Lines) -> bool:
        return bool(lines[-1].strip()) and (not showing or showing in bar_items(lines))

    drawn.__doc__ = f"a key bar{' with ' + repr(showing) if showing else ''}"
    items = bar_items(term.settle(drawn))
    known = descriptions()
    cut = [item for item in items if item.split(" ", 1)[-1] not in known]
    assert items and not cut, f"keys cut at {term.size.columns} columns: {cut} in {items}"
    return items


def marked(term: Terminal) -> frozenset[tuple[int, int]]:
    """The cells drawn underlined or reversed: what shows focus without colour."""
    return frozenset(
        (x, y)
        for y, row in term.cells().items()
        for x, cell in row.items()
        if cell.underscore or cell.reverse
    )


def assert_focus_shows(term: Terminal, *, most: int = 40) -> int:
    """Tab round the screen: each move of the focus shows without colour; how many stops."""
    start = marked(term)
    assert start, "nothing on the screen shows the focus without colour:\n" + term.dump()
    now = start
    for stop in range(1, most + 1):
        term.press("tab")
        before = now

        def moved(lines: Lines, before: frozenset[tuple[int, int]] = before) -> bool:
            return marked(term) != before

        moved.__doc__ = f"the focus shown elsewhere after {stop} tab(s)"
        term.settle(moved)
        now = marked(term)
        if now == start:
            return stop
    raise AssertionError(f"the focus never came back round in {most} tabs:\n{term.dump()}")
