"""A design's monthly cost at the simulated rate (design-time.md §2.2–§2.4; all (model) unless the spec cites).

The run of W seconds is taken to repeat all month: k = month / W. Per table, in
its class and the region's prices (``prices``), three modes priced on the same
traffic, each split into reads, writes, GSI reads, GSI writes and storage:

- **on demand**: k × request units × price. A table that ran provisioned and
  throttled is priced for what its patterns asked (each pattern's consumed
  units × requested / served): on demand would have served them.
- **provisioned**: month hours × capacity × hourly price; the declared capacity,
  or for a table that ran on demand, capacity right-sized for its busiest
  minute at a 70 % target ("table-level estimate: partitions not re-simulated").
- **auto scaling**: the time-weighted mean of each scaled target's capacity (as
  AWS's capacity-mode evaluator bills it), with the bound that bills each clock
  hour at its maximum; dimensions without a policy at their fixed capacity.

Storage is a level, not a flow (never multiplied by k): the items and index
entries at the end of the run, or the production sizes ``[cost.table.T]``
declares, each billed its size plus 100 bytes. The mode each table ran in is
authoritative; the others are estimates. Cost per served request divides the
mode that ran by what was served: a design that throttles is never shown cheaper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .cost_advice import class_figures, mode_advice, table_class_advice
from .cost_settings import CostSettings, Sizes
from .prices import CLASSES, FREE_TIER, GB, ITEM_OVERHEAD, PRICES_DATED, STANDARD, Price, price

RIGHT_SIZED_AT = 70          # % target utilization of the capacity an on-demand table is priced at, provisioned
MODES = ("on_demand", "provisioned", "autoscaled")
PARTS = ("reads", "writes", "index_reads", "index_writes", "storage")
DIRECTIONS = ("read", "write")


@dataclass
class Usage:
    """What one resource (the table, or one GSI) used in the run, and what it holds."""

    table: str
    index: str | None
    consumed: tuple             # (read, write) units over the run
    peak: tuple                 # the busiest minute's (read, write) units a second
    provisioned: tuple | None   # (RCU, WCU) declared; None: on demand
    entries: float = 0.0        # items (the table, its LSI entries) or index entries held
    bytes: float = 0.0          # their size, without the overhead
    scaled: dict = field(default_factory=dict)  # direction -> (time-weighted mean, hourly-maximum mean)

    @property
    def gb(self) -> float:
        return (self.bytes + ITEM_OVERHEAD * self.entries) / GB


def usages(db, found: dict, settings: CostSettings) -> list:
    """A ``Usage`` per resource of ``found`` (the report: its whole run, minute by minute), with the storage
    ``db`` holds at the end of the run scaled to the sizes ``settings`` declares."""
    scaled = {}
    for target in found.get("autoscaling", []):
        scaled.setdefault((target["table"], target["index"]), {})[DIRECTIONS.index(target["dimension"])] = (
            target["mean_units"], target["hourly_max_units"])
    out = []
    for resource in found["resources"]:
        table, index = resource["table"], resource["index"]
        entries, size = _storage(db, settings, table, index)
        minutes = resource["per_minute"]
        out.append(Usage(table, index, tuple(sum(minute[d] for minute in minutes) for d in (0, 1)),
                         _peak(minutes, found["ran"]),
                         None if resource["provisioned"] is None else tuple(resource["provisioned"]),
                         entries, size, scaled.get((table, index), {})))
    return out


def _peak(minutes: list, seconds: float) -> tuple:
    """The busiest minute's mean units a second, read and write (a last minute cut short: over its seconds)."""
    best = [0.0, 0.0]
    for number, minute in enumerate(minutes):
        length = min(60.0, seconds - 60 * number)
        if length > 0:
            for d in (0, 1):
                best[d] = max(best[d], minute[d] / length)
    return tuple(best)


def _storage(db, settings: CostSettings, table_name: str, index: str | None) -> tuple:
    """(entries, bytes) the resource is billed for: the run's, or the declared production sizes."""
    table = db.engine.table(table_name)
    run_items, run_bytes = table.item_count, table.size_bytes
    declared = settings.sizes(table_name)
    items, size = _scaled(run_items, run_bytes, declared, 1.0)
    scale = items / run_items if run_items else 0.0
    if index is not None:
        spec = table.spec.index(index)
        return _scaled(*table.index_stats(spec), settings.sizes(table_name, index), scale)
    for lsi in table.spec.lsis:  # (LSI entries are billed storage, in the table's line: no throughput of their own)
        count, held = _scaled(*table.index_stats(lsi), Sizes(), scale)
        items, size = items + count, size + held
    return items, size


