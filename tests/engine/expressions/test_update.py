"""UpdateExpression application and UPDATED_OLD / UPDATED_NEW (item-api §3.10, §5.9, §9.5;
partiql-dynamodb §2.5, C-111..C-132).

Rows: (id, item before, actions, expected item after | Err(message)).
"""

from __future__ import annotations

import copy
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partiql.engine.errors import ValidationException
from partiql.engine.expressions.paths import resolve
from partiql.engine.expressions.model import (
    Add,
    Arithmetic,
    Call,
    Delete,
    Path,
    Remove,
    Set,
    Update,
    Value,
)
from partiql.engine.expressions.update import apply_update, updated_values, written_paths
from partiql.engine.types import MISSING, from_python, nesting_problem, values_equal

INVALID_PATH = "The document path provided in the update expression is invalid for update"
MISSING_ATTRIBUTE = "The provided expression refers to an attribute that does not exist in the item"
INCORRECT_TYPE = "An operand in the update expression has an incorrect data type"
NESTING = "Nesting Levels have exceeded supported limits"
OVERFLOW = "Number overflow. Attempting to store a number with magnitude larger than supported range"
DIGITS = "Attempting to store more than 38 significant digits in a Number"


# ----------------------------------------------------------------- constructors

class Err:
    def __init__(self, message: str):
        self.message = message

    def __repr__(self) -> str:
        return f"Err({self.message!r})"


def P(*elements) -> Path:
    return Path(tuple(elements))


def V(value) -> Value:
    return Value(from_python(value))


def U(*actions) -> Update:
    return Update(actions)


def SET(path, value) -> Set:
    return Set(path, value)


def REMOVE(path) -> Remove:
    return Remove(path)


def ADD(path, value) -> Add:
    return Add(path, value)


def DELETE(path, value) -> Delete:
    return Delete(path, value)


def PLUS(left, right) -> Arithmetic:
    return Arithmetic("+", left, right)


def MINUS(left, right) -> Arithmetic:
    return Arithmetic("-", left, right)


def IF_NOT_EXISTS(path, value) -> Call:
    return Call("if_not_exists", (path, value))


def LIST_APPEND(first, second) -> Call:
    return Call("list_append", (first, second))


def nested_maps(levels: int) -> dict:
    value: dict = {"leaf": "x"}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


# Fixture Ha of partiql-dynamodb §9.0, plus a few extras.
HA = {"pk": "a", "n": 5, "s": "str", "ss": {"a", "b", "c"}, "m": {"sub": "x"}, "l": ["a", "b"],
      "nul": None, "flag": True}
ABC = {"pk": "p", "l": ["a", "b", "c"], "m": {"x": 1, "y": 2}, "s": "hi", "n": 5, "ns": {1, 2, 3}}

