"""Evaluate the expression model against items: paths, operands, conditions.

Conditions are *compiled*, not interpreted: ``compile_condition`` walks the
model once and returns a closure ``item -> bool``; evaluating an item is then
a few Python calls with no ``isinstance`` dispatch. Dispatch happens at
compile time through registries keyed by node type (``_CONDITIONS``,
``_OPERANDS``), function name (``_CONDITION_FUNCTIONS``,
``_VALUE_FUNCTIONS``) and operator (``comparisons.COMPARISONS`` and its fast
paths for a top-level attribute against a literal). Paths resolve in
``paths``.

Semantics are DynamoDB's (item-api §3.8): a path that does not resolve is
MISSING, never an error; a comparison that cannot be made is simply false;
AND/OR/NOT are two-valued.

Operands are compiled in one of two modes. *Lenient* (conditions,
``operand_value``): anything that cannot be computed is MISSING. *Strict*
(UpdateExpression SET values, item-api §3.10): a missing attribute raises
``MISSING_ATTRIBUTE`` and a wrong run-time type raises ``INCORRECT_TYPE``.
"""

from __future__ import annotations

from decimal import Decimal

from ..errors import ValidationException
from ..types import MISSING, add_numbers, normalize_number, type_of, values_equal
from .comparisons import COMPARISONS, ORDERED, Test, fast_comparison, top_level_name
from .model import (
    FUNCTIONS,
    And,
    Arithmetic,
    Between,
    Call,
    Comparison,
    In,
    Not,
    Or,
    Path,
    Predicate,
    Value,
)
from .paths import Getter, NodeCache, path_getter
from .slots import Slot, slot_operand

MISSING_ATTRIBUTE = "The provided expression refers to an attribute that does not exist in the item"
INCORRECT_TYPE = "An operand in the update expression has an incorrect data type"


# --------------------------------------------------------------------- operands

def _fail(message: str):
    raise ValidationException(message)


def _path_operand(node: Path, strict: bool) -> Getter:
    get = path_getter(node)
    if not strict:
        return get

    def strict_get(item):
        value = get(item)
        return _fail(MISSING_ATTRIBUTE) if value is MISSING else value
    return strict_get


def _value_operand(node: Value, strict: bool) -> Getter:
    value = node.value
    if value.__class__ is Slot:  # (an update compiled once per shape: its request's value, bound at run time)
        return slot_operand(value)
    return lambda item: value


def _predicate_operand(node: Predicate, strict: bool) -> Getter:
    return compile_condition(node.condition)


def _call_operand(node: Call, strict: bool) -> Getter:
    builder = _VALUE_FUNCTIONS.get(node.name)
    if builder is None:
        spec = FUNCTIONS.get(node.name)
        if spec is not None and spec.kind == "condition":  # a boolean function as a BOOL operand
            return compile_condition(node)
        raise ValueError(f"unknown function {node.name!r}")
    return builder(node.args, strict)


def _wrong_type(value, strict: bool):
    """Lenient: no value. Strict: DynamoDB's run-time type error (MISSING already raised)."""
    if strict and value is not MISSING:
        _fail(INCORRECT_TYPE)
    return MISSING


def _arithmetic_operand(node: Arithmetic, strict: bool) -> Getter:
    left, right = compile_operand(node.left, strict), compile_operand(node.right, strict)
    subtract = node.op == "-"

    # why: left is evaluated and type-checked before right is read (dynalite's
    # resolveValue), which fixes which error wins when both operands are bad.
    def arithmetic(item):
        a = left(item)
        if a.__class__ is not Decimal:
            return _wrong_type(a, strict)
        b = right(item)
        if b.__class__ is not Decimal:
            return _wrong_type(b, strict)
        if strict:
            return add_numbers(a, b, subtract)  # results are re-validated (overflow, 38 digits)
        try:
            return add_numbers(a, b, subtract)
        except ValidationException:
            return MISSING
    return arithmetic


def compile_operand(operand, strict: bool = False) -> Getter:
    """Compile an operand (Path, Value, Call, Arithmetic, Predicate) to ``item -> value``.

    Lenient mode (default) yields MISSING for anything that cannot be
    computed; strict mode (UpdateExpression values) raises DynamoDB's
    ValidationException instead.
    """
    builder = _OPERANDS.get(operand.__class__)
    if builder is None:
        raise TypeError(f"not an operand: {operand!r}")
    return builder(operand, strict)


_cached_operand = NodeCache(compile_operand)


def operand_value(operand, item: dict):
    """The value of ``operand`` against ``item`` (MISSING when it has none; a Predicate gives a bool)."""
    return _cached_operand(operand)(item)


# ---------------------------------------------------------------- value functions

