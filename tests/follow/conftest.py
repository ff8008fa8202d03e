"""The tests of what both front ends stand on (``mantis.follow``); the home's kit
(``homekit``) makes the finished games the statistics report reads."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "home"))
