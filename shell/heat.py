"""``.heat TABLE [INDEX]``: a table's partitions against time, its top keys, and advice (spec throughput.md §6-§7).

Rows are partitions (number, hash range as a share of the hash space, items);
columns the last seconds of the clock, oldest first; each cell is shaded by
the partition's busier direction as a share of its ceiling (3,000 RCU /
1,000 WCU a second), ``!`` where a request was throttled.
"""

from __future__ import annotations

from partiql.engine import limits
from partiql.engine.throughput.report import advice

SHADES = " ▁▂▃▄▅▆▇█"
THROTTLED = "!"
DEFAULT_SECONDS = 40


def render(found, seconds: int = DEFAULT_SECONDS) -> str:
    """The heat picture of ``found`` (a ``Metrics``), its top keys and the advice."""
    name = found.table if found.index is None else f"{found.table} index {found.index}"
    count = len(found.partitions)
    lines = [f"{name}: {count} partition{'s' if count != 1 else ''}, the last {len(found.seconds)} s "
             f"(a column a second, shaded by share of the partition's ceiling; {THROTTLED} throttled)",
             f"  {'#':>3}  {'hash range':<11}  {'items':>9}  |"]
    for partition in found.partitions:
        cells = "".join(_cell(read, write, events, found.ceilings) for read, write, events in partition.seconds)
        span = f"{partition.lo / limits.HASH_SPACE:.0%}-{partition.hi / limits.HASH_SPACE:.0%}"
        lines.append(f"  {partition.number:>3}  {span:<11}  {partition.items:>9,}  |{cells}|")
    lines += _keys("top keys by consumed units", found.top_consumed, "{:,.1f}")
    lines += _keys("top keys by throttle events", found.top_throttled, "{:,.0f}")
    lines += [f"advice: {text}" for text in advice(found)]
    return "\n".join(lines)


def _cell(read: float, write: float, events: int, ceilings: tuple) -> str:
    if events:
        return THROTTLED
    share = max(read / ceilings[0], write / ceilings[1])
    if share <= 0:
        return SHADES[0]
    return SHADES[min(len(SHADES) - 1, 1 + int(share * (len(SHADES) - 2)))]


def _keys(title: str, found: list, number: str) -> list[str]:
    if not found:
        return []
    return [f"{title}: " + ", ".join(f"{key!r} {number.format(value)}" for key, value in found[:5])]


def render_vector(table: str, index: str, seconds: list) -> str:
    """A vector index's last seconds (``Connection.vector_metrics``): the bytes its searches examined and its
    writes put, a column a second shaded by share of the busiest second, with totals and peaks."""
    lines = [f"{table} vector index {index}: the last {len(seconds)} s (a column a second; bytes, not units: "
             "vector indexes are metered apart from capacity)"]
    for label, column in (("searched", 1), ("written", 2)):
        values = [second[column] for second in seconds]
        peak = max(values, default=0.0)
        top = len(SHADES) - 1
        cells = "".join(SHADES[min(top, round(value / peak * top))] if peak else SHADES[0] for value in values)
        lines.append(f"  {label:<8} |{cells}| {sum(values):,.0f} bytes, peak {peak:,.0f} a second")
    return "\n".join(lines)
