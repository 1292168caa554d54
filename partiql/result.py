"""What a statement returns: items, counts, the plan it ran and the capacity it used."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ConsumedCapacity:
    """Capacity a statement consumed, summed over the tables it touched.

    ``total`` = ``table`` + Σ ``indexes``; ``read_units`` / ``write_units``
    split the total; ``tables`` holds one engine ``Consumed`` per table (the
    shape DynamoDB reports for batches and transactions).
    """

    total: float = 0.0
    table: float = 0.0
    indexes: dict = field(default_factory=dict)  # index name -> units
    read_units: float = 0.0
    write_units: float = 0.0
    tables: list = field(default_factory=list)

    @classmethod
    def of(cls, consumed: list) -> "ConsumedCapacity":
        """Roll up engine ``Consumed`` values (one per table)."""
        out = cls(tables=list(consumed))
        for units in consumed:
            out.table += units.table.total
            for name, (_, arm) in units.indexes.items():
                out.indexes[name] = out.indexes.get(name, 0.0) + arm.total
            out.read_units += units.read_units
            out.write_units += units.write_units
        out.total = out.read_units + out.write_units
        return out

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
