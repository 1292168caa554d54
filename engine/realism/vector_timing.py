"""Vector indexes' lifecycle on the engine's clock: ``index_timing = "realistic"`` (vector-search.md §1, §3).

A table created with vector indexes is CREATING for ``create`` seconds, its indexes with it (a SearchVectors
meanwhile finds no table: §5.5 step 7). An index UpdateTable adds is first in its allocation phase
(``allocation`` s: the table UPDATING, the index CREATING without Backfilling; a Delete of it is refused, a
second Create too), then backfills (``backfill`` s: the table ACTIVE, the index CREATING with Backfilling; a
Delete cancels it, DeleteTable is refused, a search answers "Cannot search backfilling"), then is ACTIVE though
not yet searchable for ``lag`` s ("does not have the specified index"). A deleted index is DELETING for
``delete`` s, its table UPDATING. The durations are the spec's §3.5 (model), observed on AWS in 2026.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import LimitExceededException, ResourceInUseException, ResourceNotFoundException, ValidationException
from ..vectors import messages as M

ALLOCATING = ("Attempt to change a resource which is still in use: Index creation is in resource allocation phase. "
              "Retry deletion during backfilling phase or when the index is active. Table: {} Index: {}")
TABLE_BUSY = ("Attempt to change a resource which is still in use: Cannot delete table while indexes are being "
              "created, updated, or deleted.")
REALISTIC = {"create": 15.0, "allocation": 30.0, "backfill": 480.0, "lag": 5.0, "delete": 3.0}  # §3.5


@dataclass
class VectorTiming:
    """The phases' durations, and when each of this engine's vector indexes leaves each phase."""

    create: float = 0.0
    allocation: float = 0.0
    backfill: float = 0.0
    lag: float = 0.0
    delete: float = 0.0
    tables: dict = field(default_factory=dict)    # table -> when its CreateTable's CREATING ends
    phases: dict = field(default_factory=dict)    # (table, index) -> (allocated, backfilled, searchable)
    deleting: dict = field(default_factory=dict)  # (table, index) -> (when gone, its description)

    def _phase(self, key: tuple, now: float) -> str | None:
        allocated, backfilled, searchable = self.phases.get(key, (0.0, 0.0, 0.0))
        if now < allocated:
            return "allocating"
        if now < backfilled:
            return "backfilling"
        if now < searchable:
            return "lagging"
        self.phases.pop(key, None)
        return None

    def _creating(self, table: str, now: float) -> dict:
        """The vector indexes of ``table`` being created: name -> "allocating" or "backfilling"."""
        return {name: phase for (owner, name) in list(self.phases) if owner == table
                for phase in [self._phase((owner, name), now)] if phase in ("allocating", "backfilling")}

    def busy(self, table: str, now: float) -> bool:
        """Whether a vector index of ``table`` is being created (allocation or backfill)."""
        return bool(self._creating(table, now))

    def before(self, now: float, operation: str, request: dict, table: str | None) -> None:
        """Refuse what the phases refuse (§2.4, §3.2, §5.5 step 9)."""
        if table is None:
            return
        if operation == "SearchVectors" and now < self.tables.get(table, 0.0):
            raise ResourceNotFoundException("Requested resource not found")
        busy = self._creating(table, now)
        if operation == "SearchVectors":
            phase = self._phase((table, request.get("IndexName")), now)
            if phase == "backfilling":
                raise ValidationException(M.BACKFILLING.format(request["IndexName"]))
            if phase is not None:
                raise ValidationException(M.NO_SUCH_INDEX.format(request["IndexName"]))
        elif operation == "DeleteTable" and busy:
            raise ResourceInUseException(TABLE_BUSY)
        elif operation == "UpdateTable":
            for update in request.get("VectorIndexUpdates") or []:
                if "Create" in update and busy:
                    raise LimitExceededException(M.ONLINE_LIMIT)
                name = (update.get("Delete") or {}).get("IndexName")
                if busy.get(name) == "allocating":
                    raise ResourceInUseException(ALLOCATING.format(table, name))

    def after(self, now: float, operation: str, request: dict, table: str | None) -> None:
        """Start the phases of what the request created or deleted."""
        if operation == "CreateTable" and request.get("VectorIndexes"):
            self.tables[table] = now + self.create
        elif operation == "UpdateTable":
            for update in request.get("VectorIndexUpdates") or []:
                if "Create" in update:
                    allocated = now + self.allocation
                    self.phases[table, update["Create"]["IndexName"]] = (
                        allocated, allocated + self.backfill, allocated + self.backfill + self.lag)
                elif "Delete" in update:
                    self.phases.pop((table, update["Delete"]["IndexName"]), None)
        elif operation == "DeleteTable":
            for key in [key for key in self.phases if key[0] == table]:
                del self.phases[key]

    def deleted(self, table: str, index: dict, now: float) -> None:
        """``index`` (its description) was deleted: DELETING for ``delete`` seconds."""
        if self.delete:
            self.deleting[table, index["IndexName"]] = (now + self.delete, dict(index, IndexStatus="DELETING"))

    def statuses(self, description: dict, now: float) -> None:
        """Say each vector index's phase in a table description, and the table UPDATING while one allocates or
        is DELETING."""
        table = description.get("TableName")
        indexes = description.get("VectorIndexes")
        updating = False
        if now < self.tables.get(table, 0.0):
            description["TableStatus"] = "CREATING"
            for index in indexes or []:
                index["IndexStatus"] = "CREATING"
            return
        for index in indexes or []:
            phase = self._phase((table, index["IndexName"]), now)
            if phase in ("allocating", "backfilling"):
                index["IndexStatus"], index["Backfilling"] = "CREATING", phase == "backfilling"
                updating = updating or phase == "allocating"
        for (owner, name), (gone, deleting) in list(self.deleting.items()):
            if owner != table:
                continue
            if now >= gone:
                del self.deleting[owner, name]
            elif not any(index["IndexName"] == name for index in indexes or []):
                description.setdefault("VectorIndexes", []).append(dict(deleting))
                updating = True
        if updating and description.get("TableStatus") == "ACTIVE":
            description["TableStatus"] = "UPDATING"
