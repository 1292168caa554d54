"""The six comparison operators as closures over operand getters (item-api §3.8).

Comparisons of a top-level attribute with a literal get dedicated closures
(``fast_comparison``), because that is what almost every FilterExpression
and PartiQL WHERE is.
"""

from __future__ import annotations

import operator
from decimal import Decimal
from typing import Callable

from ..types import MISSING, values_equal
from .model import Comparison, Path, Value
from .paths import Getter

Test = Callable[[dict], bool]

# Only these three types have an order (item-api §3.8: S by UTF-8 bytes = code
# points, N numerically, B by unsigned bytes — Python's native orders).
ORDERED = frozenset((str, Decimal, bytes))


# ------------------------------------------------------------ generic comparisons

def _equal(left: Getter, right: Getter) -> Test:
    def equal(item):
        a = left(item)
        # why: missing = missing is false; a present value never equals MISSING
        # (values_equal compares types first), so checking one side suffices.
        return a is not MISSING and values_equal(a, right(item))
    return equal


def _not_equal(left: Getter, right: Getter) -> Test:
    equal = _equal(left, right)
    return lambda item: not equal(item)  # a missing operand makes <> true


def _ordering(compare) -> Callable[[Getter, Getter], Test]:
    def build(left: Getter, right: Getter) -> Test:
        def ordered(item):
            a, b = left(item), right(item)
            kind = a.__class__
            # why: a type mismatch or a missing operand is false, not an error.
            return kind is b.__class__ and kind in ORDERED and compare(a, b)
        return ordered
    return build


COMPARISONS = {
    "=": _equal,
    "<>": _not_equal,
    "<": _ordering(operator.lt),
    "<=": _ordering(operator.le),
    ">": _ordering(operator.gt),
    ">=": _ordering(operator.ge),
}


# ------------------------------------------- fast paths: top-level attribute vs literal

def _fast_equal(name: str, constant) -> Test:
    kind = constant.__class__
    if kind is str or kind is bytes or (kind is Decimal and constant != 0 and constant != 1):
        # why: only a str (bytes, Decimal) can == such a constant — except that
        # True == Decimal(1) and False == Decimal(0), hence 0 and 1 are excluded.
        return lambda item: item.get(name) == constant
    if kind is Decimal:
        return lambda item: (value := item.get(name)).__class__ is Decimal and value == constant
    if kind is bool:
        return lambda item: item.get(name, MISSING) is constant
    if constant is None:  # NULL: present and null; get() alone cannot tell absent from NULL
        return lambda item: name in item and item[name] is None
    return lambda item: values_equal(item.get(name, MISSING), constant)


def _fast_not_equal(name: str, constant) -> Test:
    equal = _fast_equal(name, constant)
    return lambda item: not equal(item)


def _fast_ordering(compare):
    def build(name: str, constant) -> Test | None:
        kind = constant.__class__
        if kind not in ORDERED:
            return None
        return compare(name, constant, kind)
    return build


_FAST_COMPARISONS = {
    "=": _fast_equal,
    "<>": _fast_not_equal,
    "<": _fast_ordering(lambda n, c, k: lambda item: (v := item.get(n)).__class__ is k and v < c),
    "<=": _fast_ordering(lambda n, c, k: lambda item: (v := item.get(n)).__class__ is k and v <= c),
    ">": _fast_ordering(lambda n, c, k: lambda item: (v := item.get(n)).__class__ is k and v > c),
    ">=": _fast_ordering(lambda n, c, k: lambda item: (v := item.get(n)).__class__ is k and v >= c),
}

# ``:v < a`` is ``a > :v``.
_MIRRORED = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def top_level_name(operand) -> str | None:
    if operand.__class__ is Path and len(operand.elements) == 1:
        return operand.elements[0]
    return None


def fast_comparison(node: Comparison) -> Test | None:
    left, right, op = node.left, node.right, node.op
    if left.__class__ is Value and right.__class__ is Path:
        left, right, op = right, left, _MIRRORED[op]
    name = top_level_name(left)
    if name is None or right.__class__ is not Value:
        return None
    return _FAST_COMPARISONS[op](name, right.value)