UPDATES = [
    # ---------------------------------------------------------------- SET
    ("set new on absent", {}, [SET(P("a"), V(1))], {"a": 1}),
    ("set overwrite", ABC, [SET(P("s"), V("yo"))], {**ABC, "s": "yo"}),
    ("set several (C-130)", HA, [SET(P("a"), V(1)), SET(P("b"), V(2))], {**HA, "a": 1, "b": 2}),
    ("set swap reads the old item", {"a": 1, "b": 2}, [SET(P("a"), P("b")), SET(P("b"), P("a"))],
     {"a": 2, "b": 1}),
    ("set copy nested", ABC, [SET(P("c"), P("m", "x"))], {**ABC, "c": 1}),
    ("set copy list element", ABC, [SET(P("c"), P("l", 2))], {**ABC, "c": "c"}),
    ("set nested existing key (C-125)", HA, [SET(P("m", "sub"), V("y"))], {**HA, "m": {"sub": "y"}}),
    ("set nested new key", HA, [SET(P("m", "new"), V("v"))], {**HA, "m": {"sub": "x", "new": "v"}}),
    ("set two keys of one map", {"d": {}}, [SET(P("d", "hello"), V("h")), SET(P("d", "world"), V("w"))],
     {"d": {"hello": "h", "world": "w"}}),
    ("set deep", {"a": {"b": [{"c": 1}]}}, [SET(P("a", "b", 0, "c"), V(2))], {"a": {"b": [{"c": 2}]}}),
    ("set NULL", ABC, [SET(P("s"), V(None))], {**ABC, "s": None}),
    ("set map value", {}, [SET(P("m"), V({"a": [1, {"b": None}]}))], {"m": {"a": [1, {"b": None}]}}),
    ("set parent missing", ABC, [SET(P("nope", "a"), V(1))], Err(INVALID_PATH)),
    ("set parent missing on absent item (57)", {}, [SET(P("b", "a"), V("x"))], Err(INVALID_PATH)),
    ("set parent is a string", ABC, [SET(P("s", "a"), V(1))], Err(INVALID_PATH)),
    ("set index on a map", ABC, [SET(P("m", 0), V(1))], Err(INVALID_PATH)),
    ("set key on a list", ABC, [SET(P("l", "a"), V(1))], Err(INVALID_PATH)),
    ("set index on a set", ABC, [SET(P("ns", 0), V(1))], Err(INVALID_PATH)),
    ("set below a number", {"l": [1]}, [SET(P("l", 0, "x"), V(1))], Err(INVALID_PATH)),
    ("set below past the end", ABC, [SET(P("l", 9, "x"), V(1))], Err(INVALID_PATH)),
    ("set index of missing list (C-129)", HA, [SET(P("newlist", 0), V("x"))], Err(INVALID_PATH)),
    ("set list element", ABC, [SET(P("l", 1), V("x"))], {**ABC, "l": ["a", "x", "c"]}),
    ("set past the end appends (62)", {"pk": "p", "a": ["one", "two", "three"]}, [SET(P("a", 7), V("four"))],
     {"pk": "p", "a": ["one", "two", "three", "four"]}),
    ("set past the end appends (C-129)", HA, [SET(P("l", 5), V("c"))], {**HA, "l": ["a", "b", "c"]}),
    ("set at length appends", ABC, [SET(P("l", 3), V("d"))], {**ABC, "l": ["a", "b", "c", "d"]}),
    ("appends in index order", ABC, [SET(P("l", 9), V("z")), SET(P("l", 5), V("y"))],
     {**ABC, "l": ["a", "b", "c", "y", "z"]}),
    ("append to empty list", {"l": []}, [SET(P("l", 0), V(1))], {"l": [1]}),
    ("set reads missing", ABC, [SET(P("c"), P("nope"))], Err(MISSING_ATTRIBUTE)),
    ("set reads missing on absent item (56)", {}, [SET(P("c"), P("b"))], Err(MISSING_ATTRIBUTE)),
    ("set reads past the end", ABC, [SET(P("c"), P("l", 5))], Err(MISSING_ATTRIBUTE)),
    ("value error before path error", {}, [SET(P("b", "a"), P("c"))], Err(MISSING_ATTRIBUTE)),
    ("errors in action order", ABC, [SET(P("x", "y"), V(1)), SET(P("c"), P("nope"))], Err(INVALID_PATH)),
    # if_not_exists
    ("if_not_exists missing", ABC, [SET(P("c"), IF_NOT_EXISTS(P("c"), V(0)))], {**ABC, "c": 0}),
    ("if_not_exists present", ABC, [SET(P("n"), IF_NOT_EXISTS(P("n"), V(0)))], ABC),
    ("if_not_exists NULL exists", {"a": None}, [SET(P("a"), IF_NOT_EXISTS(P("a"), V(0)))], {"a": None}),
    ("if_not_exists other path", ABC, [SET(P("c"), IF_NOT_EXISTS(P("q"), P("s")))], {**ABC, "c": "hi"}),
    ("if_not_exists fallback missing", ABC, [SET(P("c"), IF_NOT_EXISTS(P("q"), P("r")))], Err(MISSING_ATTRIBUTE)),
    ("if_not_exists counter", {"m": {}}, [SET(P("m", "cnt"), PLUS(IF_NOT_EXISTS(P("m", "cnt"), V(0)), V(1)))],
     {"m": {"cnt": 1}}),
    # + and -
    ("plus (C-111)", HA, [SET(P("n"), PLUS(P("n"), V(1)))], {**HA, "n": 6}),
    ("minus (C-111)", HA, [SET(P("n"), MINUS(P("n"), V(1)))], {**HA, "n": 4}),
    ("minus value first", ABC, [SET(P("n"), MINUS(V(1), P("n")))], {**ABC, "n": -4}),
    ("plus decimals", {}, [SET(P("n"), PLUS(V(Decimal("1.5")), V(Decimal("1.5"))))], {"n": 3}),
    ("plus two paths", ABC, [SET(P("c"), PLUS(P("n"), P("m", "y")))], {**ABC, "c": 7}),
    ("plus S left", ABC, [SET(P("n"), PLUS(P("s"), V(1)))], Err(INCORRECT_TYPE)),
    ("plus S right", ABC, [SET(P("n"), PLUS(V(1), P("s")))], Err(INCORRECT_TYPE)),
    ("plus set", ABC, [SET(P("n"), PLUS(P("ns"), V(1)))], Err(INCORRECT_TYPE)),
    ("plus NULL", {"a": None}, [SET(P("n"), MINUS(P("a"), V(1)))], Err(INCORRECT_TYPE)),
    ("plus missing left", ABC, [SET(P("n"), PLUS(P("q"), V(1)))], Err(MISSING_ATTRIBUTE)),
    ("plus missing right", ABC, [SET(P("n"), PLUS(V(1), P("q")))], Err(MISSING_ATTRIBUTE)),
    ("left type error wins", ABC, [SET(P("n"), PLUS(P("s"), P("q")))], Err(INCORRECT_TYPE)),
    ("left missing wins", ABC, [SET(P("n"), PLUS(P("q"), P("s")))], Err(MISSING_ATTRIBUTE)),
    ("plus overflow", {"n": Decimal("9.9e125")}, [SET(P("n"), PLUS(P("n"), P("n")))], Err(OVERFLOW)),
    ("plus 39 digits", {"n": Decimal("1e37")}, [SET(P("n"), PLUS(P("n"), V(Decimal("0.1"))))], Err(DIGITS)),
    ("minus to zero", ABC, [SET(P("n"), MINUS(P("n"), V(5)))], {**ABC, "n": 0}),
    # list_append
    ("list_append (C-113)", HA, [SET(P("l"), LIST_APPEND(P("l"), V(["c"])))], {**HA, "l": ["a", "b", "c"]}),
    ("list_append prepend", HA, [SET(P("l"), LIST_APPEND(V(["z"]), P("l")))], {**HA, "l": ["z", "a", "b"]}),
    ("list_append two paths", {"a": [1], "b": [2]}, [SET(P("c"), LIST_APPEND(P("a"), P("b")))],
     {"a": [1], "b": [2], "c": [1, 2]}),
    ("list_append missing", HA, [SET(P("l"), LIST_APPEND(P("q"), V([1])))], Err(MISSING_ATTRIBUTE)),
    ("list_append missing second", HA, [SET(P("l"), LIST_APPEND(P("l"), P("q")))], Err(MISSING_ATTRIBUTE)),
    ("list_append non-list", HA, [SET(P("l"), LIST_APPEND(P("s"), V([1])))], Err(INCORRECT_TYPE)),
    ("list_append non-list second", HA, [SET(P("l"), LIST_APPEND(P("l"), P("s")))], Err(INCORRECT_TYPE)),
    ("list_append set is not a list", HA, [SET(P("l"), LIST_APPEND(P("l"), P("ss")))], Err(INCORRECT_TYPE)),
    ("list_append if_not_exists", {}, [SET(P("l"), LIST_APPEND(IF_NOT_EXISTS(P("l"), V([])), V([1])))],
     {"l": [1]}),
    ("list_append nested target", {"m": {"l": [1]}}, [SET(P("m", "l"), LIST_APPEND(P("m", "l"), V([2])))],
     {"m": {"l": [1, 2]}}),
    # nesting
    ("31 nested maps fit", {}, [SET(P("a"), V(nested_maps(31)))], {"a": nested_maps(31)}),
    ("32 nested maps are too deep", {}, [SET(P("a"), V(nested_maps(32)))], Err(NESTING)),
    ("depth counts the target path", {"m": {}}, [SET(P("m", "a"), V(nested_maps(31)))], Err(NESTING)),
    # --------------------------------------------------------------- REMOVE
    ("remove", ABC, [REMOVE(P("s"))], {k: v for k, v in ABC.items() if k != "s"}),
    ("remove missing is a no-op", ABC, [REMOVE(P("q"))], ABC),
    ("remove nested", ABC, [REMOVE(P("m", "x"))], {**ABC, "m": {"y": 2}}),
    ("remove nested missing leaf", ABC, [REMOVE(P("m", "q"))], ABC),
    ("remove last key leaves {}", {"m": {"x": 1}}, [REMOVE(P("m", "x"))], {"m": {}}),
    ("remove below missing", ABC, [REMOVE(P("q", "x"))], Err(INVALID_PATH)),
    ("remove below a string", ABC, [REMOVE(P("s", "x"))], Err(INVALID_PATH)),
    ("remove index of a map", ABC, [REMOVE(P("m", 0))], Err(INVALID_PATH)),
    ("remove list element shifts", ABC, [REMOVE(P("l", 0))], {**ABC, "l": ["b", "c"]}),
    ("remove original positions", ABC, [REMOVE(P("l", 0)), REMOVE(P("l", 2))], {**ABC, "l": ["b"]}),
    ("remove original positions, any order", {"l": ["a", "b", "c", "d"]}, [REMOVE(P("l", 3)), REMOVE(P("l", 1))],
     {"l": ["a", "c"]}),
    ("remove past the end ignored", ABC, [REMOVE(P("l", 9))], ABC),
    ("remove past the end with another", ABC, [REMOVE(P("l", 9)), REMOVE(P("l", 1))], {**ABC, "l": ["a", "c"]}),
    ("remove last element leaves []", {"l": ["a"]}, [REMOVE(P("l", 0))], {"l": []}),
    ("remove and set in one list", ABC, [REMOVE(P("l", 0)), SET(P("l", 1), V("x"))], {**ABC, "l": ["x", "c"]}),
    ("remove and append in one list", ABC, [REMOVE(P("l", 0)), SET(P("l", 5), V("z"))],
     {**ABC, "l": ["b", "c", "z"]}),
    ("remove nested list element", {"a": {"c": [1, 2, 3]}}, [REMOVE(P("a", "c", 1))], {"a": {"c": [1, 3]}}),
    ("remove in list and below it", {"l": [{"x": 1, "y": 2}, 5]}, [REMOVE(P("l", 0, "x")), REMOVE(P("l", 1))],
     {"l": [{"y": 2}]}),
    ("remove list element and attribute (65)",
     {"pk": "p", "list": [{"a": 1}, {"b": 2}], "some_param": None},
     [REMOVE(P("list", 0)), REMOVE(P("some_param"))], {"pk": "p", "list": [{"b": 2}]}),
    ("remove on absent item (60)", {}, [REMOVE(P("b"))], {}),
    ("remove nested on absent item", {}, [REMOVE(P("b", "c", 0))], {}),
    ("set and remove", ABC, [SET(P("c"), P("s")), REMOVE(P("s"))],
     {**{k: v for k, v in ABC.items() if k != "s"}, "c": "hi"}),
    # ------------------------------------------------------------------ ADD
    ("add N on absent (64)", {}, [ADD(P("n"), V(5))], {"n": 5}),
    ("add N again (64)", {"n": 5}, [ADD(P("n"), V(5))], {"n": 10}),
    ("add SS onto N (64)", {"n": 10}, [ADD(P("n"), V({"x"}))], Err(INCORRECT_TYPE)),
    ("add negative", {"n": 5}, [ADD(P("n"), V(-5))], {"n": 0}),
    ("add to SS (C-114)", HA, [ADD(P("ss"), V({"d"}))], {**HA, "ss": {"a", "b", "c", "d"}}),
    ("add existing member (C-114)", HA, [ADD(P("ss"), V({"a"}))], HA),
    ("add creates set (C-115)", HA, [ADD(P("nss"), V({"x"}))], {**HA, "nss": {"x"}}),
    ("add N into SS (C-119)", HA, [ADD(P("ss"), V({1}))], Err(INCORRECT_TYPE)),
    ("add N onto set", HA, [ADD(P("ss"), V(1))], Err(INCORRECT_TYPE)),
    ("add NS", ABC, [ADD(P("ns"), V({Decimal("3.0"), 4}))], {**ABC, "ns": {1, 2, 3, 4}}),
    ("add BS", {"bs": {b"\x01"}}, [ADD(P("bs"), V({b"\x02"}))], {"bs": {b"\x01", b"\x02"}}),
    ("add onto S", ABC, [ADD(P("s"), V(1))], Err(INCORRECT_TYPE)),
    ("add onto L", ABC, [ADD(P("l"), V(1))], Err(INCORRECT_TYPE)),
    ("add S value", ABC, [ADD(P("n"), V("x"))], Err(INCORRECT_TYPE)),
    ("add nested created", ABC, [ADD(P("m", "z"), V(1))], {**ABC, "m": {"x": 1, "y": 2, "z": 1}}),
    ("add nested existing", ABC, [ADD(P("m", "x"), V(1))], {**ABC, "m": {"x": 2, "y": 2}}),
    ("add list element", {"l": [1, 2]}, [ADD(P("l", 1), V(1))], {"l": [1, 3]}),
    ("add past the end appends", {"l": [1]}, [ADD(P("l", 4), V(1))], {"l": [1, 1]}),
    ("add below missing", ABC, [ADD(P("q", "z"), V(1))], Err(INVALID_PATH)),
    ("add overflow", {"n": Decimal("9.9e125")}, [ADD(P("n"), V(Decimal("9.9e125")))], Err(OVERFLOW)),
    # --------------------------------------------------------------- DELETE
    ("delete member", HA, [DELETE(P("ss"), V({"a"}))], {**HA, "ss": {"b", "c"}}),
    ("delete absent member", HA, [DELETE(P("ss"), V({"z"}))], HA),
    ("delete every member (C-116)", HA, [DELETE(P("ss"), V({"a", "b", "c"}))],
     {k: v for k, v in HA.items() if k != "ss"}),
    ("delete last member (63)", {"pk": "p", "a": {"dog"}, "b": "hi"}, [DELETE(P("a"), V({"dog"}))],
     {"pk": "p", "b": "hi"}),
    ("delete again is a no-op (63)", {"pk": "p", "b": "hi"}, [DELETE(P("a"), V({"dog"}))], {"pk": "p", "b": "hi"}),
    ("delete NS numerically", ABC, [DELETE(P("ns"), V({Decimal("2.0")}))], {**ABC, "ns": {1, 3}}),
    ("delete NS from SS", HA, [DELETE(P("ss"), V({1}))], Err(INCORRECT_TYPE)),
    ("delete from N", ABC, [DELETE(P("n"), V({1}))], Err(INCORRECT_TYPE)),
    ("delete from S", ABC, [DELETE(P("s"), V({"hi"}))], Err(INCORRECT_TYPE)),
    ("delete non-set value", HA, [DELETE(P("ss"), V("a"))], Err(INCORRECT_TYPE)),
    ("delete nested", {"m": {"ss": {"a", "b"}}}, [DELETE(P("m", "ss"), V({"a"}))], {"m": {"ss": {"b"}}}),
    ("delete nested last", {"m": {"ss": {"a"}}}, [DELETE(P("m", "ss"), V({"a"}))], {"m": {}}),
    ("delete nested missing leaf", {"m": {}}, [DELETE(P("m", "ss"), V({"a"}))], {"m": {}}),
    ("delete below missing", ABC, [DELETE(P("q", "ss"), V({"a"}))], Err(INVALID_PATH)),
    ("delete on absent item", {}, [DELETE(P("ss"), V({"a"}))], {}),
    ("delete list element set", {"l": [{"a", "b"}]}, [DELETE(P("l", 0), V({"a", "b"}))], {"l": []}),
    # ---------------------------------------------------------------- mixed
    ("no actions on absent item (61)", {}, [], {}),
    ("all four clauses", HA, [SET(P("s"), V("new")), REMOVE(P("nul")), ADD(P("n"), V(1)), DELETE(P("ss"), V({"a"}))],
     {"pk": "a", "n": 6, "s": "new", "ss": {"b", "c"}, "m": {"sub": "x"}, "l": ["a", "b"], "flag": True}),
]


