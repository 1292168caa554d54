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


def reference_speed() -> str:
    """How fast this machine runs plain Python right now, as a line to print.

    why: a shared VM can run the same code 1.5–2× slower for minutes at a
    time; printing this before and after a benchmark tells a figure measured
    in a slow phase from a regression. The workload (dict and str churn, no
    partiql code) is fixed, so the figure compares across runs and commits.
    """
    def workload(i):
        d = {"pk": f"user#{i}", "n": i}
        return len(d["pk"]) + d["n"]
    seconds = timed(workload, 100_000, 5)
    return f"(reference: plain-Python loop {1 / seconds / 1e6:.2f} M/s; lower means a slow machine phase)"


def timed(fn, count: int, runs: int) -> float:
    """Median seconds per call over ``runs`` runs of ``count`` calls of ``fn(i)``."""
    return statistics.median(timed_range(fn, 0, count) / count for _ in range(runs))


def timed_range(fn, start: int, stop: int) -> float:
    """Seconds for ``fn(i)`` over ``i`` in [start, stop)."""
    began = time.perf_counter()
    for i in range(start, stop):
        fn(i)
    return time.perf_counter() - began


def paired(fns: dict, count: int, runs: int, slices: int = 20) -> dict:
    """``{name: fn(i)}`` timed slice by slice in turn (the order rotating), so a drift of the machine's speed
    hits all alike: ``{name: (median seconds per call, median ratio of its time to the first one's)}``."""
    names = list(fns)
    step = max(1, count // slices)
    totals, ratios = {name: [] for name in names}, {name: [] for name in names}
    for _ in range(runs):
        spent = dict.fromkeys(names, 0.0)
        for turn, start in enumerate(range(0, count, step)):
            times = {}
            for name in names[turn % len(names):] + names[:turn % len(names)]:
                times[name] = timed_range(fns[name], start, min(count, start + step))
                spent[name] += times[name]
            for name in names:
                ratios[name].append(times[name] / times[names[0]])
        for name in names:
            totals[name].append(spent[name] / count)
    return {name: (statistics.median(totals[name]), statistics.median(ratios[name])) for name in names}
