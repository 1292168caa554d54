"""PartiQL literal nodes (and bound parameters) -> engine values, with DynamoDB's errors.

Values are the engine's Python forms: ``str``, ``Decimal``, ``bool``, ``None``
(NULL), ``list``, ``dict``, and ``frozenset`` of ``str`` (SS) or of ``Decimal``
(NS). Errors name where in the value they happened, as DynamoDB does:
``under root`` for the value itself, ``root.k`` inside a map, ``root[1]``
inside a list (spec §5.1, §2.2). ``root`` is one attribute's value (an INSERT
item's top-level attribute, a comparison operand, a SET right-hand side).

A top-level ``?`` takes its value from ``params`` (already engine values,
converted and validated by the caller); a ``?`` nested in a literal is refused.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any, Callable, Optional, Sequence

from partiql.engine.limits import MAX_NESTING_DEPTH
from partiql.engine.types import normalize_number, number_problem

from . import ast
from .errors import StatementError


MISSING_MESSAGE = "MISSING must be compared using IS operator"
_BAG_TYPES = "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"
_DUPLICATES = "One or more parameter values were invalid: Input collection [{}] contains duplicates"


def _under(text: str, path: Optional[str]) -> str:
    return text if path is None else f"{text} under {path}"


@functools.lru_cache(maxsize=4096)  # why: checks and lowering both convert each literal; Decimals are immutable
def number(text: str, path: Optional[str] = "root") -> Decimal:
    """The canonical Decimal for a number's text, or DynamoDB's range/precision error.

    ``path=None`` leaves the ``under ...`` suffix off (the parameter wording).
    """
    value = Decimal(text)
    problem = number_problem(value)
    if problem:
        raise StatementError(_under(problem, path))
    return normalize_number(value)


# ---------------------------------------------------------------- names DynamoDB uses

def _number_type(node: ast.NumberLit) -> str:
    return "INT" if not any(c in node.text for c in ".eE") else "DECIMAL"


# INF: the type names of `Tuple keys must be of type String. Actual type: <T>`
# follow PartiQL's (Ion's) value types.
_TYPE_NAMES: dict[type, Callable[[Any], str]] = {
    ast.NumberLit: _number_type,
    ast.BoolLit: lambda n: "BOOL",
    ast.NullLit: lambda n: "NULL",
    ast.MissingLit: lambda n: "MISSING",
    ast.ListLit: lambda n: "LIST",
    ast.TupleLit: lambda n: "STRUCT",
    ast.BagLit: lambda n: "BAG",
    ast.IonLit: lambda n: "ION",
}

# INF: what `Unsupported data type: <X>` names for a non-literal value. Spec:
# `Parameter` for `?` and the function name for a call; the rest follow the
# node names of partiql-lang-kotlin.
_NON_LITERAL_NAMES: dict[type, Callable[[Any], str]] = {
    ast.Parameter: lambda n: "Parameter",
    ast.Call: lambda n: n.name.lower(),
    ast.Path: lambda n: "VariableReference" if len(n.steps) == 1 else "Path",
}


def anchor(node: ast.Node) -> ast.Span:
    """Where DynamoDB points for ``node``: a call's name, an operator, a
    collection's opening bracket, otherwise the node itself (a path's root)."""
    if isinstance(node, ast.Call):
        return node.name_span
    if isinstance(node, (ast.Binary, ast.Comparison)):
        return node.op_span
    if isinstance(node, ast.Path):
        return node.root.span
    opener = _OPENERS.get(type(node))
    if opener:
        s = node.span
        return ast.Span(s.line, s.column, opener, s.start, s.start + opener)
    return node.span


_OPENERS = {ast.ListLit: 1, ast.TupleLit: 1, ast.BagLit: 2}


def unsupported(node: ast.Node, path: str) -> StatementError:
    """`Unsupported data type: <X> under key <path> at L:C:N` for a non-literal in a value."""
    name = _NON_LITERAL_NAMES.get(type(node), lambda n: type(n).__name__)(node)
    return StatementError.at(f"Unsupported data type: {name} under key {path}", anchor(node))


# ---------------------------------------------------------------- conversion

def to_value(node: ast.Expr, params: Sequence[Any] = (), path: str = "root") -> Any:
    """The engine value of a literal (or top-level ``?``) ``node``, whose value is ``path``."""
    return _value(node, params, path, 1)


def _value(node: ast.Expr, params: Sequence[Any], path: str, depth: int) -> Any:
    convert = _CONVERTERS.get(type(node))
    if convert is None:
        raise unsupported(node, path)
    return convert(node, params, path, depth)


def _parameter(node: ast.Parameter, params, path, depth):
    if depth > 1:
        raise unsupported(node, path)
    return params[node.index]


def _missing(node, params, path, depth):
    raise StatementError.near(MISSING_MESSAGE, node.span)


def _ion(node: ast.IonLit, params, path, depth):
    # INF: the spec gives `Ion Literals are not supported: <T> under key <path>`; <T> is the literal's text.
    raise StatementError.near(f"Ion Literals are not supported: {node.text} under key {path}", node.span)


def _nest(node: ast.Node, path: str, depth: int) -> None:
    # why: DynamoDB allows 32 levels counting the top-level attribute itself, so
    # a map or list whose value sits at level 32 is one too deep.
    if depth >= MAX_NESTING_DEPTH:
        raise StatementError.near(f"Nesting Levels have exceeded supported limits under {path}", node.span)


def _list(node: ast.ListLit, params, path, depth):
    _nest(node, path, depth)
    return [_value(item, params, f"{path}[{i}]", depth + 1) for i, item in enumerate(node.items)]


def _tuple_key(pair: ast.Pair, path: str) -> str:
    key = pair.key
    if isinstance(key, ast.StringLit):
        if key.value == "":
            raise StatementError.near("Path component cannot be an empty string", key.span)
        return key.value
    type_name = _TYPE_NAMES.get(type(key))
    if type_name is None:
        raise unsupported(key, path)
    raise StatementError.near(
        f"Tuple keys must be of type String. Actual type: {type_name(key)} under {path}", key.span)


def map_pairs(node: ast.TupleLit, path: str = "root"):
    """The (key, pair) of each pair of a tuple literal, with DynamoDB's key checks."""
    seen = set()
    for pair in node.pairs:
        key = _tuple_key(pair, path)
        if key in seen:
            raise StatementError.near(f"Duplicate keys in tuple. Key: {key} under {path}", pair.key.span)
        seen.add(key)
        yield key, pair


