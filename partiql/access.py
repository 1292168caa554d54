"""Access-path selection for SELECT (spec §3.1, §3.2): DNF, key conditions, decomposition.

``analyse`` runs once per statement text and catalog: it rewrites WHERE
into disjunctive normal form (after expanding ``IN`` on key attributes),
splits each branch into key conditions and a residual filter, and decides
between decomposed key reads and a Scan. ``reads`` runs at every execution
with the parameter values bound: key types, contradictory branches, the
overlap rule and the A6 fallback need the values.
"""

from __future__ import annotations

from dataclasses import dataclass

from partiql.engine.errors import ValidationException
from partiql.engine.expressions import model as m
from partiql.engine.schema import KeySchema
from partiql.engine.types import type_of, values_equal

from .conditions import Param, bind

MAX_DECOMPOSED_READS = 50
MAX_BRANCHES = 4096  # DNF growth bound; beyond it the statement could never be ≤ 50 reads
TOO_MANY = "Too many decomposed read operations for a given query."
OVERLAP = "Overlapping conditions with range keys are not supported in where clause"
SORT_OPS = ("=", "<", "<=", ">", ">=")
_FLIP = {"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


@dataclass(frozen=True, slots=True)
class Branch:
    """One DNF branch: the partition-key equality, an optional sort-key condition, the rest.

    ``sort`` is (op, operand[, operand]) with op in =, <, <=, >, >=, BETWEEN,
    BEGINS_WITH; operands may still be ``Param`` nodes. ``loose_sort`` is
    set when the branch has a sort-key atom that is not a key condition
    (``NOT sk = x``, ``sk <> x``): such statements fall back per A6.
    """

    hash_operands: tuple
    sort: tuple | None
    residual: tuple
    loose_sort: bool


@dataclass(frozen=True, slots=True)
class Analysis:
    """The WHERE of a SELECT, analysed against a key schema (table or index)."""

    branches: tuple  # of Branch; empty when the statement is a Scan
    scan: bool


def dnf(condition) -> list[tuple]:
    """Disjunctive normal form: a list of branches, each a tuple of atoms."""
    if isinstance(condition, m.Or) and condition.operands:
        out = []
        for operand in condition.operands:
            out.extend(dnf(operand))
        return out
    if isinstance(condition, m.And) and condition.operands:
        branches = [()]
        for operand in condition.operands:
            branches = [left + right for left in branches for right in dnf(operand)]
            if len(branches) > MAX_BRANCHES:
                raise ValidationException(TOO_MANY)
        return branches
    return [(condition,)]


def expand_in(condition, key_names):
    """``k IN [a, b]`` on a key attribute → ``k = a OR k = b`` (spec §3.1 step 4)."""
    if isinstance(condition, m.In) and _key_path(condition.subject, key_names):
        return m.Or(tuple(m.Comparison("=", condition.subject, c) for c in condition.candidates))
    if isinstance(condition, (m.And, m.Or)):
        return type(condition)(tuple(expand_in(c, key_names) for c in condition.operands))
    return condition


def _key_path(node, key_names) -> str | None:
    if isinstance(node, m.Path) and node.is_top_level and node.name in key_names:
        return node.name
    return None


def _is_value(node) -> bool:
    return isinstance(node, (m.Value, Param))


def _key_atom(atom, key: KeySchema):
    """(attribute, condition) when ``atom`` is a key condition on the schema, else None."""
    names = key.names
    if isinstance(atom, m.Comparison) and atom.op in SORT_OPS:
        left, right = _key_path(atom.left, names), _key_path(atom.right, names)
        if left and _is_value(atom.right):
            return left, (atom.op, atom.right)
        if right and _is_value(atom.left):
            return right, (_FLIP[atom.op], atom.left)
    if isinstance(atom, m.Between):
        name = _key_path(atom.subject, names)
        if name and _is_value(atom.low) and _is_value(atom.high):
            return name, ("BETWEEN", atom.low, atom.high)
    if isinstance(atom, m.Call) and atom.name == "begins_with":
        name = _key_path(atom.args[0], names)
        if name and _is_value(atom.args[1]):
            return name, ("BEGINS_WITH", atom.args[1])
    return None


def _mentions(node, name: str) -> bool:
    if isinstance(node, m.Path):
        return node.name == name
    if isinstance(node, tuple):
        return any(_mentions(child, name) for child in node)
    slots = getattr(type(node), "__slots__", ())
    return any(_mentions(getattr(node, slot), name) for slot in slots
               if not isinstance(node, (m.Value, Param)))


def _branch(atoms: tuple, key: KeySchema) -> Branch | None:
    hashes, sort, residual, loose = [], None, [], False
    for atom in atoms:
        found = _key_atom(atom, key)
        if found and found[0] == key.hash_name and found[1][0] == "=":
            hashes.append(found[1][1])
            continue
        if found and found[0] == key.range_name and sort is None:
            sort = found[1]
            continue
        if key.range_name and _mentions(atom, key.range_name):
            loose = True
        residual.append(atom)
    if not hashes:
        return None
    return Branch(tuple(hashes), sort, tuple(residual), loose)


def analyse(where, key: KeySchema) -> Analysis:
    """Decide decomposed key reads or a Scan for a WHERE over ``key`` (None: no WHERE)."""
    if where is None:
        return Analysis((), True)
    branches = [_branch(atoms, key) for atoms in dnf(expand_in(where, key.names))]
    if any(branch is None for branch in branches):
        return Analysis((), True)
    if len(branches) > MAX_DECOMPOSED_READS:
        raise ValidationException(TOO_MANY)
    return Analysis(tuple(branches), False)


# ------------------------------------------------------------ per execution

@dataclass(frozen=True, slots=True)
class KeyRead:
    """One decomposed read, values bound: a partition value and a sort condition."""

    hash_value: object
    sort: tuple | None  # (op, value[, value2]) with engine values
    residual: object  # a model condition or None


def _type_mismatch(name: str) -> ValidationException:
    return ValidationException(
        f"Key attribute's data type should match its data type in table's schema: Key {name}")


def _value(operand, params):
    return params[operand.index] if isinstance(operand, Param) else operand.value


def check_key_types(where, key: KeySchema, params) -> None:
    """Every key condition's value must have the key's type (also in Scan plans, §3.1 step 6)."""
    if where is None:
        return
    for atoms in dnf(expand_in(where, key.names)):
        for atom in atoms:
            found = _key_atom(atom, key)
            if not found:
                continue
            name, (op, *operands) = found
            if name == key.range_name or op == "=":
                for operand in operands:
                    if type_of(_value(operand, params)) != key.types[name]:
                        raise _type_mismatch(name)


def reads(analysis: Analysis, key: KeySchema, params) -> tuple[list[KeyRead], bool]:
    """The bound key reads of a decomposed plan, and whether the A6 fallback applies.

    A branch whose partition-key equalities disagree can match nothing and is
    dropped [INF]. Branches on one partition value must not overlap in sort
    range (else OVERLAP), unless one of them touches the sort key only under
    NOT / <>, in which case the caller runs one Query per distinct partition
    value with the whole WHERE as filter (A6).
    """
    bound = []
    for branch in analysis.branches:
        values = [_value(operand, params) for operand in branch.hash_operands]
        if any(not values_equal(values[0], other) for other in values[1:]):
            continue
        sort = None
        if branch.sort is not None:
            sort = (branch.sort[0], *(_value(o, params) for o in branch.sort[1:]))
        residual = m.conjunction(bind(branch.residual, params))
        bound.append((KeyRead(values[0], sort, residual), branch.loose_sort))
    for i, (left, left_loose) in enumerate(bound):
        for right, right_loose in bound[i + 1:]:
            if values_equal(left.hash_value, right.hash_value) and _ranges_overlap(left.sort, right.sort):
                if left_loose or right_loose:
                    return _distinct_partitions(bound), True
                raise ValidationException(OVERLAP)
    return [read for read, _ in bound], False


def _distinct_partitions(bound) -> list[KeyRead]:
    seen, out = [], []
    for read, _ in bound:
        if not any(values_equal(read.hash_value, value) for value in seen):
            seen.append(read.hash_value)
            out.append(KeyRead(read.hash_value, None, None))
    return out


_TOP = "\U0010ffff"


def _interval(sort):
    """(low, low_inclusive, high, high_inclusive) of a sort condition; None bounds are open."""
    if sort is None:
        return None, True, None, True
    op, value = sort[0], sort[1]
    return {
        "=": (value, True, value, True),
        "<": (None, True, value, False),
        "<=": (None, True, value, True),
        ">": (value, False, None, True),
        ">=": (value, True, None, True),
        "BETWEEN": (value, True, sort[2] if len(sort) > 2 else value, True),
        "BEGINS_WITH": (value, True, value + (_TOP if isinstance(value, str) else b"\xff" * 8), True),
    }[op]


def _ranges_overlap(a, b) -> bool:
    a_low, a_low_in, a_high, a_high_in = _interval(a)
    b_low, b_low_in, b_high, b_high_in = _interval(b)
    return not (_before(a_high, a_high_in, b_low, b_low_in) or _before(b_high, b_high_in, a_low, a_low_in))


def _before(high, high_in, low, low_in) -> bool:
    """True when an interval ending at ``high`` ends before one starting at ``low``."""
    if high is None or low is None:
        return False
    if type(high) is not type(low):
        return False
    return high < low or (high == low and not (high_in and low_in))
