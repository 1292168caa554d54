"""What a report says in words, for the terminal and HTML reports: the verdict that opens each design, each
auto-scaled target's line, the monthly cost's lines, what realism did."""

from __future__ import annotations

from .cost_advice import MODE_NAMES
from .prices import CLASS_NAMES
from .realism_advice import conflicts_met


def scaling_lines(found: dict) -> list:
    """Each auto-scaled target's capacity over the run, a line each: every change, when it was asked for and
    when it took effect (the terminal and HTML reports)."""
    lines = []
    for target in found.get("autoscaling", []):
        steps = " ".join(f"→ {step['units']:,} at {step['in_effect']:,.0f} s ({step['cause']}, asked at "
                         f"{step['issued']:,.0f} s)" for step in target["timeline"][1:])
        lines.append(f"autoscaling {target['target']} (min {target['min']:,}, max {target['max']:,}, target "
                     f"{target['utilization']:g} %): {target['timeline'][0]['units']:,} {steps or '(no change)'}; "
                     f"mean {target['mean_units']:,.0f}, max {target['max_units']:,}"
                     + (f"; {target['refused_decreases']} scale-ins refused by the day's decrease quota"
                        if target["refused_decreases"] else ""))
    return lines


def cost_lines(found: dict) -> list:
    """The monthly cost as lines (the terminal and HTML reports): the mode that ran and its cost per served
    request, the three modes, and each table's parts in the mode it ran."""
    cost = found.get("cost")
    if not cost:
        return []
    modes = cost["modes"]
    ran = ", ".join(sorted({MODE_NAMES[mode] for mode in cost["ran_modes"].values()}))
    served = sum(p["served"] for p in found["patterns"])
    requested = sum(p["requested"] for p in found["patterns"])
    share = f"{served / requested:.1%} served" if requested else "nothing requested"
    each = "" if cost["per_million_served"] is None else f", ${cost['per_million_served']:,.2f} per million served"
    lines = [f"cost a month in {cost['region']} (prices of {cost['prices_dated']}; the run's {cost['seconds']:,.0f} s "
             f"taken to repeat for {cost['month_hours']:,g} hours): ${cost['ran']:,.2f} as it ran "
             f"({ran}; {share}{each})",
             "  on demand ${:,.2f} · provisioned ${:,.2f}".format(modes["on_demand"], modes["provisioned"])
             + ("" if modes["autoscaled"] is None else " · auto scaling ${:,.2f} (each hour at its maximum: ${:,.2f})"
                .format(modes["autoscaled"], modes["autoscaled_bound"]))
             + ("" if cost["free_tier"] is None else " (after the free tier)")]
    lines += [f"  note: {note}" for note in cost.get("notes", [])]
    vectors = cost.get("vectors")
    if vectors:
        parts = {part: sum(row["dollars"][part] for row in vectors["indexes"])
                 for part in ("storage", "write", "search")}
        lines.append(f"  vector indexes ${vectors['total']:,.2f} (storage ${parts['storage']:,.2f}, writes "
                     f"${parts['write']:,.2f}, searches ${parts['search']:,.2f}; {vectors['priced']} prices)")
    for table in cost["tables"]:
        parts = table["modes"][table["ran"]]
        shown = ", ".join(f"{name} ${parts[part]:,.2f}" + (f" (GSIs ${parts['index_' + part]:,.2f})"
                                                           if parts.get("index_" + part) else "")
                          for part, name in (("reads", "reads"), ("writes", "writes"), ("storage", "storage"))
                          if parts[part])
        figures = table["class_figures"]
        ratio = "" if figures is None else (f"; storage {figures['storage_over_throughput']:,.2f} × throughput "
                                            f"(Standard-IA pays from {figures['break_even']:.2f})")
        sized = [r for r in table["resources"] if r["sized"] != "declared"]
        estimate = "" if not sized else ("; provisioned at " + ", ".join(
            f"{r['provisioned'][0]:,} RCU / {r['provisioned'][1]:,} WCU" + (f" ({r['index']})" if r["index"] else "")
            for r in sized) + f" ({sized[0]['sized']}: partitions not re-simulated)")
        lines.append(f"  {table['table']} ({CLASS_NAMES[table['class']]}, {MODE_NAMES[table['ran']]}, "
                     f"{table['storage_gb']:,.3f} GB): {shown or 'nothing'}{ratio}{estimate}")
    return lines


