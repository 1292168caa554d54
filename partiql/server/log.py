"""The server's log: a warning once per subject and interval, its repeats counted.

why (issue 38): report mode warns of every request DynamoDB would throttle, and a hot key under load
wrote the same line 1,245 times in a few seconds, burying everything else; a full disk refused every write
with a line each. ``Repeats`` prints the first warning of a subject (a record's ``subject``, else its
text) at once, counts the ones that follow within ``interval`` seconds, and tells the count with the last
of them when the interval is over (at the next warning, or when the log closes): ``… (× 1,245 more in the last
5 s)`` (the first is not counted).
"""

from __future__ import annotations

import logging
import time

INTERVAL = 5.0


class Repeats(logging.StreamHandler):
    """A stream handler that aggregates repeated warnings per subject and interval (see the module)."""

    def __init__(self, stream=None, interval: float = INTERVAL, clock=time.monotonic):
        super().__init__(stream)
        self.interval = interval
        self.clock = clock
        self._open: dict[str, list] = {}  # subject -> [since, repeats, last record]

    def emit(self, record: logging.LogRecord) -> None:
        now = self.clock()
        self._tell(lambda since: now - since >= self.interval, now)
        subject = getattr(record, "subject", None) or record.getMessage()
        entry = self._open.get(subject)
        if entry is None:
            self._open[subject] = [now, 0, record]
            super().emit(record)
        else:
            entry[1] += 1
            entry[2] = record

    def _tell(self, due, now: float) -> None:
        for subject, (since, repeats, record) in list(self._open.items()):
            if due(since):
                del self._open[subject]
                if repeats:
                    told = logging.makeLogRecord(dict(record.__dict__, args=(), msg=(
                        f"{record.getMessage()} (× {repeats:,} more in the last {max(now - since, 0):.0f} s)")))
                    super().emit(told)

    def close(self) -> None:
        """Tell every count still open, then close."""
        self.acquire()
        try:
            self._tell(lambda since: True, self.clock())
        finally:
            self.release()
        super().close()
