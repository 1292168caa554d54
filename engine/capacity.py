"""Capacity arithmetic (spec §6) and the ConsumedCapacity value.

R(b) = max(1, ceil(b / 4096)) read units, halved for eventually consistent
reads; W(b) = max(1, ceil(b / 1024)) write units. Every operation builds a
``Consumed`` with a table arm and one arm per index it charged; the
boundaries render it in DynamoDB's TOTAL or INDEXES shape.
"""

from __future__ import annotations

from . import limits


def read_units(size: int, consistent: bool = False) -> float:
    """R(b), halved unless strongly consistent."""
    units = max(1, -(-size // limits.READ_UNIT_BYTES))
    return float(units) if consistent else units / 2


def write_units(size: int) -> float:
    """W(b)."""
    return float(max(1, -(-size // limits.WRITE_UNIT_BYTES)))


class Arm:
    """Units charged to one table or index."""

    __slots__ = ("read", "write")

    def __init__(self, read: float = 0.0, write: float = 0.0):
        self.read = read
        self.write = write

    @property
    def total(self) -> float:
        return self.read + self.write

    def __repr__(self) -> str:
        return f"Arm(read={self.read}, write={self.write})"


class Consumed:
    """Capacity one operation consumed on one table: the table arm and index arms."""

    __slots__ = ("table_name", "table", "indexes", "transactional", "unattributed", "vectors")

    def __init__(self, table_name: str, transactional: bool = False):
        self.table_name = table_name
        self.table = Arm()
        self.indexes: dict[str, tuple[str, Arm]] = {}  # name -> (kind 'GSI'|'LSI', arm)
        self.transactional = transactional
        # Units in CapacityUnits but in no arm: a batch's failed writes (spec §6.5).
        self.unattributed = 0.0
        self.vectors: dict | None = None  # vector index -> VectorWriteRequestBytes (vector-search.md §6.3)

    def vector_write(self, name: str, size: int) -> None:
        """Bytes a write charged a vector index: apart from capacity units, shown under INDEXES only."""
        if self.vectors is None:
            self.vectors = {}
        self.vectors[name] = self.vectors.get(name, 0) + size

    def as_unattributed(self) -> "Consumed":
        """These units as a batch reports a failed statement's: in the total, in no arm."""
        out = Consumed(self.table_name, self.transactional)
        out.unattributed = self.total
        return out

    def index(self, name: str, kind: str) -> Arm:
        entry = self.indexes.get(name)
        if entry is None:
            entry = self.indexes[name] = (kind, Arm())
        return entry[1]

    def merge(self, other: "Consumed") -> None:
        """Add another operation's units on the same table into this one."""
        self.table.read += other.table.read
        self.table.write += other.table.write
        self.unattributed += other.unattributed
        for name, (kind, arm) in other.indexes.items():
            mine = self.index(name, kind)
            mine.read += arm.read
            mine.write += arm.write
        for name, size in (other.vectors or {}).items():
            self.vector_write(name, size)

    @property
    def read_units(self) -> float:
        return self.table.read + sum(arm.read for _, arm in self.indexes.values())

    @property
    def write_units(self) -> float:
        return self.table.write + sum(arm.write for _, arm in self.indexes.values())

    @property
    def total(self) -> float:
        return self.read_units + self.write_units + self.unattributed

    def to_api(self, mode: str) -> dict | None:
        """DynamoDB's ConsumedCapacity for ReturnConsumedCapacity ``mode``."""
        if mode not in ("TOTAL", "INDEXES"):
            return None
        out = {"TableName": self.table_name, "CapacityUnits": self.total}
        if self.transactional:
            self._mirror(out, self.read_units, self.write_units)
        if mode == "INDEXES":
            out["Table"] = self._arm(self.table)
            for kind, member in (("GSI", "GlobalSecondaryIndexes"), ("LSI", "LocalSecondaryIndexes")):
                arms = {name: self._arm(arm) for name, (k, arm) in self.indexes.items() if k == kind}
                if arms:
                    out[member] = arms
            if self.vectors:
                out["VectorIndexes"] = {name: {"VectorWriteRequestBytes": float(size)}
                                        for name, size in self.vectors.items()}
        return out

    def _arm(self, arm: Arm) -> dict:
        out = {"CapacityUnits": arm.total}
        if self.transactional:
            self._mirror(out, arm.read, arm.write)
        return out

    @staticmethod
    def _mirror(out: dict, read: float, write: float) -> None:
        # Transactions mirror the read/write split into every level (spec §6.5).
        if read:
            out["ReadCapacityUnits"] = read
        if write:
            out["WriteCapacityUnits"] = write

    def __repr__(self) -> str:
        return f"Consumed({self.table_name!r}, table={self.table}, indexes={self.indexes})"


def index_write_units(old_size: int | None, new_size: int | None, key_changed: bool,
                      content_changed: bool) -> float:
    """Units one index arm is charged for a write (spec §6.4 table)."""
    if old_size is None and new_size is None:
        return 0.0
    if old_size is None:
        return write_units(new_size)
    if new_size is None:
        return write_units(old_size)
    if key_changed:
        return write_units(old_size) + write_units(new_size)
    if not content_changed:
        return 0.0
    return max(write_units(old_size), write_units(new_size))
