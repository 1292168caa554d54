"""Eventual consistency on the engine's clock (issue 33 point 3): reads that do not yet see a write.

Every write (``Engine.apply``, the one write path) leaves, for ``window``
seconds, the item as it was before it. An eventually consistent read of the
table — GetItem, Query, Scan, a PartiQL SELECT — returns that earlier item
(or no item, for one just created) with the chance ``stale``; a strongly
consistent read never does. A GetItem (or BatchGetItem) of an item deleted
in the window may find it again, with the same chance; a Query or Scan
swaps only what it returned (model: a deleted item does not reappear in a
range). A GSI sees its table's writes ``gsi_lag`` seconds late (``index_lag``
names a lag per index): a read of the index in that time always answers as
the index was — the item's earlier version when its index key was the same,
else nothing (it was not under that key yet); an index read is never
strongly consistent. A read with a projection is never served stale (model).
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
    index_lag: dict = field(default_factory=dict)  # index name -> s it lags (else gsi_lag)
    recent: dict = field(default_factory=dict)  # (table, key values) -> (when written, item before or None)
    served: int = 0        # reads answered with an earlier version

    def record(self, mutations: list, now: float) -> None:
        """Keep what each write replaced (the engine's apply, before the items change)."""
        for mutation in mutations:
            current = mutation.new if mutation.new is not None else mutation.old
            if current is None:
                continue
            key = (mutation.table.name, key_of(mutation.table.spec.key, current.item))
            before = self.recent.get(key)
            # (a second write in the window keeps the first one's earlier item: a lagging replica may hold it)
            previous = before[1] if before is not None and now - before[0] < self._horizon() else (
                None if mutation.old is None else mutation.old.item)
            self.recent[key] = (now, previous)
        if len(self.recent) % PRUNE_EVERY == 0:
            self._prune(now)

    def items(self, table, items: list, now: float, rng, index: str | None = None) -> tuple:
        """``items`` (engine items, what a read returned) as a lagging replica or index might answer them, and
        how many were swapped for an earlier version (or dropped)."""
        if not self.recent:
            return items, 0
        spec = table.spec.index(index) if index is not None else None
        lag = self.index_lag.get(index, self.gsi_lag) if index is not None else self.window
        out, swapped = [], 0
        for item in items:
            found = self.recent.get((table.name, key_of(table.spec.key, item)))
            if found is not None and now - found[0] < lag and (index is not None or rng.random() < self.stale):
                swapped += 1
                earlier = found[1]
                if earlier is not None and (spec is None or key_of(spec.key, earlier) == key_of(spec.key, item)):
                    out.append(earlier)
                continue
            out.append(item)
        self.served += swapped
        return out, swapped

    def missing(self, table, key: dict, now: float, rng) -> dict | None:
        """The item a point read of ``key`` did not find as a lagging replica may still hold it (deleted in the
        window), or None."""
        found = self.recent.get((table.name, key_of(table.spec.key, key)))
        if found is None or found[1] is None or now - found[0] >= self.window or rng.random() >= self.stale:
            return None
        self.served += 1
        return found[1]

    def _horizon(self) -> float:
        return max(self.window, self.gsi_lag, *self.index_lag.values())

    def _prune(self, now: float) -> None:
        horizon = self._horizon()
        for key in [key for key, (when, _) in self.recent.items() if now - when >= horizon]:
            del self.recent[key]


def key_of(spec_key, item: dict) -> tuple:
    """An item's key values under ``spec_key`` (a table's or an index's), comparable across versions."""
    return tuple(repr(item.get(name)) for name in spec_key.hash_names + spec_key.range_names)
