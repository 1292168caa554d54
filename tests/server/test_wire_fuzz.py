"""Generated and mangled wire requests never get a 500 (#12.5).

Bodies for every item operation, PartiQL's three and two table operations
are generated from well-formed seeds over a table with an LSI and a GSI,
then mangled (members replaced by junk, removed or added; one in twenty as
broken JSON text; values malformed, lone surrogates, deep nesting). Through
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


@pytest.fixture(scope="module")
def handler():
    db = partiql.connect()
    handler = Handler(db, address="localhost:1")
    assert answer(handler, "CreateTable", json.dumps(fuzzing.CREATE_TABLE).encode())[0] == 200
    yield handler
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


def test_the_generator_reaches_past_the_envelope(handler):
    rng, statuses = random.Random(11), set()
    for _ in range(1000):
        operation, body = fuzzing.wire_request(rng)
        status, out = answer(handler, operation, body)
        statuses.add((status, out.get("__type", "").rpartition("#")[2] if status == 400 else operation))
    for expected in [(200, "PutItem"), (200, "Query"), (200, "TransactWriteItems"), (200, "ExecuteStatement"),
                     (400, "ValidationException"), (400, "SerializationException")]:
        assert expected in statuses
