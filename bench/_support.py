"""What every benchmark script shares: a clean import path and median timing.

Importing this module first keeps bench/ off sys.path (``python bench/<name>.py``
puts it at the head, and bench/partiql.py would shadow the package).
"""

import os
import statistics
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]


def timed(fn, count: int, runs: int) -> float:
    """Median seconds per call over ``runs`` runs of ``count`` calls of ``fn(i)``."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for i in range(count):
            fn(i)
        samples.append((time.perf_counter() - start) / count)
    return statistics.median(samples)
