"""``python -m cutepy``: the ``cutepy`` command."""

import sys

from .cli import main

sys.exit(main())
