"""Time a request takes in realism (a transaction's duration, an injected latency): who waits, and how.

On the real clock the caller sleeps — outside the engine's lock, so other
threads run meanwhile (and meet the transaction's held items). A server
must not sleep in its event loop: it marks its request's context
``deferred`` and awaits what the request ran up (``take``) before it
answers. On any other clock (a ``VirtualClock``: tests, simulate) nobody
sleeps: time moves when its owner moves it.
"""

from __future__ import annotations

import time
from contextvars import ContextVar

DEFERRED: ContextVar[bool] = ContextVar("partiql_realism_deferred", default=False)
PENDING: ContextVar[float] = ContextVar("partiql_realism_pending", default=0.0)


def wait(engine, seconds: float) -> None:
    """Let ``seconds`` pass for the request running now (see the module's docstring)."""
    if seconds <= 0:
        return
    if DEFERRED.get():
        PENDING.set(PENDING.get() + seconds)
    elif engine.clock is time.monotonic:
        time.sleep(seconds)


def defer() -> None:
    """The request running in this context is a server's: its waits are awaited by the server (``take``)."""
    DEFERRED.set(True)
    PENDING.set(0.0)


def take() -> float:
    """The seconds this context's request ran up, handed to the server that awaits them."""
    seconds = PENDING.get()
    PENDING.set(0.0)
    return seconds
