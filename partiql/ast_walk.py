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


def _stacked_children(node: Node) -> list:
    """The nodes directly under ``node``, last first (so that popping a stack yields source order)."""
    children = []
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, tuple):
            children.extend(reversed(value))
        elif value is not None:
            children.append(value)
    return children


def walk(node: Node) -> Iterator[Node]:
    """``node`` and all its descendants, depth first, in source order.

    It looks only at the fields that may hold nodes (the planner walks every WHERE)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(_stacked_children(current))


def depth(node: Node) -> int:
    """How many nodes deep ``node``'s tree is (a lone node: 1)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        current, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in _stacked_children(current))
    return deepest


def parameters(stmt: Node) -> tuple[Parameter, ...]:
    """The statement's `?` placeholders, in source order."""
    return tuple(n for n in walk(stmt) if isinstance(n, Parameter))
