"""partiql-ddb's extension API under any JSON (issue 38): each operation answers a clear 400 with a message, or
its answer, never a 500 (an internal error) — whatever members, types and values a client sends."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

import partiql
from partiql import extension
from partiql.server.handler import Handler

from .conftest import HASH_RANGE

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)
MEMBERS = st.fixed_dictionaries({}, optional={"TableName": st.sampled_from(["Tab", "Nope", "", 5]) | JSON,
                                              "IndexName": st.sampled_from(["byX", ""]) | JSON,
                                              "Seconds": st.integers(-5, 4000) | JSON,
                                              "Path": st.sampled_from(["relative.db", "/no/such/dir/x.db"]) | JSON})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operation=st.sampled_from(sorted(extension.OPERATIONS)), request=MEMBERS | JSON)
def test_any_request_is_answered_or_refused_clearly(tmp_path, operation, request):
    with partiql.connect() as db:
        db.engine.create_table(TableName="Tab", **HASH_RANGE)
        status, _, body = Handler(db).handle(f"{extension.PREFIX}.{operation}",
                                             {"content-type": "application/x-amz-json-1.0"},
                                             json.dumps(request).encode())
    answer = json.loads(body)
    assert status in (200, 400), answer
    if status == 400:
        assert answer["__type"].rpartition("#")[2] in ("ValidationException", "ResourceNotFoundException")
        assert answer.get("message")