def _run(item, actions, expected):
    before = from_python(item)
    snapshot = copy.deepcopy(before)
    update = U(*actions)
    if isinstance(expected, Err):
        with pytest.raises(ValidationException) as raised:
            apply_update(update, before)
        assert raised.value.message == expected.message
    else:
        after = apply_update(update, before)
        assert values_equal(after, from_python(expected)), after
    assert values_equal(before, snapshot)  # the input is never mutated


@pytest.mark.parametrize("item, actions, expected", [pytest.param(*row[1:], id=row[0]) for row in UPDATES])
def test_apply_update(item, actions, expected):
    _run(item, actions, expected)


def test_sequence_64():
    """item-api §9.5 case 64: ADD on an absent item, again, then a set onto the number."""
    item = apply_update(U(ADD(P("n"), V(5))), {})
    item = apply_update(U(ADD(P("n"), V(5))), item)
    assert item == {"n": Decimal(10)}
    with pytest.raises(ValidationException) as raised:
        apply_update(U(ADD(P("n"), V({"x"}))), item)
    assert raised.value.message == INCORRECT_TYPE


def test_numbers_are_normalised():
    after = apply_update(U(SET(P("n"), PLUS(V(Decimal("1.5")), V(Decimal("1.5"))))), {})
    assert str(after["n"]) == "3"
    after = apply_update(U(ADD(P("n"), V(Decimal("-0.5")))), {"n": Decimal("0.5")})
    assert str(after["n"]) == "0"


