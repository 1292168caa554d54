"""The service's ConsumedCapacity as the engine's ``Consumed`` values, so a remote result reports
capacity as a local one does (``Result.consumed_capacity``)."""

from __future__ import annotations

from partiql.engine.capacity import Arm, Consumed

_INDEXES = (("GSI", "GlobalSecondaryIndexes"), ("LSI", "LocalSecondaryIndexes"))


def consumed_from(entries, reading: bool = True) -> list:
    """``Consumed`` per entry of DynamoDB's ConsumedCapacity (a dict or a list of them, None skipped).
    Units the service does not split into read and write count as reads for a read (``reading``),
    as writes otherwise."""
    if isinstance(entries, dict):
        entries = [entries]
    return [_consumed(entry, reading) for entry in entries or () if entry]


def _consumed(entry: dict, reading: bool) -> Consumed:
    out = Consumed(entry.get("TableName", ""), transactional="ReadCapacityUnits" in entry
                   or "WriteCapacityUnits" in entry)
    out.table = _arm(entry.get("Table"), reading)
    for kind, member in _INDEXES:
        for name, figures in (entry.get(member) or {}).items():
            out.indexes[name] = (kind, _arm(figures, reading))
    arms = out.read_units + out.write_units
    if "Table" not in entry and not out.indexes:  # TOTAL only: the whole figure is the table's
        out.table = _arm(entry, reading)
    elif entry.get("CapacityUnits", arms) > arms:
        out.unattributed = entry["CapacityUnits"] - arms
    return out


def _arm(figures: dict | None, reading: bool) -> Arm:
    if not figures:
        return Arm()
    if "ReadCapacityUnits" in figures or "WriteCapacityUnits" in figures:
        return Arm(figures.get("ReadCapacityUnits", 0.0), figures.get("WriteCapacityUnits", 0.0))
    units = figures.get("CapacityUnits", 0.0)
    return Arm(units, 0.0) if reading else Arm(0.0, units)
