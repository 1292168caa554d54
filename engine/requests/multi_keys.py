"""Query key conditions on a multi-attribute GSI (multi-attribute-keys.md §7, §8).

Every HASH attribute is pinned with ``=``; the RANGE attributes with a condition form a prefix of the RANGE
attributes in KeySchema order, all ``=`` but the last, which may use any key-condition operator. The
checks run in §7.2 rule 9's order: the count of clauses, a clause on a non-key attribute, the HASH rule,
the RANGE rule, then the values' types. What it returns, ``(hash value, last condition, prefix)``, is what
the engine reads: the HASH tuple (or the value, for one HASH attribute), the condition on the last RANGE
attribute named (None: none), and the values the RANGE attributes before it equal.
"""

from __future__ import annotations

from ..errors import ValidationException
from ..types import type_of

TYPE_MISMATCH = "One or more parameter values were invalid: Condition parameter type does not match schema type"


def multi_key_conditions(by_name: dict, key) -> tuple:
    """``by_name``: attribute name -> (op, value…) of each clause of the key condition."""
    count = len(key.names)
    if len(by_name) > count:
        raise ValidationException(f"The number of query conditions ({len(by_name)}) exceeds the number of key "
                                  f"attributes defined in the schema ({count})")
    if any(name not in key.types for name in by_name):
        missing = next((name for name in key.names if name not in by_name), key.names[-1])
        raise ValidationException(f"Query condition missed key schema element: {missing}")
    _check_hash(by_name, key)
    prefix, last = _range_run(by_name, key)
    for name, (_, *values) in by_name.items():
        if any(type_of(value) != key.types[name] for value in values):
            raise ValidationException(TYPE_MISMATCH)
    hashes = tuple(by_name[name][1] for name in key.hash_names)
    return (hashes[0] if len(hashes) == 1 else hashes), last, prefix


def _check_hash(by_name: dict, key) -> None:
    """Every HASH attribute with ``=``: several HASH attributes are named in the model's message (§7.2 rule 7);
    one keeps the classic texts."""
    unpinned = [name for name in key.hash_names if by_name.get(name, ("",))[0] != "="]
    if not unpinned:
        return
    if len(key.hash_names) > 1:
        raise ValidationException(f"HASH key attributes {', '.join(unpinned)} must have equality conditions")
    if key.hash_name not in by_name:
        raise ValidationException(f"Query condition missed key schema element: {key.hash_name}")
    raise ValidationException("Query key condition not supported")


def _range_run(by_name: dict, key) -> tuple:
    """(equality prefix, last condition) of the RANGE attributes; a gap, or a range condition before the last
    one named, is refused naming them (§7.2 rule 6)."""
    named = [name for name in key.range_names if name in by_name]
    if not named:
        return (), None
    last = named[-1]
    before = key.range_names[:key.range_names.index(last)]
    unequal = [name for name in before if by_name.get(name, ("",))[0] != "="]
    if unequal:
        raise ValidationException(f"RANGE key attributes {', '.join(unequal)} must have equality conditions "
                                  f"specified in the query because a condition is present on key attribute {last}")
    return tuple(by_name[name][1] for name in before), tuple(by_name[last])


def hash_matches(key, start: dict, hash_value) -> bool:
    """Whether an ExclusiveStartKey holds the query's HASH tuple (or value)."""
    hashes = (hash_value,) if len(key.hash_names) == 1 else hash_value
    return all(start[name] == value for name, value in zip(key.hash_names, hashes))
