"""What a simulation found, as data: ``report(outcome)`` is the ``--json`` output and what the terminal
and HTML reports draw.

::

    {"workload": "votes.toml", "duration": 60, "ran": 60, "seed": 7, "requests": 90000, "interrupted": false,
     "patterns": [{"name": "vote", "statement": "...", "requested": 90000, "served": 60000,
                   "throttled": 30000, "failed": 0, "served_share": 0.667,
                   "reasons": {"TableWriteKeyRangeThroughputExceeded": 30000}, "errors": {},
                   "consumed": 60000.0, "per_second": [[1500, 1000, 500, 0], ...],
                   "access": "PutItem on Votes", "full_scan": false, "scan_meant": false, "advice": []}],
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

from . import cost, vector_cost
from .cost_advice import scaling_advice, stream_note, unscaled_index_advice
from .realism_advice import realism_advice, realism_data
from .wording import verdict
from .runner import FAILED, REQUESTED, SERVED, THROTTLED, Outcome


def report(outcome: Outcome) -> dict:
    """The outcome as plain data (JSON-ready)."""
    found = _report(outcome)
    _mark_late(found)
    settings = outcome.workload.cost
    found["cost"] = cost.monthly(cost.usages(outcome.db, found, settings), settings, outcome.ran,
                                 cost.demand(found, {p["name"]: p["table"] for p in found["patterns"]}),
                                 outcome.workload.prices, sum(p["served"] for p in found["patterns"]))
    vector_cost.add_to(found["cost"], vector_cost.vector_costs(outcome.db, settings, outcome.ran),
                       sum(p["served"] for p in found["patterns"]))
    found["cost"]["notes"] = [stream_note(table) for table in outcome.db.table_names()
                              if outcome.db.engine.table(table).spec.stream_view_type]
    found["advice"] = (design_advice(found) + [text for table in outcome.db.table_names()
                                               for text in outcome.db.design_advice(table)]
                       + scaling_advice(found["autoscaling"])
                       + unscaled_index_advice(found["autoscaling"], found["resources"]) + realism_advice(found)
                       + found["cost"]["advice"])
    found["verdict"] = verdict(found)
    return found


def _mark_late(found: dict) -> None:
    """Each scale-out's ``throttled_before``: the requests its resource refused in its dimension from the change
    before it took effect until it did (what arrived too late: the spec's "too slow for a spike")."""
    throttled = {(r["table"], r["index"]): r["throttled_per_second"] for r in found["resources"]}
    for target in found["autoscaling"]:
        seconds = throttled.get((target["table"], target["index"]), [])
        direction = 0 if target["dimension"] == "read" else 1
        for before, step in zip(target["timeline"], target["timeline"][1:]):
            if step["cause"] == "scale-out":
                step["throttled_before"] = sum(second[direction] for second in
                                               seconds[int(before["in_effect"]):int(step["in_effect"])])


def _report(outcome: Outcome) -> dict:
    seconds = max(1, int(-(-outcome.ran // 1)))
    return {
        "workload": outcome.workload.source,
        "design": outcome.workload.design,
        "duration": outcome.workload.duration,
        "ran": outcome.ran,
        "seed": outcome.workload.seed,
        "requests": outcome.requests,
        "interrupted": outcome.interrupted,
        "patterns": [dict(_pattern(stats, seconds), **planned.as_data())
                     for stats, planned in zip(outcome.patterns, outcome.planned)],
        "aggregated_seconds": outcome.aggregated,
        "resources": [dict(_resource(outcome.db, table, index, seconds),
                           per_minute=outcome.ledger.minutes[table, index] if outcome.ledger else [])
                      for table in outcome.db.table_names() for index in _indexes(outcome.db, table)],
        "autoscaling": [] if outcome.scaler is None else outcome.scaler.as_data(outcome.ran),
        "realism": realism_data(outcome.db),
    }


# A read pattern whose requests consume at least this many units each reads big items it may not need.
EXPENSIVE_READ = 10.0
# A provisioned direction whose peak stays under this share of its provisioned units is paid for, unused.
WASTED_SHARE = 0.2


def design_advice(found: dict) -> list:
    """What the design itself should change, beyond each resource's own advice (spec §7): GSI
    back-pressure, reads made expensive by what they read, provisioned throughput left unused."""
    out = []
    for resource in found["resources"]:
        events = resource["throttle_events"]
        write_throttles = sum(count for reason, count in events.items()
                              if reason == "IndexWriteProvisionedThroughputExceeded")
        if resource["index"] is not None and write_throttles:
            peak = max((second[1] for second in resource["consumed_per_second"]), default=0)
            out.append(f"GSI back-pressure: writes to {resource['table']} were refused {write_throttles:,} times "
                       f"because its index {resource['index']} ran out of write capacity ({resource['provisioned'][1]:,} "
                       f"WCU for writes that reached {peak:,.0f} WCU/s): give the index the write capacity of the "
                       "table's writes that reach it")
        if resource["provisioned"] is not None and not events:
            for direction, unit in ((0, "RCU"), (1, "WCU")):
                peak = max((second[direction] for second in resource["consumed_per_second"]), default=0)
                provisioned = resource["provisioned"][direction]
                if provisioned and peak < WASTED_SHARE * provisioned:
                    name = resource["table"] if resource["index"] is None else f"index {resource['index']}"
                    out.append(f"{name}: {provisioned:,} {unit} provisioned, at most {peak:,.0f} used a second: "
                               "paid for and unused (lower it, or go on demand)")
    for pattern in found["patterns"]:
        if pattern.get("full_scan"):  # (a Scan's cost is the table it reads, not what its items hold)
            said = "" if pattern["scan_meant"] else " (not declared: scan = true, or --allow-scan, if it is meant)"
            out.append(f"{pattern['name']}: a full {pattern['access']} every request{said}: "
                       + "; ".join(pattern["advice"]))
        elif pattern["served"] and pattern["statement"].lstrip()[:6].upper() == "SELECT":
            each = pattern["consumed"] / pattern["served"]
            if each >= EXPENSIVE_READ:
                out.append(f"{pattern['name']}: each request consumes {each:,.1f} RCU: it reads whole items, "
                           "attributes it may not show included; keep what it shows in a slim table or index "
                           "(KEYS_ONLY / INCLUDE) and read the large attributes by key when they are needed")
    return out


def comparison(outcomes: list) -> dict:
    """Several designs under the same traffic: each one's report, and a row each side by side (served
    share, throttles, units consumed, the cost per million requests at on-demand prices, and the monthly cost as
    each ran with its cost per million *served* requests)."""
    reports = [report(outcome) for outcome in outcomes]
    return {"designs": reports, "comparison": [_row(found, outcome.workload.prices or _on_demand(outcome.workload))
                                               for found, outcome in zip(reports, outcomes)]}


def _on_demand(workload) -> dict:
    """The on-demand prices of the workload's region and class, $ per million units."""
    from .prices import price

    found = price(workload.cost.region, workload.cost.table_class)
    return {"read": found.rru, "write": found.wru}


def _row(found: dict, prices: dict | None) -> dict:
    requested = sum(p["requested"] for p in found["patterns"])
    served = sum(p["served"] for p in found["patterns"])
    reasons: dict = {}
    for pattern in found["patterns"]:
        for reason, count in pattern["reasons"].items():
            reasons[reason] = reasons.get(reason, 0) + count
    units = [sum(second[d] for resource in found["resources"] for second in resource["consumed_per_second"])
             for d in (0, 1)]
    cost = None
    if requested:
        cost = round((units[0] * prices["read"] + units[1] * prices["write"]) / requested, 6)
    return {"design": found["design"], "requested": requested, "served": served,
            "served_share": round(served / requested, 4) if requested else None,
            "throttled": sum(p["throttled"] for p in found["patterns"]), "reasons": reasons,
            "read_units": units[0], "write_units": units[1], "cost_per_million_requests": cost,
            "monthly": found["cost"]["ran"], "per_million_served": found["cost"]["per_million_served"]}


def _pattern(stats, seconds: int) -> dict:
    requested = stats.total(REQUESTED)
    served = stats.total(SERVED)
    return {"name": stats.name, "statement": stats.statement, "requested": requested, "served": served,
            "throttled": stats.total(THROTTLED), "failed": stats.total(FAILED),
            "served_share": round(served / requested, 4) if requested else None,
            "reasons": dict(stats.reasons.most_common()), "errors": dict(stats.errors.most_common()),
            "consumed": stats.consumed, "vector_search_bytes": stats.search_bytes,
            "per_second": [list(second) for second in stats.seconds[:seconds]],
            "stale": stats.stale, "stale_items": stats.stale_items, "retried": stats.retried,
            "gave_up": stats.gave_up, "unfinished": stats.unfinished}


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
        "throttled_per_second": [list(pair) for pair in found.throttled],  # (read, write) requests refused
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
