"""A pattern's client retries (``retries`` in a ``[[pattern]]``): which failures it retries, after how long.

``retries = 3`` retries what the AWS SDKs retry — throttles and server errors — up to 3 times after the first
attempt, each after a full-jitter exponential back-off (a random share of ``base`` × 2^attempt seconds, at
most ``cap``), as the SDKs' standard mode does. ``retries = { attempts = 5, base = 0.025, cap = 20, on =
["throttle", "server", "conflict"] }`` says each part: ``conflict`` retries a transaction conflict
(TransactionConflict / TransactionConflictException), which the SDKs leave to the application. A retried
request sends the same parameters again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import WorkloadError

KINDS = ("throttle", "server", "conflict")
DEFAULT_ON = ("throttle", "server")  # what the SDKs retry by themselves (item-api §9)
MAX_ATTEMPTS = 10
CONFLICTS = frozenset({"TransactionConflict", "TransactionConflictException"})


@dataclass(frozen=True)
class Retry:
    """How a pattern's client retries: up to ``attempts`` times after the first, for the failures ``on`` names,
    each after a random share of min(``cap``, ``base`` × 2^attempt) seconds."""

    attempts: int = 3
    base: float = 0.05
    cap: float = 20.0
    on: tuple = DEFAULT_ON

    def retries(self, kind: str | None, attempt: int) -> bool:
        """Whether a failure of ``kind`` at attempt ``attempt`` (0: the first) is sent again."""
        return kind in self.on and attempt < self.attempts

    def delay(self, rng, attempt: int) -> float:
        """Seconds before retry number ``attempt + 1`` (full jitter)."""
        return rng.random() * min(self.cap, self.base * 2 ** attempt)


def kind_of(error, code: str) -> str | None:
    """What kind of failure ``error`` (whose report code is ``code``) is, for retrying."""
    if getattr(error, "throttling_reasons", None) is not None or code in ("ThrottlingException",
                                                                          "ProvisionedThroughputExceededException"):
        return "throttle"
    if getattr(error, "http_status", 400) >= 500:
        return "server"
    return "conflict" if code in CONFLICTS else None


def parse_retry(value, where: str) -> Retry:
    """``retries`` as a pattern says it: a number of retries, or a table of its parts."""
    if not isinstance(value, dict):
        value = {"attempts": value}
    unknown = sorted(set(value) - {"attempts", "base", "cap", "on"})
    if unknown:
        raise WorkloadError(f"{where}: unknown {', '.join(unknown)} (it takes attempts, base, cap and on)")
    attempts = value.get("attempts", Retry.attempts)
    if isinstance(attempts, bool) or not isinstance(attempts, int) or not 0 <= attempts <= MAX_ATTEMPTS:
        raise WorkloadError(f"{where}: retries takes a whole number of retries from 0 to {MAX_ATTEMPTS}, "
                            f"not {attempts!r}")
    base, cap = (_seconds(value.get(name, getattr(Retry, name)), f"{where}.{name}") for name in ("base", "cap"))
    on = value.get("on", list(DEFAULT_ON))
    if not isinstance(on, list) or not on or any(kind not in KINDS for kind in on):
        raise WorkloadError(f"{where}.on takes a list of {', '.join(KINDS)}, not {on!r}")
    return Retry(attempts, base, cap, tuple(on))


def _seconds(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 < value <= 60:
        raise WorkloadError(f"{where} takes seconds above 0, at most 60, not {value!r}")
    return float(value)
