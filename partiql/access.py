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
from partiql.engine.types import prefix_end, type_of, values_equal

from .conditions import Param, bind

MAX_DECOMPOSED_READS = 50
MAX_BRANCHES = 4096  # DNF growth bound; beyond it the statement could never be ≤ 50 reads
TOO_MANY = "Too many decomposed read operations for a given query."
OVERLAP = "Overlapping conditions with range keys are not supported in where clause"
SORT_OPS = ("=", "<", "<=", ">", ">=")
PREFIX_TYPES = ("S", "B")
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
    """The WHERE of a SELECT, analysed against a key schema (table or index).

    ``typed`` lists every key condition's (attribute, operand) whose value
    must have the key's type (spec §3.1 step 6, Scan plans included);
    ``too_many`` marks a decomposition beyond 50 reads, reported only after
    those type checks (step 6 comes before step 8).
    """

    branches: tuple  # of Branch; empty when the statement is a Scan
    scan: bool
    typed: tuple = ()
    too_many: bool = False


def dnf(condition, key_names=()) -> list[tuple]:
    """Disjunctive normal form: a list of branches, each a tuple of atoms. An OR that names none of
    ``key_names`` stays one atom (a filter): why, DynamoDB decomposes only what reads keys —
    ``pk = 'k1' AND (attribute_exists(a) OR attribute_exists(b))`` is one read of k1, never two
    overlapping ones (recorded-2026-11 A4), while ``pk = 'a' OR pk = 'a'`` overlaps."""
    if isinstance(condition, m.Or) and condition.operands:
        if key_names and not any(_mentions(condition.operands, name) for name in key_names):
            return [(condition,)]
        out = []
        for operand in condition.operands:
            out.extend(dnf(operand, key_names))
        return out
    if isinstance(condition, m.And) and condition.operands:
        branches = [()]
        for operand in condition.operands:
            branches = [left + right for left in branches for right in dnf(operand, key_names)]
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
        # INF: begins_with is a key condition only on an S or B key (as in a
        # KeyConditionExpression); on an N sort key it stays a filter (false).
        if name and _is_value(atom.args[1]) and key.types[name] in PREFIX_TYPES:
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


def _branch(atoms: list, key: KeySchema) -> Branch | None:
    """The branch of (atom, key condition or None) pairs, or None when it has no partition-key equality."""
    hashes, sort, residual, loose = [], None, [], False
    for atom, found in atoms:
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
    # why: each atom's key condition is found once, for the typed operands and the branches
    conjunctions = [[(atom, _key_atom(atom, key)) for atom in atoms]
                    for atoms in dnf(expand_in(where, key.names), key.names)]
    typed = _typed_operands(conjunctions, key)
    branches = [_branch(atoms, key) for atoms in conjunctions]
    if any(branch is None for branch in branches):
        return Analysis((), True, typed)
    return Analysis(tuple(branches), False, typed, len(branches) > MAX_DECOMPOSED_READS)


def _typed_operands(conjunctions, key: KeySchema) -> tuple:
    """(attribute, operand) of every key condition: partition-key equalities, sort-key conditions."""
    found = []
    for atoms in conjunctions:
        for _, extracted in atoms:
            if not extracted:
                continue
            name, (op, *operands) = extracted
            if name == key.range_name or op == "=":
                found.extend((name, operand) for operand in operands)
    return tuple(found)


# ------------------------------------------------------------ per execution

@dataclass(frozen=True, slots=True)
class KeyRead:
    """One decomposed read, values bound: a partition value and a sort condition."""

    hash_value: object
    sort: tuple | None  # (op, value[, value2]) with engine values
    residual: object  # a model condition or None


KEY_TYPES = ("S", "N", "B")


def check_key_value(name: str, value, expected: str) -> None:
    """A key condition's or key attribute's value must be S, N or B, of the schema's type (§5.4)."""
    actual = type_of(value)
    if actual == expected:
        return
    if actual not in KEY_TYPES:
        # INF: DynamoDB's translator names the value's type tag (BOOL, NULL, L, M, SS …).
        raise ValidationException(f"Key value must be of type S, N, or B. Key name: {name}, Key type: {actual}")
    raise ValidationException(f"Key attribute's data type should match its data type in table's schema: Key {name}")


