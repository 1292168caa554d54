"""UpdateItem's 400 KB gate, sized by the statement (recorded-2026-11 A9).

DynamoDB refuses an UpdateItem whose statement would make the item too large
before it evaluates the condition, and it sizes the statement, not the
finished item: the ceiling is ``min(409,600, 409,600 + untouched −
overhead)``, where ``untouched`` is the bytes of the stored item's
attributes the update leaves as they are, ``overhead`` is 3 + 19 per SET
or ADD clause, and key attributes are not counted. So ``SET b = :pad``
on an item holding only its key is refused 22 bytes below 400 KB, and
``SET c = if_not_exists(c, :huge)`` is refused for ``:huge`` even when a
condition fails. why the majority: eu-west-2, us-east-1 and 20 other
regions gate so; ten size the finished item (which the engine checks too,
after the condition).

The recording gives the overhead's terms for SET and ADD clauses and leaves
the rest (``…``) open; the rule followed here for what it does not say:
a clause counts its attribute's name and every value its expression names
(a placeholder's value, a path's stored value, both arguments of a function
and both sides of ``+``/``-``); REMOVE and DELETE clauses add nothing; an
attribute written below its top level (``SET a.b = :v``) keeps its stored
bytes as untouched, since the update rewrites only part of it.
"""

from __future__ import annotations

from .. import limits
from ..types import MISSING, utf8_len, value_size
from .evaluate import operand_value
from .model import Add, Arithmetic, Call, Path, Remove, Set, Update, Value

CLAUSE_BYTES = 19  # the overhead of each SET or ADD clause
STATEMENT_BYTES = 3  # the statement's own


def too_large(update: Update, old: dict | None, key_names: tuple, old_size: int | None = None) -> bool:
    """Whether DynamoDB refuses ``update`` of the stored item ``old`` (None: none) by its statement's size
    (``old_size``: its size, when the caller has it: then only what the update replaces is sized again)."""
    stored = old or {}
    clauses = [action for action in update.actions if action.__class__ in (Set, Add)]
    written = sum(utf8_len(action.path.name) + _operand_bytes(action.value, stored) for action in clauses)
    overhead = STATEMENT_BYTES + CLAUSE_BYTES * len(clauses)
    if old_size is not None and old_size + written <= limits.MAX_ITEM_BYTES - overhead:
        return False  # (untouched ≤ the old size, and the ceiling is never under MAX − overhead)
    replaced = {action.path.name for action in update.actions
                if action.__class__ in (Set, Remove) and action.path.is_top_level}
    if old_size is None:
        untouched = sum(utf8_len(name) + value_size(value) for name, value in stored.items()
                        if name not in replaced and name not in key_names)
    else:  # (an item's size is its attributes' names and values: what is not untouched comes off it)
        untouched = old_size - sum(utf8_len(name) + value_size(stored[name]) for name in replaced.union(key_names)
                                   if name in stored)
    ceiling = min(limits.MAX_ITEM_BYTES, limits.MAX_ITEM_BYTES + untouched - overhead)
    return untouched + written > ceiling


def _operand_bytes(operand, stored: dict) -> int:
    """The bytes of every value ``operand`` names."""
    kind = operand.__class__
    if kind is Value:
        return value_size(operand.value)
    if kind is Path:
        found = operand_value(operand, stored)
        return 0 if found is MISSING else value_size(found)
    if kind is Call:
        return sum(_operand_bytes(argument, stored) for argument in operand.args)
    if kind is Arithmetic:
        return _operand_bytes(operand.left, stored) + _operand_bytes(operand.right, stored)
    return 0