def _scaled(count: int, held: int, declared: Sizes, scale: float) -> tuple:
    entries = declared.items if declared.items is not None else count * scale
    each = declared.item_bytes if declared.item_bytes is not None else (held / count if count else 0.0)
    return entries, entries * each


def demand(found: dict, tables: dict) -> dict:
    """Table -> what its patterns asked for over what they were served, weighted by units: how much more on
    demand would have billed than a throttled run consumed (``tables``: pattern name -> its table)."""
    asked, served = {}, {}
    for pattern in found["patterns"]:
        table = tables.get(pattern["name"])
        if table is not None and pattern["served"]:
            asked[table] = asked.get(table, 0.0) + pattern["consumed"] * pattern["requested"] / pattern["served"]
            served[table] = served.get(table, 0.0) + pattern["consumed"]
    return {table: asked[table] / served[table] for table in asked if served[table]}


def ran_mode(resources: list) -> str:
    """The mode a table's resources ran in."""
    if any(usage.scaled for usage in resources):
        return "autoscaled"
    return "on_demand" if resources[0].provisioned is None else "provisioned"


def fixed_capacity(usage: Usage) -> tuple:
    """The capacity a resource is priced at, provisioned: its own, or right-sized for its busiest minute."""
    if usage.provisioned is not None:
        return usage.provisioned
    return tuple(max(1, math.ceil(round(peak / (RIGHT_SIZED_AT / 100), 6))) for peak in usage.peak)


def table_modes(resources: list, prices: Price, k: float, hours: float, asked: float) -> dict:
    """mode -> part -> $ a month for one table's resources (``asked``: the on-demand demand factor);
    ``autoscaled`` is None for a table without a policy, and ``autoscaled_bound`` bills each hour's maximum."""
    out = {mode: dict.fromkeys(PARTS, 0.0) for mode in MODES + ("autoscaled_bound",)}
    rates = ((prices.rru, prices.rcu_hour), (prices.wru, prices.wcu_hour))
    for usage in resources:
        fixed = fixed_capacity(usage)
        for d, part in enumerate(DIRECTIONS):
            name = f"{part}s" if usage.index is None else f"index_{part}s"
            out["on_demand"][name] += k * usage.consumed[d] * asked * rates[d][0] / 1e6
            out["provisioned"][name] += hours * fixed[d] * rates[d][1]
            mean, bound = usage.scaled.get(d, (fixed[d], fixed[d]))
            out["autoscaled"][name] += hours * mean * rates[d][1]
            out["autoscaled_bound"][name] += hours * bound * rates[d][1]
        for mode in out.values():
            mode["storage"] += usage.gb * prices.storage
    if not any(usage.scaled for usage in resources):
        out["autoscaled"] = out["autoscaled_bound"] = None
    return out


def monthly(resources: list, settings: CostSettings, seconds: float, asked: dict, override: dict | None = None,
            served: int = 0) -> dict:
    """The design's monthly cost (JSON-ready): per table its modes in both classes, the totals, the mode that
    ran and its cost per million served requests. ``override`` is ``[prices]``: on-demand $ per million units."""
    k = settings.month_hours * 3600 / seconds if seconds else 0.0
    tables = {}
    for usage in resources:
        tables.setdefault(usage.table, []).append(usage)
    rows = []
    for name, held in tables.items():
        mode = ran_mode(held)
        factor = 1.0 if mode == "on_demand" else asked.get(name, 1.0)
        classes = {c: table_modes(held, _priced(settings.region, c, override), k, settings.month_hours, factor)
                   for c in CLASSES}
        row = _table_row(name, held, settings.class_of(name), mode, classes)
        row["class_figures"] = class_figures(classes, mode, settings.region)
        rows.append(row)
    totals = {mode: _sum(rows, mode) for mode in MODES + ("autoscaled_bound",)}
    ran = sum(row["_ran"] for row in rows)
    free = _free_tier(rows, settings) if settings.free_tier else None
    if free is not None:
        ran -= free["ran"]
        totals = {mode: None if total is None else max(0.0, total - free[mode]) for mode, total in totals.items()}
    found = {
        "region": settings.region, "prices_dated": PRICES_DATED, "month_hours": settings.month_hours,
        "seconds": seconds, "repeat": round(k, 4), "override": override,
        "tables": [{key: value for key, value in row.items() if not key.startswith("_")} for row in rows],
        "modes": {mode: None if total is None else round(total, 2) for mode, total in totals.items()},
        "ran": round(max(0.0, ran), 2), "ran_modes": {row["table"]: row["ran"] for row in rows},
        "free_tier": None if free is None else {mode: round(value, 2) for mode, value in free.items()},
        "per_million_served": round(max(0.0, ran) / (served * k) * 1e6, 4) if served and k else None,
    }
    found["advice"] = [text for row in rows for text in table_class_advice(row, settings.region)] + mode_advice(
        found, totals)
    return found


