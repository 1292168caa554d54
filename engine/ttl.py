"""Time to Live expiry (item-api §6.2): which items have expired, and the sweep that deletes them.

``sweep(engine)`` is one step: every table with TTL enabled is read, and
each item whose TTL attribute is a top-level Number of epoch seconds before
``engine.epoch()`` — and not more than five years before it — is deleted as
DynamoDB deletes it: through the engine's one write path (``Table.prepare``
then ``Engine.apply``), marked ``service`` so it costs no capacity and its
stream record names the service. Until a sweep runs, reads keep returning
expired items, as DynamoDB's do. Who runs the steps is the face's business
(``partiql serve`` runs one every second in its event loop).
"""

from __future__ import annotations

from decimal import Decimal
from itertools import islice

from . import limits
from .keys import key_from_item

def expired(item: dict, attribute: str, now: float) -> bool:
    """Whether ``item`` has expired at epoch second ``now`` under TTL ``attribute``."""
    value = item.get(attribute)
    if not isinstance(value, Decimal):  # strings, sets, maps, a missing attribute: never (§6.2)
        return False
    return now - limits.TTL_MAX_AGE_SECONDS <= value < now


def sweep(engine, batch: int = 1000) -> int:
    """Delete up to ``batch`` expired items per table; how many were deleted."""
    now = engine.epoch()
    deleted = 0
    with engine.lock:
        for table in list(engine.tables.values()):
            attribute = table.spec.ttl_attribute
            if attribute is None:
                continue
            delay = _delay(engine, table)
            doomed = (record for record in table.store.scan(None)
                      if expired(record.item, attribute, now if delay is None else now - delay(record.item)))
            mutations = []
            for record in list(islice(doomed, batch)):  # listed first: the scan must end before a write
                located = table.locate(*key_from_item(table.spec.key, record.item))
                mutation = table.prepare(located, table.lookup(located), None)
                mutation.service = True  # DynamoDB's own deletion (Mutation.service)
                mutations.append(mutation)
            if mutations:
                engine.apply(mutations)
                deleted += len(mutations)
    return deleted


def _delay(engine, table):
    """Realism's deletion delay for ``table`` 's items (a function of an item), or None: at once."""
    lifecycle = engine.realism.lifecycle if engine.realism is not None else None
    if lifecycle is None or not (lifecycle.ttl or lifecycle.ttl_lag):
        return None
    clock = engine.clock()

    def delay(item: dict) -> float:
        late = lifecycle.ttl_delay(table, item, clock)
        return float("inf") if late is None else late  # (ENABLING: nothing expires yet)
    return delay
