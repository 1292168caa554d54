"""DynamoDB's key placement (recorded-2026-11 A11): the hash of S, B and N key values, the base-100 form of
numbers, and the hash ranges of parallel-Scan segments."""

from __future__ import annotations

from decimal import Decimal
from hashlib import md5

import pytest
from hypothesis import given, settings, strategies as st

from partiql.engine import limits
from partiql.engine.placement import key_hash, number_bytes, segment_range


def _reference_hash(data: bytes) -> int:
    """The recording's rule, written out again: the first 64 bits of MD5(b"Outliers" + bytes)."""
    return int(md5(b"Outliers" + data).hexdigest()[:16], 16)


@pytest.mark.parametrize("value, data", [
    ("hello", b"hello"),
    ("äáöü", "äáöü".encode()),
    (b"\x00\xffraw", b"\x00\xffraw"),
    (Decimal(0), b"\x80"),
    (Decimal(228), bytes([0xC2, 3, 29])),       # exponent10 3 (odd): a 0 goes first, pairs 02 28
    (Decimal(1), bytes([0xC1, 2])),
    (Decimal("0.5"), bytes([0xC0, 51])),        # exponent10 0
    (Decimal(-1), bytes([0x3E, 100, 102])),     # complemented, 101 − pair, the closing 102
    (Decimal("-0.05"), bytes([0x3F, 96, 102])),
    (Decimal("1E+3"), bytes([0xC2, 11])),       # 1000: trailing zeros are no digits
])
def test_the_hashed_bytes_of_each_key_type(value, data):
    assert key_hash(value) == _reference_hash(data)
    if type(value) is Decimal:
        assert number_bytes(value) == data


def test_equal_numbers_hash_alike_whatever_their_text():
    assert len({key_hash(Decimal(text)) for text in ("1000", "1E+3", "1000.000", "10.0E2")}) == 1
    assert key_hash(Decimal(-5)) != key_hash(Decimal(5))


@pytest.mark.parametrize("text, pairs, closed", [
    ("-" + "7" * 38, 19, True),          # 38 digits, even exponent: 19 pairs, and the 102
    ("-" + "7" * 38 + "0", 20, False),   # odd exponent: a 0 goes first, 20 pairs, no 102
    ("-" + "7" * 37, 19, True),
])
def test_a_negative_number_closes_with_102_below_20_pairs(text, pairs, closed):
    form = number_bytes(Decimal(text))
    assert len(form) == 1 + pairs + closed and (form[-1] == 102) == closed


# DynamoDB numbers: up to 38 significant digits, magnitudes from 1E-130 to below 1E+126.
NUMBERS = st.builds(lambda sign, digits, exponent: Decimal(f"{sign}{digits}E{exponent}"),
                    st.sampled_from(["", "-"]), st.integers(1, 10 ** 38 - 1).map(str), st.integers(-130, 87)) \
    .filter(lambda n: Decimal("1E-130") <= abs(n) < Decimal("1E+126")) | st.just(Decimal(0))



@st.composite
def _prefixes(draw):
    """A number and the numbers its leading digits make (-0.101 and -0.1: where the closing 102 matters)."""
    number = draw(NUMBERS.filter(bool))
    sign, digits, exponent = number.as_tuple()
    return [Decimal((sign, digits[:n], exponent + len(digits) - n)) for n in range(1, len(digits) + 1)]


@settings(max_examples=400, deadline=None)
@given(st.lists(NUMBERS, min_size=2, max_size=12), _prefixes())
def test_the_base_100_form_orders_as_the_numbers_do(numbers, prefixes):
    """Independent evidence that the form is read right: it is DynamoDB's order-preserving form, so a pad on
    the wrong side, a missing 102 or a wrong complement would break this order."""
    numbers += prefixes
    assert sorted(numbers, key=number_bytes) == sorted(numbers)
    assert len({number_bytes(n) for n in numbers}) == len(set(numbers))


@pytest.mark.parametrize("segment, total, lo, hi", [
    (0, 1, 0, 4096),
    (0, 2, 0, 2048), (1, 2, 2048, 4096),
    (0, 3, 0, 1366), (1, 3, 1366, 2731), (2, 3, 2731, 4096),  # ceil(4096·s/t)
    (0, 4096, 0, 1), (4095, 4096, 4095, 4096),
    (0, 8192, 0, 1), (1, 8192, 1, 1),  # past 4,096 segments some hold nothing
])
def test_a_segment_is_a_range_of_the_digest_s_first_12_bits(segment, total, lo, hi):
    assert segment_range(segment, total) == (lo << 52, hi << 52)


@pytest.mark.parametrize("total", range(1, 9))
def test_segments_cover_the_hash_space_once(total):
    ranges = [segment_range(s, total) for s in range(total)]
    assert ranges[0][0] == 0 and ranges[-1][1] == limits.HASH_SPACE
    assert all(ranges[s][1] == ranges[s + 1][0] for s in range(total - 1))
