"""What a design's vector indexes cost a month (vector-search.md §6.5): index storage, the bytes written into
the indexes and the bytes their searches examined, priced apart from the tables' capacity (model).

The prices are AWS's published us-east-1 Standard ones (the only published: AGT, as the spec quotes them):
$0.25 per GB-month of index storage (the vector at 4 bytes a dimension and the projected share: the entries'
bytes), $0.52 per GB written and $0.002 per GB searched; Standard-IA pays 125 % on both request dimensions
and 40 % on storage. A report priced in another region says it used these. The run's bytes repeat as the
run does (``k``); storage is a level, scaled to the production item count ``[cost.table.T]`` declares.
"""

from __future__ import annotations

from .prices import GB, INFREQUENT

PRICES = {"storage": 0.25, "write": 0.52, "search": 0.002}   # $ per GB-month, per GB, per GB (us-east-1, Standard)
INFREQUENT_FACTORS = {"storage": 0.40, "write": 1.25, "search": 1.25}
PRICED_IN = "us-east-1"


def vector_costs(db, settings, seconds: float) -> dict | None:
    """Each vector index's month (its storage, writes and searches, $) and their total; None without any."""
    k = settings.month_hours * 3600 / seconds if seconds else 0.0
    rows = []
    for name in db.table_names():
        table = db.engine.table(name)
        declared = settings.sizes(name).items
        scale = declared / table.item_count if declared is not None and table.item_count else 1.0
        factors = INFREQUENT_FACTORS if settings.class_of(name) == INFREQUENT else dict.fromkeys(PRICES, 1.0)
        for spec in table.spec.vectors:
            index = table.vectors.index(spec.name)
            searched, written = table.vectors.meter.totals.get(spec.name, (0.0, 0.0))
            gigabytes = {"storage": index.bytes * scale / GB, "write": written * k / GB, "search": searched * k / GB}
            dollars = {part: gigabytes[part] * PRICES[part] * factors[part] for part in PRICES}
            rows.append({"table": name, "index": spec.name, "gb": {p: round(v, 6) for p, v in gigabytes.items()},
                         "dollars": {p: round(v, 2) for p, v in dollars.items()},
                         "total": round(sum(dollars.values()), 2)})
    if not rows:
        return None
    note = "" if settings.region == PRICED_IN else f" (priced at {PRICED_IN}'s: the only published)"
    return {"indexes": rows, "total": round(sum(row["total"] for row in rows), 2), "priced": PRICED_IN + note}


def add_to(found_cost: dict, vectors: dict | None, served: int) -> None:
    """The vector indexes' month added to every mode's total and to the month as it ran (a design with vector
    indexes pays for them whatever its capacity mode)."""
    if vectors is None:
        return
    found_cost["vectors"] = vectors
    found_cost["modes"] = {mode: None if total is None else round(total + vectors["total"], 2)
                           for mode, total in found_cost["modes"].items()}
    found_cost["ran"] = round(found_cost["ran"] + vectors["total"], 2)
    k = found_cost["repeat"]
    if served and k:
        found_cost["per_million_served"] = round(found_cost["ran"] / (served * k) * 1e6, 4)
