"""A workload's ``[cost]`` section: the region and table classes its monthly cost is priced in (design-time.md §2.5).

::

    [cost]
    region = "eu-west-1"          # a region of ``prices`` (default us-east-1; --region overrides)
    table_class = "STANDARD"      # or STANDARD_INFREQUENT_ACCESS, for every table (default STANDARD)
    free_tier = false             # take DynamoDB's always-free 25 GB, 25 RCU and 25 WCU off once
    month_hours = 730             # the month (default 730 hours)

    [cost.table.Orders]           # one table's class and production sizes (default: the run's)
    table_class = "STANDARD_INFREQUENT_ACCESS"
    items = 10_000_000
    item_bytes = 1000
    [cost.table.Orders.index.ByStatus]   # a GSI's entries (default: the run's share and size, scaled)
    items = 10_000_000
    item_bytes = 60
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import WorkloadError
from .members import members, named_tables
from .numbers import number
from .prices import CLASSES, MONTH_HOURS, REGIONS, STANDARD

COST = ("region", "table_class", "free_tier", "month_hours", "table")
TABLE = ("table_class", "items", "item_bytes", "index")
SIZES = ("items", "item_bytes")
MAX_ITEMS = 1e15     # items a table may be declared to hold (a petabyte of 1-byte items)
MAX_ITEM_BYTES = 400 * 1024


@dataclass(frozen=True)
class Sizes:
    """Production sizes declared for a table or an index (None: the run's)."""

    items: float | None = None
    item_bytes: float | None = None


@dataclass
class TableCost:
    """One table's class and declared sizes."""

    table_class: str | None = None           # None: the workload's
    sizes: Sizes = Sizes()
    indexes: dict = field(default_factory=dict)  # GSI name -> Sizes


@dataclass
class CostSettings:
    """How a design's monthly cost is priced."""

    region: str = "us-east-1"
    table_class: str = STANDARD
    free_tier: bool = False
    month_hours: float = MONTH_HOURS
    tables: dict = field(default_factory=dict)  # table name -> TableCost

    def class_of(self, table: str) -> str:
        found = self.tables.get(table)
        return self.table_class if found is None or found.table_class is None else found.table_class

    def sizes(self, table: str, index: str | None = None) -> Sizes:
        found = self.tables.get(table, TableCost())
        return found.sizes if index is None else found.indexes.get(index, Sizes())


def parse_cost(entry, where: str) -> CostSettings:
    """The ``[cost]`` table ``entry`` (``where`` names it in errors)."""
    members(entry, where, optional=COST)
    settings = CostSettings()
    if "region" in entry:
        settings.region = check_region(entry["region"], f"{where}.region")
    if "table_class" in entry:
        settings.table_class = _class(entry["table_class"], f"{where}.table_class")
    if "free_tier" in entry:
        if not isinstance(entry["free_tier"], bool):
            raise WorkloadError(f"{where}.free_tier takes true or false")
        settings.free_tier = entry["free_tier"]
    if "month_hours" in entry:
        settings.month_hours = number(entry["month_hours"], f"{where}.month_hours", 1.0, 745.0, what="hours")
    tables = entry.get("table", {})
    named_tables(tables, f"{where}.table")
    settings.tables = {name: _table_cost(value, f"{where}.table.{name}") for name, value in tables.items()}
    return settings


def check_region(value, where: str) -> str:
    if value not in REGIONS:
        raise WorkloadError(f"{where} takes a region with prices ({', '.join(REGIONS)}), not {value!r}")
    return value


def _table_cost(entry, where: str) -> TableCost:
    members(entry, where, optional=TABLE)
    indexes = entry.get("index", {})
    named_tables(indexes, f"{where}.index")
    return TableCost(None if "table_class" not in entry else _class(entry["table_class"], f"{where}.table_class"),
                     _sizes(entry, where), {name: _sizes(members(value, f"{where}.index.{name}", optional=SIZES),
                                                         f"{where}.index.{name}") for name, value in indexes.items()})


def _sizes(entry: dict, where: str) -> Sizes:
    return Sizes(None if "items" not in entry else number(entry["items"], f"{where}.items", 0, MAX_ITEMS, "items"),
                 None if "item_bytes" not in entry else number(entry["item_bytes"], f"{where}.item_bytes", 1,
                                                               MAX_ITEM_BYTES, "bytes"))


def _class(value, where: str) -> str:
    if value not in CLASSES:
        raise WorkloadError(f"{where} takes {' or '.join(CLASSES)}, not {value!r}")
    return value
