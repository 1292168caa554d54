"""``python -m partiql.shell``: the same as the ``partiql`` command."""

import sys

from .cli import main

sys.exit(main())
