"""The engine's expression model: paths, operands, conditions, update actions.

Both front ends lower into these nodes: DynamoDB's expression language
(ConditionExpression, FilterExpression, KeyConditionExpression,
UpdateExpression, ProjectionExpression) and PartiQL's WHERE / SET / REMOVE.
Nodes are immutable; values inside ``Value`` are engine values
(see ``engine.types``), already validated.

Function nodes are generic (``Call``) and looked up in ``FUNCTIONS``, one
registry that the parsers (arity, where a function may appear), the
evaluator and the renderer share.
"""

from __future__ import annotations

from typing import Union

from ..nodes import node

PathElement = Union[str, int]  # a map key / attribute name, or a list index


@node
class Path:
    """A document path: a top-level attribute name, then map keys and list indexes."""

    elements: tuple[PathElement, ...]

    @property
    def name(self) -> str:
        """The top-level attribute name."""
        return self.elements[0]

    @property
    def is_top_level(self) -> bool:
        return len(self.elements) == 1

    def __str__(self) -> str:
        out = [self.elements[0]]
        for element in self.elements[1:]:
            out.append(f"[{element}]" if isinstance(element, int) else f".{element}")
        return "".join(out)


@node
class Value:
    """A literal engine value (from ``:placeholder``, a PartiQL literal or ``?``)."""

    value: object


@node
class Call:
    """A function call: ``size(a)``, ``begins_with(a, :p)``, ``if_not_exists(a, :v)``…"""

    name: str  # lower-case registry name
    args: tuple


@node
class Arithmetic:
    """``left + right`` or ``left - right`` (update values only)."""

    op: str  # '+' or '-'
    left: object
    right: object


@node
class Predicate:
    """A condition used as a BOOL-valued operand (PartiQL: ``attribute_exists(a) = true``)."""

    condition: object


Operand = Union[Path, Value, Call, Arithmetic, Predicate]


@node
class Comparison:
    op: str  # '=', '<>', '<', '<=', '>', '>='
    left: object
    right: object


@node
class Between:
    subject: object
    low: object
    high: object


@node
class In:
    subject: object
    candidates: tuple


@node
class And:
    operands: tuple


@node
class Or:
    operands: tuple


@node
class Not:
    operand: object


# A boolean function call (attribute_exists, begins_with…) is a Call used as a condition.
Condition = Union[Comparison, Between, In, And, Or, Not, Call]

COMPARATORS = ("=", "<>", "<", "<=", ">", ">=")
ORDERING_COMPARATORS = ("<", "<=", ">", ">=")


# --------------------------------------------------------------------- updates

@node
class Set:
    path: Path
    value: object  # an Operand


@node
class Remove:
    path: Path


@node
class Add:
    path: Path
    value: object  # Value holding a number or a set


@node
class Delete:
    path: Path
    value: object  # Value holding a set


Action = Union[Set, Remove, Add, Delete]


@node
class Update:
    """An UpdateExpression: actions computed against the old item, applied together."""

    actions: tuple


# ------------------------------------------------------------------ functions

@node
class FunctionSpec:
    """What the parsers and the evaluator need to know of one function."""

    name: str
    arity: int
    kind: str  # 'condition' (boolean), 'value' (size), 'update' (if_not_exists, list_append)
    path_args: tuple[int, ...] = ()  # argument positions that must be document paths


FUNCTIONS: dict[str, FunctionSpec] = {spec.name: spec for spec in (
    FunctionSpec("attribute_exists", 1, "condition", (0,)),
    FunctionSpec("attribute_not_exists", 1, "condition", (0,)),
    FunctionSpec("attribute_type", 2, "condition", (0,)),
    FunctionSpec("begins_with", 2, "condition"),
    FunctionSpec("contains", 2, "condition"),
    FunctionSpec("size", 1, "value"),
    FunctionSpec("if_not_exists", 2, "update", (0,)),
    FunctionSpec("list_append", 2, "update"),
)}


def conjuncts(condition) -> tuple:
    """The top-level AND operands of a condition (the condition itself if not an AND)."""
    if condition is None:
        return ()
    if isinstance(condition, And):
        return condition.operands
    return (condition,)


def conjunction(conditions) -> object | None:
    """AND the given conditions together (None when there are none)."""
    flat = []
    for condition in conditions:
        flat.extend(conjuncts(condition))
    if not flat:
        return None
    return flat[0] if len(flat) == 1 else And(tuple(flat))


def paths_in(*nodes) -> list:
    """Every ``Path`` in the given nodes (conditions, update actions, projection tuples), in order."""
    found, pending = [], list(nodes)
    pending.reverse()
    while pending:
        part = pending.pop()
        kind = part.__class__
        if kind is Path:
            found.append(part)
        elif kind is tuple or kind is list:
            pending.extend(part[::-1])
        elif part is not None and kind not in _LEAVES:
            for slot in reversed(kind.__slots__):
                pending.append(getattr(part, slot))
    return found


_LEAVES = frozenset((Value, str, int))
