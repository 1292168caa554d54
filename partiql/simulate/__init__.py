"""``partiql simulate``: an access-pattern workload run against a table design on a virtual clock.

    from partiql.simulate import load, simulate, report
    outcome = simulate(load("examples/votes.toml"), duration=30)
    report(outcome)["patterns"][0]["served_share"]     # 0.667: the hot key throttles at its ceiling

``workload`` reads the TOML file, ``generators`` and ``rates`` are what its
parameters and rates may be, ``runner`` runs it through the real engine in
``enforce`` mode, ``report`` turns the outcome into data.
"""

from __future__ import annotations

from .errors import WorkloadError
from .report import comparison, report
from .runner import Outcome, compare, simulate
from .workload import Design, Workload, design_from_file, load, parse

__all__ = ["Design", "Outcome", "Workload", "WorkloadError", "compare", "comparison", "design_from_file", "load",
           "parse", "report", "simulate"]
