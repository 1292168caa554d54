"""The simulator's one error: a workload that cannot run, saying what is wrong and where."""

from __future__ import annotations


class WorkloadError(ValueError):
    """A workload file (or option) the simulator cannot run; the message names the place in the file."""
