"""Walking the PartiQL syntax tree iteratively: ``walk``, ``depth``, ``parameters``; what a statement names
(``table_of``, ``index_of``).

Iterative, so that the longest statements (8,192 characters of `NOT NOT ...`
or `a AND b AND ...`) never exhaust Python's recursion limit.
"""

from __future__ import annotations

import functools
import re
from typing import Iterator

from . import ast
from .ast import Node, Parameter

# Annotation words of fields that never hold a node (spans, names, flags).
_LEAF_WORDS = frozenset({"Optional", "tuple", "str", "int", "bool", "Span"})


@functools.cache
def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes, last first (the order ``walk`` stacks them)."""
    return tuple(name for name in reversed(cls._fields)
                 if not set(re.findall(r"\w+", cls.__annotations__[name])) <= _LEAF_WORDS)


_STACKERS: dict = {}  # node class -> its ``_stacker``


def _stacker(cls: type):
    """A function pushing the nodes directly under a node of ``cls`` on a stack, last first (so
    that popping it yields source order), written out field by field. why: every new statement's
    plan walks its tree twice (``depth``, the WHERE), and a loop over the field names with
    ``getattr`` was most of that walk."""
    lines = "".join(f"    value = node.{name}\n"
                    "    if isinstance(value, tuple):\n        stack.extend(reversed(value))\n"
                    "    elif value is not None:\n        stack.append(value)\n" for name in _child_fields(cls))
    scope: dict = {}
    exec(f"def stack_children(node, stack):\n{lines or '    pass'}\n", scope)
    _STACKERS[cls] = scope["stack_children"]
    return _STACKERS[cls]


def walk(node: Node) -> Iterator[Node]:
    """``node`` and all its descendants, depth first, in source order.

    It looks only at the fields that may hold nodes (the planner walks every WHERE)."""
    stack, stackers = [node], _STACKERS
    while stack:
        current = stack.pop()
        yield current
        (stackers.get(type(current)) or _stacker(type(current)))(current, stack)


def depth(node: Node) -> int:
    """How many nodes deep ``node``'s tree is (a lone node: 1): level by level, no
    per-node bookkeeping (every new statement's plan measures it)."""
    levels, level, stackers = 0, [node], _STACKERS
    while level:
        levels += 1
        below: list = []
        for current in level:
            (stackers.get(type(current)) or _stacker(type(current)))(current, below)
        level = below
    return levels


def parameters(stmt: Node) -> tuple[Parameter, ...]:
    """The statement's `?` placeholders, in source order."""
    return tuple(n for n in walk(stmt) if isinstance(n, Parameter))


def table_of(stmt) -> str | None:
    """The table a statement names."""
    if isinstance(stmt, ast.Exists):
        stmt = stmt.select
    if isinstance(stmt, ast.Select):
        target = stmt.sources[0].target if stmt.sources else None
        return target.table if isinstance(target, ast.TableRef) else None
    target = getattr(stmt, "table", None)
    if isinstance(target, ast.TableRef):
        return target.table
    return target if isinstance(target, str) else None


def index_of(stmt) -> str | None:
    """The index a SELECT reads (``FROM "T"."I"``), or None."""
    if isinstance(stmt, ast.Select) and stmt.sources and isinstance(stmt.sources[0].target, ast.TableRef):
        return stmt.sources[0].target.index
    return None
