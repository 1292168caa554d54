"""Generated and mutated PartiQL statements never end in an internal error (#12.5).

Each example is a seed statement over a table with an LSI and a GSI, mutated
half the time (spans cut, doubled, swapped; keywords, quotes, brackets and
lone surrogates inserted), with parameters that are mostly plain and now and
then anything a caller might pass. Run alone, in a batch and in a
transaction, every outcome is a result, a DynamoDB error, or the TypeError
boto3 itself raises for a value it cannot serialise (``fuzzing.outcome``).
Any other exception fails the test. ``bench/fuzz.py`` runs the same
generators for 100,000 statements outside CI.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partiql
from partiql.engine.requests.wire import wire_call

from .. import fuzzing

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def db():
    db = partiql.connect()
    wire_call(db.engine, "CreateTable", json.loads(json.dumps(fuzzing.CREATE_TABLE)))
    for n in range(10):
        db.execute("INSERT INTO Fuzz VALUE {'pk': ?, 'sk': ?, 'g': ?, 'l': ?, 'a': ?}",
                   [f"p{n % 5}", n, f"g{n % 3}", n, ["x", {"b": n}]])
    yield db
    db.close()


@FUZZ
@given(rng=st.randoms(use_true_random=False))
def test_statements_end_in_a_result_or_a_dynamodb_error(db, rng):
    text, params = fuzzing.statement(rng)
    fuzzing.outcome(lambda: db.execute(text, params))


@FUZZ
@given(rng=st.randoms(use_true_random=False))
def test_batches_and_transactions_end_in_a_result_or_a_dynamodb_error(db, rng):
    statements = [fuzzing.statement(rng) for _ in range(rng.randrange(1, 4))]
    fuzzing.outcome(lambda: db.execute_batch(statements))
    fuzzing.outcome(lambda: db.execute_transaction(statements))


def test_the_generator_reaches_past_the_parser(db):
    """Not a vacuous property: a fixed sample yields results, DynamoDB errors of several kinds
    and the caller's TypeError."""
    import random

    rng, seen = random.Random(7), set()
    for _ in range(600):
        text, params = fuzzing.statement(rng)
        seen.add(fuzzing.outcome(lambda: db.execute(text, params)))
    assert {"ok", "ValidationException", "ConditionalCheckFailedException", "caller TypeError"} <= seen


def test_an_internal_error_is_not_an_outcome():
    with pytest.raises(IndexError):
        fuzzing.outcome(lambda: [][0])
    with pytest.raises(TypeError):
        fuzzing.outcome(lambda: len(5))  # an internal TypeError, not the caller's
