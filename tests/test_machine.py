"""Every test runs on the same machine, whatever shell started pytest (``machinekit``)."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
import tempfile

from machinekit import PINNED_ENVIRONMENT, UNSET_ENVIRONMENT

#: What a program sees of the machine: its terminal's size, its offset from UTC now, the
#: variables that must not be set but are, its home, its locale's encoding.
MACHINE = f"""
def machine():
    import locale, os, shutil, time
    return {{
        "size": list(shutil.get_terminal_size()),
        "offset": time.localtime().tm_gmtoff,
        "set": [name for name in os.environ
                if name in {list(UNSET_ENVIRONMENT)!r}
                or name.startswith("TEXTUAL_") and not name.startswith("TEXTUAL_SNAPSHOT")],
        "home": os.path.expanduser("~"),
        "encoding": locale.getpreferredencoding(False),
    }}
"""


def test_a_test_and_every_program_it_starts_see_the_pinned_machine() -> None:
    here: dict = {}
    exec(MACHINE, here)
    started = subprocess.run(
        [sys.executable, "-c", MACHINE + "import json; print(json.dumps(machine()))"],
        capture_output=True,
        text=True,
        check=True,
    )
    there = json.loads(started.stdout)
    for seen in (here["machine"](), there):
        assert seen["size"] == [80, 24]
        assert seen["offset"] in (9.5 * 3600, 10.5 * 3600)  # Adelaide's, winter or summer
        assert seen["set"] == []
        # A home of the run's own, never the person's.
        assert seen["home"] != pwd.getpwuid(os.getuid()).pw_dir
        assert seen["home"].startswith(tempfile.gettempdir())
    assert os.environ["TZ"] == PINNED_ENVIRONMENT["TZ"]
    # What a program started from a test reads and writes is UTF-8, whatever the shell's locale.
    assert there["encoding"].lower().replace("-", "") == "utf8"
