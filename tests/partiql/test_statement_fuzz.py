"""Generated and mutated PartiQL statements never end in an internal error (#12.5).

Each example is a seed statement over a table with an LSI and a GSI, or one
with a generated WHERE condition, mutated one time in three (character spans
and tokens cut, doubled, swapped; keywords, quotes, brackets, backticks and
lone surrogates inserted), with parameters of the type each ``?`` wants most
of the time and now and then anything a caller might pass (nested maps,
lists, sets, Decimals, bytes, None, odd strings, floats). Run alone, in a
batch and in a transaction, every outcome is a result, a DynamoDB error, or the TypeError
boto3 itself raises for a value it cannot serialise (``fuzzing.outcome``).
Any other exception fails the test. ``bench/fuzz.py`` runs the same
generators for 100,000 statements outside CI.
"""

from __future__ import annotations

import collections
import json
import random

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
    statements = fuzzing.transaction(rng)
    fuzzing.outcome(lambda: db.execute_batch(statements))
    fuzzing.outcome(lambda: db.execute_transaction(statements))


@pytest.mark.parametrize("params", ["p1", {"a": 1}, {"p1"}, b"p1", 5, (p for p in ["p1"])],
                         ids=["str", "dict", "set", "bytes", "int", "generator"])
def test_parameters_that_are_not_a_list_are_the_callers_type_error(db, params):
    """As boto3's ``Parameters`` must be a list: the caller's TypeError, worded, not an internal one."""
    with pytest.raises(TypeError, match="parameters must be a list"):
        db.execute("SELECT * FROM Fuzz WHERE pk = ?", params)
    assert fuzzing.outcome(lambda: db.execute("SELECT * FROM Fuzz WHERE pk = ?", params)) == "caller TypeError"


@pytest.mark.parametrize("params", [["p1"], ("p1",)], ids=["list", "tuple"])
def test_a_sequence_of_parameters_runs(db, params):
    assert db.execute("SELECT * FROM Fuzz WHERE pk = ?", params).items


def test_the_generator_reaches_past_the_parser(db):
    """Not a vacuous property: a fixed sample yields results (a good share of them, generated
    conditions among them), DynamoDB errors of several kinds and the caller's TypeError."""
    rng, seen = random.Random(7), collections.Counter()
    for _ in range(600):
        text, params = fuzzing.statement(rng)
        seen[fuzzing.outcome(lambda: db.execute(text, params))] += 1
    assert {"ok", "ValidationException", "ConditionalCheckFailedException", "caller TypeError"} <= set(seen)
    assert seen["ok"] > 600 // 8, seen
    conditions = [fuzzing.MARK.sub("?", fuzzing.generated_statement(rng)) for _ in range(100)]
    assert "ok" in {fuzzing.outcome(lambda: db.execute(text, ["p1", 1, 2][:text.count("?")])) for text in conditions}


def test_transactions_run_and_cancel(db):
    """Generated transactions get past validation: some commit, some are cancelled."""
    rng = random.Random(5)
    seen = {fuzzing.outcome(lambda: db.execute_transaction(fuzzing.transaction(rng))) for _ in range(300)}
    assert {"ok", "TransactionCanceledException", "ValidationException"} <= seen


def test_an_internal_error_is_not_an_outcome():
    with pytest.raises(IndexError):
        fuzzing.outcome(lambda: [][0])
    with pytest.raises(TypeError):
        fuzzing.outcome(lambda: len(5))  # an internal TypeError, not the caller's