def test_written_values_are_not_shared():
    old = from_python({"l": [[1]], "m": {"a": {"b": 1}}})
    value = Value([[Decimal(2)]])
    new = apply_update(U(SET(P("c"), P("l")), SET(P("d"), value), SET(P("m", "a", "b"), V(2))), old)
    assert new["c"] is not old["l"] and new["c"][0] is not old["l"][0]
    assert new["d"] is not value.value and new["d"][0] is not value.value[0]
    assert new["m"] is not old["m"] and new["m"]["a"] is not old["m"]["a"]
    assert old == from_python({"l": [[1]], "m": {"a": {"b": 1}}})


def test_compiled_update_is_reused_safely():
    update = U(SET(P("n"), PLUS(P("n"), V(1))))
    item = {"n": Decimal(1)}
    for expected in (2, 3, 4):
        item = apply_update(update, item)
        assert item == {"n": Decimal(expected)}


# -------------------------------------------------------- written / updated values

def test_written_paths_in_order():
    update = U(SET(P("sk"), V("c")), REMOVE(P("a", 0)), ADD(P("n"), V(1)), DELETE(P("ss"), V({"a"})))
    # item-api §9.5 case 55: the caller refuses key attributes among these paths.
    assert written_paths(update) == (P("sk"), P("a", 0), P("n"), P("ss"))


