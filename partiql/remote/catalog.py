"""The tables of a remote DynamoDB as the local planner reads them, from DescribeTable.

The planner lowers a statement against a catalog (table name -> an object
with ``name`` and ``spec``); ``RemoteCatalog`` builds each entry from the
service's TableDescription the first time a statement names the table, keeps
it, and forgets it after DDL or an error that says the schema moved
(``forget``), bumping ``version`` so cached plans are made again.
``PlanningEngine`` is what ``StatementRunner`` needs of an engine to plan
and explain, and nothing it could run.
"""

from __future__ import annotations

import threading

from partiql.engine.errors import DynamoDBError
from partiql.engine.limits import Limits
from partiql.engine.requests.create_table import create_table_spec

from ..schema import create_request


class RemoteTable:
    """A remote table's key schema and indexes (``spec``) and the sizes DescribeTable reports."""

    def __init__(self, description: dict):
        self.description = description
        self.name = description["TableName"]
        self.spec = create_table_spec(create_request(description))
        self.size_bytes = description.get("TableSizeBytes", 0)
        self.item_count = description.get("ItemCount", 0)

    def index_stats(self, index) -> tuple[int, int]:
        """(items, bytes) of an index, as DescribeTable reports them."""
        for member in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
            for found in self.description.get(member) or []:
                if found["IndexName"] == index.name:
                    return found.get("ItemCount", 0), found.get("IndexSizeBytes", 0)
        return 0, 0


class RemoteCatalog:
    """Table name -> ``RemoteTable``, read through ``describe(name)`` (a DescribeTable call)."""

    def __init__(self, describe):
        self._describe = describe
        self._tables: dict = {}
        self.version = 0
        self.lock = threading.RLock()

    def get(self, name: str, default=None):
        with self.lock:
            if name not in self._tables:
                try:
                    self._tables[name] = RemoteTable(self._describe(name))
                except DynamoDBError as error:
                    if error.code != "ResourceNotFoundException":
                        raise
                    return default  # (not kept: it may be created by someone else)
            return self._tables[name]

    def forget(self, name: str | None = None) -> None:
        """Read ``name`` (every table: None) again next time."""
        with self.lock:
            if name is None:
                self._tables.clear()
            else:
                self._tables.pop(name, None)
            self.version += 1


class PlanningEngine:
    """What the statement runner reads of an engine to plan: the catalog, limits, a lock, a version."""

    realism = None  # (the endpoint has its own behaviour: realism is refused with one)

    def __init__(self, catalog: RemoteCatalog):
        self.tables = catalog
        self.limits = Limits()
        self.lock = catalog.lock

    @property
    def version(self) -> int:
        return self.tables.version
