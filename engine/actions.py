"""The engine's request values: a write to make (``WriteAction``) and what a single write did (``WriteResult``)."""

from __future__ import annotations

from dataclasses import dataclass

from .capacity import Consumed

NOT_FOUND = "Requested resource not found"
CONDITION_FAILED = "The conditional request failed"


@dataclass(slots=True)
class WriteResult:
    """What a single-item write did."""

    old: dict | None
    new: dict | None
    consumed: Consumed
    collection: tuple | None = None  # (key attributes, bytes) of the item collection, when asked


@dataclass(slots=True)
class WriteAction:
    """One write of a transaction or batch, on model objects.

    ``kind`` is 'Put', 'Update', 'Delete' or 'ConditionCheck'; ``key`` is
    (hash, range) for all but Put, whose key comes from ``item``.
    """

    kind: str
    table: str
    key: tuple | None = None
    item: dict | None = None
    update: object = None
    condition: object = None
    return_old_on_failure: bool = False
    # How a failed condition is reported (PartiQL INSERT reports DuplicateItem).
    failure: tuple = ("ConditionalCheckFailed", CONDITION_FAILED)
    upsert: bool = True  # Update creates a missing item (False: PartiQL UPDATE never does)
    size: int | None = None  # Put: item_size(item) when the caller has computed it already
    key_problem: str | None = None  # a key of the wrong types: this action's ValidationError (a transaction's)
    program: object = None  # Update: its steps compiled once per shape, the request's values (expressions.slots)


def collections_of(metrics: list | None, mutations) -> None:
    """Append (table name, collection) for each written item of a table with LSIs."""
    if metrics is None:
        return
    for mutation in mutations:
        collection = mutation.table.collection(mutation.pk)
        if collection is not None:
            metrics.append((mutation.table.name, collection))