def verdict(found: dict) -> str:
    """One paragraph that opens a design's report: what it served, where and why it throttled and the fix, the
    transaction conflicts and stale reads realism met, the Scans not declared, and what it costs a month at this
    rate."""
    requested = sum(p["requested"] for p in found["patterns"])
    served = sum(p["served"] for p in found["patterns"])
    throttled = sum(p["throttled"] for p in found["patterns"])
    failed = sum(p["failed"] for p in found["patterns"])
    if not requested:
        said = ["Nothing was requested."]
    elif served == requested:
        said = [f"Serves all {requested:,} requests."]
    else:
        said = [f"Serves {served / requested:.0%} of {requested:,} requests"
                + (f": {throttled:,} throttled ({throttled / requested:.0%})" if throttled else "")
                + (f"{',' if throttled else ':'} {failed:,} failed" if failed else "") + "."]
    hottest = max(found["resources"], key=lambda r: sum(r["throttle_events"].values()), default=None)
    if hottest is not None and hottest["throttle_events"]:
        reason = max(hottest["throttle_events"], key=hottest["throttle_events"].get)
        name = hottest["table"] + (f" index {hottest['index']}" if hottest["index"] else "")
        keyed = "KeyRange" in reason and hottest["top_throttled"]  # (a table out of capacity has no hot key)
        key = f" at the key {hottest['top_throttled'][0][0]!r}" if keyed else ""
        said.append(f"Most throttles are on {name}{key} ({reason})"
                    + (f"; the fix: {_fix(hottest['advice'][0])}." if hottest["advice"] else "."))
    retried = sum(p.get("retried", 0) for p in found["patterns"])
    if retried:
        said.append(f"Clients sent {retried:,} retries.")
    conflicts = sum(conflicts_met(p) for p in found["patterns"])
    if conflicts:
        said.append(f"{conflicts:,} requests met a transaction holding their item (TransactionConflict).")
    stale = sum(p.get("stale", 0) for p in found["patterns"])
    if stale:
        reads = sum(p["served"] for p in found["patterns"] if p.get("stale"))
        said.append(f"{stale:,} of {reads:,} reads did not yet see a write (stale: eventual consistency).")
    scans = [p["name"] for p in found["patterns"] if p.get("full_scan") and not p.get("scan_meant")]
    if scans:
        said.append(f"{', '.join(scans)} {'is a full Scan' if len(scans) == 1 else 'are full Scans'}, not declared.")
    cost = found.get("cost")
    if cost:
        modes = ", ".join(sorted({MODE_NAMES[mode] for mode in cost["ran_modes"].values()}))
        each = "" if cost["per_million_served"] is None else \
            f", ${cost['per_million_served']:,.2f} per million served requests"
        said.append(f"Costs ${cost['ran']:,.2f} a month at this rate ({modes}{each}).")
    return " ".join(said)


def _fix(advice: str) -> str:
    """What an advice says to do: its words after the finding (``key 'X' asks about …: shard it over 2 keys …``
    → ``shard it over 2 keys …``)."""
    return advice.split(": ", 1)[-1].rstrip(".")


def stale_line(pattern: dict) -> str | None:
    """A pattern's reads realism served stale, as a line (None: none were)."""
    if not pattern.get("stale"):
        return None
    return (f"stale: {pattern['stale']:,} reads did not yet see a write ({pattern['stale_items']:,} items as they "
            "were before it)")


def retry_line(pattern: dict) -> str | None:
    """A pattern's retries, as a line (None: its client sent nothing again)."""
    if not pattern.get("retried"):
        return None
    return (f"retried: {pattern['retried']:,} attempts ({pattern['retried'] / pattern['requested']:.2f} a request); "
            f"{pattern['gave_up']:,} gave up after their last retry"
            + (f", {pattern['unfinished']:,} still waiting to retry when the run ended" if pattern["unfinished"]
               else ""))


def realism_line(found: dict) -> str | None:
    """What the run's realism did, as a line (None: realism off)."""
    realism = found.get("realism")
    if not realism:
        return None
    kinds = ", ".join(f"{kind} × {count:,}" for kind, count in realism["injected_by_kind"].items())
    return (f"realism ({realism['source']}): {realism['injected']:,} events injected or met"
            + (f" ({kinds})" if kinds else "") + f"; {realism['conflicts']:,} transaction conflicts, "
            f"{realism['stale_items']:,} items read stale")
