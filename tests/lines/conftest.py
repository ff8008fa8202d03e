"""The line mode's tests: ``mantis ... --lines`` in a pseudo-terminal (``linekit``), the
network tests' kit (``netkit``) for a server and the other people at its tables, and the
journeys' kit (``journeykit``) for a person at the same table in the full-screen app."""

import sys
from pathlib import Path

for kit in ("net", "journeys"):
    sys.path.insert(0, str(Path(__file__).parent.parent / kit))
