"""The envelope's fast predicate (``envelope.acceptor``) never changes an outcome.

``check_envelope`` returns a request the predicate accepts as it is; every
other request goes through the interpreting passes. The predicate is only
sound if, for every request it accepts, the passes would have returned the
same request and found no violation — which the property below checks on
random requests built from each operation's own member names and values
near every constraint. The table checks that the ordinary requests are the
ones it accepts (otherwise the fast path is dead weight) and that the ones
needing normalisation still get it.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partiql.engine.acceptance import acceptor
from partiql.engine.envelope import faulty, violations
from partiql.engine.type_pass import check_types
from partiql.engine.errors import DynamoDBError
from partiql.engine.requests import shapes

OPERATIONS = sorted(shapes.SHAPES)

SCALARS = st.one_of(
    st.sampled_from(["bench", "ab", "a;b", "x" * 256, "", "TOTAL", "INDEXES", "NONE", "ALL_OLD", "ALL_NEW",
                     "COUNT", "SIZE", "AND", "true", "no", "arn:aws:dynamodb:us-east-1:1:table/bench",
                     "pk = :p", "#n", ":v", "tâble", "\U0001f600" * 130]),
    st.text(max_size=8), st.integers(-3, 1_000_001), st.booleans(), st.none(),
    st.sampled_from([1.5, float("nan"), Decimal("2"), Decimal("2.5"), b"", b"\x01", 10 ** 40]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["pk", ":p", "#n", "", "x"]), inner, max_size=3),
    st.dictionaries(st.sampled_from(["S", "N"]), inner, max_size=1)), max_leaves=6)


def near(shape: dict, noise: bool = True):
    """Values for a member of ``shape``: mostly valid, often just outside a constraint, sometimes anything
    (without ``noise``: of the member's type, structures built member by member)."""
    kind = shape["type"]
    if kind == "String":
        valid = st.sampled_from(shape["enum"]) if "enum" in shape else st.sampled_from(
            ["bench", "byg", "pk = :p", "a", "#n", "tâble", "x" * 255])
    elif kind in ("Integer", "Long", "Double"):
        valid = st.integers(shape.get("min", -5) - 1, shape.get("min", -5) + 3) | st.integers(-3, 10 ** 7)
    elif kind == "Boolean":
        valid = st.booleans()
    elif kind == "List":
        valid = st.lists(near(shape["member"], noise), max_size=3)
    elif kind == "Map":
        valid = st.dictionaries(st.sampled_from(["pk", ":p", "#n", "", "x", "bench"]), near(shape["value"], noise),
                                max_size=3)
    elif kind == "Value":
        valid = st.sampled_from(["p", Decimal(1), b"\x01", True, None, ["a"], {"m": Decimal(2)}, {"a", "b"}])
    elif kind == "Structure" and shape.get("name") == "AttributeValue":
        valid = WIRE_VALUES
    elif kind == "Structure" and not noise:
        valid = st.deferred(lambda: members_of(shape["members"], noise))
    else:  # Structure, Blob
        valid = st.just({}) if kind == "Structure" else st.binary(max_size=3)
    return st.one_of(*[valid] * 9, VALUES) if noise else valid


@st.composite
def members_of(draw, members: dict, noise: bool = True) -> dict:
    names = [name for name in members  # each member present now and then, a required one nearly always
             if draw(st.integers(0, 9)) < (9 if members[name].get("required") else 3)]
    return {name: draw(near(members[name], noise)) for name in names}


# wire attribute values (issue 34 point 4: the wire's fast predicate takes them): well-formed ones, and the
# ones the type pass changes (a boolean string, base64 text, a null member) or refuses (a number for text)
WIRE_SCALARS = st.one_of(
    st.builds(lambda t: {"S": t}, st.text(max_size=4)), st.sampled_from([{"N": "1"}, {"N": "x"}, {"BOOL": True},
                                                                         {"NULL": True}, {"SS": ["a", "b"]},
                                                                         {"NS": ["1"]}, {"B": "AQ=="},
                                                                         {"BS": ["AQ=="]}, {"BOOL": "true"},
                                                                         {"S": None}, {"S": 1}, {"X": "a"},
                                                                         {"S": "a", "N": "1"}, {}, {"S": "\ud800"},
                                                                         {"SS": [1]}, {"L": "no"}])
)
WIRE_VALUES = st.recursive(WIRE_SCALARS, lambda inner: st.one_of(
    st.builds(lambda m: {"M": m}, st.dictionaries(st.sampled_from(["a", "b", ""]), inner, max_size=2)),
    st.builds(lambda items: {"L": items}, st.lists(inner, max_size=2))), max_leaves=5)


@st.composite
def requests(draw, operation: str, shaped: dict = shapes.SHAPES, noise: bool = True) -> dict:
    request = draw(members_of(shaped[operation]["members"], noise))
    if noise and draw(st.integers(0, 9)) == 0:
        request["Unknown"] = draw(VALUES)
    return request


def outcome(run):
    try:
        return "ok", run()
    except DynamoDBError as error:
        return error.code, error.message


# every operation's in-process shape, and the item operations' wire shapes (issue 34 point 4)
SHAPED = ([pytest.param(shapes.SHAPES, operation, id=operation) for operation in OPERATIONS]
          + [pytest.param(shapes.WIRE_SHAPES, operation, id=f"wire-{operation}")
             for operation in sorted(shapes.WIRE_SHAPES)])


@pytest.mark.parametrize("table, operation", SHAPED)
@settings(max_examples=250, deadline=None)
@given(data=st.data())
def test_accepted_requests_are_left_unchanged_and_valid(table, operation, data):
    request = data.draw(requests(operation, table))
    shape = table[operation]
    if acceptor(shape)(request):
        assert check_types(request, shape) == request
        assert violations(request, shape) == []


@pytest.mark.parametrize("table, operation", SHAPED)
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_fast_and_interpreted_envelopes_agree(table, operation, data):
    request = data.draw(requests(operation, table))
    assert outcome(lambda: shapes.check_envelope(operation, request, table)) == \
        outcome(lambda: shapes.interpreted_envelope(operation, request, table))


KEY = {"pk": "p", "sk": Decimal(1)}
# (operation, request, accepted by the fast predicate?)
ROWS = [
    ("GetItem", {"TableName": "bench", "Key": KEY}, True),
    ("GetItem", {"TableName": "bench", "Key": KEY, "ConsistentRead": True, "ReturnConsumedCapacity": "TOTAL",
                 "ProjectionExpression": "#n", "ExpressionAttributeNames": {"#n": "name"}}, True),
    ("PutItem", {"TableName": "bench", "Item": dict(KEY, n=Decimal(5)), "ConditionExpression": "a = :v",
                 "ExpressionAttributeValues": {":v": Decimal(1)}, "ReturnValues": "ALL_OLD"}, True),
    ("UpdateItem", {"TableName": "bench", "Key": KEY, "UpdateExpression": "SET a = :v",
                    "ExpressionAttributeValues": {":v": "x"}}, True),
    ("DeleteItem", {"TableName": "bench", "Key": KEY}, True),
    ("Query", {"TableName": "bench", "IndexName": "byg", "KeyConditionExpression": "pk = :p",
               "ExpressionAttributeValues": {":p": "p"}, "Limit": 10, "ScanIndexForward": False,
               "ExclusiveStartKey": KEY, "Select": "COUNT"}, True),
    ("Scan", {"TableName": "bench", "Segment": 0, "TotalSegments": 4, "AttributesToGet": ["a"]}, True),
    # normalised by the type pass: the interpreting passes must see them
    ("GetItem", {"TableName": "bench", "Key": KEY, "ConsistentRead": "true"}, False),
    ("GetItem", {"TableName": "bench", "Key": KEY, "ReturnConsumedCapacity": None}, False),
    ("GetItem", {"TableName": "bench", "Key": KEY, "Unknown": 1}, False),
    ("Query", {"TableName": "bench", "Limit": Decimal("2.5")}, False),
    ("GetItem", {"TableName": "arn:aws:dynamodb:us-east-1:1:table/bench", "Key": KEY}, False),
    # refused by the envelope
    ("GetItem", {"TableName": "ab", "Key": KEY}, False),
    ("GetItem", {"Key": KEY}, False),
    ("Scan", {"TableName": "bench", "Limit": 0}, False),
    ("PutItem", {"TableName": "bench", "Item": KEY, "ReturnValues": "ALL"}, False),
    ("Query", {"TableName": "bench", "AttributesToGet": []}, False),
    # a nested structure: the passes' deep copy keeps later steps out of the caller's dicts
    ("PutItem", {"TableName": "bench", "Item": KEY, "Expected": {"a": {"Exists": False}}}, False),
    ("BatchGetItem", {"RequestItems": {"bench": {"Keys": [KEY]}}}, False),
    ("TransactWriteItems", {"TransactItems": [{"Put": {"TableName": "bench", "Item": KEY}}]}, False),
]




# ------------------------------------------------------ the fast fault finder
# ``validate`` walks the shape in order, building paths, only when ``faulty``
# (which looks at what is present and builds no text) finds something: sound
# only if the two agree on every request.

@pytest.mark.parametrize("operation", OPERATIONS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_fault_finder_agrees_with_the_ordered_walk(operation, data):
    for table in (shapes.SHAPES, shapes.WIRE_SHAPES):
        if operation not in table:
            continue
        shape = table[operation]
        try:
            request = check_types(data.draw(requests(operation)), shape)
        except (DynamoDBError, TypeError):  # (TypeError: a Python value no JSON carries, the caller's)
            continue
        assert faulty(request, shape) == bool(violations(request, shape))


def _deep(levels: int) -> dict:
    value = {"S": "x"}
    for _ in range(levels):
        value = {"M": {"a": value}}
    return value


WIRE_KEY = {"pk": {"S": "p"}, "sk": {"N": "1"}}
WIRE_ROWS = [
    ("GetItem", {"TableName": "bench", "Key": WIRE_KEY}, True),
    ("PutItem", {"TableName": "bench", "Item": dict(WIRE_KEY, m={"M": {"l": {"L": [{"NULL": True}]}}})}, True),
    ("Query", {"TableName": "bench", "KeyConditionExpression": "pk = :p",
               "ExpressionAttributeValues": {":p": {"S": "p"}}}, True),
    ("GetItem", {"TableName": "bench", "Key": {"pk": {"B": "AQ=="}}}, False),     # (base64: the type pass decodes)
    ("PutItem", {"TableName": "bench", "Item": dict(WIRE_KEY, b={"BOOL": "true"})}, False),  # (coerced)
    ("GetItem", {"TableName": "bench", "Key": {"pk": {"S": "p", "X": "y"}}}, False),
    ("PutItem", {"TableName": "bench", "Item": dict(WIRE_KEY, deep=_deep(40))}, False),
]


@pytest.mark.parametrize("table,operation,request_,accepted",
                         [(shapes.SHAPES, *row) for row in ROWS] + [(shapes.WIRE_SHAPES, *row) for row in WIRE_ROWS])
def test_fast_predicate_rows(table, operation, request_, accepted):
    assert bool(acceptor(table[operation])(request_)) is accepted
    assert outcome(lambda: shapes.check_envelope(operation, request_, table)) == \
        outcome(lambda: shapes.interpreted_envelope(operation, request_, table))


# ------------------------------------------- one envelope per wire request
# ``wire_call`` runs the envelope on the wire request and then (``shapes.enveloped``) not again on its engine
# values: sound only if every wire request the wire envelope passes, once converted, passes the in-process
# envelope unchanged.

@pytest.mark.parametrize("operation", sorted(shapes.WIRE_SHAPES))
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_request_the_wire_envelope_passes_passes_the_in_process_one(operation, data):
    from partiql.engine.requests import wire

    try:
        drawn = data.draw(requests(operation, shapes.WIRE_SHAPES, noise=data.draw(st.booleans())))
        checked = shapes.check_envelope(operation, drawn, shapes.WIRE_SHAPES)
        converted = wire._engine_values(operation, wire._SPELLING.get(operation, wire._as_is)(checked))
    except DynamoDBError:
        return  # (refused before the in-process envelope would have run)
    assert shapes.check_envelope(operation, converted) == converted
