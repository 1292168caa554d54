"""Every resource's consumption minute by minute, over the whole run: what the throughput metrics keep for an
hour only, kept for a day's run (the monthly cost reads it; auto scaling's datapoints are its minutes).

The runner calls ``advance(now)`` as virtual time passes; at each minute's end
(once the clock is past it) the ledger reads each resource's metrics once and
keeps the minute's consumed read and write units and throttled read and write
requests. ``close(until)`` records the minutes not yet recorded at the end.
"""

from __future__ import annotations

import math

MINUTE = 60


class Ledger:
    """Per resource ((table, index)), per minute: [read units, write units, read throttles, write throttles]."""

    def __init__(self, db, resources: list):
        self.db = db
        self.minutes = {resource: [] for resource in resources}
        self.next = MINUTE  # the end of the first minute not yet recorded

    def advance(self, now: float) -> None:
        """Record every minute that ended by ``now``."""
        while now >= self.next:
            self._record(self.next - MINUTE, self.next, now)
            self.next += MINUTE

    def close(self, until: float) -> None:
        """Record the minutes left at the end of a run of ``until`` seconds (the last one cut short)."""
        while self.next - MINUTE < until:
            self._record(self.next - MINUTE, min(self.next, math.ceil(until)), until)
            self.next += MINUTE

    def minute(self, resource: tuple, minute: int) -> list:
        """A recorded minute of ``resource`` (zeros for one not recorded)."""
        rows = self.minutes[resource]
        return rows[minute] if minute < len(rows) else [0.0, 0.0, 0, 0]

    def _record(self, start: float, end: float, now: float) -> None:
        last = max(1, min(3600, int(now) - int(start) + 1))
        for (table, index), rows in self.minutes.items():
            found = self.db.metrics(table, index, last=last)
            row = [0.0, 0.0, 0, 0]
            for second, consumed, throttled in zip(found.seconds, found.consumed, found.throttled):
                if start <= second < end:
                    row[0] += consumed[0]
                    row[1] += consumed[1]
                    row[2] += throttled[0]
                    row[3] += throttled[1]
            rows.append(row)
