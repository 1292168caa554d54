"""The static analysis of a raw tree: problems by category, placeholders, checks of the substitutes (item-api §3.7)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import limits
from ..types import type_of
from ..wire_values import to_wire  # BETWEEN bounds print as wire text: numbers plain, binaries base64
from .builder import compile_builder
from .context import NO_ENTRIES, reserved_words
from .messages import (ACTION_TYPE, ACTION_TYPES, BETWEEN_ORDER, BETWEEN_TYPES, CONFLICT, DISTINCT, INDEX_RANGE,
                       LONG_TYPE_NAMES, MAX_LIST_INDEX, MAX_PATH_DEPTH, MISUSED, NEEDS_PATH, NOT_IN_CONDITION,
                       NOT_IN_UPDATE, OPERAND_COUNT, OPERAND_TYPE, ORDERED_TYPES, OVERLAP, PARENS, RESERVED,
                       RESULT_TYPES, SECTION_TWICE, SIZED_TYPES, TOO_DEEP, TOO_MANY_IN, TYPE_NAME, UNKNOWN_FUNCTION,
                       VALID_TYPE_NAMES, VALUE_IN_PATH)
from .model import (FUNCTIONS, ORDERING_COMPARATORS, Add, And, Arithmetic, Between, Call, Comparison, Delete, In, Not,
                    Or, Path, Remove, Set, Update)
from .syntax import NameRef, Paren, ValueRef


@dataclass(frozen=True, slots=True)
class Compiled:
    """One expression text, analysed: what substitution needs, per request."""

    error: str | None  # a text-only problem that outranks every placeholder problem
    refs: tuple = ()  # (is_name, key) in the order undefined placeholders are reported
    checks: tuple = ()  # messages and callables (names, values) -> message|None, best first
    build: object = None  # (names, values) -> model
    name_keys: frozenset = frozenset()
    value_keys: frozenset = frozenset()


# Problem categories in the order DynamoDB reports them (item-api §3.7 last
# paragraph, dynalite's checkErrors). "undefined" is the placeholder check done
# per request; "operands" holds operand counts and "requires a document path"
# (§9.4 case 47 shows the latter beating distinct operands); "paths" reports any
# overlapping pair before any conflicting one. A tuple shares one rank.
# INF: the limits (LOCAL only) come right after syntax, where LOCAL's tree walk
# meets them; value parameters in paths (LOCAL only) right after reserved words;
# redundant parentheses come first in updates as in conditions.
_ORDERS = {
    "condition": ("limit", "parens", "function_name", "misused", "reserved", "value_in_path",
                  "undefined", "operands", "distinct", "function"),
    "update": ("limit", "parens", "reserved", "value_in_path", "function_name", "section",
               "undefined", "paths", "action_operand", ("operands", "function")),
    "projection": ("limit", "reserved", "value_in_path", "undefined", "paths"),
}


def _ranks(order) -> dict[str, int]:
    ranks = {}
    for rank, categories in enumerate(order):
        for category in (categories,) if isinstance(categories, str) else categories:
            ranks[category] = rank
    return ranks


_RANKS = {kind: _ranks(order) for kind, order in _ORDERS.items()}


class Analysis:
    """The static walk over one raw tree: problems, placeholders, deferred checks, template."""

    def __init__(self, kind: str):
        self.kind = kind
        self.ranks = _RANKS[kind]
        self.problems: list[tuple[int, int, object]] = []  # (rank, sequence, message | check)
        self.refs: list[tuple[bool, str]] = []

    # ---- recording

    def flag(self, category: str, message: str) -> None:
        self.problems.append((self.ranks[category], len(self.problems), message))

    def defer(self, category: str, check, static: bool = False) -> None:
        """Record a check of the substitutes; a check that needs none runs now."""
        if static:
            message = check(NO_ENTRIES, NO_ENTRIES)
            if message:
                self.flag(category, message)
        else:
            self.problems.append((self.ranks[category], len(self.problems), check))

    def result(self, template) -> Compiled:
        undefined = self.ranks["undefined"]
        problems = sorted(self.problems, key=lambda p: p[:2])
        if problems and problems[0][0] < undefined:
            return Compiled(problems[0][2])
        refs = list(dict.fromkeys(self.refs))
        if self.kind == "update":  # every undefined name is reported before any value (DL)
            refs.sort(key=lambda ref: not ref[0])
        build = compile_builder(template)
        return Compiled(None, tuple(refs), tuple(p[2] for p in problems), build,
                         frozenset(k for is_name, k in refs if is_name),
                         frozenset(k for is_name, k in refs if not is_name))

    # ---- paths and operands

    def path(self, path: Path) -> Path:
        reserved = reserved_words()
        for element in path.elements:
            kind = type(element)
            if kind is str:
                if element.upper() in reserved:
                    self.flag("reserved", RESERVED.format(element))
            elif kind is NameRef:
                self.refs.append((True, element.key))
            elif kind is ValueRef:
                self.flag("value_in_path", VALUE_IN_PATH.format(element.key))
            elif element > MAX_LIST_INDEX:
                self.flag("limit", INDEX_RANGE.format(element))
        if len(path.elements) > MAX_PATH_DEPTH:
            self.flag("limit", TOO_DEEP.format(len(path.elements)))
        return path

    def unparen(self, node):
        """The node inside parentheses; doubled parentheses are redundant."""
        while type(node) is Paren:
            if type(node.inner) is Paren:
                self.flag("parens", PARENS)
            node = node.inner
        return node

    def operand(self, node):
        node = self.unparen(node)
        kind = type(node)
        if kind is Path:
            return self.path(node)
        if kind is ValueRef:
            self.refs.append((False, node.key))
            return node
        return self.call(node, as_condition=False)

    def call(self, node: Call, as_condition: bool) -> Call:
        args = []
        for arg in node.args:  # a loop, not a generator: one frame less per nesting level
            args.append(self.operand(arg))
        args = tuple(args)
        call = Call(node.name, args)
        spec = FUNCTIONS.get(node.name)
        if spec is None:
            self.flag("function_name", UNKNOWN_FUNCTION.format(node.name))
            return call
        self._check_role(spec, as_condition)
        if len(args) != spec.arity:
            self.flag("operands", OPERAND_COUNT.format(node.name, len(args)))
            return call
        if self.kind == "condition" and len(args) > 1:
            self.distinct(node.name, args)
        for index in spec.path_args:
            if type(args[index]) is not Path:
                # DL: reported with the operand counts, before distinct operands (item-api §9.4 case 47).
                self.flag("operands", NEEDS_PATH.format(node.name))
        _FUNCTION_CHECKS.get(node.name, _no_check)(self, node.name, args)
        return call

    def _check_role(self, spec, as_condition: bool) -> None:
        """Where a known function may appear (item-api §3.7)."""
        if self.kind == "update":
            if spec.kind != "update":
                self.flag("function_name", NOT_IN_UPDATE.format(spec.name))
        elif spec.kind == "update":
            self.flag("function_name", NOT_IN_CONDITION.format(spec.name))
        elif (spec.kind == "value") == as_condition:  # size() as a condition, a boolean as an operand
            self.flag("misused", MISUSED.format(spec.name))

    # ---- operand checks

    def require(self, operator: str, operands, allowed, category: str = "function",
                message: str = OPERAND_TYPE, type_names=None) -> None:
        """Each value placeholder / nested call among ``operands`` must be of an ``allowed`` type."""
        for operand in operands:
            if type(operand) is ValueRef:
                self.defer(category, _type_check(operand.key, operator, allowed, message, type_names))
            elif type(operand) is Call:
                produced = RESULT_TYPES.get(operand.name)
                if produced is not None and produced not in allowed:
                    self.flag(category, message.format(operator, produced))

    def distinct(self, operator: str, operands) -> None:
        first = operands[0]
        others = [o for o in operands[1:] if type(o) is Path]
        if type(first) is Path and others:
            static = not any(type(e) is NameRef for p in (first, *others) for e in p.elements)
            self.defer("distinct", _distinct_check(operator, first, others), static)

    def clashes(self, paths) -> None:
        """Overlapping / conflicting paths of an update or a projection."""
        if len(paths) > 1:
            static = not any(type(e) is NameRef for p in paths for e in p.elements)
            self.defer("paths", _clash_check(paths), static)

    # ---- conditions

    def condition(self, node):
        node = self.unparen(node)
        return _CONDITIONS[type(node)](self, node)

    def logical(self, node):
        operands = []
        for operand in node.operands:
            operands.append(self.condition(operand))
        return type(node)(tuple(operands))

    def negation(self, node: Not) -> Not:
        return Not(self.condition(node.operand))

    def comparison(self, node: Comparison) -> Comparison:
        left, right = self.operand(node.left), self.operand(node.right)
        self.distinct(node.op, (left, right))
        if node.op in ORDERING_COMPARATORS:
            self.require(node.op, (left, right), ORDERED_TYPES)
        return Comparison(node.op, left, right)

    def between(self, node: Between) -> Between:
        subject, low, high = self.operand(node.subject), self.operand(node.low), self.operand(node.high)
        self.distinct("BETWEEN", (subject, low, high))  # INF: as for comparisons
        self.require("BETWEEN", (subject, low, high), ORDERED_TYPES)
        if type(low) is ValueRef and type(high) is ValueRef:
            self.defer("function", _bounds_check(low.key, high.key))
        return Between(subject, low, high)

    def in_(self, node: In) -> In:
        subject = self.operand(node.subject)
        candidates = tuple([self.operand(o) for o in node.candidates])
        if len(candidates) > limits.IN_MAX_OPERANDS:
            self.flag("limit", TOO_MANY_IN.format(len(candidates)))
        self.distinct("IN", (subject, *candidates))  # INF: as for comparisons
        return In(subject, candidates)

    def function_condition(self, node: Call) -> Call:
        return self.call(node, as_condition=True)

    # ---- updates

    def update(self, sections) -> Update:
        seen, actions = set(), []
        for section in sections:
            if section.keyword in seen:
                self.flag("section", SECTION_TWICE.format(section.keyword))
            seen.add(section.keyword)
            actions.extend(_ACTIONS[type(action)](self, action) for action in section.actions)
        self.clashes([action.path for action in actions])
        return Update(tuple(actions))

    def set_action(self, action: Set) -> Set:
        path = self.path(action.path)
        value = self.unparen(action.value)
        if type(value) is Arithmetic:
            value = self.arithmetic(value)
        else:
            value = self.operand(value)
        return Set(path, value)

    def arithmetic(self, node: Arithmetic) -> Arithmetic:
        left, right = self.operand(node.left), self.operand(node.right)
        self.require(node.op, (left, right), frozenset(("N",)))
        return Arithmetic(node.op, left, right)

    def remove_action(self, action: Remove) -> Remove:
        return Remove(self.path(action.path))

    def value_action(self, action):
        path = self.path(action.path)
        keyword = type(action).__name__.upper()
        self.refs.append((False, action.value.key))
        self.require(keyword, (action.value,), ACTION_TYPES[keyword], "action_operand", ACTION_TYPE,
                     LONG_TYPE_NAMES)
        return type(action)(path, action.value)

    # ---- projections

    def projection(self, paths) -> tuple:
        paths = tuple(self.path(path) for path in paths)
        self.clashes(paths)
        return paths


_CONDITIONS = {
    And: Analysis.logical,
    Or: Analysis.logical,
    Not: Analysis.negation,
    Comparison: Analysis.comparison,
    Between: Analysis.between,
    In: Analysis.in_,
    Call: Analysis.function_condition,
}
_ACTIONS = {Set: Analysis.set_action, Remove: Analysis.remove_action,
            Add: Analysis.value_action, Delete: Analysis.value_action}
ANALYSERS = {"condition": Analysis.condition, "update": Analysis.update,
              "projection": Analysis.projection}


# ------------------------------------------------------ function-specific checks

def _no_check(analysis, name, args) -> None:
    pass


def _begins_with(analysis, name, args) -> None:
    analysis.require(name, args, frozenset(("S", "B")))


def _size(analysis, name, args) -> None:
    analysis.require(name, args, SIZED_TYPES)


def _attribute_type(analysis, name, args) -> None:
    # INF: a path as the type operand is left to run time (no static type to check).
    analysis.require(name, args[1:], frozenset(("S",)))
    if type(args[1]) is ValueRef:
        analysis.defer("function", _type_name_check(args[1].key))


def _list_append(analysis, name, args) -> None:
    analysis.require(name, args, frozenset(("L",)))


_FUNCTION_CHECKS = {"begins_with": _begins_with, "size": _size, "attribute_type": _attribute_type,
                    "list_append": _list_append}


# --------------------------------------------------- checks of the substitutes

def _type_check(key, operator, allowed, message, type_names=None):
    def check(names, values):
        type_ = type_of(values[key])
        if type_ not in allowed:
            return message.format(operator, type_names[type_] if type_names else type_)
        return None
    return check


def _type_name_check(key):
    def check(names, values):
        value = values[key]
        if type(value) is str and value not in VALID_TYPE_NAMES:
            return TYPE_NAME.format(value)
        return None
    return check


def _attribute_value(value) -> str:
    """``S:a`` as DynamoDB prints a bound in BETWEEN messages."""
    (tag, text), = to_wire(value).items()
    return f"{tag}:{text}"


def _bounds_check(low_key, high_key):
    def check(names, values):
        low, high = values[low_key], values[high_key]
        if type_of(low) != type_of(high):
            return BETWEEN_TYPES.format(_attribute_value(low), _attribute_value(high))
        if low > high:  # S, N, B only here: the type checks ran first
            return BETWEEN_ORDER.format(_attribute_value(low), _attribute_value(high))
        return None
    return check


def _resolve(path: Path, names) -> tuple:
    return tuple(names[e.key] if type(e) is NameRef else e for e in path.elements)


def render_path(elements) -> str:
    """``[a, [1], b]``: a path as DynamoDB prints it in messages."""
    return "[" + ", ".join(f"[{e}]" if type(e) is int else e for e in elements) + "]"


def _distinct_check(operator, first, others):
    def check(names, values):
        resolved = _resolve(first, names)
        if any(_resolve(other, names) == resolved for other in others):
            return DISTINCT.format(operator, render_path(resolved))
        return None
    return check


def _clash(one: tuple, two: tuple) -> str | None:
    """'overlap' when one path is a prefix of the other, 'conflict' on a key/index mismatch."""
    for a, b in zip(one, two):
        if a != b:
            return "conflict" if type(a) is not type(b) else None
    return "overlap"


def _clash_check(paths):
    """Any overlapping pair first, then any conflicting pair (DL: two categories, in that order)."""
    def check(names, values):
        resolved = [_resolve(path, names) for path in paths]
        if len({p[0] for p in resolved}) == len(resolved):  # all top-level names differ
            return None
        pairs = [(one, two) for i, one in enumerate(resolved) for two in resolved[i + 1:]]
        for wanted, message in (("overlap", OVERLAP), ("conflict", CONFLICT)):
            for one, two in pairs:
                if _clash(one, two) == wanted:
                    return message.format(render_path(one), render_path(two))
        return None
    return check
