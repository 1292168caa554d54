"""KeyConditionExpression's structural rules that need no table (item-api §3.9)."""

from __future__ import annotations

from ..errors import ValidationException
from .messages import (KEY_FIRST_OPERAND, KEY_MULTIPLE_NAMES, KEY_NESTED_OPERATION, KEY_NESTED_PATH, KEY_NO_ATTRIBUTE,
                       KEY_OPERATOR, KEY_TWICE)
from .model import And, Between, Call, Comparison, In, Not, Or, Path


# ------------------------------------------------------ KeyConditionExpression

def flatten_and(condition):
    if type(condition) is not And:
        return condition
    flat = []
    for operand in condition.operands:
        operand = flatten_and(operand)
        flat.extend(operand.operands if type(operand) is And else (operand,))
    return And(tuple(flat))


_KEY_OPERATORS = {Or: "OR", Not: "NOT", In: "IN"}


def check_key_condition(condition) -> None:
    """The structural rules of item-api §3.9 that need no table.

    why no ``Invalid KeyConditionExpression: `` prefix: it belongs to parse errors only (recorded-2026-11 B9,
    DynamoDB 2026-09/10; item-api §3.9 had it on these too).

    INF: checks run in passes — operators (pre-order), then size() anywhere,
    then each condition's operands, then keys used twice.
    """
    atoms = []
    _key_operators(condition, atoms)
    if any(_has_size(atom) for atom in atoms):
        _key_error(KEY_NESTED_OPERATION)
    seen = set()
    for atom in atoms:
        name = _key_attribute(atom)
        if name in seen:
            _key_error(KEY_TWICE)
        seen.add(name)


def _key_error(message: str):
    raise ValidationException(message)


def _key_operators(node, atoms: list) -> None:
    kind = type(node)
    if kind is And:
        for operand in node.operands:
            _key_operators(operand, atoms)
        return
    if kind in _KEY_OPERATORS:
        _key_error(KEY_OPERATOR.format(_KEY_OPERATORS[kind]))
    if kind is Comparison and node.op == "<>":
        _key_error(KEY_OPERATOR.format("<>"))
    if kind is Call and node.name != "begins_with":
        _key_error(KEY_OPERATOR.format(node.name))
    atoms.append(node)


def _has_size(node) -> bool:
    if type(node) is Call:
        return node.name == "size" or any(_has_size(arg) for arg in node.args)
    if type(node) is Comparison:
        return _has_size(node.left) or _has_size(node.right)
    if type(node) is Between:
        return any(_has_size(o) for o in (node.subject, node.low, node.high))
    return False


def _key_attribute(atom) -> str:
    """The key attribute one condition is on, after its structural checks."""
    operands = {Comparison: lambda n: (n.left, n.right),
                Between: lambda n: (n.subject, n.low, n.high),
                Call: lambda n: n.args}[type(atom)](atom)
    if type(atom) is not Comparison and type(operands[0]) is not Path:
        _key_error(KEY_FIRST_OPERAND.format("BETWEEN" if type(atom) is Between else atom.name))
    paths = [o for o in operands if type(o) is Path]
    if len(paths) > 1:
        _key_error(KEY_MULTIPLE_NAMES)
    if not paths:
        _key_error(KEY_NO_ATTRIBUTE)
    if not paths[0].is_top_level:
        _key_error(KEY_NESTED_PATH)
    return paths[0].name
