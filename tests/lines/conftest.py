"""The line mode's tests: ``mantis ... --lines`` in a pseudo-terminal (``linekit``), and the
network tests' kit (``netkit``) for a server and the other people at its tables."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "net"))
