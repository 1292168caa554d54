"""DynamoDB's expression language, text → engine expression model (item-api §3).

Public API::

    ctx = ExpressionContext(names, values)          # ExpressionAttributeNames / Values
    parse_condition(text, ctx, param)               # Condition- / FilterExpression → Condition
    parse_key_condition(text, ctx)                  # KeyConditionExpression → Condition
    parse_update(text, ctx)                         # UpdateExpression → Update
    parse_projection(text, ctx)                     # ProjectionExpression → tuple[Path, ...]
    ctx.check_unused()                              # after every expression of the request

Every problem is a ``ValidationException`` whose message is DynamoDB's, without
the modern ``1 validation error detected: `` prefix (the request layer adds
it per operation, item-api §2.3).

How it works. Text is parsed once (``grammar/expressions.lark``, Lark LALR) and
*compiled*: a static analysis records every text-only problem with its
category, strips parentheses and produces a *template* — the model with
``NameRef`` / ``ValueRef`` markers where the placeholders are — plus the
checks that depend on the placeholders' substitutes (operand types, distinct
operands, overlapping paths…). The compiled form is cached on the text, so
a request that reuses its expression with new values costs one cache lookup,
a few dict lookups and the construction of the nodes that hold placeholders.

Error precedence. When one expression has several problems DynamoDB reports
one, chosen by category in a fixed order and, within a category, the first
in source order (item-api §3.7, last paragraph: dynalite's ``checkErrors``).
Each problem is recorded as (category rank, sequence number) and the smallest
wins. Categories ranked before the placeholder check are text-only and are
decided at compile time.
"""

from __future__ import annotations

import functools
import re

from lark.exceptions import UnexpectedInput

from .. import limits
from ..errors import ValidationException
from ..types import checked_text
from .analysis import ANALYSERS, Analysis, Compiled
from .context import NO_ENTRIES, ExpressionContext, reserved_words
from .key_condition import check_key_condition, flatten_and
from .messages import EMPTY, TOO_LONG, TOO_MANY_OPERATORS, UNDEFINED_NAME, UNDEFINED_VALUE
from .model import And, Arithmetic, Between, Call, Comparison, In, Not, Or, Path, Update
from .slots import SHAPES, SLOT_VALUES, Program
from .syntax import START_RULES, ValueRef, lark_parser, syntax_message
from .update import compile_steps

__all__ = [
    "ExpressionContext",
    "parse_condition",
    "parse_key_condition",
    "check_key_condition",
    "parse_update",
    "parse_projection",
    "reserved_words",
]

# ----------------------------------------------------------------- public API

def parse_condition(text: str, ctx: ExpressionContext, param: str = "ConditionExpression"):
    """Parse a ConditionExpression (or ``param`` = 'FilterExpression' / 'KeyConditionExpression').

    Returns a model condition: Comparison, Between, In, And, Or, Not or a
    boolean ``Call``. Raises ValidationException with ``Invalid <param>: …``.
    """
    return _substitute(_compiled("condition", text), ctx, param)


def parse_key_condition(text: str, ctx: ExpressionContext, *, defer: bool = False):
    """Parse a KeyConditionExpression and apply the structural rules of item-api §3.9.

    Nested ANDs are flattened: the result is one condition or an ``And`` of
    them. With ``defer=True`` the structural rules run at the end of
    ``ctx.check_unused()`` instead, which is where DynamoDB reports them
    (item-api §2.1 step 5: after unused names and values).
    """
    try:
        condition = flatten_and(_substitute(_compiled("condition", text), ctx, "KeyConditionExpression"))
    except ValidationException:
        _first_failing_clause(text, ctx)
        raise
    if defer:
        ctx._deferred.append(lambda: check_key_condition(condition))
    else:
        check_key_condition(condition)
    return condition


def _first_failing_clause(text: str, ctx: ExpressionContext) -> None:
    """Raise the error of the first clause, in the order written, that has one on its own.

    why: DynamoDB checks a key condition's clauses one by one (recorded-2026-11 B2:
    ``begins_with(sk, :n) AND pk = :missing``, ``:n`` a number, is the operand-type error, though an
    undefined value outranks it within one condition). Run only once the whole text has failed."""
    clauses = _top_level_clauses(text)
    if len(clauses) < 2:
        return
    for clause in clauses:
        compiled = _compiled("condition", clause)
        if compiled.error is None:
            _substitute(compiled, ExpressionContext(ctx.names, ctx.values), "KeyConditionExpression")


_WORDS = re.compile(r"\(|\)|[^\s()]+")


