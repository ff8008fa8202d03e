"""The app never relies on a key a browser keeps for itself (``mantis web``).

Chrome and Firefox never hand these to a page — they close, open or switch
tabs and windows — so a binding on one would be dead in a browser tab.
The keys the app does rely on are tested in a real browser (tests/web).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.binding import Binding
from textual.dom import DOMNode

import mantis.tui
import mantis.tui.screens
import mantis.tui.widgets

BROWSER_KEYS = {
    "ctrl+w",
    "ctrl+t",
    "ctrl+n",
    "ctrl+shift+w",
    "ctrl+shift+t",
    "ctrl+shift+n",
    "ctrl+tab",
    "ctrl+shift+tab",
    "ctrl+pageup",
    "ctrl+pagedown",
    "ctrl+shift+q",
    "ctrl+f4",
}


def _bindings() -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for package in (mantis.tui, mantis.tui.screens, mantis.tui.widgets):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for name, node in inspect.getmembers(module, inspect.isclass):
                if not issubclass(node, DOMNode) or not node.__module__.startswith("mantis."):
                    continue
                for binding in node.__dict__.get("BINDINGS", ()):  # its own, not inherited
                    if isinstance(binding, Binding):
                        for key in binding.key.split(","):
                            keys.setdefault(key.strip(), []).append(name)
    return keys


def test_no_binding_needs_a_key_the_browser_keeps() -> None:
    keys = _bindings()
    assert "f1" in keys and "ctrl+s" in keys  # the scan does find the app's bindings
    assert {key: keys[key] for key in keys if key in BROWSER_KEYS} == {}
