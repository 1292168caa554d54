"""Table-class, capacity-mode and auto-scaling advice, with the figures of the monthly cost (design-time.md §4).

Ours (model), printed with AWS's published rules beside them:

1. **Table class**: both classes priced at the region's actual prices; the
   cheaper is advised when it saves at least ``WORTH`` of the table's month,
   with storage ÷ throughput against the exact break-even (r − 1) / (1 − s)
   (r: Standard-IA's throughput over Standard's for this table's mix, s: the
   storage ratio) and AWS's "storage above 50 % of throughput" beside it.
2. **Capacity mode**: the cheapest of the three modes when it saves ``WORTH``
   of what ran, with the break-even average / peak at the target.
3. **Auto scaling**: a target at or below ``LOW_TARGET``; scale-outs that
   arrived after throttles; decreases the day's quota refused; a GSI with less
   headroom than its table (its writes would back-pressure the table's).
"""

from __future__ import annotations

import math

from .prices import CLASS_NAMES, CLASSES, INFREQUENT, STANDARD, STREAM_FREE_READS, STREAM_READS_PER_100K, price

WORTH = 0.05        # share of a month's cost a change must save to be advised
WORTH_DOLLARS = 1.0  # and dollars a month (AWS's class optimizer waits for $50; a few cents are noise, not advice)
MODE_NAMES = {"on_demand": "on demand", "provisioned": "provisioned", "autoscaled": "auto scaling"}
LOW_TARGET = 50     # % target utilization at or below which capacity is mostly paid for idle (AWS's cost advice)
AWS_CLASS_RULE = 0.5  # AWS: Standard-IA when storage exceeds 50 % of the throughput cost


def class_figures(classes: dict, mode: str, region: str) -> dict | None:
    """Storage ÷ throughput of a table in Standard, and the ratio at which Standard-IA costs the same."""
    standard, infrequent = classes[STANDARD][mode], classes[INFREQUENT][mode]
    storage = standard["storage"]
    throughput = sum(standard.values()) - storage
    if throughput <= 0:
        return None
    r = (sum(infrequent.values()) - infrequent["storage"]) / throughput
    s = price(region, INFREQUENT).storage / price(region, STANDARD).storage
    return {"storage_over_throughput": round(storage / throughput, 3), "break_even": round((r - 1) / (1 - s), 3)}


def table_class_advice(row: dict, region: str) -> list:
    """Rule 1 for one table (``row``: cost's table row with its private parts)."""
    mode = row["ran"]
    totals = {c: sum(row["_classes"][c][mode].values()) for c in CLASSES}
    current, other = row["class"], next(c for c in CLASSES if c != row["class"])
    if not _worth(totals[current], totals[other]):
        return []
    figures = row["class_figures"]
    ratio = "" if figures is None else (
        f": its storage costs {figures['storage_over_throughput']:,.2f} × its reads and writes, and "
        f"{CLASS_NAMES[INFREQUENT]} pays from {figures['break_even']:.2f} here (AWS's rule: "
        f"storage above {AWS_CLASS_RULE:.0%} of throughput)")
    return [f"{row['table']}: {CLASS_NAMES[other]} would cost ${totals[other]:,.2f} a month instead of "
            f"${totals[current]:,.2f} {MODE_NAMES[mode]} (saves {1 - totals[other] / totals[current]:.0%}){ratio}; "
            "a table may change class twice in 30 days, and reserved capacity cannot be bought for "
            f"{CLASS_NAMES[INFREQUENT]}"]


def _worth(current: float, other: float) -> bool:
    saving = current - other
    return saving >= WORTH * current and saving >= WORTH_DOLLARS


