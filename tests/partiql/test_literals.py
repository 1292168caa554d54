"""Literal nodes and bound parameters -> engine values (spec §5.1, §2.2)."""

from decimal import Decimal

import pytest

from partiql import ast
from partiql.errors import StatementError
from partiql.literals import is_literal, item_fields, number, to_value
from partiql.parser import parse

OVER = "Number overflow. Attempting to store a number with magnitude larger than supported range"
UNDER = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
DIGITS = "Attempting to store more than 38 significant digits in a Number"


def operand(text):
    """The right-hand side of `x = <text>`, as a node."""
    return parse(f"SELECT * FROM t WHERE x = {text}").where.right


@pytest.mark.parametrize("text, canonical", [
    ("0042.1200", "42.12"),
    ("1.50", "1.5"),
    ("15E-1", "1.5"),
    ("-0", "0"),
    ("-0.000", "0"),
    ("0e125", "0"),
    ("0e-130", "0"),
    ("7.31e6", "7310000"),
    (".73e1", "7.3"),
    ("-.73e1", "-7.3"),
    ("5.0e0", "5"),
    ("1E125", "1" + "0" * 125),
    ("9.9999999999999999999999999999999999999E+125", "99999999999999999999999999999999999999" + "0" * 88),
    ("1E-130", "0." + "0" * 129 + "1"),
    ("-1E-130", "-0." + "0" * 129 + "1"),
    ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
    ("1234567890123456789012345678901234567800000", "1234567890123456789012345678901234567800000"),
    ("0.12345678901234567890123456789012345678", "0.12345678901234567890123456789012345678"),
])
def test_number_canonical_form(text, canonical):
    value = number(text)
    assert isinstance(value, Decimal)
    assert value == Decimal(canonical)
    assert format(value, "f") == canonical        # no trailing fractional zeros
    assert not value.as_tuple().sign or value < 0  # no -0


@pytest.mark.parametrize("text, message", [
    ("1e126", OVER + " under root"),
    ("0e999", OVER + " under root"),  # (zero too: recorded-2026-11 A8)
    ("0e-131", UNDER + " under root"),
    ("-1e126", OVER + " under root"),
    ("10E125", OVER + " under root"),
    ("1e-131", UNDER + " under root"),
    ("0.1e-130", UNDER + " under root"),
    ("123456789012345678901234567890123456789", DIGITS + " under root"),
    ("1.23456789012345678901234567890123456789", DIGITS + " under root"),
    # magnitude is checked before the digit count
    ("123456789012345678901234567890123456789e100", OVER + " under root"),
    # recorded-2026-11 B7: the magnitude is measured in 32 bits, which wrap past the largest exponent
    ("1e2147483646", OVER + " under root"),
    ("1e2147483647", UNDER + " under root"),
    ("1e-2147483648", UNDER + " under root"),
])
def test_number_errors(text, message):
    with pytest.raises(StatementError) as caught:
        number(text)
    assert caught.value.message == message


def test_number_error_without_path_is_the_parameter_wording():
    with pytest.raises(StatementError) as caught:
        number("1e126", None)
    assert caught.value.message == OVER


VALUES = [
    ("'text'", "text"),
    ("''", ""),
    ("'it''s'", "it's"),
    ("1", Decimal(1)),
    ("- - 1", Decimal(1)),
    ("-2.50", Decimal("-2.5")),
    ("TRUE", True),
    ("false", False),
    ("null", None),
    ("[]", []),
    ("[1, 'a', [true], {'k': null}]", [Decimal(1), "a", [True], {"k": None}]),
    ("{}", {}),
    ("{'a': {'b': [1]}}", {"a": {"b": [Decimal(1)]}}),
    ("<<'a', 'b'>>", frozenset({"a", "b"})),
    ("<<1, 2.5, -3>>", frozenset({Decimal(1), Decimal("2.5"), Decimal(-3)})),
    ("{'ss': <<'x'>>}", {"ss": frozenset({"x"})}),
]


@pytest.mark.parametrize("text, value", VALUES)
def test_values(text, value):
    assert to_value(operand(text)) == value


def test_number_precision_is_not_the_default_28_digits():
    assert to_value(operand("1234567890123456789012345678901234567.8")) == \
        Decimal("1234567890123456789012345678901234567.8")