def _priced(region: str, table_class: str, override: dict | None) -> Price:
    found = price(region, table_class)
    if override is None:
        return found
    return Price(found.storage, override["write"], override["read"], found.wcu_hour, found.rcu_hour)


def _table_row(name: str, held: list, table_class: str, mode: str, classes: dict) -> dict:
    chosen = classes[table_class]
    return {
        "table": name, "class": table_class, "ran": mode,
        "storage_gb": round(sum(usage.gb for usage in held), 3),
        "resources": [{"index": usage.index, "read_units": round(usage.consumed[0], 2),
                       "write_units": round(usage.consumed[1], 2), "storage_gb": round(usage.gb, 3),
                       "provisioned": list(fixed_capacity(usage)),
                       "sized": ("declared" if usage.provisioned is not None
                                 else f"right-sized for the busiest minute at {RIGHT_SIZED_AT} %"),
                       "autoscaled": {DIRECTIONS[d]: mean for d, (mean, _) in usage.scaled.items()} or None}
                      for usage in held],
        "modes": {mode_name: None if parts is None else _shown(parts) for mode_name, parts in chosen.items()},
        "classes": {c: {m: None if parts is None else round(sum(parts.values()), 2) for m, parts in modes.items()}
                    for c, modes in classes.items()},
        "_ran": sum(chosen[mode].values()), "_modes": chosen, "_classes": classes,
    }


def _shown(parts: dict) -> dict:
    """A mode's parts as the report gives them: reads and writes with their GSIs' (and how much of them is the
    GSIs'), storage, the total; in cents."""
    shown = {"reads": parts["reads"] + parts["index_reads"], "writes": parts["writes"] + parts["index_writes"],
             "storage": parts["storage"], "index_reads": parts["index_reads"], "index_writes": parts["index_writes"],
             "total": sum(parts.values())}
    return {name: round(value, 2) for name, value in shown.items()}


def _sum(rows: list, mode: str) -> float | None:
    """A mode's design total: each table in that mode (for auto scaling, a table without a policy as it ran)."""
    if mode.startswith("autoscaled") and all(row["_modes"][mode] is None for row in rows):
        return None
    return sum(sum((row["_modes"][mode] if row["_modes"][mode] is not None else row["_modes"][row["ran"]]).values())
               for row in rows)


def _free_tier(rows: list, settings: CostSettings) -> dict:
    """What the always-free tier takes off each mode's total and off the mode that ran: Standard tables only,
    25 GB of storage and 25 RCU and 25 WCU of provisioned capacity (none of on-demand requests)."""
    standard = [row for row in rows if row["class"] == STANDARD]
    prices = price(settings.region, STANDARD)
    storage = min(FREE_TIER["storage_gb"], sum(row["storage_gb"] for row in standard)) * prices.storage

    def taken(mode_of) -> float:
        units = [0.0, 0.0]
        for row in standard:
            mode = mode_of(row)
            if mode != "on_demand":
                parts = row["_modes"][mode]
                units[0] += (parts["reads"] + parts["index_reads"]) / (settings.month_hours * prices.rcu_hour)
                units[1] += (parts["writes"] + parts["index_writes"]) / (settings.month_hours * prices.wcu_hour)
        return storage + settings.month_hours * (min(FREE_TIER["rcu"], units[0]) * prices.rcu_hour
                                                 + min(FREE_TIER["wcu"], units[1]) * prices.wcu_hour)

    return {"on_demand": storage, "provisioned": taken(lambda row: "provisioned"),
            "autoscaled": taken(lambda row: "autoscaled" if row["_modes"]["autoscaled"] else row["ran"]),
            "autoscaled_bound": taken(lambda row: "autoscaled_bound" if row["_modes"]["autoscaled"] else row["ran"]),
            "ran": taken(lambda row: row["ran"])}