CASE_58 = {"pk": "p", "a": {"b": "dog", "c": [1, 2, 3]}, "d": "cat"}

UPDATED = [
    ("58 UPDATED_OLD", CASE_58, [SET(P("a", "c", 1), V(7))], "OLD", {"a": {"c": [2]}}),
    ("58 UPDATED_NEW", {**CASE_58, "a": {"b": "dog", "c": [1, 7, 3]}}, [SET(P("a", "c", 1), V(4))], "NEW",
     {"a": {"c": [4]}}),
    ("59 new attribute omitted", {"pk": "p", "a": "hi", "b": "dog"}, [SET(P("b"), V("x")), SET(P("c"), V("y"))],
     "OLD", {"b": "dog"}),
    ("59 nothing existed", {"pk": "p", "a": "hi"}, [SET(P("z"), V("v"))], "OLD", {}),
    ("new attribute under NEW", {"pk": "p"}, [SET(P("z"), V("v"))], "NEW", {"z": "v"}),
    ("rewrite with same value counts", {"pk": "p", "s": "x"}, [SET(P("s"), V("x"))], "OLD", {"s": "x"}),
    ("C-124 MODIFIED NEW", HA, [SET(P("s"), V("new"))], "NEW", {"s": "new"}),
    ("C-125 MODIFIED OLD", HA, [SET(P("m", "sub"), V("y"))], "OLD", {"m": {"sub": "x"}}),
    ("C-125 MODIFIED NEW", HA, [SET(P("m", "sub"), V("y"))], "NEW", {"m": {"sub": "y"}}),
    ("C-126 REMOVE under NEW", HA, [REMOVE(P("s"))], "NEW", {}),
    ("REMOVE under OLD", HA, [REMOVE(P("s"))], "OLD", {"s": "str"}),
    ("append not returned under NEW", HA, [SET(P("l", 100), V("c"))], "NEW", {}),
    ("append not returned under OLD", HA, [SET(P("l", 100), V("c"))], "OLD", {}),
    ("shifted element returned under NEW", CASE_58, [REMOVE(P("a", "c", 1))], "NEW", {"a": {"c": [3]}}),
    ("removed element under OLD", CASE_58, [REMOVE(P("a", "c", 1))], "OLD", {"a": {"c": [2]}}),
    ("two indexes of one list", CASE_58, [SET(P("a", "c", 2), V(9)), SET(P("a", "c", 0), V(8))], "NEW",
     {"a": {"c": [8, 9]}}),
    ("ADD and DELETE under NEW", HA, [ADD(P("n"), V(1)), DELETE(P("ss"), V({"a"}))], "NEW",
     {"n": 6, "ss": {"b", "c"}}),
    ("DELETE emptying under NEW", HA, [DELETE(P("ss"), V({"a", "b", "c"}))], "NEW", {}),
    ("DELETE emptying under OLD", HA, [DELETE(P("ss"), V({"a", "b", "c"}))], "OLD", {"ss": {"a", "b", "c"}}),
    ("created item under NEW has no key", {"pk": "k"}, [SET(P("a"), V(1))], "NEW", {"a": 1}),
    ("REMOVE on absent item", {}, [REMOVE(P("b"))], "NEW", {}),
]


