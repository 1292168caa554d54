"""PartiQL WHERE and SET syntax → the engine's expression model.

Conditions and update values are lowered once per statement text. A ``?``
becomes a ``Param`` node, bound to its value at each execution
(``bind``), so a cached plan serves every parameter set.

The lowering applies DynamoDB's PartiQL rules that need no catalog:
``IS`` becomes attribute_exists / attribute_not_exists / attribute_type,
a predicate compared with a boolean becomes a BOOL-valued operand
(``attribute_exists(n) = true``), ordering operators refuse literal
operands of unorderable types, ``IN`` takes at most 100 operands.
"""

from __future__ import annotations


from partiql.engine import limits
from partiql.engine.errors import ValidationException
from partiql.engine.expressions import model as m
from partiql.engine.nodes import node
from partiql.engine.types import type_of

from . import ast
from .literals import to_value

# IS <type> → the DynamoDB type tag attribute_type tests (spec §4.1).
IS_TYPES = {"BOOL": "BOOL", "BOOLEAN": "BOOL", "NUMERIC": "N", "STRING": "S", "BLOB": "B",
            "STRUCT": "M", "TUPLE": "M", "LIST": "L", "NULL": "NULL"}
TRUE = m.And(())   # always true: an empty conjunction
FALSE = m.Or(())   # always false: an empty disjunction
_UNORDERED_TYPES = ("BOOL", "NULL", "L", "M", "SS", "NS", "BS")
_PREDICATES = (ast.Comparison, ast.Between, ast.In, ast.Is, ast.And, ast.Or, ast.Not)
_BOOLEAN_FUNCTIONS = ("attribute_exists", "attribute_not_exists", "attribute_type", "begins_with",
                      "contains")


@node
class Param:
    """The ``index``-th ``?`` of a statement, inside a model tree until bound."""

    index: int
    span: ast.Span


def operand_type_error(op: str, tag: str) -> ValidationException:
    return ValidationException("Incorrect operand type for operator or function; "
                               f"operator or function: {op}, operand type: {tag}")


# ------------------------------------------------------------------ paths

def path(node: ast.Path) -> m.Path:
    """A syntax path → a model path (attribute names and list indexes)."""
    elements = []
    for step in node.steps:
        elements.append(step.value if isinstance(step, ast.Index) else step.name)
    return m.Path(tuple(elements))


# --------------------------------------------------------------- operands

def operand(node: ast.Expr):
    """A value-producing expression → a model operand."""
    if isinstance(node, ast.Path):
        return path(node)
    if isinstance(node, ast.Parameter):
        return Param(node.index, node.span)
    if isinstance(node, ast.Call) and node.name.lower() == "size":
        return m.Call("size", tuple(operand(arg) for arg in node.args))
    if _is_predicate(node):
        return m.Predicate(condition(node))
    return m.Value(to_value(node))


def _is_predicate(node) -> bool:
    return isinstance(node, _PREDICATES) or (
        isinstance(node, ast.Call) and node.name.lower() in _BOOLEAN_FUNCTIONS)


def _static_type(node) -> str | None:
    """The DynamoDB type of an operand known before execution (None: unknown)."""
    if isinstance(node, m.Value):
        return type_of(node.value)
    if isinstance(node, m.Predicate):
        return "BOOL"
    return None


# ------------------------------------------------------------- conditions

def condition(node: ast.Expr):
    """A WHERE expression → a model condition."""
    lower = _CONDITIONS.get(type(node))
    if lower is None:
        raise ValidationException("WHERE clause must contain an expression that resolves to a boolean")
    return lower(node)


def _comparison(node: ast.Comparison):
    left, right = operand(node.left), operand(node.right)
    if node.op in m.ORDERING_COMPARATORS:
        for side in (left, right):
            tag = _static_type(side)
            if tag in _UNORDERED_TYPES:
                raise operand_type_error(node.op, tag)
    return m.Comparison(node.op, left, right)


def _between(node: ast.Between):
    subject, low, high = operand(node.operand), operand(node.low), operand(node.high)
    for side in (subject, low, high):
        tag = _static_type(side)
        if tag in _UNORDERED_TYPES:
            raise operand_type_error("BETWEEN", tag)
    lowered = m.Between(subject, low, high)
    return m.Not(lowered) if node.negated else lowered


def _in(node: ast.In):
    if len(node.items) > limits.IN_MAX_OPERANDS:
        raise ValidationException(
            f"The IN operator is provided with too many operands; number of operands: {len(node.items)}")
    lowered = m.In(operand(node.operand), tuple(operand(item) for item in node.items))
    return m.Not(lowered) if node.negated else lowered


def _is(node: ast.Is):
    subject = operand(node.operand)
    kind = node.type_name
    if isinstance(subject, m.Path):
        if kind == "MISSING":
            lowered = m.Call("attribute_not_exists", (subject,))
        else:
            lowered = m.Call("attribute_type", (subject, m.Value(IS_TYPES[kind])))
    else:  # a literal or parameter: known at bind time
        lowered = _IsValue(subject, kind)
    return m.Not(lowered) if node.negated else lowered


