"""Eventual consistency on the engine's clock (issue 33 point 3): reads that do not yet see a write.

Every write (``Engine.apply``, the one write path) leaves, for ``window``
seconds, the item as it was before it. An eventually consistent read of the
table — GetItem, Query, Scan, a PartiQL SELECT — returns that earlier item
(or no item, for one just created) with the chance ``stale``; a strongly
consistent read never does. A GSI sees its table's writes ``gsi_lag``
seconds late: a read of the index in that time always returns the item as it
was (an index read is never strongly consistent). Items are swapped only in
what a read returned (an item deleted a moment ago does not reappear), and a
read with a projection is never served stale (model).
"""

from __future__ import annotations

from dataclasses import dataclass, field

PRUNE_EVERY = 1024  # writes between two sweeps of versions past their window


@dataclass
class Consistency:
    """How stale a read may be, and the items as they were before each recent write."""

    window: float = 1.0    # s a write's previous version may still be read
    stale: float = 0.0     # the chance an eventually consistent table read of such an item sees it
    gsi_lag: float = 0.0   # s an index lags its table's writes
    recent: dict = field(default_factory=dict)  # (table, key values) -> (when written, item before or None)
    served: int = 0        # reads answered with an earlier version

    def record(self, mutations: list, now: float) -> None:
        """Keep what each write replaced (the engine's apply, before the items change)."""
        for mutation in mutations:
            current = mutation.new if mutation.new is not None else mutation.old
            if current is None:
                continue
            key = (mutation.table.name, _key(mutation.table.spec.key, current.item))
            before = self.recent.get(key)
            # (a second write in the window keeps the first one's earlier item: a lagging replica may hold it)
            previous = before[1] if before is not None and now - before[0] < self._horizon() else (
                None if mutation.old is None else mutation.old.item)
            self.recent[key] = (now, previous)
        if len(self.recent) % PRUNE_EVERY == 0:
            self._prune(now)

    def items(self, table, items: list, now: float, rng, index: str | None = None) -> tuple:
        """``items`` (engine items, what a read returned) as a lagging replica or index might answer them, and
        how many were swapped for an earlier version."""
        if not self.recent:
            return items, 0
        lag = self.gsi_lag if index is not None else self.window
        out, swapped = [], 0
        for item in items:
            found = self.recent.get((table.name, _key(table.spec.key, item)))
            if found is not None and now - found[0] < lag and (index is not None or rng.random() < self.stale):
                swapped += 1
                if found[1] is not None:
                    out.append(found[1])
                continue
            out.append(item)
        self.served += swapped
        return out, swapped

    def _horizon(self) -> float:
        return max(self.window, self.gsi_lag)

    def _prune(self, now: float) -> None:
        horizon = self._horizon()
        for key in [key for key, (when, _) in self.recent.items() if now - when >= horizon]:
            del self.recent[key]


def _key(spec_key, item: dict) -> tuple:
    return tuple(repr(item.get(name)) for name in spec_key.hash_names + spec_key.range_names)
