"""The resources ``partiql mcp`` offers: the pages an agent reads to write valid statements and sound designs.

``RESOURCES`` maps a URI to its name, description and text. The pages live beside this module
(``pages/*.md``, package data); their figures (``${name}``) are filled from the engine's own (``engine.limits``,
``throughput.figures``), so a page never says a number the engine does not use, and the dialect page's
DDL is the shell's ``.help create`` / ``.help alter`` text. The dialect page's example workload runs
(``tests/agent``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Callable

PAGES = Path(__file__).parent / "pages"

EXAMPLE_WORKLOAD = """duration = 10
seed = 1
tables = ["CREATE TABLE Orders PRIMARY KEY (customer STRING HASH, placed NUMBER RANGE) BILLING MODE ON DEMAND"]

[[data]]
table = "Orders"
count = 200
item = { customer = { uniform = 20, prefix = "c" }, placed = { sequence = true }, total = { number = [1, 500] } }

[[pattern]]
name = "recent orders"
statement = "SELECT * FROM Orders WHERE customer = ? AND placed > ?"
params = [{ zipf = 20, s = 1.1, prefix = "c" }, 100]
rate = 50"""


def _figures() -> dict:
    from partiql.engine import limits
    from partiql.engine.throughput import figures

    return {"read_unit": limits.READ_UNIT_BYTES, "write_unit": limits.WRITE_UNIT_BYTES,
            "page_bytes": limits.PAGE_BYTES, "max_item": limits.MAX_ITEM_BYTES,
            "max_hash": limits.MAX_HASH_KEY_BYTES, "max_range": limits.MAX_RANGE_KEY_BYTES,
            "partition_rcu": limits.PARTITION_RCU, "partition_wcu": limits.PARTITION_WCU,
            "burst": figures.BURST_SECONDS, "isolation": figures.ISOLATION_SECONDS,
            "od_rcu": limits.ON_DEMAND_INITIAL_RCU, "od_wcu": limits.ON_DEMAND_INITIAL_WCU}


def _dialect() -> dict:
    from partiql.engine.limits import TRANSACT_MAX_ITEMS
    from partiql.shell.helptext import ALTER_HELP, CREATE_HELP
    from partiql.statements import MAX_BATCH

    return {"max_batch": MAX_BATCH, "max_transaction": TRANSACT_MAX_ITEMS, "create_help": CREATE_HELP,
            "alter_help": ALTER_HELP, "example": EXAMPLE_WORKLOAD}


@dataclass(frozen=True)
class Resource:
    uri: str
    name: str
    description: str
    page: str
    values: Callable

    def text(self) -> str:
        """The page, its figures filled in (``${name}``; ``${name_n}``: a number with thousands separators)."""
        values = self.values()
        values.update({f"{name}_n": f"{value:,}" for name, value in values.items() if isinstance(value, int)})
        return Template((PAGES / self.page).read_text(encoding="utf-8")).substitute(values)


RESOURCES = {resource.uri: resource for resource in (
    Resource("partiql://dialect", "PartiQL dialect", "DynamoDB's PartiQL as partiql-ddb plans it: what becomes a "
             "GetItem, a Query or a Scan; writes; values; batches and transactions; the DDL; workloads",
             "dialect.md", _dialect),
    Resource("partiql://capacity", "Capacity rules", "What DynamoDB charges (RCU, WCU, indexes, transactions) and "
             "where it throttles (partition ceilings, provisioned, on demand, GSIs)", "capacity.md", _figures),
    Resource("partiql://modelling", "Modelling advice", "How to design tables around access patterns, and how to "
             "check a design with these tools before production", "modelling.md", _figures),
)}
