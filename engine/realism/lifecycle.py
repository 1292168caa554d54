"""Table and index lifecycles on the engine's clock (issue 33 point 2; the figures are (model), item-api §5).

A table is CREATING for ``create`` seconds after CreateTable: item operations
on it answer ResourceNotFoundException, as for a table that is not there
(item-api §2, step 6), DeleteTable answers ResourceInUseException ("Table is
being created"), DescribeTable says CREATING. A GSI that UpdateTable creates
is CREATING with ``Backfilling`` for ``index`` seconds plus the table's items
at ``backfill`` items a second; reading it answers ValidationException
("Cannot read from backfilling global secondary index"). After that,
everything is ACTIVE. A deleted table stays DELETING for ``delete`` seconds:
DescribeTable describes it so, DeleteTable again answers the same (item-api
§5.3: "already DELETING → no error"), CreateTable of its name answers
ResourceInUseException ("Table already exists"); item operations do not find
it, ListTables lists it. SDK waiters (``table_exists``, ``table_not_exists``)
poll DescribeTable through exactly this.

Time to Live: after UpdateTimeToLive, DescribeTimeToLive says ENABLING (or
DISABLING) for ``ttl`` seconds; another change in that time answers
"Time to live has been modified multiple times within a fixed interval"
(item-api §6.1, the window made configurable as the spec recommends), and
expiry starts when it is ENABLED. An expired item is deleted up to
``ttl_lag`` seconds after it expired (DynamoDB: "typically within 48
hours", item-api §6.2): each item's delay is drawn from the realism's seed
and its key, so the same item waits as long in every run. UpdateTimeToLive
on a CREATING or DELETING table answers "Time to live cannot be configured
when table is in CREATING or DELETING state" (item-api §6.1, LOCAL).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..errors import LimitExceededException, ResourceInUseException, ResourceNotFoundException, ValidationException
from ..vectors.messages import ONLINE_LIMIT as ONLINE_INDEX_LIMIT
from .consistency import key_of
from .faults import plain
from .vector_timing import VectorTiming

NOT_FOUND = "Requested resource not found"
ITEM_OPERATIONS = frozenset({"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem",
                             "BatchWriteItem", "TransactGetItems", "TransactWriteItems", "ExecuteStatement",
                             "BatchExecuteStatement", "ExecuteTransaction", "SearchVectors"})
READS = frozenset({"Query", "Scan", "ExecuteStatement"})
TTL_TWICE = "Time to live has been modified multiple times within a fixed interval"
TTL_NOT_NOW = "Time to live cannot be configured when table is in CREATING or DELETING state"
TTL_PASSING = {True: "ENABLING", False: "DISABLING"}


@dataclass
class Lifecycle:
    """How long tables and indexes take, and when each of this engine's started."""

    create: float = 0.0      # s a table is CREATING
    delete: float = 0.0      # s a deleted table is DELETING
    index: float = 0.0       # s a new GSI is CREATING before its backfill
    backfill: float = 0.0    # items a second a new GSI backfills (0: at once)
    ttl: float = 0.0         # s TTL is ENABLING / DISABLING after UpdateTimeToLive
    ttl_lag: float = 0.0     # s at most an expired item waits for its deletion
    seed: int = 0            # the realism's seed: each item's deletion delay
    ttls: dict = field(default_factory=dict)  # table -> (when the TTL change is done, enabled, attribute)
    tables: dict = field(default_factory=dict)   # table -> when it is ACTIVE
    indexes: dict = field(default_factory=dict)  # (table, index) -> when it is ACTIVE
    deleting: dict = field(default_factory=dict)  # table -> (when it is gone, its DELETING description)
    vectors: VectorTiming | None = None  # vector indexes' phases (index_timing "realistic"), or None

    def before(self, now: float, operation: str, request: dict, tables: list) -> dict | None:
        """The lifecycle's answer to a request before it runs: an error raised, a response (a DELETING table's),
        or None (the request runs)."""
        for table in tables:
            gone, description = self.deleting.get(table, (0.0, None))
            if now < gone:
                if operation == "DescribeTable":
                    return {"Table": dict(description)}
                if operation == "DeleteTable":
                    return {"TableDescription": dict(description)}
                if operation == "CreateTable":
                    raise ResourceInUseException(f"Table already exists: {table}")
            elif description is not None:
                del self.deleting[table]
            if operation == "UpdateTimeToLive" and (now < gone or now < self.tables.get(table, 0.0)):
                raise ValidationException(TTL_NOT_NOW)
            if operation == "UpdateTimeToLive" and now < self.ttls.get(table, (0.0,))[0]:
                raise ValidationException(TTL_TWICE)
            if now < self.tables.get(table, 0.0):
                if operation in ITEM_OPERATIONS:
                    raise ResourceNotFoundException(NOT_FOUND)
                if operation == "DeleteTable":
                    raise ResourceInUseException(f"Attempt to change a resource which is still in use: Table is "
                                                 f"being created: {table}")
        if self.vectors is not None:
            self.vectors.before(now, operation, request, tables[0] if tables else None)
            if operation == "UpdateTable" and tables:
                self._one_online_index(now, request, tables[0])
        index = request.get("IndexName")
        if operation in READS and tables and isinstance(index, str) and now < self.indexes.get((tables[0], index), 0):
            raise ValidationException(f"Cannot read from backfilling global secondary index: {index}")
        return None

    def _one_online_index(self, now: float, request: dict, table: str) -> None:
        """GSIs and vector indexes share the one online index operation a table may have at a time
        (vector-search.md §2.4): a vector index change while a GSI is being created, or a GSI created or deleted
        while a vector index is, answers the LimitExceededException."""
        creating_gsi = any(now < when for (owner, _), when in self.indexes.items() if owner == table)
        gsi_changes = [u for u in request.get("GlobalSecondaryIndexUpdates") or [] if "Create" in u or "Delete" in u]
        if (request.get("VectorIndexUpdates") and creating_gsi) or (gsi_changes and self.vectors.busy(table, now)):
            raise LimitExceededException(ONLINE_INDEX_LIMIT)

    def after(self, engine, now: float, operation: str, request: dict, response: dict) -> None:
        """Start the clocks of what the request created, and say each status as it is now."""
        name = plain(request.get("TableName"))
        if self.vectors is not None:
            self.vectors.after(now, operation, request, name)
            if operation == "UpdateTable":
                for index in (response.get("TableDescription") or {}).get("VectorIndexes") or []:
                    if index.get("IndexStatus") == "DELETING":
                        self.vectors.deleted(name, index, now)
        if operation == "CreateTable":
            self.tables[name] = now + self.create
        elif operation == "UpdateTable":
            for update in request.get("GlobalSecondaryIndexUpdates") or []:
                if "Create" in update:
                    items = engine.table(name).item_count
                    self.indexes[name, update["Create"]["IndexName"]] = now + self.index + (
                        items / self.backfill if self.backfill else 0.0)
        elif operation == "UpdateTimeToLive" and self.ttl:
            specification = request["TimeToLiveSpecification"]
            self.ttls[name] = (now + self.ttl, specification["Enabled"], specification["AttributeName"])
        elif operation == "DescribeTimeToLive":
            self._ttl_status(name, response["TimeToLiveDescription"], now)
        elif operation == "DeleteTable":
            self.tables.pop(name, None)
            self.ttls.pop(name, None)
            if self.delete:
                self.deleting[name] = (now + self.delete, dict(response["TableDescription"]))
        description = response.get("Table") or response.get("TableDescription")
        if isinstance(description, dict):
            self._statuses(description, now)

    def listed(self, names: list, now: float) -> list:
        """ListTables' names: the catalog's and the tables still DELETING (DynamoDB lists them until gone), in
        byte order."""
        deleting = [name for name, (gone, _) in self.deleting.items() if now < gone and name not in names]
        return sorted(names + deleting, key=lambda name: name.encode("utf-8"))

    def _statuses(self, description: dict, now: float) -> None:
        name = description.get("TableName")
        if description.get("TableStatus") in ("ACTIVE", "CREATING") and now < self.tables.get(name, 0.0):
            description["TableStatus"] = "CREATING"
        for index in description.get("GlobalSecondaryIndexes") or []:
            if now < self.indexes.get((name, index["IndexName"]), 0.0):
                index["IndexStatus"], index["Backfilling"] = "CREATING", True
        if self.vectors is not None:
            self.vectors.statuses(description, now)

    def _ttl_status(self, table: str, description: dict, now: float) -> None:
        done, enabled, attribute = self.ttls.get(table, (0.0, None, None))
        if now < done:
            description.clear()
            description.update(TimeToLiveStatus=TTL_PASSING[enabled], AttributeName=attribute)

    def ttl_delay(self, table, item: dict, now: float) -> float | None:
        """How long after its expiry the TTL sweep deletes ``item`` of ``table``; None while the table's TTL is
        still ENABLING (nothing expires yet)."""
        done, enabled, _ = self.ttls.get(table.name, (0.0, None, None))
        if enabled and now < done:
            return None
        if not self.ttl_lag:
            return 0.0
        digest = hashlib.blake2b(repr((self.seed, table.name, key_of(table.spec.key, item))).encode(),
                                 digest_size=8).digest()
        return self.ttl_lag * int.from_bytes(digest, "big") / 2 ** 64
