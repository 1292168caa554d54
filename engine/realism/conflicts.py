"""Transaction conflicts on the engine's clock (issue 33 point 4; DynamoDB developer guide, "Transaction conflict
handling").

A transaction (TransactWriteItems, PartiQL's ExecuteTransaction) applies
for ``duration`` seconds from the moment it runs (model: DynamoDB publishes
no figure): its items — those it writes and those it only checks — are held
so long, and its caller has its answer when it ends (``waits``). While an
item is held, as the guide lists:

* a PutItem, UpdateItem or DeleteItem of it (a PartiQL INSERT, UPDATE or
  DELETE too) answers TransactionConflictException;
* another TransactWriteItems that includes it is cancelled, its reason
  TransactionConflict at that item's place (the others None);
* a TransactGetItems that includes it likewise.

A BatchWriteItem's entry for a held item is handed back in UnprocessedItems:
the guide names no answer for it, so the rule followed is BatchWriteItem's
own for an entry it cannot process now (R). Single writes take no time here
(model), so they hold nothing: a TransactGetItems meets transactions only.
Reads other than transactional ones are never refused (they are
serializable with transactions; a transaction's writes are applied when it
runs, so a read in its time sees them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

PRUNE_EVERY = 1024  # holds between two sweeps of those past their end
# why two messages: the exception's has no full stop, a cancellation reason's has one (item-api §5.15, §9)
EXCEPTION_MESSAGE = "Transaction is ongoing for the item"
REASON_MESSAGE = "Transaction is ongoing for the item."


@dataclass
class Conflicts:
    """The items ongoing transactions hold, until when, and how many requests met one."""

    duration: float = 0.0   # s a transaction applies (and holds its items)
    held: dict = field(default_factory=dict)  # (table, partition key, sort key) -> when it is released
    met: int = 0            # requests (or a batch's entries) refused for a held item

    def ongoing(self, table: str, located: tuple, now: float) -> bool:
        """Whether an ongoing transaction holds the item ``located`` (the engine's (h, pk, sort)) of ``table``."""
        until = self.held.get((table, located[1], located[2]))
        if until is None or now >= until:
            return False
        self.met += 1
        return True

    def hold(self, mutations: list, now: float) -> float:
        """Hold a transaction's items (its prepared mutations) for its duration; the seconds its caller waits."""
        if not self.duration:
            return 0.0
        until = now + self.duration
        for mutation in mutations:
            self.held[mutation.table.name, mutation.pk, mutation.sort] = until
        if len(self.held) >= PRUNE_EVERY:
            self.held = {key: end for key, end in self.held.items() if end > now}
        return self.duration
