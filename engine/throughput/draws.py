"""What a request draws on (spec throughput.md §3): ``Draw`` s built from the capacity it consumed.

The table's resource takes the table arm and every LSI arm (LSIs share the
table's throughput and live in its partitions); each GSI's resource takes its
own arm, in the GSI partition of its entry. A write that moves a GSI entry to
another partition-key value takes the old entry's units in the old entry's
partition and the new entry's in the new one.
"""

from __future__ import annotations

from ..capacity import write_units
from .admission import Draw
from .metrics import READ, WRITE


def write_draws(state, mutation) -> list:
    """The draws of one prepared write (or a transaction's ConditionCheck, a read)."""
    consumed = mutation.consumed
    sort = mutation.sort[0] if mutation.sort else None
    draws = table_draws(state, consumed, mutation.h, mutation.pk, sort)
    for change in mutation.changes:
        index = change.index
        entry = consumed.indexes.get(index.name)
        if index.kind != "GSI" or entry is None or not entry[1].write:
            continue
        resource = state.resources[index.name]
        units, old, new = entry[1].write, change.old, change.new
        if old is not None and new is not None and old[0] != new[0]:
            moved = write_units(old[3].size)
            draws.append(Draw(resource, WRITE, old[0], moved, old[1], _sort(old)))
            draws.append(Draw(resource, WRITE, new[0], units - moved, new[1], _sort(new)))
        else:
            at = new if new is not None else old
            draws.append(Draw(resource, WRITE, at[0], units, at[1], _sort(at)))
    return draws


def read_resource(state, index):
    """The resource a read charges: a GSI's, or the table's for the table and its LSIs (a
    reach-back read of an LSI is the table's too), so a read's units are its ``Consumed.read_units``."""
    return state.resources[index.name if index is not None and index.kind == "GSI" else None]


def table_draws(state, consumed, h: int, pk, sort) -> list:
    resource = state.resources[None]
    lsi_read = lsi_write = 0.0
    for kind, arm in consumed.indexes.values():
        if kind == "LSI":
            lsi_read += arm.read
            lsi_write += arm.write
    draws = []
    for direction, units in ((READ, consumed.table.read + lsi_read), (WRITE, consumed.table.write + lsi_write)):
        if units:
            draws.append(Draw(resource, direction, h, units, pk, sort))
    return draws


def _sort(entry: tuple):
    sort = entry[2]
    return sort[0] if sort else None


class ScanTally:
    """Bytes a Scan page read in each partition (the page charges each its share).

    ``read_page`` reads the entries partition by partition (``groups``: the
    store's ``scan_groups``) and tells it where each partition's entries ended,
    once per partition.
    """

    __slots__ = ("groups", "start", "bytes")

    def __init__(self, groups):
        self.groups = groups    # (partition, its entries) pairs, in scan order
        self.start = 0          # bytes evaluated when the current partition began
        self.bytes: list = []   # (partition, bytes read there)

    def close(self, partition, evaluated: int) -> None:
        """``partition`` 's entries (read so far) ended after ``evaluated`` bytes of the page."""
        if evaluated > self.start:
            self.bytes.append((partition, evaluated - self.start))
        self.start = evaluated

    def draws(self, draw: Draw, units: float) -> list:
        """``units`` split over the partitions read, in proportion to their bytes (all to ``draw``'s
        partition when nothing was read)."""
        total = sum(size for _, size in self.bytes)
        if not total:
            draw.units = units
            return [draw]
        return [Draw(draw.resource, READ, partition.lo, units * size / total, draw.pk, draw.sk)
                for partition, size in self.bytes]