def _top_level_clauses(text: str) -> list[str]:
    """``a = :x AND (b BETWEEN :l AND :h)`` → the texts joined by the ANDs outside parentheses and
    outside BETWEEN (an expression has no string literals: placeholders and names only)."""
    clauses, start, depth, between = [], 0, 0, False
    for word in _WORDS.finditer(text):
        token = word.group().upper()
        depth += {"(": 1, ")": -1}.get(token, 0)
        if depth or token not in ("AND", "BETWEEN"):
            continue
        if token == "BETWEEN":
            between = True
        elif between:
            between = False
        else:
            clauses.append(text[start:word.start()])
            start = word.end()
    clauses.append(text[start:])
    return clauses


def parse_update(text: str, ctx: ExpressionContext) -> Update:
    """Parse an UpdateExpression into an ``Update`` (actions in text order)."""
    return _substitute(_compiled("update", text), ctx, "UpdateExpression")


def update_program(text: str, names: dict | None, values: dict | None) -> Program:
    """An UpdateExpression ``parse_update`` has accepted with these names and values: its shape's steps,
    compiled once, and the values to bind to them (``slots``)."""
    return Program(_shape_steps(text, tuple(names.items()) if names else ()), values or NO_ENTRIES)


@functools.lru_cache(maxsize=SHAPES)
def _shape_steps(text: str, names: tuple) -> tuple:
    """The steps of an UpdateExpression's shape: its text and its names (``slots``)."""
    return compile_steps(_compiled("update", text).build(dict(names), SLOT_VALUES))


def parse_projection(text: str, ctx: ExpressionContext) -> tuple[Path, ...]:
    """Parse a ProjectionExpression into its paths, in text order."""
    return _substitute(_compiled("projection", text), ctx, "ProjectionExpression")


def _substitute(compiled: Compiled, ctx: ExpressionContext, param: str):
    if compiled.error is not None:
        raise ValidationException(f"Invalid {param}: {compiled.error}")
    names = ctx.names or NO_ENTRIES
    values = ctx.values or NO_ENTRIES
    for is_name, key in compiled.refs:
        if key not in (names if is_name else values):
            message = (UNDEFINED_NAME if is_name else UNDEFINED_VALUE).format(key)
            raise ValidationException(f"Invalid {param}: {message}")
    _check(compiled, names, values, param)
    ctx.used_names.update(compiled.name_keys)
    ctx.used_values.update(compiled.value_keys)
    return compiled.build(names, values)


def _check(compiled: Compiled, names: dict, values: dict, param: str) -> None:
    """The checks of the substitutes (operand types, BETWEEN's order, clashing paths), in their order."""
    for check in compiled.checks:
        message = check if type(check) is str else check(names, values)
        if message:
            raise ValidationException(f"Invalid {param}: {message}")


def reparse(kind: str, text: str, names: dict | None, values: dict | None, param: str):
    """An expression whose shape — its text, its names, its values' placeholders — a request has passed
    with before: only what its values decide is checked again (the checks of the substitutes), then its
    model is built. ``kind``: condition or update (``parse_condition`` / ``parse_update`` did the rest)."""
    compiled = _compiled(kind, text)
    names, values = names or NO_ENTRIES, values or NO_ENTRIES
    _check(compiled, names, values, param)
    return compiled.build(names, values)


# -------------------------------------------------------------- compilation

@functools.lru_cache(maxsize=4096)
def _compiled(kind: str, text: str) -> Compiled:
    """Parse and analyse ``text`` once; the result is shared by every request using it."""
    if not text:
        return Compiled(EMPTY)
    size = len(checked_text(text).encode("utf-8"))
    if size > limits.MAX_EXPRESSION_BYTES:
        return Compiled(TOO_LONG.format(size))
    try:
        raw = lark_parser().parse(text, start=START_RULES[kind])
    except UnexpectedInput as error:
        return Compiled(syntax_message(text, error))
    operators = _operator_count(raw)
    if operators > limits.MAX_EXPRESSION_OPERATORS:  # before the walks, which recurse once per nesting level
        return Compiled(TOO_MANY_OPERATORS.format(operators))
    analysis = Analysis(kind)
    template = ANALYSERS[kind](analysis, raw)
    return analysis.result(template)


_OPERATORS = {And: lambda node: len(node.operands) - 1, Or: lambda node: len(node.operands) - 1}
_ONE_OPERATOR = (Not, Comparison, Between, In, Call, Arithmetic)
_OPERATORS.update((kind, lambda node: 1) for kind in _ONE_OPERATOR)
_LEAVES = (Path, ValueRef, str)


def _operator_count(raw) -> int:
    """Comparisons, BETWEEN, IN, AND, OR, NOT, functions, + and - (DG-ServiceQuotas), iteratively."""
    count, stack = 0, [raw]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is tuple:
            stack.extend(node)
        elif kind not in _LEAVES:
            count += _OPERATORS.get(kind, _no_operator)(node)
            stack.extend(getattr(node, slot) for slot in kind.__slots__)
    return count


def _no_operator(node) -> int:
    return 0
