"""``--html FILE``: the report as one self-contained page, its charts inline SVG, nothing fetched.

``page(found)`` takes ``report(...)`` or ``comparison(...)`` data and returns
the page: per pattern a chart of requested / served / throttled per second,
per table and index its consumed units against what is provisioned and the
partitions' heat (partitions × seconds, shaded by share of the ceiling,
throttles in red), the top keys and the advice; designs side by side first
when there are several. The markup is well-formed XML (XHTML served as
HTML), so any XML parser can check it.
"""

from __future__ import annotations

from html import escape

from partiql.engine.throughput.figures import PARTITION_READ_CEILING, PARTITION_WRITE_CEILING

from .wording import cost_lines, realism_line, retry_line, scaling_lines, stale_line

WIDTH, HEIGHT, PAD = 640, 140, 30
COLOURS = {"requested": "#9aa5b1", "served": "#2f855a", "throttled": "#c53030", "read": "#2b6cb0",
           "write": "#b7791f", "provisioned": "#4a5568"}
STYLE = """body{font-family:system-ui,sans-serif;margin:2em;color:#1a202c}h1{font-size:1.4em}
h2{font-size:1.15em;margin-top:1.6em}table{border-collapse:collapse}td,th{padding:.2em .7em;text-align:right}
td:first-child,th:first-child{text-align:left}.advice{background:#fffbea;padding:.4em .8em;margin:.3em 0}
.legend span{margin-right:1.2em}code{background:#edf2f7;padding:0 .2em}
.verdict{font-size:1.05em;border-left:4px solid #2b6cb0;padding:.3em .8em;background:#ebf8ff}"""


def page(found: dict) -> str:
    """The whole page for a report, or for a comparison of designs."""
    designs = found.get("designs")
    body = []
    if designs is not None:
        body.append("<h1>Designs compared</h1>" + _comparison(found["comparison"]))
        for design in designs:
            body.append(_report(design, level=2))
    else:
        body.append(_report(found, level=1))
    title = escape((designs[0] if designs else found)["workload"])
    return ('<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><meta charset="utf-8"/>'
            f"<title>partiql simulate: {title}</title><style>{STYLE}</style></head><body>"
            + "".join(body) + "</body></html>\n")


def _report(found: dict, level: int) -> str:
    name = found["workload"] + (f", design {found['design']}" if found.get("design") else "")
    parts = [f"<h{level}>{escape(name)}</h{level}>", f'<p class="verdict">{escape(found["verdict"])}</p>',
             f"<p>{found['ran']:,.0f} s of virtual time, {found['requests']:,} requests, seed {found['seed']}"
             + (f" ({found['aggregated_seconds']:,} s aggregated: steady seconds charged at once)"
                if found.get("aggregated_seconds") else "")
             + (" (interrupted)" if found["interrupted"] else "") + "</p>"]
    parts += [f"<p>{escape(line)}</p>" for line in [realism_line(found)] if line]
    parts += [f'<p class="advice">{escape(text)}</p>' for text in found["advice"]]
    for text, target in zip(scaling_lines(found), found.get("autoscaling", [])):
        parts.append(f"<p>{escape(text)}</p>" + _scaling_chart(target))
    parts += [f"<p>{escape(text)}</p>" for text in cost_lines(found)]
    for pattern in found["patterns"]:
        parts.append(f"<h{level + 1}>{escape(pattern['name'])}: {pattern['served']:,} of {pattern['requested']:,} "
                     f"served</h{level + 1}><p><code>{escape(pattern['statement'])}</code></p>"
                     f"<p>{escape(pattern['access'])}{_scan(pattern)}</p>"
                     + (f"<p>expect: {escape(pattern['expected'])}</p>" if pattern.get("expected") else ""))
        series = {kind: [second[column] for second in pattern["per_second"]]
                  for column, kind in enumerate(("requested", "served", "throttled"))}
        parts.append(_flat(series) or _chart(series, "requests a second"))
        parts += [f"<p>throttled: {escape(reason)} × {count:,}</p>" for reason, count in pattern["reasons"].items()]
        parts += [f"<p>failed: {escape(code)} × {count:,}</p>" for code, count in pattern["errors"].items()]
        parts += [f"<p>{escape(line)}</p>" for line in (stale_line(pattern), retry_line(pattern)) if line]
    for resource in found["resources"]:
        parts.append(_resource(resource, level + 1))
    return "".join(parts)


def _resource(resource: dict, level: int) -> str:
    name = resource["table"] + (f" index {resource['index']}" if resource["index"] else "")
    consumed = resource["consumed_per_second"]
    series = {"read": [s[0] for s in consumed], "write": [s[1] for s in consumed]}
    if resource["provisioned"] is not None:
        series["provisioned"] = [max(resource["provisioned"])] * len(consumed)
    parts = [f"<h{level}>{escape(name)}</h{level}>", _chart(series, "units a second"), _heat(resource["partitions"])]
    for title, keys in (("top keys by consumed units", resource["top_consumed"]),
                        ("top keys by throttle events", resource["top_throttled"])):
        if keys:
            shown = "{:,.1f}" if "units" in title else "{:,.0f}"  # (units may be halves; events are counts)
            parts.append(f"<p>{title}: " + ", ".join(f"<code>{escape(str(k))}</code> {shown.format(v)}"
                                                     for k, v in keys[:10]) + "</p>")
    parts += [f'<p class="advice">{escape(text)}</p>' for text in resource["advice"]]
    return "".join(parts)