@pytest.mark.parametrize("item, actions, which, expected",
                         [pytest.param(*row[1:], id=row[0]) for row in UPDATED])
def test_updated_values(item, actions, which, expected):
    old = from_python(item)
    update = U(*actions)
    new = apply_update(update, old)
    result = updated_values(update, old, new, which)
    assert values_equal(result, from_python(expected)), result


def test_updated_values_share_nothing():
    old = from_python({"m": {"l": [1]}})
    update = U(SET(P("m", "l"), V([2])))
    new = apply_update(update, old)
    for which, source in (("OLD", old), ("NEW", new)):
        result = updated_values(update, old, new, which)
        assert result["m"]["l"] is not source["m"]["l"]


def test_updated_values_refuses_other_modes():
    with pytest.raises(ValueError):
        updated_values(U(), {}, {}, "ALL_NEW")


# ------------------------------------------------------------------------ properties

numbers = st.builds(lambda i, e: from_python(Decimal(i).scaleb(e)), st.integers(-999, 999), st.integers(-3, 3))
scalars = st.one_of(st.text(max_size=4), numbers, st.binary(max_size=3), st.booleans(), st.none())
sets = st.one_of(st.frozensets(st.text(max_size=3), min_size=1, max_size=3),
                 st.frozensets(numbers, min_size=1, max_size=3))
