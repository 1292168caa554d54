"""Legacy (pre-expression) parameters lowered into the expression model (item-api §4).

``Expected`` and ``QueryFilter`` / ``ScanFilter`` become conditions,
``KeyConditions`` a key condition, ``AttributeUpdates`` an update: the same
model nodes the expression parsers produce, so evaluation, capacity and
ReturnValues are shared. Attribute names here are top-level names (no
paths, no reserved-word rule). Validation messages are DynamoDB's (§4.2–§4.5).
"""

from __future__ import annotations

from ..errors import ValidationException
from ..expressions.model import (Add, And, Between, Call, Comparison, Delete, In, Not, Or, Path, Remove, Set,
                                 Update, Value)
from ..types import type_of

INVALID = "One or more parameter values were invalid: "

# ComparisonOperator → (number of arguments: int, or (min, None) for "at least", allowed value types)
_SCALARS = ("S", "N", "B")
# why NULL for EQ and NE: DynamoDB evaluates {"NULL": true} there (recorded-2026-11 A3, newer than DynamoDB
# Local's rule, which refused it); LT and the other orderings still refuse it, as recorded
_EQUALITY = _SCALARS + ("SS", "NS", "BS", "NULL")
OPERATORS = {
    "EQ": (1, _EQUALITY), "NE": (1, _EQUALITY),
    "LE": (1, _SCALARS), "LT": (1, _SCALARS), "GE": (1, _SCALARS), "GT": (1, _SCALARS),
    "CONTAINS": (1, _SCALARS), "NOT_CONTAINS": (1, _SCALARS), "BEGINS_WITH": (1, ("S", "B")),
    "IN": ((1, None), _SCALARS), "BETWEEN": (2, _SCALARS), "NULL": (0, ()), "NOT_NULL": (0, ()),
}
_COMPARATORS = {"EQ": "=", "NE": "<>", "LE": "<=", "LT": "<", "GE": ">=", "GT": ">"}


# ------------------------------------------------------------------ conditions (§4.2)

def _check_arguments(operator: str, values: list) -> None:
    arity, allowed = OPERATORS[operator]
    count_ok = len(values) >= arity[0] if isinstance(arity, tuple) else len(values) == arity
    if not count_ok:
        raise ValidationException(f"{INVALID}Invalid number of argument(s) for the {operator} ComparisonOperator")
    types = {type_of(value) for value in values}
    if len(types) > 1:
        raise ValidationException(f"{INVALID}AttributeValues inside AttributeValueList must be of same type")
    for kind in types:
        if kind not in allowed:
            raise ValidationException(f"{INVALID}ComparisonOperator {operator} is not valid for {kind} "
                                      "AttributeValue type")
    if operator == "BETWEEN" and values[0] > values[1]:
        raise ValidationException("The BETWEEN condition was provided a range where the lower bound is greater "
                                  "than the upper bound")


_LOWER = {
    "NULL": lambda path, values: Call("attribute_not_exists", (path,)),
    "NOT_NULL": lambda path, values: Call("attribute_exists", (path,)),
    "CONTAINS": lambda path, values: Call("contains", (path, Value(values[0]))),
    "NOT_CONTAINS": lambda path, values: Not(Call("contains", (path, Value(values[0])))),
    "BEGINS_WITH": lambda path, values: Call("begins_with", (path, Value(values[0]))),
    "BETWEEN": lambda path, values: Between(path, Value(values[0]), Value(values[1])),
    "IN": lambda path, values: In(path, tuple(Value(value) for value in values)),
    **{operator: (lambda op: lambda path, values: Comparison(op, path, Value(values[0])))(op)
       for operator, op in _COMPARATORS.items()},
}


def comparison(name: str, operator: str, values: list):
    """One legacy condition on attribute ``name`` as a model condition."""
    _check_arguments(operator, values)
    return _LOWER[operator](Path((name,)), values)


def _combine(conditions: list, request: dict):
    if not conditions:
        return None
    if len(conditions) == 1:
        return conditions[0]
    return (Or if request.get("ConditionalOperator") == "OR" else And)(tuple(conditions))


def conditions(entries: dict | None, request: dict):
    """QueryFilter / ScanFilter: every entry, joined by ConditionalOperator (AND by default)."""
    if entries is None:
        return None
    return _combine([comparison(name, entry["ComparisonOperator"], entry.get("AttributeValueList") or [])
                     for name, entry in entries.items()], request)


# --------------------------------------------------------------------- Expected (§4.4)