def _chart(series: dict, unit: str, every: int = 1) -> str:
    """Lines over time, one per series (a point every ``every`` seconds), with a legend, a time axis and the peak
    as the scale."""
    length = max((len(values) for values in series.values()), default=0)
    peak = max((max(values, default=0) for values in series.values()), default=0) or 1
    step = (WIDTH - PAD) / max(1, length - 1)
    lines = []
    for kind, values in series.items():
        points = " ".join(f"{PAD + i * step:.1f},{HEIGHT - PAD - (v / peak) * (HEIGHT - 2 * PAD):.1f}"
                          for i, v in enumerate(values))
        dash = ' stroke-dasharray="4 3"' if kind == "provisioned" else ""
        lines.append(f'<polyline fill="none" stroke="{COLOURS[kind]}" stroke-width="1.5"{dash} points="{points}"/>')
    axis = (f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH}" y2="{HEIGHT - PAD}" stroke="#a0aec0"/>'
            f'<text x="0" y="{PAD - 8}" font-size="11">{peak:,.0f} {unit}</text>'
            + _ticks(length * every, PAD, WIDTH, HEIGHT - PAD))
    legend = "".join(f'<span style="color:{COLOURS[kind]}">&#9632; {kind}</span>' for kind in series)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" role="img">{axis}'
            + "".join(lines) + f'</svg><div class="legend">{legend}</div>')


def _scaling_chart(target: dict) -> str:
    """An auto-scaled target minute by minute: its capacity against what it consumed (units a second)."""
    minutes = target["per_minute"]
    if len(minutes) < 2:
        return ""
    series = {target["dimension"]: [consumed / 60 for _, _, consumed in minutes],
              "provisioned": [units for _, units, _ in minutes]}
    return _chart(series, "units a second (a point a minute)", every=60)


def _heat(partitions: list) -> str:
    """Partitions × seconds: each cell shaded by the busier direction's share of the partition's ceiling,
    red where a request was throttled."""
    if not partitions:
        return ""
    seconds = max(len(p["per_second"]) for p in partitions)
    cell = max(2.0, min(12.0, (WIDTH - 60) / max(1, seconds)))
    rows = []
    for row, partition in enumerate(partitions):
        y = row * 14
        rows.append(f'<text x="0" y="{y + 11}" font-size="10">#{partition["number"]}</text>')
        for column, (read, write, events) in enumerate(partition["per_second"]):
            share = max(read / PARTITION_READ_CEILING, write / PARTITION_WRITE_CEILING)
            if not events and share <= 0:
                continue
            fill = "#c53030" if events else f"rgba(43,108,176,{min(1.0, 0.15 + share * 0.85):.2f})"
            rows.append(f'<rect x="{40 + column * cell:.1f}" y="{y}" width="{cell:.1f}" height="12" fill="{fill}"/>')
    height = len(partitions) * 14
    legend = ('<div class="legend">a row a partition (#), a column a second; <span style="color:#2b6cb0">&#9632; '
              "shaded by the busier direction's share of the partition's ceiling (1,000 WCU, 3,000 RCU), light to "
              'full</span> <span style="color:#c53030">&#9632; a request throttled</span></div>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{40 + seconds * cell:.0f}" height="{height + 26}" '
            f'role="img">' + "".join(rows) + _ticks(seconds, 40, 40 + seconds * cell, height + 2) + "</svg>" + legend)


def _ticks(seconds: int, left: float, right: float, y: float) -> str:
    """A time axis under a chart: 0, a quarter, half, three quarters and the end, in seconds or minutes."""
    marks = []
    for quarter in range(5):
        at = round(seconds * quarter / 4)
        x = left + (right - left) * quarter / 4
        label = f"{at // 60:,} min" if seconds >= 600 and at % 60 == 0 else f"{at:,} s"
        anchor = ("start", "middle", "middle", "middle", "end")[quarter]
        marks.append(f'<line x1="{x:.1f}" y1="{y}" x2="{x:.1f}" y2="{y + 4}" stroke="#a0aec0"/>'
                     f'<text x="{x:.1f}" y="{y + 16}" font-size="10" text-anchor="{anchor}">{label}</text>')
    return "".join(marks)


def _flat(series: dict) -> str:
    """A sentence instead of a chart when nothing moves: a steady rate, all served."""
    requested, served, throttled = series["requested"], series["served"], series["throttled"]
    if not requested or any(throttled) or requested != served or len(set(requested[:-1])) > 1:
        return ""
    return (f"<p>a steady {requested[0]:,} requests a second for {len(requested):,} s, all served (no chart: "
            "nothing moves)</p>")


def _comparison(rows: list) -> str:
    head = "".join(f"<th>{h}</th>" for h in ("design", "requests", "served", "throttled", "why", "RCU", "WCU",
                                              "per million requests", "a month", "per million served"))
    body = []
    for row in rows:
        cost = "-" if row["cost_per_million_requests"] is None else f"${row['cost_per_million_requests']:,.2f}"
        share = "-" if row["served_share"] is None else f"{row['served_share']:.1%}"
        cells = [escape(row["design"] or ""), f"{row['requested']:,}", share, f"{row['throttled']:,}",
                 escape(", ".join(row["reasons"]) or "-"), f"{row['read_units']:,.0f}", f"{row['write_units']:,.0f}",
                 cost, f"${row['monthly']:,.2f}",
                 "-" if row["per_million_served"] is None else f"${row['per_million_served']:,.2f}"]
        body.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    return f"<table><tr>{head}</tr>" + "".join(body) + "</table>"


def _scan(pattern: dict) -> str:
    if not pattern["full_scan"]:
        return ""
    return " <strong>— a full Scan every request" + ("" if pattern["scan_meant"] else " (not declared)") + "</strong>"
