"""What a statement returns: items, counts, the plan it ran and the capacity it used."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field


class ConsumedCapacity:
    """Capacity a statement consumed, summed over the tables it touched.

    ``total`` = ``table`` + Σ ``indexes``; ``read_units`` / ``write_units``
    split the total; ``tables`` holds one engine ``Consumed`` per table (the
    shape DynamoDB reports for batches and transactions). The sums are made
    on first use: most results are never asked for them.
    """

    def __init__(self, tables: list | None = None):
        self.tables = list(tables or ())

    @classmethod
    def of(cls, consumed: list) -> "ConsumedCapacity":
        """Roll up engine ``Consumed`` values (one per table)."""
        return cls(consumed)

    @functools.cached_property
    def table(self) -> float:
        return sum(units.table.total for units in self.tables)

    @functools.cached_property
    def indexes(self) -> dict:
        """Index name -> units."""
        out: dict = {}
        for units in self.tables:
            for name, (_, arm) in units.indexes.items():
                out[name] = out.get(name, 0.0) + arm.total
        return out

    @functools.cached_property
    def read_units(self) -> float:
        return sum(units.read_units for units in self.tables)

    @functools.cached_property
    def write_units(self) -> float:
        return sum(units.write_units for units in self.tables)

    @property
    def total(self) -> float:
        return self.read_units + self.write_units

    def __eq__(self, other) -> bool:
        return isinstance(other, ConsumedCapacity) and self._figures() == other._figures()

    def _figures(self) -> tuple:
        return self.total, self.table, self.indexes, self.read_units, self.write_units

    def __repr__(self) -> str:
        return (f"ConsumedCapacity(total={self.total}, table={self.table}, indexes={self.indexes}, "
                f"read_units={self.read_units}, write_units={self.write_units})")

    def to_api(self, mode: str):
        """DynamoDB's ConsumedCapacity: a single object (ExecuteStatement) or None."""
        if not self.tables:
            return None
        return self.tables[0].to_api(mode)

    def to_api_list(self, mode: str):
        """DynamoDB's ConsumedCapacity list (batches and transactions)."""
        if mode not in ("TOTAL", "INDEXES"):
            return None
        return [units.to_api(mode) for units in self.tables]


@dataclass
class PlanSummary:
    """How a statement was lowered: DynamoDB calls, without running anything.

    ``kind`` is the access path ('GetItem', 'Query', 'Scan', 'PutItem',
    'UpdateItem', 'DeleteItem', 'ConditionCheck', or a DDL name such as
    'CreateTable'); ``ops`` are the plan nodes (``partiql.plan``) and
    ``requests`` the DynamoDB request dicts (wire JSON) they stand for,
    rendered on first use (most results are never explained).
    """

    kind: str
    table: str | None = None
    index: str | None = None
    full_table_scan: bool = False
    ops: tuple = field(default=(), repr=False, compare=False)
    capacity_estimate: str | None = None
    refused: str | None = None  # why DynamoDB's PartiQL would refuse it (the requests: what the API serves instead)
    realism: tuple = ()  # what the engine's realism may do to it (stale reads, conflicts, faults), a line each
    _requests: list | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def requests(self) -> list:
        if self._requests is None:
            self._requests = [op.request() for op in self.ops]
        return self._requests

    @property
    def access_path(self) -> str:
        """A one-line description: ``GetItem on T``, ``Query on T.idx``, ``SCAN of T``."""
        source = self.table if self.index is None else f"{self.table}.{self.index}"
        if self.full_table_scan:
            return f"SCAN of {source}"
        if len(self.ops) > 1 and self.kind in ("GetItem", "Query"):
            return f"{len(self.ops)} decomposed {self.kind} reads on {source}"
        return f"{self.kind} on {source}" if source else self.kind


@dataclass
class Result:
    """The result of one statement (or one page of it)."""

    items: list = field(default_factory=list)
    count: int = 0
    scanned_count: int = 0
    next_token: str | None = None
    consumed_capacity: ConsumedCapacity = field(default_factory=ConsumedCapacity)
    plan: PlanSummary | None = None
    warnings: list = field(default_factory=list)
    message: str | None = None  # DDL and SHOW/DESCRIBE: what happened, for people

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)
