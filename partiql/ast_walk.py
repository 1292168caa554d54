"""Walking the PartiQL syntax tree iteratively: ``walk``, ``depth``, ``parameters``.

Iterative, so that the longest statements (8,192 characters of `NOT NOT ...`
or `a AND b AND ...`) never exhaust Python's recursion limit.
"""

from __future__ import annotations

import functools
import re
from typing import Iterator

from .ast import Node, Parameter

# Annotation words of fields that never hold a node (spans, names, flags).
_LEAF_WORDS = frozenset({"Optional", "tuple", "str", "int", "bool", "Span"})


@functools.cache
def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes, last first (the order ``walk`` stacks them)."""
    return tuple(name for name in reversed(cls._fields)
                 if not set(re.findall(r"\w+", cls.__annotations__[name])) <= _LEAF_WORDS)


def _stack_children(node: Node, stack: list) -> None:
    """Push the nodes directly under ``node`` on ``stack``, last first (so that popping it
    yields source order)."""
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, tuple):
            stack.extend(reversed(value))
        elif value is not None:
            stack.append(value)


def walk(node: Node) -> Iterator[Node]:
    """``node`` and all its descendants, depth first, in source order.

    It looks only at the fields that may hold nodes (the planner walks every WHERE)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        _stack_children(current, stack)


def depth(node: Node) -> int:
    """How many nodes deep ``node``'s tree is (a lone node: 1): level by level, no
    per-node bookkeeping (every new statement's plan measures it)."""
    levels, level = 0, [node]
    while level:
        levels += 1
        below: list = []
        for current in level:
            _stack_children(current, below)
        level = below
    return levels


def parameters(stmt: Node) -> tuple[Parameter, ...]:
    """The statement's `?` placeholders, in source order."""
    return tuple(n for n in walk(stmt) if isinstance(n, Parameter))
