"""Request payload sizes (engine/requests/payload.py): the exact wire-JSON measure,
and the repr gate that skips it, which must never let an oversized request through."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partiql.engine.requests.payload import _REPR_FACTOR, oversized, payload_bytes

# Short values are where the wire's type tags weigh most against repr; characters
# outside ASCII are where UTF-8 bytes outnumber the characters repr shows.
texts = st.text(st.characters(codec="utf-8") | st.characters(min_codepoint=0x10000, max_codepoint=0x1FFFF),
                max_size=40)
numbers = st.integers(-10**6, 10**6).map(Decimal)
scalars = st.one_of(texts, numbers, st.binary(max_size=2), st.booleans(), st.none())
sets = st.one_of(st.frozensets(texts, min_size=1, max_size=3), st.frozensets(numbers, min_size=1, max_size=3),
                 st.frozensets(st.binary(max_size=2), min_size=1, max_size=3))
values = st.recursive(st.one_of(scalars, sets),
                      lambda children: st.one_of(st.lists(children, max_size=40),
                                                 st.dictionaries(texts, children, max_size=4)),
                      max_leaves=60)
items = st.dictionaries(texts, values, min_size=1, max_size=6)
requests = st.lists(items, min_size=1, max_size=4).map(
    lambda found: {"TransactItems": [{"Put": {"TableName": "tbl", "Item": item}} for item in found]})


def test_payload_is_the_compact_wire_json_in_utf8():
    request = {"TransactItems": [{"Put": {"TableName": "tbl", "Item": {"pk": "é", "n": Decimal(5), "b": b"\x00",
                                                                        "s": frozenset({"a"}), "z": None}}}]}
    wire = {"TransactItems": [{"Put": {"TableName": "tbl", "Item": {
        "pk": {"S": "é"}, "n": {"N": "5"}, "b": {"B": "AA=="}, "s": {"SS": ["a"]}, "z": {"NULL": True}}}}]}
    assert payload_bytes(request) == len(json.dumps(wire, separators=(",", ":"), ensure_ascii=False).encode())


def _put(item: dict) -> dict:
    return {"TransactItems": [{"Put": {"TableName": "tbl", "Item": item}}]}


# The requests whose wire JSON is largest against their repr (wire / repr ≈ 3.8, 2.3, 2.2, 1.7).
WORST = [
    ("4-byte characters (one character in repr)", _put({"s": "\U0001D11E" * 1000})),
    ("NULLs in a list", _put({"l": [None] * 1000})),
    ("empty strings in a list", _put({"l": [""] * 1000})),
    ("one-letter names of empty strings", _put({chr(0x4E00 + i): "" for i in range(1000)})),
]


@pytest.mark.parametrize("request_", [row[1] for row in WORST], ids=[row[0] for row in WORST])
def test_the_repr_gate_holds_for_the_worst_shapes(request_):
    assert payload_bytes(request_) <= len(repr(request_)) * _REPR_FACTOR


@given(requests)
def test_the_repr_gate_never_hides_an_oversized_request(request):
    assert payload_bytes(request) <= len(repr(request)) * _REPR_FACTOR


def test_oversized_reports_only_what_exceeds_the_limit():
    request = {"TransactItems": [{"Put": {"TableName": "tbl", "Item": {"pk": "x" * 1000}}}]}
    size = payload_bytes(request)
    assert oversized(request, size) is None
    assert oversized(request, size - 1) == size
