"""The machine every test runs on, whatever the machine and the shell that started pytest.

A test passes or fails alike everywhere: what the app and its libraries read from the
environment is pinned (``pin``, from ``conftest.py``) before any test runs, for the tests
and every program they start; a test that means another value sets it itself.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
import time

import pytest

#: Set for the whole run.
PINNED_ENVIRONMENT = {
    # argparse wraps its help, plotext bounds a chart, Rich sizes its console to the
    # terminal's size (these first, else the terminal pytest runs in, if any).
    "COLUMNS": "80",
    "LINES": "24",
    # A UTF-8 locale and a terminal that draws what Textual sends (the journeys start the
    # app in a pseudo-terminal of their own, which pyte reads as UTF-8).
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TERM": "xterm-256color",
    # Local time half an hour off any whole hour from UTC, with summer time, and spelled as
    # POSIX rules (no time zone database needed): code that takes local time for UTC fails
    # on every machine, not only on one set far from UTC.
    "TZ": "ACST-9:30ACDT,M10.1.0,M4.1.0/3",
}
#: Unset for the whole run: each changes what the app draws or how (no colours, forced
#: colours, the line mode instead of the screens, Textual's own options).
UNSET_ENVIRONMENT = (
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR_FORCE",
    "COLORTERM",
    "TERM_PROGRAM",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "JUPYTER_COLUMNS",
    "JUPYTER_LINES",
    "MANTIS_LINES",
)


def pin(config: pytest.Config) -> None:
    """Pin the machine (``PINNED_ENVIRONMENT``), and give the run a home of its own.

    ``HOME`` and the XDG folders point into a folder of the run's: nothing a test starts
    reads a person's settings or writes into their home, even where ``MANTIS_HOME`` does
    not reach (a library's cache, a browser's fontconfig cache).
    """
    if hasattr(config, "workerinput"):
        return  # an xdist worker: started with the environment its controller pinned
    textual = [n for n in os.environ if n.startswith("TEXTUAL_")]
    for name in [*UNSET_ENVIRONMENT, *textual]:
        os.environ.pop(name, None)
    os.environ.update(PINNED_ENVIRONMENT)
    time.tzset()
    home = tempfile.mkdtemp(prefix="mantis-tests-home-")
    config.add_cleanup(functools.partial(shutil.rmtree, home, ignore_errors=True))
    os.environ["HOME"] = home
    for name, folder in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ):
        os.environ[name] = os.path.join(home, folder)