def _utf16_length(text: str) -> int:
    # why: DynamoDB counts UTF-16 code units (Java String.length()); an astral
    # character such as an emoji counts 2 (partiql-dynamodb §4.2 notes).
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


_SIZERS = {str: _utf16_length, bytes: len, frozenset: len, list: len, dict: len}
_SMALL_NUMBERS = tuple(normalize_number(Decimal(n)) for n in range(1024))  # normalising is slow


def size_of(value):
    """``size()`` of a value as an engine number, or MISSING for N, BOOL, NULL and MISSING."""
    sizer = _SIZERS.get(value.__class__)
    if sizer is None:
        return MISSING
    size = sizer(value)
    return _SMALL_NUMBERS[size] if size < 1024 else normalize_number(Decimal(size))


def _size(args, strict: bool) -> Getter:
    argument = compile_operand(args[0], strict)

    def size(item):
        value = argument(item)
        result = size_of(value)
        return _wrong_type(value, strict) if result is MISSING else result
    return size


def _if_not_exists(args, strict: bool) -> Getter:
    # why: the first argument may be missing without error — that is the point.
    current, fallback = compile_operand(args[0], False), compile_operand(args[1], strict)

    def if_not_exists(item):
        value = current(item)
        return fallback(item) if value is MISSING else value
    return if_not_exists


def _list_append(args, strict: bool) -> Getter:
    first, second = compile_operand(args[0], strict), compile_operand(args[1], strict)

    def list_append(item):
        a = first(item)
        if a.__class__ is not list:
            return _wrong_type(a, strict)
        b = second(item)
        if b.__class__ is not list:
            return _wrong_type(b, strict)
        return a + b
    return list_append


_VALUE_FUNCTIONS = {
    "size": _size,
    "if_not_exists": _if_not_exists,
    "list_append": _list_append,
}

_OPERANDS = {
    Path: _path_operand,
    Value: _value_operand,
    Call: _call_operand,
    Arithmetic: _arithmetic_operand,
    Predicate: _predicate_operand,
}


# ------------------------------------------------------------------- conditions

def _comparison(node: Comparison) -> Test:
    fast = fast_comparison(node)
    if fast is not None:
        return fast
    return COMPARISONS[node.op](compile_operand(node.left), compile_operand(node.right))


def _between(node: Between) -> Test:
    subject = compile_operand(node.subject)
    name = top_level_name(node.subject)
    low, high = node.low, node.high
    if (name is not None and low.__class__ is Value and high.__class__ is Value
            and low.value.__class__ is high.value.__class__ and low.value.__class__ in ORDERED):
        lo, hi, kind = low.value, high.value, low.value.__class__
        return lambda item: (v := item.get(name)).__class__ is kind and lo <= v <= hi
    low_get, high_get = compile_operand(low), compile_operand(high)

    def between(item):
        value, lo, hi = subject(item), low_get(item), high_get(item)
        kind = value.__class__
        # why: inclusive; all three must be present and of one ordered type, else false.
        return (kind in ORDERED and lo.__class__ is kind and hi.__class__ is kind
                and lo <= value <= hi)
    return between


def _constant_buckets(candidates) -> dict | None:
    """Literal IN candidates grouped by exact type (so True never matches 1), or None."""
    buckets: dict[type, set] = {}
    for candidate in candidates:
        if candidate.__class__ is not Value or candidate.value.__class__ in (list, dict):
            return None
        buckets.setdefault(candidate.value.__class__, set()).add(candidate.value)
    return {kind: frozenset(values) for kind, values in buckets.items()}


def _in(node: In) -> Test:
    subject = compile_operand(node.subject)
    buckets = _constant_buckets(node.candidates)
    if buckets is not None:
        def in_constants(item):
            value = subject(item)
            bucket = buckets.get(value.__class__)
            return bucket is not None and value in bucket
        return in_constants
    candidates = tuple(compile_operand(candidate) for candidate in node.candidates)

    def in_any(item):
        value = subject(item)
        if value is MISSING:
            return False
        for candidate in candidates:
            if values_equal(value, candidate(item)):
                return True
        return False
    return in_any


def _operand_tests(node) -> tuple:
    tests = []
    for operand in node.operands:  # a loop, not a comprehension: one frame less per nesting level
        tests.append(_build_condition(operand))
    return tuple(tests)


def _and(node: And) -> Test:
    tests = _operand_tests(node)
    if len(tests) == 2:
        first, second = tests
        return lambda item: first(item) and second(item)

    def all_of(item):
        for test in tests:
            if not test(item):
                return False
        return True
    return all_of


