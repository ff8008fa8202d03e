"""``python -m mantis.cli``."""

import sys

from . import main

sys.exit(main())