def mode_advice(cost: dict, modes: dict) -> list:
    """Rule 2 for the design: the cheapest mode when it saves enough of what ran."""
    ran = cost["ran"]
    priced = {mode: total for mode, total in modes.items() if total is not None and mode in MODE_NAMES}
    cheapest = min(priced, key=priced.get)
    ran_as = set(cost["ran_modes"].values())
    if cheapest in ran_as or not _worth(ran, priced[cheapest]):
        return []
    region = price(cost["region"])
    even = region.wcu_hour / (3600 * region.wru / 1e6)
    return [f"{MODE_NAMES[cheapest]} would cost ${priced[cheapest]:,.2f} a month against ${ran:,.2f} as it ran "
            f"({', '.join(sorted(MODE_NAMES[m] for m in ran_as))}; a table-level estimate: partitions not "
            f"re-simulated, run a [[design]] in that mode for the exact answer); a provisioned unit pays for itself "
            f"used more than {even * 100:.1f} % of the time, so capacity held at a 70 % target for a peak loses to on "
            f"demand when the average is under {even / 0.7 * 100:.0f} % of the peak"]


def scaling_advice(targets: list) -> list:
    """Rule 3 for each auto-scaled target."""
    out = []
    by_resource = {(t["table"], t["index"], t["dimension"]): t for t in targets}
    for target in targets:
        name = target["target"]
        if target["utilization"] <= LOW_TARGET:
            out.append(f"autoscaling {name}: a target of {target['utilization']:g} % pays for "
                       f"{100 - target['utilization']:g} % idle capacity (AWS: a target at or below 50 % deserves "
                       "a look)")
        late = [step for step in target["timeline"] if step.get("throttled_before")]
        if late:
            throttled = sum(step["throttled_before"] for step in late)
            out.append(f"autoscaling {name}: {throttled:,} requests throttled before new capacity arrived (the "
                       f"first asked at {late[0]['issued']:,.0f} s, in effect at {late[0]['in_effect']:,.0f} s): "
                       "auto scaling reacts in minutes; a lower target, a higher minimum or on demand absorbs "
                       "such a rise")
        asked = max((math.ceil(consumed / 60 / (target["utilization"] / 100)) for _, _, consumed in
                     target.get("per_minute", [])), default=0)
        if asked > target["max"]:
            out.append(f"autoscaling {name}: its max ({target['max']:,}) is under the {asked:,} units its busiest "
                       f"minute asks for at its target: capacity stops there and the rest is throttled (raise max)")
        if target["refused_decreases"]:
            out.append(f"autoscaling {name}: {target['refused_decreases']} scale-ins refused by the day's "
                       "decrease quota (4, then one an hour): capacity stayed paid for above the need")
        table = by_resource.get((target["table"], None, target["dimension"]))
        if target["index"] is not None and target["dimension"] == "write" and table is not None \
                and target["max"] < table["max"]:
            out.append(f"autoscaling {name}: its max ({target['max']:,}) is below its table's ({table['max']:,}): "
                       "when the table scales past it the index refuses the table's writes (back-pressure)")
    return out


def unscaled_index_advice(targets: list, resources: list) -> list:
    """A table whose writes scale while a provisioned GSI of it has no write policy: the index's fixed capacity
    refuses the table's writes once they outgrow it."""
    scaled = {(t["table"], t["index"]) for t in targets if t["dimension"] == "write"}
    return [f"autoscaling {resource['table']} write: its index {resource['index']} has no write policy: when the "
            "table's writes grow, the index's fixed capacity refuses them (back-pressure); give it the same policy"
            for resource in resources if resource["index"] is not None and resource["provisioned"] is not None
            and (resource["table"], None) in scaled and (resource["table"], resource["index"]) not in scaled]


def stream_note(table: str) -> str:
    """What the cost leaves out of a table with a stream: its readers are not simulated."""
    return (f"{table} has a stream: its readers' GetRecords calls are not simulated (a Lambda trigger's are free; "
            f"other readers pay ${STREAM_READS_PER_100K} per 100,000 past {STREAM_FREE_READS / 1e6:g} M a month, "
            "us-east-1)")
