"""Condition / operand evaluation against items (item-api §3.4, §3.8; partiql-dynamodb §4).

Tables of (item, model node, expected) built directly from the expression
model; spec case numbers (item-api §9.6, partiql-dynamodb C-xxx) are in the ids.
"""

from __future__ import annotations

import operator
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partiql.engine.expressions.evaluate import (
    compile_condition,
    compile_operand,
    matches,
    operand_value,
    size_of,
)
from partiql.engine.expressions.paths import resolve
from partiql.engine.expressions.model import (
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
from partiql.engine.types import MISSING, comparable, from_python, normalize_number, values_equal


# ----------------------------------------------------------------- constructors

def P(*elements) -> Path:
    return Path(tuple(elements))


def V(value) -> Value:
    """A literal from a Python value (ints → N, sets → SS/NS/BS)."""
    return Value(from_python(value))


def C(op, left, right) -> Comparison:
    return Comparison(op, left, right)


def EQ(left, right) -> Comparison:
    return Comparison("=", left, right)


def F(name, *args) -> Call:
    return Call(name, args)


def SIZE(operand) -> Call:
    return Call("size", (operand,))


def BETWEEN(subject, low, high) -> Between:
    return Between(subject, low, high)


def IN(subject, *candidates) -> In:
    return In(subject, candidates)


def AND(*operands) -> And:
    return And(operands)


def OR(*operands) -> Or:
    return Or(operands)


def NOT(operand) -> Not:
    return Not(operand)


TRUE = EQ(P("s"), V("hello"))
FALSE = EQ(P("s"), V("nope"))

ITEM = from_python({
    "pk": "p",
    "s": "hello",
    "n": 5,
    "neg": Decimal("-1"),
    "half": Decimal("0.5"),
    "ten": 10,
    "one": 1,
    "zero": 0,
    "b": b"\x01\x02\x03",
    "hi": b"\x80",
    "lo": b"\x7f",
    "t": True,
    "f": False,
    "nul": None,
    "l": [2, "dog", 7, [1], {"k": "v"}],
    "m": {"x": 2, "y": {"z": "deep"}, "l": [1, 2]},
    "ss": {"a", "b", "c"},
    "ns": {1, 2, 3},
    "bs": {b"\x01", b"\x02"},
    "emoji": "a\U0001F600",
    "accent": "\u00e9",
    "fw": "\uff61",
    "empty": "",
    "el": [],
    "em": {},
})


# ------------------------------------------------------------------------ resolve

RESOLVE = [
    ("top", P("s"), "hello"),
    ("missing", P("nope"), MISSING),
    ("null exists", P("nul"), None),
    ("map key", P("m", "x"), Decimal(2)),
    ("deep", P("m", "y", "z"), "deep"),
    ("list index", P("l", 1), "dog"),
    ("list in list", P("l", 3, 0), Decimal(1)),
    ("map in list", P("l", 4, "k"), "v"),
    ("list in map", P("m", "l", 1), Decimal(2)),
    ("past the end", P("l", 5), MISSING),
    ("dot on string", P("s", "x"), MISSING),
    ("dot on list", P("l", "x"), MISSING),
    ("index on map", P("m", 0), MISSING),
    ("index on string", P("s", 0), MISSING),
    ("index on set", P("ss", 0), MISSING),
    ("below missing", P("nope", "a", 0), MISSING),
    ("missing map key", P("m", "q"), MISSING),
    ("index on empty list", P("el", 0), MISSING),
]


@pytest.mark.parametrize("path, expected", [pytest.param(p, e, id=i) for i, p, e in RESOLVE])
def test_resolve(path, expected):
    result = resolve(ITEM, path)
    if expected is MISSING:
        assert result is MISSING
    else:
        assert values_equal(result, expected)


# --------------------------------------------------------------------- conditions

CONDITIONS = [
    # ---- =
    ("eq S", EQ(P("s"), V("hello")), True),
    ("eq S differs", EQ(P("s"), V("hell")), False),
    ("eq N", EQ(P("n"), V(5)), True),
    ("eq N numeric 5.0", EQ(P("n"), V(Decimal("5.0"))), True),
    ("eq N vs S", EQ(P("n"), V("5")), False),
    ("eq B", EQ(P("b"), V(b"\x01\x02\x03")), True),
    ("eq missing", EQ(P("nope"), V("x")), False),
    ("eq missing = missing is false", EQ(P("nope"), P("nope2")), False),
    ("eq NULL", EQ(P("nul"), V(None)), True),
    ("eq missing is not NULL", EQ(P("nope"), V(None)), False),
    ("eq S is not NULL", EQ(P("s"), V(None)), False),
    ("eq BOOL", EQ(P("t"), V(True)), True),
    ("eq BOOL false", EQ(P("f"), V(False)), True),
    ("eq N 1 is not true", EQ(P("one"), V(True)), False),
    ("eq true is not N 1", EQ(P("t"), V(1)), False),
    ("eq false is not N 0", EQ(P("f"), V(0)), False),
    ("eq N 0", EQ(P("zero"), V(0)), True),
    ("eq N 1", EQ(P("one"), V(1)), True),
    ("eq SS unordered", EQ(P("ss"), V({"c", "b", "a"})), True),
    ("eq SS subset", EQ(P("ss"), V({"a", "b"})), False),
    ("eq NS", EQ(P("ns"), V({3, 2, 1})), True),
    ("eq L ordered", EQ(P("l"), V([2, "dog", 7, [1], {"k": "v"}])), True),
    ("eq L other order", EQ(P("l"), V(["dog", 2, 7, [1], {"k": "v"}])), False),
    ("eq M by content", EQ(P("m"), V({"l": [1, 2], "y": {"z": "deep"}, "x": 2})), True),
    ("eq M missing key", EQ(P("m"), V({"x": 2})), False),
    ("eq L vs S", EQ(P("l"), V("dog")), False),
    ("eq nested", EQ(P("m", "x"), V(2)), True),
    ("eq list element", EQ(P("l", 1), V("dog")), True),
    ("eq past end", EQ(P("l", 9), V("dog")), False),
    ("eq dot on string", EQ(P("s", "x"), V("h")), False),
    ("eq value on left", EQ(V("hello"), P("s")), True),
    ("eq path = path", EQ(P("m", "x"), P("l", 0)), True),
    ("eq path = path differs", EQ(P("n"), P("one")), False),
    ("eq value = value", EQ(V(1), V(1)), True),
    ("eq empty S", EQ(P("empty"), V("")), True),
    # ---- <>
    ("ne same", C("<>", P("s"), V("hello")), False),
    ("ne other", C("<>", P("s"), V("x")), True),
    ("ne missing (69)", C("<>", P("q"), V("x")), True),
    ("ne two missing", C("<>", P("q"), P("z")), True),
    ("ne other type", C("<>", P("n"), V("5")), True),
    ("ne bool vs N", C("<>", P("t"), V(1)), True),
    ("ne NULL", C("<>", P("nul"), V(None)), False),
    ("ne missing vs NULL", C("<>", P("nope"), V(None)), True),
    ("ne M", C("<>", P("m"), V({"x": 2})), True),
    # ---- ordering
    ("lt N", C("<", P("n"), V(6)), True),
    ("lt N equal", C("<", P("n"), V(5)), False),
    ("le N", C("<=", P("n"), V(5)), True),
    ("gt N", C(">", P("n"), V(4)), True),
    ("gt N equal", C(">", P("n"), V(5)), False),
    ("ge N", C(">=", P("n"), V(5)), True),
    ("N numeric not lexical", C(">", P("ten"), V(9)), True),
    ("N negative", C("<", P("neg"), P("half")), True),
    ("N fraction", C("<", P("half"), V(1)), True),
    ("lt S", C("<", P("s"), V("help")), True),
    ("gt S", C(">", P("s"), V("a")), True),
    ("S by code point: z < e-acute", C("<", V("z"), P("accent")), True),
    ("S UTF-8 order, not UTF-16", C("<", P("fw"), V("\U0001F600")), True),
    ("lt B", C("<", P("b"), V(b"\x01\x02\x04")), True),
    ("B unsigned", C("<", P("lo"), P("hi")), True),
    ("value on left mirrored", C(">", V(6), P("n")), True),
    ("value on left mirrored false", C("<", V(6), P("n")), False),
    ("value on left S", C("<", V("a"), P("s")), True),
    ("value on left <=", C("<=", V(5), P("n")), True),
    ("value on left >=", C(">=", V(4), P("n")), False),
    ("N vs S is false (68)", C("<", P("n"), V("17")), False),
    ("N vs L is false at run time (68)", C("<", P("n"), V([1])), False),
    ("two missing < (69)", C("<", P("q"), P("z")), False),
    ("two missing <= (69)", C("<=", P("q"), P("z")), False),
    ("two missing > (69)", C(">", P("q"), P("z")), False),
    ("two missing >= (69)", C(">=", P("q"), P("z")), False),
    ("missing vs value", C(">=", P("q"), V(1)), False),
    ("BOOL not ordered", C("<=", P("t"), V(True)), False),
    ("NULL not ordered", C("<=", P("nul"), V(None)), False),
    ("set not ordered", C("<=", P("ns"), V({1, 2, 3})), False),
    ("list not ordered", C(">=", P("l"), P("l")), False),
    ("S vs N", C("<", P("s"), V(5)), False),
    ("nested ordering", C(">", P("m", "x"), V(1)), True),
    ("path vs path ordering", C("<", P("m", "x"), P("n")), True),
    # ---- BETWEEN
    ("between inclusive high", BETWEEN(P("n"), V(1), V(5)), True),
    ("between inclusive low", BETWEEN(P("n"), V(5), V(9)), True),
    ("between point", BETWEEN(P("n"), V(5), V(5)), True),
    ("between below", BETWEEN(P("n"), V(6), V(9)), False),
    ("between S", BETWEEN(P("s"), V("a"), V("z")), True),
    ("between B", BETWEEN(P("b"), V(b"\x01"), V(b"\x02")), True),
    ("between mixed bounds", BETWEEN(P("n"), V(1), V("z")), False),
    ("between wrong type", BETWEEN(P("s"), V(1), V(9)), False),
    ("between missing (69)", BETWEEN(P("q"), V(1), V(9)), False),
    ("between missing bound", BETWEEN(P("n"), P("q"), V(9)), False),
    ("between path bounds", BETWEEN(P("n"), P("one"), P("l", 2)), True),
    ("between reversed path bounds", BETWEEN(P("n"), P("m", "x"), P("one")), False),
    ("between nested subject", BETWEEN(P("m", "x"), V(1), V(3)), True),
    ("between value subject", BETWEEN(V(3), P("one"), P("n")), True),
    ("between BOOL", BETWEEN(P("t"), V(False), V(True)), False),
    # ---- IN
    ("in N", IN(P("n"), V(1), V(5)), True),
    ("in N absent", IN(P("n"), V(1), V(2)), False),
    ("in S vs N", IN(P("n"), V("5")), False),
    ("in S", IN(P("s"), V("a"), V("hello")), True),
    ("in missing", IN(P("nope"), V(1), V(None)), False),
    ("in bool is not 1", IN(P("t"), V(1)), False),
    ("in 1 is not bool", IN(P("one"), V(True)), False),
    ("in NULL", IN(P("nul"), V(None)), True),
    ("in NS", IN(P("ns"), V({1, 2, 3})), True),
    ("in L candidate", IN(P("l"), V("x"), V([2, "dog", 7, [1], {"k": "v"}])), True),
    ("in M candidate", IN(P("m", "y"), V({"z": "deep"})), True),
    ("in nested subject", IN(P("m", "x"), V(2), V(3)), True),
    ("in path candidate", IN(P("n"), P("m", "x"), V(5)), True),
    ("in path candidate missing", IN(P("n"), P("q")), False),
    ("in single", IN(P("s"), V("hello")), True),
    # ---- attribute_exists / attribute_not_exists
    ("exists", F("attribute_exists", P("s")), True),
    ("exists missing", F("attribute_exists", P("nope")), False),
    ("exists NULL", F("attribute_exists", P("nul")), True),
    ("exists nested", F("attribute_exists", P("m", "y", "z")), True),
    ("exists nested missing", F("attribute_exists", P("m", "q")), False),
    ("exists in list", F("attribute_exists", P("l", 4, "k")), True),
    ("exists past end", F("attribute_exists", P("l", 5)), False),
    ("exists dot on string", F("attribute_exists", P("s", "x")), False),
    ("not exists", F("attribute_not_exists", P("nope")), True),
    ("not exists present", F("attribute_not_exists", P("s")), False),
    ("not exists NULL", F("attribute_not_exists", P("nul")), False),
    ("not exists nested", F("attribute_not_exists", P("m", "q")), True),
    ("not exists past end", F("attribute_not_exists", P("l", 5)), True),
    # ---- attribute_type
    *[(f"type {tag}", F("attribute_type", P(name), V(tag)), True) for name, tag in (
        ("s", "S"), ("n", "N"), ("b", "B"), ("t", "BOOL"), ("nul", "NULL"), ("l", "L"),
        ("m", "M"), ("ss", "SS"), ("ns", "NS"), ("bs", "BS"), ("el", "L"), ("em", "M"))],
    ("type mismatch", F("attribute_type", P("s"), V("N")), False),
    ("type SS is not S", F("attribute_type", P("ss"), V("S")), False),
    ("type missing", F("attribute_type", P("nope"), V("NULL")), False),
    ("type nested", F("attribute_type", P("m", "l"), V("L")), True),
    ("type from path", F("attribute_type", P("s"), P("m", "y", "z")), False),
    # ---- begins_with
    ("begins S", F("begins_with", P("s"), V("he")), True),
    ("begins S whole", F("begins_with", P("s"), V("hello")), True),
    ("begins S no", F("begins_with", P("s"), V("lo")), False),
    ("begins S longer", F("begins_with", P("s"), V("hello!")), False),
    ("begins B", F("begins_with", P("b"), V(b"\x01\x02")), True),
    ("begins B no", F("begins_with", P("b"), V(b"\x02")), False),
    ("begins B with S", F("begins_with", P("b"), V("x")), False),
    ("begins S with B", F("begins_with", P("s"), V(b"h")), False),
    ("begins N", F("begins_with", P("n"), V("5")), False),
    ("begins missing", F("begins_with", P("nope"), V("x")), False),
    ("begins list", F("begins_with", P("l"), V("2")), False),
    ("begins value first", F("begins_with", V("hello world"), P("s")), True),
    ("begins path prefix", F("begins_with", P("m", "y", "z"), P("m", "y", "z")), True),
    # ---- contains
    ("contains S", F("contains", P("s"), V("ell")), True),
    ("contains S no", F("contains", P("s"), V("z")), False),
    ("contains S with N", F("contains", P("s"), V(5)), False),
    ("contains B", F("contains", P("b"), V(b"\x02\x03")), True),
    ("contains B not contiguous", F("contains", P("b"), V(b"\x01\x03")), False),
    ("contains B with S", F("contains", P("b"), V("\x01")), False),
    ("contains SS", F("contains", P("ss"), V("a")), True),
    ("contains SS no", F("contains", P("ss"), V("z")), False),
    ("contains SS substring is not member", F("contains", P("ss"), V("")), False),
    ("contains NS", F("contains", P("ns"), V(2)), True),
    ("contains NS 2.0", F("contains", P("ns"), V(Decimal("2.0"))), True),
    ("contains NS with S", F("contains", P("ns"), V("2")), False),
    ("contains NS with BOOL", F("contains", P("ns"), V(True)), False),
    ("contains BS", F("contains", P("bs"), V(b"\x01")), True),
    ("contains BS with S", F("contains", P("bs"), V("\x01")), False),
    ("contains SS with set", F("contains", P("ss"), V({"a"})), False),
    ("contains L N (70)", F("contains", P("l"), V(7)), True),
    ("contains L S", F("contains", P("l"), V("dog")), True),
    ("contains L L", F("contains", P("l"), V([1])), True),
    ("contains L M", F("contains", P("l"), V({"k": "v"})), True),
    ("contains L no", F("contains", P("l"), V(8)), False),
    ("contains L no substring", F("contains", P("l"), V("do")), False),
    ("contains L path element", F("contains", P("l"), P("m", "x")), True),
    ("contains M", F("contains", P("m"), V("x")), False),
    ("contains N", F("contains", P("n"), V(5)), False),
    ("contains missing", F("contains", P("nope"), V("x")), False),
    ("contains missing element", F("contains", P("l"), P("nope")), False),
    ("contains empty list", F("contains", P("el"), V(1)), False),
    # ---- size
    ("size S (70)", EQ(SIZE(P("s")), V(5)), True),
    ("size S UTF-16 astral counts 2", EQ(SIZE(P("emoji")), V(3)), True),
    ("size S accent counts 1", EQ(SIZE(P("accent")), V(1)), True),
    ("size empty S", EQ(SIZE(P("empty")), V(0)), True),
    ("size B", EQ(SIZE(P("b")), V(3)), True),
    ("size SS", EQ(SIZE(P("ss")), V(3)), True),
    ("size NS", EQ(SIZE(P("ns")), V(3)), True),
    ("size BS", EQ(SIZE(P("bs")), V(2)), True),
    ("size L", EQ(SIZE(P("l")), V(5)), True),
    ("size empty L", EQ(SIZE(P("el")), V(0)), True),
    ("size M (70)", EQ(SIZE(P("m")), V(3)), True),
    ("size nested M", EQ(SIZE(P("m", "y")), V(1)), True),
    ("size N has no value (70)", EQ(SIZE(P("n")), V(1)), False),
    ("size BOOL has no value", EQ(SIZE(P("t")), V(1)), False),
    ("size NULL has no value", EQ(SIZE(P("nul")), V(1)), False),
    ("size missing has no value", EQ(SIZE(P("nope")), V(0)), False),
    ("size no value <> is true", C("<>", SIZE(P("n")), V(1)), True),
    ("size placeholder", EQ(SIZE(V("abc")), V(3)), True),
    ("size ordering", C(">", SIZE(P("s")), V(4)), True),
    ("size vs S", EQ(SIZE(P("s")), V("5")), False),
    ("size between", BETWEEN(SIZE(P("l")), V(1), V(5)), True),
    ("size in", IN(SIZE(P("ss")), V(1), V(3)), True),
    ("size vs size", EQ(SIZE(P("s")), SIZE(P("l"))), True),
    ("size vs path", C("<", SIZE(P("m")), P("n")), True),
    # ---- predicates as BOOL operands (PartiQL, partiql-dynamodb §4.1)
    ("pred = true", EQ(Predicate(F("attribute_exists", P("s"))), V(True)), True),
    ("pred = false", EQ(Predicate(F("attribute_exists", P("nope"))), V(False)), True),
    ("pred = 1 is false", EQ(Predicate(F("attribute_exists", P("s"))), V(1)), False),
    ("pred IN [true,false]", IN(Predicate(F("attribute_exists", P("nope"))), V(True), V(False)), True),
    ("pred between = true", EQ(Predicate(BETWEEN(P("n"), V(0), V(5))), V(True)), True),
    ("pred = BOOL attribute", EQ(Predicate(F("attribute_exists", P("s"))), P("t")), True),
    ("pred as condition", Predicate(TRUE), True),
    # ---- AND / OR / NOT
    ("and TT", AND(TRUE, TRUE), True),
    ("and TF", AND(TRUE, FALSE), False),
    ("and FT", AND(FALSE, TRUE), False),
    ("and TTF", AND(TRUE, TRUE, FALSE), False),
    ("and TTT", AND(TRUE, TRUE, TRUE), True),
    ("or FT", OR(FALSE, TRUE), True),
    ("or FF", OR(FALSE, FALSE), False),
    ("or FFT", OR(FALSE, FALSE, TRUE), True),
    ("or FFF", OR(FALSE, FALSE, FALSE), False),
    ("not F", NOT(FALSE), True),
    ("not T", NOT(TRUE), False),
    ("not of impossible comparison is true", NOT(C("<", P("n"), V("x"))), True),
    ("not missing = ", NOT(EQ(P("nope"), V(1))), True),
    ("a or b and c", OR(TRUE, AND(FALSE, TRUE)), True),
    ("(a or b) and c", AND(OR(TRUE, FALSE), FALSE), False),
    ("nested not", NOT(NOT(TRUE)), True),
    ("none is no condition", None, True),
]


@pytest.mark.parametrize("condition, expected", [pytest.param(c, e, id=i) for i, c, e in CONDITIONS])
def test_matches(condition, expected):
    assert matches(condition, ITEM) is expected
    assert compile_condition(condition)(ITEM) is expected


ABSENT = [
    ("not exists pk (66)", F("attribute_not_exists", P("pk")), True),
    ("exists pk", F("attribute_exists", P("pk")), False),
    ("eq", EQ(P("pk"), V("x")), False),
    ("ne", C("<>", P("pk"), V("x")), True),
    ("lt", C("<", P("pk"), V("x")), False),
    ("size", EQ(SIZE(P("pk")), V(0)), False),
    ("contains", F("contains", P("l"), V(1)), False),
    ("none", None, True),
]


@pytest.mark.parametrize("condition, expected", [pytest.param(c, e, id=i) for i, c, e in ABSENT])
def test_matches_absent_item(condition, expected):
    assert matches(condition, {}) is expected


SPEC_CASES = [
    # item-api §9.6 case 67: s = "cat"; condition s = :v1 with :v1 "dog" fails.
    ("67", {"pk": "c2", "s": "cat"}, EQ(P("s"), V("dog")), False),
    ("68 type mismatch is false", {"pk": "c3", "a": 1}, C("<", P("a"), V("17")), False),
    ("69 ne unset", {"pk": "c4"}, C("<>", P("q"), V("x")), True),
    *[(f"69 {op} two unset", {"pk": "c4"}, C(op, P("q"), P("z")), False) for op in ("<", "<=", ">", ">=")],
    ("69 between unset", {"pk": "c4"}, BETWEEN(P("q"), P("z"), P("z")), False),
    ("70 size S", {"pk": "c5", "a": "hello"}, EQ(SIZE(P("a")), V(5)), True),
    ("70 contains L", {"pk": "c5", "c": [2, "dog", 7]}, F("contains", P("c"), V(7)), True),
    ("70 size M", {"pk": "c5", "e": {"x": 2, "y": {"q": 1}}}, EQ(SIZE(P("e")), V(2)), True),
    ("70 size N", {"pk": "c5", "f": 1}, EQ(SIZE(P("f")), V(1)), False),
    # partiql-dynamodb C-121 / C-122 (conditions of UPDATE ... WHERE on Ha)
    ("C-121", {"pk": "a", "n": 5}, EQ(P("n"), V(999)), False),
    ("C-122 exists", {"pk": "a", "n": 5}, F("attribute_exists", P("n")), True),
    ("C-122 not exists", {"pk": "a", "n": 5}, F("attribute_not_exists", P("n")), False),
]


@pytest.mark.parametrize("item, condition, expected",
                         [pytest.param(from_python(it), c, e, id=i) for i, it, c, e in SPEC_CASES])
def test_spec_conditions(item, condition, expected):
    assert matches(condition, item) is expected


# ------------------------------------------------------------------------ operands

OPERANDS = [
    ("path", P("m", "x"), Decimal(2)),
    ("missing path", P("nope"), MISSING),
    ("value", V("v"), "v"),
    ("size", SIZE(P("s")), Decimal(5)),
    ("size of N", SIZE(P("n")), MISSING),
    ("size of missing", SIZE(P("nope")), MISSING),
    ("if_not_exists present", F("if_not_exists", P("n"), V(1)), Decimal(5)),
    ("if_not_exists missing", F("if_not_exists", P("nope"), V(1)), Decimal(1)),
    ("if_not_exists NULL exists", F("if_not_exists", P("nul"), V(1)), None),
    ("if_not_exists both missing", F("if_not_exists", P("nope"), P("nope2")), MISSING),
    ("list_append", F("list_append", P("m", "l"), V([3])), [Decimal(1), Decimal(2), Decimal(3)]),
    ("list_append prepend", F("list_append", V([0]), P("m", "l")), [Decimal(0), Decimal(1), Decimal(2)]),
    ("list_append missing", F("list_append", P("nope"), V([3])), MISSING),
    ("list_append non-list", F("list_append", P("s"), V([3])), MISSING),
    ("plus", Arithmetic("+", P("n"), V(1)), Decimal(6)),
    ("minus", Arithmetic("-", P("n"), V(1)), Decimal(4)),
    ("plus missing", Arithmetic("+", P("nope"), V(1)), MISSING),
    ("plus S", Arithmetic("+", P("s"), V(1)), MISSING),
    ("plus overflow has no value", Arithmetic("+", V(Decimal("9.9e125")), V(Decimal("9.9e125"))), MISSING),
    ("predicate", Predicate(F("attribute_exists", P("s"))), True),
    ("predicate false", Predicate(EQ(P("s"), V("x"))), False),
    ("bare boolean function", F("attribute_exists", P("nope")), False),
]


@pytest.mark.parametrize("operand, expected", [pytest.param(o, e, id=i) for i, o, e in OPERANDS])
def test_operand_value(operand, expected):
    result = operand_value(operand, ITEM)
    if expected is MISSING:
        assert result is MISSING
    else:
        assert values_equal(result, expected)


def test_size_is_a_normalised_number():
    assert str(size_of("x" * 10)) == str(normalize_number(Decimal(10)))
    assert size_of(Decimal(1)) is MISSING
    assert size_of(MISSING) is MISSING


def test_compiled_condition_is_reused():
    condition = AND(EQ(P("s"), V("hello")), C(">", P("n"), V(1)))
    assert compile_condition(condition) is compile_condition(condition)


def test_unhashable_literals_compile():
    condition = EQ(P("l"), Value([Decimal(1)]))
    assert matches(condition, {"l": [Decimal(1)]}) is True


def test_strict_operand_is_separate_from_lenient():
    assert compile_operand(P("nope"))({}) is MISSING


def test_unknown_nodes_are_refused():
    with pytest.raises(TypeError):
        compile_condition("a = 1")
    with pytest.raises(ValueError):
        compile_condition(F("size", P("s")))


# ------------------------------------------------------------------------ properties

numbers = st.one_of(
    st.sampled_from([Decimal(0), Decimal(1), Decimal(-1)]),
    st.builds(lambda i, e: normalize_number(Decimal(i).scaleb(e)),
              st.integers(-10_000, 10_000), st.integers(-4, 4)),
)
scalars = st.one_of(st.text(max_size=4), numbers, st.binary(max_size=3), st.booleans(), st.none())
sets = st.one_of(
    st.frozensets(st.text(max_size=3), min_size=1, max_size=3),
    st.frozensets(numbers, min_size=1, max_size=3),
    st.frozensets(st.binary(max_size=2), min_size=1, max_size=3),
)
values = st.recursive(
    st.one_of(scalars, sets),
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(st.text(max_size=2), children, max_size=3)),
    max_leaves=6,
)
maybe_values = st.one_of(values, st.just(MISSING))
OPS = ("=", "<>", "<", "<=", ">", ">=")
_PY_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def reference(op, a, b) -> bool:
    """A naive oracle of item-api §3.8 comparisons."""
    if op == "=":
        return a is not MISSING and b is not MISSING and values_equal(a, b)
    if op == "<>":
        return not reference("=", a, b)
    return comparable(a, b) and _PY_ORDER[op](a, b)


