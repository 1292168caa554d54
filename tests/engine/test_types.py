"""Values, numbers, sizes and wire conversion (spec §5)."""

from decimal import Decimal

import pytest
from hypothesis import given, strategies as st

from partiql.engine.errors import SerializationException, ValidationException
from partiql.engine.types import (checked_number, from_python, item_size, nesting_problem, normalize_number,
                                  number_problem, number_size, number_text, parse_number, type_of, values_equal)
from partiql.engine.wire_values import _FROM_WIRE, from_wire, to_wire

# spec §5.3: number_size examples
NUMBER_SIZES = [
    ("0", 1), ("5", 2), ("-5", 3), ("12", 2), ("100", 2), ("0.01", 2), ("0.001", 2), ("1.5", 3),
    ("123.4", 4), ("-123.4", 5), ("3.14159", 5), ("123456", 4), ("1001000", 4), ("1E125", 2),
    ("1" * 38, 20), ("-" + "1" * 38, 21),
]


@pytest.mark.parametrize("text,size", NUMBER_SIZES)
def test_number_size(text, size):
    assert number_size(parse_number(text)) == size


def _reference_size(number: Decimal) -> int:
    """Spec §5.3 from the digits: significant base-100 pairs (aligned on the point), one exponent byte,
    one more for a negative number's terminator below 20 pairs."""
    if not number:
        return 1
    sign, digits, exponent = number.as_tuple()
    leading = len(digits) + exponent
    significant = len(digits) - (len(digits) - len("".join(map(str, digits)).rstrip("0")))
    pairs = (significant + (leading & 1) + 1) // 2
    return 1 + pairs + (1 if sign and pairs < 20 else 0)


@given(st.integers(min_value=-10 ** 38 + 1, max_value=10 ** 38 - 1).map(Decimal)
       | st.decimals(allow_nan=False, allow_infinity=False, places=None, min_value=-10 ** 30, max_value=10 ** 30))
def test_number_size_agrees_with_the_digits_rule(number):
    try:
        canonical = parse_number(format(number, "f"))
    except ValidationException:
        return  # beyond 38 digits: never stored
    assert number_size(canonical) == _reference_size(canonical)


# spec §5.1 / item-api §2.5: canonical forms
NORMALISED = [
    ("0042.1200", "42.12"), ("1.50", "1.5"), ("15E-1", "1.5"), ("-0", "0"), ("1e3", "1000"),
    ("+1000", "1000"), ("-00001.2340", "-1.234"), ("1E125", "1" + "0" * 125),
    ("-00001.23456789012345678901234567890123456780000", "-1.2345678901234567890123456789012345678"),
]


@pytest.mark.parametrize("text,canonical", NORMALISED)
def test_numbers_normalise(text, canonical):
    assert to_wire(parse_number(text)) == {"N": canonical}


NUMBER_ERRORS = [
    ("1e126", "Number overflow. Attempting to store a number with magnitude larger than supported range"),
    ("1e-131", "Number underflow. Attempting to store a number with magnitude smaller than supported range"),
    ("123456789012345678901234567890123456789", "Attempting to store more than 38 significant digits in a Number"),
    ("abc", "The parameter cannot be converted to a numeric value: abc"),
    ("", "The parameter cannot be converted to a numeric value: "),  # recorded-2026-11 B4: the colon stays
    ("1_000", "The parameter cannot be converted to a numeric value: 1_000"),
    ("Infinity", "The parameter cannot be converted to a numeric value: Infinity"),
]


@pytest.mark.parametrize("text,message", NUMBER_ERRORS)
def test_number_errors(text, message):
    with pytest.raises(ValidationException) as caught:
        parse_number(text)
    assert caught.value.message == message


PLAIN_FRACTIONS = st.builds(lambda sign, whole, fraction: Decimal(f"{sign}{whole}.{fraction}"),
                            st.sampled_from(["", "-"]), st.sampled_from(["0", "00", "7", "10", "1" * 20, "9" * 39]),
                            st.text("0123456789", min_size=1, max_size=42))


@given(st.integers(min_value=-10 ** 45, max_value=10 ** 45).map(Decimal)
       | st.decimals(allow_nan=False, allow_infinity=False, places=None)
       | st.decimals(allow_nan=False, allow_infinity=False, places=6) | PLAIN_FRACTIONS)
def test_the_fast_paths_agree_with_the_general_checks(number):
    """``checked_number`` answers plain integers and plain fractions from their text alone: the same canonical
    number (digit for digit), or the same refusal, as the range, precision and normal-form rules give."""
    problem = number_problem(number)
    if problem:
        with pytest.raises(ValidationException, match=problem):
            checked_number(number)
    else:
        assert str(checked_number(number)) == str(normalize_number(number))


@given(st.decimals(allow_nan=False, allow_infinity=False, places=None)
       | st.builds(lambda digits, exponent: Decimal(f"{digits}E{exponent}"), st.integers(-10 ** 40, 10 ** 40),
                   st.integers(-140, 130)))
def test_number_text_is_plain_decimal_text(number):
    assert number_text(number) == format(number, "f") and "E" not in number_text(number)


def test_keys_compare_by_value():
    assert {parse_number(t) for t in ("1000", "1e3", "1E+3", "1000.0", "001000", "+1000")} == {Decimal(1000)}


