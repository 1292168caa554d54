"""The server's TTL sweeper: ``partiql.engine.ttl.sweep`` every ``interval`` seconds in the event loop.

Running in the loop serialises the sweep with requests, as every engine call is.
"""

from __future__ import annotations

import asyncio

from partiql.engine.ttl import sweep

DEFAULT_INTERVAL = 1.0  # seconds between sweeps; AWS takes minutes to days (R: short locally)


class Sweeper:
    """Runs ``sweep`` every ``interval`` seconds as a task of the running event loop."""

    def __init__(self, engine, interval: float = DEFAULT_INTERVAL):
        self.engine = engine
        self.interval = interval
        self._task = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            sweep(self.engine)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
