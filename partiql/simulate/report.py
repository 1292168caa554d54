"""What a simulation found, as data: ``report(outcome)`` is the ``--json`` output and what the terminal
and HTML reports draw.

::

    {"workload": "votes.toml", "duration": 60, "ran": 60, "seed": 7, "requests": 90000, "interrupted": false,
     "patterns": [{"name": "vote", "statement": "...", "requested": 90000, "served": 60000,
                   "throttled": 30000, "failed": 0, "served_share": 0.667,
                   "reasons": {"TableWriteKeyRangeThroughputExceeded": 30000}, "errors": {},
                   "consumed": 60000.0, "per_second": [[1500, 1000, 500, 0], ...]}],
     "resources": [{"table": "Votes", "index": null, "provisioned": null,
                    "consumed_per_second": [[0.0, 1000.0], ...], "throttle_events": {...},
                    "partitions": [{"number": 1, "lo": 0, "hi": ..., "items": 60000,
                                    "per_second": [[0.0, 1000.0, 500], ...]}],
                    "top_consumed": [["CandidateA", 54000.0], ...], "top_throttled": [...],
                    "advice": ["key 'CandidateA' asks about 1,350 WCU/s ..."]}]}

Per second lists cover the seconds that ran, oldest first; a partition's
seconds are (read units, write units, throttle events).
"""

from __future__ import annotations

from partiql.engine.throughput.report import advice

from .runner import FAILED, REQUESTED, SERVED, THROTTLED, Outcome


def report(outcome: Outcome) -> dict:
    """The outcome as plain data (JSON-ready)."""
    seconds = max(1, int(-(-outcome.ran // 1)))
    return {
        "workload": outcome.workload.source,
        "duration": outcome.workload.duration,
        "ran": outcome.ran,
        "seed": outcome.workload.seed,
        "requests": outcome.requests,
        "interrupted": outcome.interrupted,
        "patterns": [_pattern(stats, seconds) for stats in outcome.patterns],
        "resources": [_resource(outcome.db, table, index, seconds)
                      for table in outcome.db.table_names() for index in _indexes(outcome.db, table)],
    }


def _pattern(stats, seconds: int) -> dict:
    requested = stats.total(REQUESTED)
    served = stats.total(SERVED)
    return {"name": stats.name, "statement": stats.statement, "requested": requested, "served": served,
            "throttled": stats.total(THROTTLED), "failed": stats.total(FAILED),
            "served_share": round(served / requested, 4) if requested else None,
            "reasons": dict(stats.reasons.most_common()), "errors": dict(stats.errors.most_common()),
            "consumed": stats.consumed, "per_second": [list(second) for second in stats.seconds[:seconds]]}


def _indexes(db, table: str) -> list:
    """The table (None) and its GSIs: what has throughput of its own."""
    spec = db.engine.table(table).spec
    return [None] + [index.name for index in spec.gsis]


def _resource(db, table: str, index: str | None, seconds: int) -> dict:
    found = db.engine.throughput.metrics(table, index, last=min(seconds, 3600))
    spec = db.engine.table(table).spec
    throughput = spec.throughput if index is None else spec.index(index).throughput
    return {
        "table": table, "index": index,
        "provisioned": None if throughput is None else [throughput.read, throughput.write],
        "consumed_per_second": [list(pair) for pair in found.consumed],
        "throttle_events": found.throttle_events,
        "partitions": [{"number": p.number, "lo": p.lo, "hi": p.hi, "items": p.items,
                        "per_second": [list(second) for second in p.seconds]} for p in found.partitions],
        "top_consumed": [[_plain(key), value] for key, value in found.top_consumed],
        "top_throttled": [[_plain(key), value] for key, value in found.top_throttled],
        "advice": advice(found),
    }


def _plain(value):
    """A key value as JSON holds it (numbers as numbers, binary as hex)."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if hasattr(value, "as_integer_ratio") and not isinstance(value, (int, float)):  # Decimal
        return int(value) if value == value.to_integral_value() else float(value)
    return value
