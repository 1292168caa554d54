"""Keep bench/ off sys.path: bench/partiql.py would otherwise shadow the package.

Every benchmark script imports this module first (``python bench/<name>.py``
puts bench/ at the head of sys.path).
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