@pytest.mark.parametrize("text, message", [
    ("MISSING", "MISSING must be compared using IS operator"),
    ("[1, MISSING]", "MISSING must be compared using IS operator"),
    ("`{a: 1}`", "Ion Literals are not supported: {a: 1} under key root"),
    ("[`1`]", "Ion Literals are not supported: 1 under key root[0]"),
    ("<<>>", "Empty bags are not supported"),
    ("<<1, 'a'>>", "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"),
    ("<<true>>", "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"),
    ("<<null>>", "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"),
    ("<<'x', 'y', 'x'>>", "One or more parameter values were invalid: Input collection [x, y, x] contains duplicates."),
    ("<<2, 2.0>>", "One or more parameter values were invalid: Input collection [2, 2.0] contains duplicates! under root"),
    ("<<-1, -1e0>>",
     "One or more parameter values were invalid: Input collection [-1, -1e0] contains duplicates! under root"),
    ("{'a': <<1, 1>>}", "One or more parameter values were invalid: Input collection [1, 1] contains duplicates! under root.a"),
    ("<<1, 1e126>>", OVER + " under root[1]"),
    ("[1, 1e126]", OVER + " under root[1]"),
    ("{'x': 1e126}", OVER + " under root.x"),
    ("{'x': [{'y': 1e-131}]}", UNDER + " under root.x[0].y"),
    ("[?]", "Unsupported data type: Parameter under key root[0] at 1:28:1"),
    ("{'k': ?}", "Unsupported data type: Parameter under key root.k at 1:33:1"),
    ("<<?>>", "Unsupported data type: Parameter under key root[0] at 1:29:1"),
    ("[a.b]", "Unsupported data type: Path under key root[0] at 1:28:1"),
    ("[size(a)]", "Unsupported data type: size under key root[0] at 1:28:4"),
    ("{1: 'a'}", "Tuple keys must be of type String. Actual type: INT under root"),
    ("{1.5: 'a'}", "Tuple keys must be of type String. Actual type: DECIMAL under root"),
    ("{'a': {null: 1}}", "Tuple keys must be of type String. Actual type: NULL under root.a"),
    ("{['k']: 1}", "Tuple keys must be of type String. Actual type: LIST under root"),
    ("{'': 1}", "Path component cannot be an empty string"),
    ("{'k': 1, 'k': 2}", "Duplicate keys in tuple. Key: k under root"),
])
def test_value_errors(text, message):
    with pytest.raises(StatementError) as caught:
        to_value(operand(text))
    assert caught.value.message == message


def test_top_level_parameter_takes_the_bound_value():
    node = operand("?")
    assert to_value(node, [frozenset({"a"})]) == frozenset({"a"})


def _nested_list(levels):
    return "[" * levels + "1" + "]" * levels


def test_nesting_counts_the_top_level_value_as_level_one():
    assert to_value(operand(_nested_list(31))) is not None
    with pytest.raises(StatementError) as caught:
        to_value(operand(_nested_list(32)))
    assert caught.value.message == "Nesting Levels have exceeded supported limits under root" + "[0]" * 31


def test_item_fields():
    stmt = parse("INSERT INTO t VALUE {'pk': ?, 'n': 1, 'm': {'a': [true]}, 'ss': <<'x'>>}")
    fields = item_fields(stmt.value, lambda parameter: ["p1"][parameter.index])
    assert dict(fields) == {"pk": "p1", "n": Decimal(1), "m": {"a": [True]}, "ss": frozenset({"x"})}


@pytest.mark.parametrize("text, message", [
    ("{'pk': 'a', 'pk': 'b'}", "Duplicate keys in tuple. Key: pk under root"),
    ("{'pk': 'a', 5: 'b'}", "Tuple keys must be of type String. Actual type: INT under root"),
    ("{'pk': 'a', 'l': [1, 1e126]}", OVER + " under root[1]"),
])
def test_item_fields_errors(text, message):
    with pytest.raises(StatementError) as caught:
        item_fields(parse(f"INSERT INTO t VALUE {text}").value, lambda parameter: None)
    assert caught.value.message == message


@pytest.mark.parametrize("node, expected", [
    (ast.StringLit("a", None), True),
    (ast.BagLit((), None), True),
    (ast.Parameter(0, None), False),
    (ast.Path((ast.Attr("a", None),), None), False),
])
def test_is_literal(node, expected):
    assert is_literal(node) is expected