def bound_value(operand, params):
    """A key condition's operand with the statement's parameters bound: a ``?`` 's value, or the literal's."""
    return params[operand.index] if isinstance(operand, Param) else operand.value


def check_key_types(analysis: Analysis, key: KeySchema, params) -> None:
    """Every key condition's value must have the key's type (also in Scan plans, §3.1 step 6)."""
    for name, operand in analysis.typed:
        check_key_value(name, bound_value(operand, params), key.types[name])


def reads(analysis: Analysis, key: KeySchema, params) -> tuple[list[KeyRead], bool]:
    """The bound key reads of a decomposed plan, and whether the A6 fallback applies.

    A branch whose partition-key equalities disagree can match nothing and is
    dropped [INF]. Branches on one partition value must not overlap in sort
    range (else OVERLAP), unless some branch touches the sort key only under
    NOT / <>, in which case the caller runs one Query per distinct partition
    value with the whole WHERE as filter (A6).
    """
    if analysis.too_many:
        raise ValidationException(TOO_MANY)
    bound = []
    for branch in analysis.branches:
        values = [bound_value(operand, params) for operand in branch.hash_operands]
        if any(not values_equal(values[0], other) for other in values[1:]):
            continue
        sort = None
        if branch.sort is not None:
            sort = (branch.sort[0], *(bound_value(o, params) for o in branch.sort[1:]))
        residual = m.conjunction(bind(branch.residual, params))
        bound.append((KeyRead(values[0], sort, residual), branch.loose_sort))
    if _any_overlap([read for read, _ in bound]):
        if any(loose for _, loose in bound):
            return _distinct_partitions(bound), True
        raise ValidationException(OVERLAP)
    return [read for read, _ in bound], False


def _any_overlap(key_reads: list) -> bool:
    """Whether two reads of one partition value have intersecting sort-key ranges."""
    for i, left in enumerate(key_reads):
        for right in key_reads[i + 1:]:
            if values_equal(left.hash_value, right.hash_value) and _ranges_overlap(left.sort, right.sort):
                return True
    return False


def _distinct_partitions(bound) -> list[KeyRead]:
    seen, out = [], []
    for read, _ in bound:
        if not any(values_equal(read.hash_value, value) for value in seen):
            seen.append(read.hash_value)
            out.append(KeyRead(read.hash_value, None, None))
    return out


_BOUNDS = {  # op -> (value, value2) -> (low, low inclusive, high, high inclusive)
    "=": lambda v, w: (v, True, v, True),
    "<": lambda v, w: (None, True, v, False),
    "<=": lambda v, w: (None, True, v, True),
    ">": lambda v, w: (v, False, None, True),
    ">=": lambda v, w: (v, True, None, True),
    "BETWEEN": lambda v, w: (v, True, w, True),
    "BEGINS_WITH": lambda v, w: (v, True, prefix_end(v), False),
}


def interval(sort):
    """(low, low_inclusive, high, high_inclusive) of a sort condition; None bounds are open."""
    if sort is None:
        return None, True, None, True
    return _BOUNDS[sort[0]](sort[1], sort[2] if len(sort) > 2 else sort[1])


def _ranges_overlap(a, b) -> bool:
    a_low, a_low_in, a_high, a_high_in = interval(a)
    b_low, b_low_in, b_high, b_high_in = interval(b)
    return not (_before(a_high, a_high_in, b_low, b_low_in) or _before(b_high, b_high_in, a_low, a_low_in))


def _before(high, high_in, low, low_in) -> bool:
    """True when an interval ending at ``high`` ends before one starting at ``low``."""
    if high is None or low is None:
        return False
    if type(high) is not type(low):
        return False
    return high < low or (high == low and not (high_in and low_in))
