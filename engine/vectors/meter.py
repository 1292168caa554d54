"""What a table's vector indexes consume, second by second on the engine's clock (vector-search.md §6.5, §7).

Per index, the bytes searched (VectorSearchRequestBytes) and written (VectorWriteRequestBytes) each second of
the last hour — the two counters CloudWatch publishes per index (model) — and, per HASH value, the current
second's, against DynamoDB's stated per-HASH-value limits (1 GB/s of search, 10 MB/s of writes, AGT). AWS
publishes no error for exceeding them: in ``report`` and ``enforce`` modes a second above one is a warning naming
the index and the HASH value, and the request succeeds (§7, model), until a recorded throttle says otherwise.
"""

from __future__ import annotations

import math
from collections import deque

SECONDS_KEPT = 3600
SEARCH_LIMIT = 1024 ** 3        # bytes a second of search, per HASH value
WRITE_LIMIT = 10 * 1024 ** 2    # bytes a second of writes into the index, per HASH value
SEARCH, WRITE = 0, 1


class VectorMeter:
    """One table's vector bytes by index and second, and the current second by (index, HASH value)."""

    def __init__(self):
        self.seconds: dict = {}   # index -> deque of [second, search bytes, write bytes]
        self.current: dict = {}   # (index, HASH value) -> [second, search bytes, write bytes, warned]
        self.totals: dict = {}    # index -> [search bytes, write bytes] since the meter started (cost reports)

    def count(self, index: str, hash_value, direction: int, size: float, now: float) -> str | None:
        """Add ``size`` bytes of ``direction`` for ``index`` at ``now``; the warning of a HASH value's second
        that has just passed its limit, or None."""
        second = math.floor(now)
        kept = self.seconds.setdefault(index, deque(maxlen=SECONDS_KEPT))
        if not kept or kept[-1][0] != second:
            kept.append([second, 0.0, 0.0])
        kept[-1][1 + direction] += size
        self.totals.setdefault(index, [0.0, 0.0])[direction] += size
        current = self.current.get((index, hash_value))
        if current is None or current[0] != second:
            current = self.current[index, hash_value] = [second, 0.0, 0.0, False]
        current[1 + direction] += size
        limit = SEARCH_LIMIT if direction == SEARCH else WRITE_LIMIT
        if current[1 + direction] <= limit or current[3]:
            return None
        current[3] = True
        where = "" if hash_value is None else f" for the HASH value {hash_value!r}"
        what = "searches examined" if direction == SEARCH else "writes put"
        return (f"vector index {index}{where}: {what} {current[1 + direction]:,.0f} bytes this second, above "
                f"DynamoDB's {limit / 1024 ** 2:,.0f} MB a second per HASH value (no throttle is published: served)")

    def last(self, index: str, seconds: int, now: float) -> list:
        """[second, search bytes, write bytes] for each of the last ``seconds`` seconds to ``now``."""
        newest = math.floor(now)
        by_second = {entry[0]: entry for entry in self.seconds.get(index, ())}
        return [list(by_second.get(second, (second, 0.0, 0.0))) for second in range(newest - seconds + 1, newest + 1)]