values = st.recursive(
    st.one_of(scalars, sets),
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(st.sampled_from("abxy"), children, max_size=3)),
    max_leaves=8,
)
names = st.sampled_from(["a", "b", "c", "m"])
items = st.dictionaries(names, values, max_size=4)


def _paths(item: dict, prefix=()) -> list[tuple]:
    """Every path present in ``item`` (used to pick existing targets)."""
    found = []
    for key, value in (item.items() if isinstance(item, dict) else enumerate(item)):
        path = prefix + (key,)
        found.append(path)
        if isinstance(value, (dict, list)):
            found.extend(_paths(value, path))
    return found


@settings(max_examples=300, deadline=None)
@given(item=items, value=values, data=st.data())
def test_set_then_resolve_returns_the_value(item, value, data):
    candidates = [P(name) for name in "abcm"] + [P(*path) for path in _paths(item)]
    path = data.draw(st.sampled_from(candidates))
    if nesting_problem(value, len(path.elements)):
        return
    new = apply_update(U(SET(path, Value(value))), item)
    assert values_equal(resolve(new, path), value)


@settings(max_examples=300, deadline=None)
@given(item=items, data=st.data())
def test_apply_update_never_mutates_its_input(item, data):
    paths = [P(*path) for path in _paths(item)] or [P("a")]
    path = data.draw(st.sampled_from(paths))
    kind = data.draw(st.sampled_from(["set", "remove", "copy", "add", "delete"]))
    action = {
        "set": lambda: SET(path, V("x")),
        "remove": lambda: REMOVE(path),
        "copy": lambda: SET(P("z"), path),
        "add": lambda: ADD(path, V(1)),
        "delete": lambda: DELETE(path, V({"a"})),
    }[kind]()
    snapshot = copy.deepcopy(item)
    try:
        new = apply_update(U(action), item)
    except ValidationException:
        new = None
    assert values_equal(item, snapshot)
    if new is not None and kind == "remove":
        assert resolve(new, path) is MISSING or isinstance(path.elements[-1], int)


@settings(max_examples=200, deadline=None)
@given(item=items)
def test_old_values_are_exactly_the_written_paths_of_the_old_item(item):
    update = U(*(REMOVE(P(name)) for name in item))
    new = apply_update(update, item)
    assert new == {}
    assert values_equal(updated_values(update, item, new, "OLD"), item)
    assert updated_values(update, item, new, "NEW") == {}


ABSENT_WITH_KEY = [
    ("remove nested", [REMOVE(P("b", "c"))], {"pk": "k"}),
    ("delete nested", [DELETE(P("b", "c"), V({"x"}))], {"pk": "k"}),
    ("set reads the key", [SET(P("a"), P("pk"))], {"pk": "k", "a": "k"}),
    ("set below missing still fails", [SET(P("b", "c"), V(1))], Err(INVALID_PATH)),
]


@pytest.mark.parametrize("actions, expected", [pytest.param(*row[1:], id=row[0]) for row in ABSENT_WITH_KEY])
def test_absent_item_given_as_its_key(actions, expected):
    """An upsert may start from the key alone; ``exists=False`` keeps REMOVE/DELETE silent."""
    update = U(*actions)
    if isinstance(expected, Err):
        with pytest.raises(ValidationException) as raised:
            apply_update(update, {"pk": "k"}, exists=False)
        assert raised.value.message == expected.message
    else:
        assert apply_update(update, {"pk": "k"}, exists=False) == expected


