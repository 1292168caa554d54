"""Generated and mangled requests through the library's ``Engine`` methods never end in an internal error.

The wire fuzz (tests/server/test_wire_fuzz.py) sends JSON; a Python caller can pass what JSON cannot
carry: attribute names that are not str, tuples, sets, bytes, objects, floats, Decimal NaN, dict
subclasses. Each request (the wire seeds of ``fuzzing``, their values as Python values, mangled one time
in two with such junk) ends in a result, a DynamoDB error or the caller's TypeError in boto3's words
(``fuzzing.outcome``): any other exception is an internal error and fails the test.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import partiql
from partiql.engine import OPERATIONS

from .. import fuzzing

_db = partiql.connect()
_db.engine.create_table(**fuzzing.CREATE_TABLE)


def _method(operation: str):
    return getattr(_db.engine, re.sub(r"(?<!^)(?=[A-Z])", "_", operation).lower())


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_every_library_request_ends_in_a_result_or_a_callers_error(rng):
    operation, request = fuzzing.python_request(rng, OPERATIONS)
    fuzzing.outcome(lambda: _method(operation)(**request))