def _expected_problem(name: str, entry: dict) -> str | None:
    has_value, has_list = "Value" in entry, "AttributeValueList" in entry
    operator, exists = entry.get("ComparisonOperator"), entry.get("Exists")
    if has_list and operator is None:
        return f"AttributeValueList can only be used with a ComparisonOperator for Attribute: {name}"
    if has_value and has_list:
        return f"Value and AttributeValueList cannot be used together for Attribute: {name}"
    if exists is not None and operator is not None:
        return f"Exists and ComparisonOperator cannot be used together for Attribute: {name}"
    if exists is False and has_value:
        return f"Value cannot be used when Exists is false for Attribute: {name}"
    if operator is not None and operator not in ("NULL", "NOT_NULL") and not (has_value or has_list):
        return f"Value or AttributeValueList must be used with ComparisonOperator: {operator} for Attribute: {name}"
    if operator is None and exists is not False and not has_value:
        return f"Value must be provided when Exists is {'null' if exists is None else 'true'} for Attribute: {name}"
    return None


def _expected_entry(name: str, entry: dict):
    problem = _expected_problem(name, entry)
    if problem:
        raise ValidationException(INVALID + problem)
    operator = entry.get("ComparisonOperator")
    if operator is not None:
        values = entry["AttributeValueList"] if "AttributeValueList" in entry else (
            [entry["Value"]] if "Value" in entry else [])
        return comparison(name, operator, values)
    if entry.get("Exists") is False:
        return Call("attribute_not_exists", (Path((name,)),))
    return Comparison("=", Path((name,)), Value(entry["Value"]))


def expected(request: dict):
    """PutItem / UpdateItem / DeleteItem ``Expected`` as a condition (None when absent)."""
    entries = request.get("Expected")
    if entries is None:
        return None
    return _combine([_expected_entry(name, entry) for name, entry in entries.items()], request)


# --------------------------------------------------------------- AttributeUpdates (§4.5)

_ADDABLE = ("N", "SS", "NS", "BS", "L")


def _update_action(name: str, entry: dict):
    action = entry.get("Action", "PUT")
    path = Path((name,))
    if "Value" not in entry:
        if action != "DELETE":
            raise ValidationException(f"{INVALID}Only DELETE action is allowed when no attribute value is specified")
        return Remove(path)
    value = entry["Value"]
    kind = type_of(value)
    if action == "PUT":
        return Set(path, Value(value))
    if action == "DELETE":
        if kind not in ("SS", "NS", "BS"):
            raise ValidationException(f"{INVALID}DELETE action with value is not supported for the type {kind}")
        return Delete(path, Value(value))
    if kind not in _ADDABLE:
        raise ValidationException(f"{INVALID}ADD action is not supported for the type {kind}")
    if kind == "L":  # why: legacy ADD appends to a list, which UpdateExpression's ADD cannot do
        return Set(path, Call("list_append", (Call("if_not_exists", (path, Value([]))), Value(value))))
    return Add(path, Value(value))


def attribute_updates(request: dict):
    """UpdateItem ``AttributeUpdates`` as an update; ``{}`` updates nothing (the key-only upsert)."""
    entries = request.get("AttributeUpdates")
    if not entries:
        return None
    return Update(tuple(_update_action(name, entry) for name, entry in entries.items()))


LEGACY_TYPE_MISMATCH = "Type mismatch for attribute to update"


def legacy_update_error(error: ValidationException) -> ValidationException:
    """AttributeUpdates report a run-time type clash in their own words (item-api §4.5)."""
    if error.message == "An operand in the update expression has an incorrect data type":
        return ValidationException(LEGACY_TYPE_MISMATCH)
    return error


# --------------------------------------------------------------------- entry points

WRITE_MEMBERS = ("Expected", "AttributeUpdates")  # what ``expected`` and ``attribute_updates`` lower


_KEY_OPERATORS = ("EQ", "LE", "LT", "GE", "GT", "BEGINS_WITH", "BETWEEN")


def key_conditions(entries: dict, most: int = 2):
    """Query ``KeyConditions`` as a key condition (item-api §4.3); ``most`` entries: 2, or a multi-attribute
    index's key attributes (multi-attribute-keys.md §8 rule 2)."""
    if not 1 <= len(entries) <= max(most, 2):
        raise ValidationException("Conditions can be of length 1 or 2 only")
    atoms = []
    for name, entry in entries.items():
        operator = entry["ComparisonOperator"]
        if operator not in _KEY_OPERATORS:
            raise ValidationException("Attempted conditional constraint is not an indexable operation")
        atoms.append(comparison(name, operator, entry.get("AttributeValueList") or []))
    return atoms[0] if len(atoms) == 1 else And(tuple(atoms))


def lower_query(request: dict, key_condition, filter_, key_attributes: int = 2) -> tuple:
    """KeyConditions / QueryFilter → key condition and filter (``key_attributes``: of the index queried)."""
    if request.get("KeyConditions") is not None and key_condition is None:
        key_condition = key_conditions(request["KeyConditions"], key_attributes)
    if request.get("QueryFilter") is not None:
        filter_ = conditions(request["QueryFilter"], request)
    return key_condition, filter_


def lower_scan(request: dict, filter_):
    """ScanFilter → filter."""
    if request.get("ScanFilter") is not None:
        filter_ = conditions(request["ScanFilter"], request)
    return filter_

