"""Item-API patterns (issue 37 point 4) take any request a workload file can hold: each either plans (a clear
WorkloadError when it cannot run) or runs with DynamoDB's answer to each request counted — never another
exception, never a traceback."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from partiql.simulate import WorkloadError, report, simulate
from partiql.simulate.item_requests import OPERATIONS, ItemRequest
from partiql.simulate.workload import Pattern, Workload
from partiql.simulate import rates

MEMBERS = st.sampled_from(["TableName", "Key", "Item", "IndexName", "KeyConditionExpression",
                           "ExpressionAttributeValues", "ExpressionAttributeNames", "FilterExpression", "Limit",
                           "ConsistentRead", "UpdateExpression", "ConditionExpression", "RequestItems",
                           "TransactItems", "ProjectionExpression", "Select", "pk", ":v", "#n", "S", "N", "M"])
LEAVES = st.one_of(st.just("?"), st.just("Orders"), st.just("pk = :v"), st.integers(-5, 5), st.booleans(),
                   st.text(max_size=6), st.just({"S": "a"}), st.just({"N": "1"}))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(MEMBERS, inner, max_size=4)), max_leaves=10)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(OPERATIONS), st.dictionaries(MEMBERS, VALUES, min_size=1, max_size=5),
       st.integers(0, 2))
def test_any_request_plans_or_runs_with_each_answer_counted(operation, request, params):
    request.setdefault("TableName", "Orders")
    workload = Workload(duration=1.0, tables=["CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)"], source="w.toml")
    request = ItemRequest(operation, request)
    from partiql.simulate import generators
    workload.patterns = [Pattern("p", request.shown, [generators.build("a", "g")] * params, rates.Constant(3),
                                 request=request)]
    try:
        found = report(simulate(workload))
    except WorkloadError as error:
        assert str(error).startswith("w.toml")
        return
    (pattern,) = found["patterns"]
    assert pattern["requested"] == 3 == pattern["served"] + pattern["throttled"] + pattern["failed"]