# spec §5.3 worked examples
def test_fixture_ha_is_41_bytes():
    ha = from_python({"pk": "a", "n": 5, "s": "str", "ss": {"a", "b", "c"}, "m": {"sub": "x"},
                      "l": ["a", "b"], "nul": None, "flag": True})
    assert item_size(ha) == 41


def test_doc_example_is_23_bytes():
    assert item_size({"shirt-color": "R", "shirt-size": "M"}) == 23


def test_utf8_names_and_values_count_bytes():
    assert item_size({"é": "😀"}) == 2 + 4


def test_floats_are_refused_like_boto3():
    with pytest.raises(TypeError, match="Float types are not supported. Use Decimal types instead."):
        from_python({"x": 1.5})


def test_python_values_are_canonical():
    value = from_python({"i": 7, "t": (1, 2), "s": {1, 2}, "b": bytearray(b"x")})
    assert value == {"i": Decimal(7), "t": [Decimal(1), Decimal(2)], "s": frozenset({Decimal(1), Decimal(2)}),
                     "b": b"x"}
    assert type_of(value["s"]) == "NS"


EQUALITY = [
    (True, Decimal(1), False), ([True], [Decimal(1)], False), (frozenset({"a", "b"}), frozenset({"b", "a"}), True),
    ({"a": [Decimal(1)]}, {"a": [Decimal(1)]}, True), ("a", b"a", False), (None, None, True),
]


@pytest.mark.parametrize("a,b,equal", EQUALITY)
def test_dynamodb_equality(a, b, equal):
    assert values_equal(a, b) is equal


WIRE_ERRORS = [
    ({}, ValidationException, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ({"S": "a", "N": "1"}, ValidationException,
     "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"),
    ({"NULL": False}, ValidationException,
     "One or more parameter values were invalid: Null attribute value types must have the value of true"),
    ({"SS": []}, ValidationException, "One or more parameter values were invalid: An string set  may not be empty"),
    # recorded-2026-11 B5: an SS's members quoted and sorted by their bytes; an NS's sentence prefixed
    ({"SS": ["b", "a", "b"]}, ValidationException,
     'One or more parameter values were invalid: Input collection ["a", "b", "b"] contains duplicates.'),
    ({"SS": ["é", "z", "é"]}, ValidationException,
     'One or more parameter values were invalid: Input collection ["z", "é", "é"] contains duplicates.'),
    ({"NS": ["1", "1.0"]}, ValidationException,
     "One or more parameter values were invalid: Input collection contains duplicates."),
    ({"N": 123}, SerializationException, "NUMBER_VALUE cannot be converted to String"),
]


@pytest.mark.parametrize("wire,error,message", WIRE_ERRORS)
def test_wire_errors(wire, error, message):
    with pytest.raises(error) as caught:
        from_wire(wire)
    assert caught.value.message == message


@given(st.sampled_from(["S", "N"]), st.text(max_size=45) | st.from_regex(r"-?[0-9]{1,45}", fullmatch=True)
       | st.sampled_from(["0", "007", "1" * 38, "1" * 39, "\u00b2", "\ud800", "1e3", " 1"]))
def test_the_s_and_integer_n_fast_path_agrees_with_the_general_conversion(kind, text):
    """``from_wire`` reads a lone S, or an N of plain digits, before its general checks: the same
    value, or the same error, as the type's own converter (``_FROM_WIRE``)."""
    outcomes = []
    for convert in (from_wire, lambda wire: _FROM_WIRE[kind](wire[kind], 1)):
        try:
            value = convert({kind: text})
            outcomes.append(("value", type(value), value, str(value)))
        except (ValidationException, SerializationException) as error:
            outcomes.append(("error", type(error), error.message))
    assert outcomes[0] == outcomes[1]


def test_number_sizes_hold_when_the_cache_empties():
    """The cache of sizes empties when full (4,096 numbers): every size, sized fresh or remembered,
    is still the digits rule's."""
    numbers = [parse_number(f"{n * 7919}.{n % 97}e{n % 41 - 20}") for n in range(-6000, 6000)]
    for _ in range(2):
        assert [number_size(number) for number in numbers] == [_reference_size(number) for number in numbers]


wire_values = st.recursive(
    st.one_of(st.text(), st.binary(), st.booleans(), st.none(),
              st.integers(-10**30, 10**30).map(lambda i: {"N": str(i)}),
              st.frozensets(st.text(), min_size=1).map(lambda s: {"SS": sorted(s)})),
    lambda children: st.one_of(st.lists(children, max_size=3).map(lambda l: {"L": l}),
                               st.dictionaries(st.text(), children, max_size=3).map(lambda m: {"M": m})),
    max_leaves=10)


def _wire(value):
    if isinstance(value, dict):
        return value if not ({"L", "M"} & value.keys()) else (
            {"L": [_wire(v) for v in value["L"]]} if "L" in value else {"M": {k: _wire(v) for k, v in value["M"].items()}})
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, bytes):
        import base64
        return {"B": base64.b64encode(value).decode()}
    if isinstance(value, bool):
        return {"BOOL": value}
    return {"NULL": True}


@given(wire_values)
def test_wire_round_trip(value):
    wire = _wire(value)
    assert to_wire(from_wire(wire)) == wire


def test_nesting_limit_counts_containers():
    def nested(maps):
        value = Decimal(1)
        for _ in range(maps):
            value = {"a": value}
        return value
    assert not nesting_problem(nested(31))
    assert nesting_problem(nested(32))
