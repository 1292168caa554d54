"""Concatenated keys a multi-attribute GSI would replace (advice, issue 31 point 4).

For a decade DynamoDB models built keys by hand: ``TENANT#acme#REGION#eu`` in one attribute, so that a
Query can pin several values at once. Since 2025 a GSI may be keyed on several attributes instead
(multi-attribute-keys.md). A key attribute whose S values mostly split on one separator into the same
number of parts, where the parts are other attributes' values in the same item (``acme`` is the item's
``TenantId``) or labels that repeat on every item (``TENANT``, ``REGION``), is such a key. ``.describe``
and the hints name it and the attributes an index would be keyed on instead.
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

SEPARATORS = ("#", "|")
SAMPLE = 200  # items looked at
MOSTLY = 0.8  # the share of the sample a pattern must hold for
AT_LEAST = 5  # values needed before anything is said
REFRESH = 0.1  # the share a table past the sample grows or shrinks by before a remembered finding is redone


@dataclass(frozen=True)
class Concatenated:
    """A key attribute of concatenated values: an example, and the attributes (or labels) its parts are."""

    attribute: str
    example: str
    parts: tuple

    def advice(self) -> str:
        return (f"{self.attribute} holds concatenated values ({self.example!r}): a GSI keyed on several "
                f"attributes ({', '.join(self.parts)}) would replace it (DynamoDB's multi-attribute keys, 2025)")


# table -> (its item count when looked at, what was found): a hint must not read a sample per statement
_REMEMBERED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def remembered_keys(engine, table) -> list:
    """``concatenated_keys`` of ``table`` for a hint on each statement: looked for again only while the table
    is smaller than the sample, or once its item count has changed by a tenth. why: the look reads 200
    items, twenty times the cost of the Query it would be a hint to."""
    count = table.item_count
    seen = _REMEMBERED.get(table)
    if seen is None or (seen[0] != count and (min(seen[0], count) < SAMPLE
                                                or abs(count - seen[0]) >= REFRESH * seen[0])):
        with engine.lock:
            seen = _REMEMBERED[table] = (count, concatenated_keys(table))
    return seen[1]


def concatenated_keys(table, sample: int = SAMPLE) -> list:
    """The table's key attributes (its own and its indexes') whose values look concatenated (under the
    engine lock: it reads the table's items)."""
    items = []
    for count, record in enumerate(table.store.scan(None)):
        if count >= sample:
            break
        items.append(record.item)
    names = [table.spec.key.range_name] + [name for index in table.spec.indexes for name in index.key.names]
    found = []
    for name in dict.fromkeys(name for name in names if name is not None):
        finding = _concatenated(name, [item for item in items if type(item.get(name)) is str])
        if finding is not None:
            found.append(finding)
    return found


def _concatenated(name: str, items: list) -> Concatenated | None:
    if len(items) < AT_LEAST:
        return None
    for separator in SEPARATORS:
        split = [item[name].split(separator) for item in items]
        count, seen = Counter(len(parts) for parts in split).most_common(1)[0]
        if count < 2 or seen < MOSTLY * len(items):
            continue
        rows = [(item, parts) for item, parts in zip(items, split) if len(parts) == count]
        parts = tuple(_part_name(name, position, rows) for position in range(count))
        named = tuple(part for part in parts if part is not None)
        if named:
            return Concatenated(name, items[0][name], named)
    return None


def _part_name(name: str, position: int, rows: list) -> str | None:
    """The attribute whose value part ``position`` mostly is, or the label it always is; None if neither."""
    values = [parts[position] for _, parts in rows]
    if len(set(values)) == 1 and values[0].isupper() and values[0].isalpha():
        return None  # (a label: the value after it is named by it, below)
    counts = Counter()
    for item, parts in rows:
        for other, value in item.items():
            if other != name and type(value) in (str, Decimal) and str(value) == parts[position]:
                counts[other] += 1
    if counts:
        other, hits = counts.most_common(1)[0]
        if hits >= MOSTLY * len(rows):
            return other
    label = [parts[position - 1] for _, parts in rows] if position else []
    if label and len(set(label)) == 1 and label[0].isupper() and label[0].isalpha():
        return label[0].capitalize()
    return None