def _or(node: Or) -> Test:
    tests = _operand_tests(node)
    if len(tests) == 2:
        first, second = tests
        return lambda item: first(item) or second(item)

    def any_of(item):
        for test in tests:
            if test(item):
                return True
        return False
    return any_of


def _not(node: Not) -> Test:
    # why a loop: NOT NOT ... NOT c (hundreds fit in an expression) is c or NOT c
    negated, inner = True, node.operand
    while inner.__class__ is Not:
        negated, inner = not negated, inner.operand
    test = _build_condition(inner)
    return (lambda item: not test(item)) if negated else test


# ------------------------------------------------------------ condition functions

def _attribute_exists(args) -> Test:
    name = top_level_name(args[0])
    if name is not None:
        return lambda item: name in item  # a NULL attribute exists
    get = compile_operand(args[0])
    return lambda item: get(item) is not MISSING


def _attribute_not_exists(args) -> Test:
    exists = _attribute_exists(args)
    return lambda item: not exists(item)


def _attribute_type(args) -> Test:
    get = compile_operand(args[0])
    if args[1].__class__ is Value:
        wanted = args[1].value
        return lambda item: (value := get(item)) is not MISSING and type_of(value) == wanted
    wanted_get = compile_operand(args[1])
    return lambda item: (value := get(item)) is not MISSING and type_of(value) == wanted_get(item)


def _begins_with(args) -> Test:
    subject, prefix = compile_operand(args[0]), compile_operand(args[1])

    def begins_with(item):
        value, start = subject(item), prefix(item)
        kind = value.__class__
        # why: S prefix of S or B prefix of B; any other pairing is false, not an error.
        return (kind is str or kind is bytes) and start.__class__ is kind and value.startswith(start)
    return begins_with


def _set_contains(container: frozenset, element) -> bool:
    # why: membership only for an element of the set's own scalar type
    # (also keeps True from matching NS {1}).
    return element.__class__ is next(iter(container)).__class__ and element in container


def _list_contains(container: list, element) -> bool:
    kind = element.__class__
    if kind in _SCALARS:  # same test as values_equal, without a call per member
        for member in container:
            if member.__class__ is kind and member == element:
                return True
        return False
    return any(values_equal(member, element) for member in container)


_SCALARS = frozenset((str, Decimal, bytes, bool, type(None)))


_CONTAINS = {
    str: lambda container, element: element.__class__ is str and element in container,
    # why: B is a contiguous byte-subsequence match (legacy CONTAINS wording).
    bytes: lambda container, element: element.__class__ is bytes and element in container,
    frozenset: _set_contains,
    list: _list_contains,
}


def contains_value(container, element) -> bool:
    """DynamoDB's ``contains(a, b)`` on two values (item-api §3.8)."""
    check = _CONTAINS.get(container.__class__)
    return check is not None and element is not MISSING and check(container, element)


def _contains(args) -> Test:
    container, element = compile_operand(args[0]), compile_operand(args[1])
    return lambda item: contains_value(container(item), element(item))


_CONDITION_FUNCTIONS = {
    "attribute_exists": _attribute_exists,
    "attribute_not_exists": _attribute_not_exists,
    "attribute_type": _attribute_type,
    "begins_with": _begins_with,
    "contains": _contains,
}


def _function(node: Call) -> Test:
    builder = _CONDITION_FUNCTIONS.get(node.name)
    if builder is None:
        # The parsers reject this statically (item-api §3.7); reaching here is a bug.
        raise ValueError(f"{node.name!r} is not a condition function")
    return builder(node.args)


def _predicate(node: Predicate) -> Test:
    return _build_condition(node.condition)


_CONDITIONS = {
    Comparison: _comparison,
    Between: _between,
    In: _in,
    And: _and,
    Or: _or,
    Not: _not,
    Call: _function,
    Predicate: _predicate,
}


def _always(item) -> bool:
    return True


def _build_condition(condition) -> Test:
    if condition is None:
        return _always
    builder = _CONDITIONS.get(condition.__class__)
    if builder is None:
        raise TypeError(f"not a condition: {condition!r}")
    return builder(condition)


_cached_condition = NodeCache(_build_condition)


def compile_condition(condition) -> Test:
    """Compile a condition to a closure ``item -> bool`` (``None`` → always true).

    Compile once per expression and call the result per item; the closures
    are pure and safe to share between threads. Results are cached by node
    identity, so compiling the same node object again is cheap.
    """
    return _cached_condition(condition)


def matches(condition, item: dict) -> bool:
    """True when ``item`` satisfies ``condition`` (DynamoDB semantics, item-api §3.8).

    ``item`` is ``{}`` for an absent item; ``condition`` None means no condition.
    """
    return _cached_condition(condition)(item)