def _tuple(node: ast.TupleLit, params, path, depth):
    _nest(node, path, depth)
    return {key: _value(pair.value, params, f"{path}.{key}", depth + 1)
            for key, pair in map_pairs(node, path)}


def _bag(node: ast.BagLit, params, path, depth):
    # INF: elements are located like a list's (`root[1]`); sets do not count as a nesting level.
    if not node.items:
        raise StatementError.near("Empty bags are not supported", node.span)
    for i, item in enumerate(node.items):
        if isinstance(item, ast.Parameter):
            raise unsupported(item, f"{path}[{i}]")
    kinds = {type(item) for item in node.items}
    if kinds == {ast.StringLit}:
        return _string_set(node)
    if kinds == {ast.NumberLit}:
        return _number_set(node, path)
    raise StatementError.near(_BAG_TYPES, node.span)


def _string_set(node: ast.BagLit) -> frozenset:
    values = [item.value for item in node.items]
    result = frozenset(values)
    if len(result) < len(values):
        raise StatementError.near(_DUPLICATES.format(", ".join(values)) + ".", node.span)
    return result


def _number_set(node: ast.BagLit, path: str) -> frozenset:
    values = [number(item.text, f"{path}[{i}]") for i, item in enumerate(node.items)]
    result = frozenset(values)
    if len(result) < len(values):
        # why: numbers are reported as written (`[2, 2.0]`), with `!` and a path.
        texts = ", ".join(item.text for item in node.items)
        raise StatementError.near(f"{_DUPLICATES.format(texts)}! under {path}", node.span)
    return result


_CONVERTERS: dict[type, Callable[..., Any]] = {
    ast.StringLit: lambda n, params, path, depth: n.value,
    ast.NumberLit: lambda n, params, path, depth: number(n.text, path),
    ast.BoolLit: lambda n, params, path, depth: n.value,
    ast.NullLit: lambda n, params, path, depth: None,
    ast.MissingLit: _missing,
    ast.IonLit: _ion,
    ast.ListLit: _list,
    ast.TupleLit: _tuple,
    ast.BagLit: _bag,
    ast.Parameter: _parameter,
}

LITERAL_TYPES = frozenset(_CONVERTERS) - {ast.Parameter}


def is_literal(node: ast.Node) -> bool:
    """Whether ``node`` is a literal value (no path, call or parameter at its top)."""
    return type(node) in LITERAL_TYPES


def item_fields(node: ast.TupleLit, parameter: Callable[[ast.Parameter], Any]) -> tuple:
    """An INSERT item as (attribute, value) pairs: top-level keys checked like a
    tuple's, literals converted (rooted at ``root``), each ``?`` handed to ``parameter``."""
    return tuple((key, parameter(pair.value) if isinstance(pair.value, ast.Parameter) else to_value(pair.value))
                 for key, pair in map_pairs(node))
