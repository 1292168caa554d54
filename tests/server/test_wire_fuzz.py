"""Generated and mangled wire requests never get a 500 (#12.5).

Bodies for every item operation, PartiQL's three and the table operations
(CreateTable, UpdateTable, DescribeTable, DeleteTable) are generated from
well-formed seeds over a table with an LSI and a GSI, then mangled (members
replaced by junk, removed or added — junk that includes JSON no Python value
dumps to: 5,000-digit and out-of-range numbers, NaN, 300 levels of nesting,
lone surrogate escapes, duplicate members; one in twenty as broken JSON
text, one in thirty cut short or with bytes that are not UTF-8). Through
the HTTP handler every answer is a 200 with a JSON body or a 400 whose body
names a DynamoDB error type: never a 500. ``bench/fuzz.py`` runs the same
generator for 40,000 requests outside CI.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partiql
from partiql.server.handler import Handler

from .. import fuzzing

HEADERS = {"content-type": "application/x-amz-json-1.0"}
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _handler():
    db = partiql.connect()
    handler = Handler(db, address="localhost:1")
    assert answer(handler, "CreateTable", json.dumps(fuzzing.CREATE_TABLE).encode())[0] == 200
    return db, handler


@pytest.fixture(scope="module")
def handler():
    db, found = _handler()
    yield found
    db.close()


def answer(handler, operation: str, body: bytes):
    status, _, out = handler.handle("DynamoDB_20120810." + operation, HEADERS, body)
    return status, json.loads(out) if out else None


@FUZZ
@given(rng=st.randoms(use_true_random=False))
def test_every_request_gets_200_or_a_dynamodb_400(handler, rng):
    operation, body = fuzzing.wire_request(rng)
    status, out = answer(handler, operation, body)
    assert status in (200, 400), (operation, body[:300], out)
    if status == 400:
        assert out["__type"].startswith(("com.amazonaws.dynamodb.v20120810#", "com.amazon.coral.")), out


@pytest.mark.parametrize("levels", [10, 40, 150, 400])
def test_deeply_nested_bodies(handler, levels):
    value = '{"N": "1"}'
    for _ in range(levels):
        value = '{"L": [' + value + ']}'
    body = ('{"TableName": "Fuzz", "Item": {"pk": {"S": "p1"}, "sk": {"N": "1"}, "x": ' + value + '}}').encode()
    status, out = answer(handler, "PutItem", body)
    assert (status, levels > 31) in ((200, False), (400, True)), out


PREFIX = b'{"TableName": "Fuzz", "Item": {"pk": {"S": "p1"}, "sk": {"N": "1"}, "x": '
SERIALIZATION, VALIDATION = "SerializationException", "ValidationException"
# name: (operation, body, the 400's error type; None: a 200, the junk being in a member Scan ignores)
RAW_BODIES = {
    "5000 digits": ("Scan", b'{"TableName": "Fuzz", "Limit": ' + b"9" * 5000 + b"}", SERIALIZATION),
    "1e400": ("Scan", b'{"TableName": "Fuzz", "Limit": 1e400}', SERIALIZATION),
    "NaN": ("Scan", b'{"TableName": "Fuzz", "Limit": NaN}', SERIALIZATION),
    "300 arrays, ignored": ("Scan", b'{"TableName": "Fuzz", "X": ' + b"[" * 300 + b"]" * 300 + b"}", None),
    "100000 arrays": ("Scan", b'{"TableName": "Fuzz", "X": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", SERIALIZATION),
    "300 maps": ("PutItem", PREFIX + b'{"M": {"a": ' * 300 + b'{"S": "x"}' + b"}}" * 300 + b"}}", VALIDATION),
    "lone surrogate value": ("PutItem", PREFIX + b'{"S": "\\ud800"}}}', VALIDATION),
    "lone surrogate name": ("PutItem", PREFIX.replace(b'"x"', b'"\\udc00"') + b'{"S": "x"}}}', VALIDATION),
    "lone surrogate table": ("Scan", b'{"TableName": "Fu\\ud800zz"}', VALIDATION),
    "not UTF-8": ("PutItem", PREFIX + b'{"S": "\xff"}}}', SERIALIZATION),
    "truncated": ("PutItem", PREFIX[:-7], SERIALIZATION),
    "duplicate members": ("PutItem", PREFIX + b'{"S": "a", "N": "1", "S": "b"}}}', VALIDATION),
    "not an object": ("Scan", b"[1, 2]", SERIALIZATION),
    "empty": ("Scan", b"", SERIALIZATION),
}


@pytest.mark.parametrize("operation, body, error", RAW_BODIES.values(), ids=RAW_BODIES)
def test_raw_bodies_get_the_dynamodb_answer(handler, operation, body, error):
    """Bytes no serialiser would send: the 400 DynamoDB gives (its error type named), never a 500."""
    status, out = answer(handler, operation, body)
    if error is None:
        assert status == 200, out
    else:
        assert (status, out["__type"].rpartition("#")[2]) == (400, error), out


def test_a_lone_surrogate_sent_as_utf8_bytes_is_refused(handler):
    """The three bytes UTF-8 would use for U+D800 (which it forbids): a 400, whichever type."""
    status, out = answer(handler, "PutItem", PREFIX + b'{"S": "\xed\xa0\x80"}}}')
    assert status == 400 and out["__type"].rpartition("#")[2] in (SERIALIZATION, VALIDATION), out


def test_the_generator_reaches_past_the_envelope():
    # why a database of its own: what the other tests' random requests left (a deleted table, a
    # changed index) would change which outcomes these requests reach
    db, handler = _handler()
    rng, statuses = random.Random(11), set()
    for _ in range(3000):  # (25 seeds; a successful ExecuteTransaction is rare: ~2,000 reach it)
        operation, body = fuzzing.wire_request(rng)
        status, out = answer(handler, operation, body)
        statuses.add((status, out.get("__type", "").rpartition("#")[2] if status == 400 else operation))
    for expected in [(200, "PutItem"), (200, "Query"), (200, "TransactWriteItems"), (200, "ExecuteStatement"),
                     (200, "ExecuteTransaction"), (200, "CreateTable"), (200, "UpdateTable"),
                     (400, "ValidationException"), (400, "SerializationException"),
                     (400, "TransactionCanceledException"), (400, "ConditionalCheckFailedException")]:
        assert expected in statuses
    db.close()