def test_existing_item_is_the_default_for_non_empty_items():
    with pytest.raises(ValidationException) as raised:
        apply_update(U(REMOVE(P("b", "c"))), {"pk": "k"})
    assert raised.value.message == INVALID_PATH


def test_overlapping_actions_fail_cleanly():
    """Parsers reject overlaps statically; the evaluator still fails with DynamoDB's text."""
    with pytest.raises(ValidationException) as raised:
        apply_update(U(SET(P("a"), V(1)), SET(P("a", "b"), V(2))), {"a": {}})
    assert raised.value.message == INVALID_PATH


# -------------------------------------------------- compiled once per shape (issue 34 point 2)

def _slotted(node, values: dict):
    """``node`` with each Value's value moved into ``values`` under a placeholder and a Slot left in its place."""
    from partiql.engine.expressions.slots import Slot

    if isinstance(node, tuple):
        return tuple(_slotted(part, values) for part in node)
    if isinstance(node, Value):
        key = f":v{len(values)}"
        values[key] = node.value
        return Value(Slot(key))
    if hasattr(node, "_fields") and not isinstance(node, Path):
        return type(node)(*(_slotted(getattr(node, name), values) for name in node._fields))
    return node


def _outcome(call):
    try:
        return call()
    except ValidationException as error:
        return Err(error.message).message


@pytest.mark.parametrize("item, actions, expected", [pytest.param(*row[1:], id=row[0]) for row in UPDATES])
def test_a_shape_s_program_with_bound_values_applies_as_the_model_does(item, actions, expected):
    from partiql.engine.expressions.slots import Program
    from partiql.engine.expressions.update import compile_steps

    values: dict = {}
    program = Program(compile_steps(Update(_slotted(actions, values))), values)
    update, item = U(*actions), from_python(item)
    assert _outcome(lambda: apply_update(update, item, program=program)) == _outcome(lambda: apply_update(update, item))


def test_one_shape_runs_with_each_request_s_values_and_threads_keep_theirs():
    import threading

    from partiql.engine.expressions.context import ExpressionContext
    from partiql.engine.expressions.parser import parse_update, update_program

    text = "SET n = n + :d, tags = list_append(if_not_exists(tags, :empty), :t)"
    outcomes, errors = {}, []

    def run(worker: int):
        try:
            for d in range(200):
                values = {":d": from_python(worker * 1000 + d), ":empty": [], ":t": [from_python(f"w{worker}")]}
                update = parse_update(text, ExpressionContext(None, values))
                new = apply_update(update, {"n": Decimal(0)}, program=update_program(text, None, values))
                assert new == apply_update(update, {"n": Decimal(0)})
            outcomes[worker] = new
        except AssertionError as error:  # (a thread's failure, reported by the test)
            errors.append(error)

    threads = [threading.Thread(target=run, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert outcomes == {w: {"n": Decimal(w * 1000 + 199), "tags": [f"w{w}"]} for w in range(4)}


@pytest.mark.parametrize("item, actions, expected", [pytest.param(*row[1:], id=row[0]) for row in UPDATES
                                                     if not isinstance(row[3], Err)])
def test_an_update_s_result_is_sized_from_what_it_touched(item, actions, expected):
    from partiql.engine.expressions.update import updated_size
    from partiql.engine.types import item_size

    before = from_python(item)
    after = apply_update(U(*actions), before)
    assert updated_size(U(*actions), before, item_size(before), after) == item_size(after)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 409_600), st.integers(0, 409_600), st.sampled_from(["SET", "ADD", "REMOVE", "SET nested"]),
       st.booleans())
def test_the_statement_size_gate_answers_the_same_from_the_old_size(pad, value, kind, replaces):
    """The gate's shortcut (the stored size, and a bound before sizing what the update replaces) decides as the
    full sizing of the item does, around the 400 KB boundary (A9)."""
    from partiql.engine.expressions.update_size import too_large
    from partiql.engine.types import item_size

    old = from_python({"pk": "k", "pad": "x" * pad, "other": "y" * 10})
    target = P("pad") if replaces else P("b")
    action = {"SET": lambda: Set(target, V("v" * value)), "ADD": lambda: Add(target, V({"s" * max(1, value)})),
              "REMOVE": lambda: Remove(target), "SET nested": lambda: Set(P("m", "n"), V("v" * value))}[kind]()
    update = U(action)
    assert too_large(update, old, ("pk",), item_size(old)) == too_large(update, old, ("pk",))
