"""What a workload's numbers may be, as data, and the one check that reads them.

A number in a workload file is a count, a rate, a weight or a price: it must be
finite (TOML has ``inf`` and ``nan``), and the ones that size the run are
bounded, so that no file can ask for a run that never ends or a table that
fills the machine's memory (``1e308`` requests a second, a billion seed items).
"""

from __future__ import annotations

import math

from .errors import WorkloadError

MAX_RATE = 1_000_000  # requests a second, one pattern: past what one process could send in a day's run
MAX_SEED_ITEMS = 10_000_000  # items of one [[data]] table: ~4 GB of memory at small items
MAX_STRING = 400 * 1024  # characters of a { string = N }: DynamoDB's item size limit


def number(value, where: str, least: float = 0.0, most: float | None = None, what: str = "a number") -> float:
    """``value`` as a float when it is a finite number in [least, most]; else a WorkloadError naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value < least or (most is not None and value > most):
        bound = f">= {_shown(least)}" if most is None else f"from {_shown(least)} to {_shown(most)}"
        raise WorkloadError(f"{where} takes {what} {bound}, not {value!r}")
    return float(value)


def whole(value, where: str, least: int, most: int | None = None) -> int:
    """``value`` when it is a whole number in [least, most]; else a WorkloadError naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least or (most is not None and value > most):
        bound = f">= {least}" if most is None else f"from {least} to {most:,}"
        raise WorkloadError(f"{where} takes a whole number {bound}, not {value!r}")
    return value


def _shown(bound: float) -> str:
    """A bound as a person writes it: 1,000,000, 0, 0.5."""
    return f"{int(bound):,}" if bound == int(bound) else f"{bound:g}"