@node
class _IsValue:
    """``<value> IS <type>`` on a literal or parameter: decided when bound."""

    subject: object
    kind: str


def _and(node: ast.And):
    return m.conjunction((condition(node.left), condition(node.right)))


def _or(node: ast.Or):
    parts = []
    for side in (node.left, node.right):
        lowered = condition(side)
        parts.extend(lowered.operands if isinstance(lowered, m.Or) and lowered.operands else (lowered,))
    return m.Or(tuple(parts))


def _not(node: ast.Not):
    return m.Not(condition(node.operand))


def _call(node: ast.Call):
    name = node.name.lower()
    if name not in _BOOLEAN_FUNCTIONS:
        raise ValidationException("WHERE clause must contain an expression that resolves to a boolean")
    args = tuple(operand(arg) for arg in node.args)
    if name == "attribute_type":
        tag = _static_type(args[1])
        if tag is not None and tag != "S":
            raise operand_type_error("attribute_type", tag)
    return m.Call(name, args)


_CONDITIONS = {ast.Comparison: _comparison, ast.Between: _between, ast.In: _in, ast.Is: _is,
               ast.And: _and, ast.Or: _or, ast.Not: _not, ast.Call: _call}


# ----------------------------------------------------------------- updates

def update_value(node: ast.Expr):
    """A SET right-hand side → a model operand (arithmetic, list_append, values)."""
    if isinstance(node, ast.Is):
        raise ValidationException("IS operator is not supported in update expressions")
    if isinstance(node, ast.Binary) and node.op in ("+", "-"):
        left, right = update_value(node.left), update_value(node.right)
        for side in (left, right):
            tag = _static_type(side)
            if tag is not None and tag != "N":
                raise operand_type_error(node.op, tag)
        return m.Arithmetic(node.op, left, right)
    if isinstance(node, ast.Call) and node.name.lower() == "list_append":
        return m.Call("list_append", tuple(update_value(arg) for arg in node.args))
    return operand(node)


def action(node):
    """A SET or REMOVE action → model actions (set_add / set_delete become ADD / DELETE)."""
    if isinstance(node, ast.RemoveAction):
        return m.Remove(path(node.path))
    target = path(node.target)
    value = node.value
    if isinstance(value, ast.Call) and value.name.lower() in ("set_add", "set_delete"):
        kind = m.Add if value.name.lower() == "set_add" else m.Delete
        return kind(target, operand(value.args[1]))
    return m.Set(target, update_value(value))


# -------------------------------------------------------------------- bind

def has_params(node) -> bool:
    """True when a model tree still holds ``Param`` nodes."""
    if isinstance(node, Param):
        return True
    if isinstance(node, tuple):
        return any(has_params(child) for child in node)
    if hasattr(node, "_fields") and not isinstance(node, (m.Value, m.Path)):
        return any(has_params(getattr(node, name)) for name in node._fields)
    return False


def bind(node, params):
    """The model tree with every ``Param`` replaced by its value.

    Loops, not comprehensions: one frame per level of the tree, which may be
    ``checks.MAX_STATEMENT_DEPTH`` deep.
    """
    if isinstance(node, Param):
        return m.Value(params[node.index])
    if isinstance(node, _IsValue):
        return _decide_is(bind(node.subject, params), node.kind)
    if isinstance(node, tuple):
        children = []
        for child in node:
            children.append(bind(child, params))
        return tuple(children)
    if hasattr(node, "_fields") and not isinstance(node, (m.Value, m.Path)):
        fields = []
        for name in node._fields:
            fields.append(bind(getattr(node, name), params))
        return type(node)(*fields)
    return node


def _decide_is(subject, kind: str):
    if not isinstance(subject, m.Value):
        return FALSE
    if kind == "MISSING":
        return FALSE
    return TRUE if type_of(subject.value) == IS_TYPES[kind] else FALSE


def ordered_params(node: ast.Node) -> tuple:
    """(operator, Param) of each ``?`` the syntax node compares with an ordering operator or
    BETWEEN: the ``?`` whose values ``check_param_types`` checks, once ``node`` is lowered."""
    if isinstance(node, ast.Comparison) and node.op in m.ORDERING_COMPARATORS:
        op, sides = node.op, (node.left, node.right)
    elif isinstance(node, ast.Between):
        op, sides = "BETWEEN", (node.operand, node.low, node.high)
    else:
        return ()
    return tuple((op, Param(side.index, side.span)) for side in sides if isinstance(side, ast.Parameter))


def check_param_types(pairs: tuple, params) -> None:
    """Ordering operators refuse unorderable parameter values (as literals are refused).

    ``pairs`` is what ``ordered_params`` found in the condition's nodes.
    """
    for op, param in pairs:
        tag = type_of(params[param.index])
        if tag in _UNORDERED_TYPES:
            raise operand_type_error(op, tag)