def _item(name, value) -> dict:
    return {} if value is MISSING else {name: value}


@settings(max_examples=300, deadline=None)
@given(a=maybe_values, b=maybe_values)
def test_ne_is_the_negation_of_eq(a, b):
    item = {**_item("a", a), **_item("b", b)}
    for left, right in ((P("a"), P("b")), (P("a"), Value(b)), (Value(a), P("b"))):
        if (left.__class__ is Value and left.value is MISSING) or (right.__class__ is Value and right.value is MISSING):
            continue
        assert matches(C("<>", left, right), item) is (not matches(EQ(left, right), item))


@settings(max_examples=300, deadline=None)
@given(x=maybe_values, constant=values, op=st.sampled_from(OPS))
def test_fast_and_generic_paths_agree_with_the_oracle(x, constant, op):
    mirrored = {"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
    expected = reference(op, x, constant)
    top, nested = _item("a", x), {"m": _item("a", x)}
    assert matches(C(op, P("a"), Value(constant)), top) is expected           # fast path
    assert matches(C(mirrored, Value(constant), P("a")), top) is expected     # fast path, mirrored
    assert matches(C(op, P("m", "a"), Value(constant)), nested) is expected   # generic path
    assert matches(C(op, P("a"), P("c")), {**top, "c": constant}) is expected  # path vs path


@settings(max_examples=200, deadline=None)
@given(a=st.one_of(st.text(max_size=4), numbers, st.binary(max_size=3)),
       b=st.one_of(st.text(max_size=4), numbers, st.binary(max_size=3)))
def test_ordering_is_a_trichotomy_for_comparable_values(a, b):
    item = {"a": a, "b": b}
    outcomes = [matches(C(op, P("a"), P("b")), item) for op in ("<", "=", ">")]
    if comparable(a, b):
        assert outcomes.count(True) == 1
    else:
        assert outcomes == [False, False, False]


@settings(max_examples=200, deadline=None)
@given(x=maybe_values, low=values, high=values)
def test_between_is_ge_and_le(x, low, high):
    item = _item("a", x)
    expected = reference(">=", x, low) and reference("<=", x, high)
    assert matches(BETWEEN(P("a"), Value(low), Value(high)), item) is expected
    assert matches(BETWEEN(P("m", "a"), Value(low), Value(high)), {"m": item}) is expected


@settings(max_examples=200, deadline=None)
@given(x=maybe_values, candidates=st.lists(values, min_size=1, max_size=4))
def test_in_is_any_eq(x, candidates):
    item = _item("a", x)
    expected = any(reference("=", x, c) for c in candidates)
    assert matches(IN(P("a"), *map(Value, candidates)), item) is expected
    assert matches(IN(P("a"), *(Value(c) for c in candidates), P("never")), item) is expected
