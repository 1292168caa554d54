"""Section A of ``recorded-2026-11.md`` over the wire: each recorded class as a row, with DynamoDB's answer
(A1 is in tests/engine/test_query_model.py, with the reference model that would have caught it). The
recording's tables H, C and CN are named Hhh, Ccc and Cnn here (DynamoDB's names take three characters)."""

from __future__ import annotations

import json

import pytest

import partiql
from partiql.server.handler import Handler

HEADERS = {"content-type": "application/x-amz-json-1.0"}
KEYS = {"Hhh": (("pk", "S"),), "Ccc": (("pk", "S"), ("sk", "S")), "Cnn": (("pk", "S"), ("sk", "N"))}
VALIDATION = "com.amazon.coral.validate#ValidationException"


def _call(handler, operation: str, request: dict) -> tuple[int, dict]:
    status, _, body = handler.handle(f"DynamoDB_20120810.{operation}", HEADERS, json.dumps(request).encode())
    return status, json.loads(body) if body else {}


def recorded_tables():
    """A connection and its wire handler, holding the recording's tables (empty)."""
    db = partiql.connect()
    served = Handler(db)
    for name, keys in KEYS.items():
        assert _call(served, "CreateTable", {
            "TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": n, "KeyType": kind} for (n, _), kind in zip(keys, ("HASH", "RANGE"))],
            "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t} for n, t in keys]})[0] == 200
    return db, served


@pytest.fixture
def handler():
    db, served = recorded_tables()
    yield served
    db.close()


CASES = {  # operation, request -> DynamoDB's status, __type, message
    "A2 a third key condition, on a non-key name": (
        "Query", {"TableName": "Cnn", "KeyConditionExpression": "pk = :p AND sk > :a AND extra = :b",
                  "ExpressionAttributeValues": {":p": {"S": "x"}, ":a": {"N": "1"}, ":b": {"S": "y"}}},
        400, VALIDATION, "The number of query conditions (3) exceeds the number of key attributes defined in the "
                         "schema (2)"),
    "A2 a second key condition on a hash-only table": (
        "Query", {"TableName": "Hhh", "KeyConditionExpression": "pk = :p AND extra = :b",
                  "ExpressionAttributeValues": {":p": {"S": "x"}, ":b": {"S": "y"}}},
        400, VALIDATION, "The number of query conditions (2) exceeds the number of key attributes defined in the "
                         "schema (1)"),
    "A7 ProjectionExpression on one table, AttributesToGet on another": (
        "BatchGetItem", {"RequestItems": {"Hhh": {"Keys": [{"pk": {"S": "a"}}], "ProjectionExpression": "pk"},
                                          "Ccc": {"Keys": [{"pk": {"S": "a"}, "sk": {"S": "b"}}],
                                                  "AttributesToGet": ["pk"]}}},
        400, VALIDATION, "Can not use both expression and non-expression parameters in the same request: "
                         "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"),
    "A8 zero with an exponent past the range": (
        "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}, "n": {"N": "0e126"}}},
        400, VALIDATION, "Number overflow. Attempting to store a number with magnitude larger than supported range"),
    "A8 zero with an exponent below the range": (
        "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}, "n": {"N": "0e-131"}}},
        400, VALIDATION, "Number underflow. Attempting to store a number with magnitude smaller than supported "
                         "range"),
}


@pytest.mark.parametrize("operation, request_, status, kind, message", CASES.values(), ids=CASES)
def test_dynamodb_s_recorded_answer(handler, operation, request_, status, kind, message):
    found_status, body = _call(handler, operation, request_)
    assert (found_status, body.get("__type"), body.get("message")) == (status, kind, message)


def test_a8_zero_within_the_range_is_stored_as_zero(handler):
    assert _call(handler, "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "z"}, "n": {"N": "0e125"}}})[0] == 200
    status, body = _call(handler, "GetItem", {"TableName": "Hhh", "Key": {"pk": {"S": "z"}}})
    assert body["Item"]["n"] == {"N": "0"}


@pytest.mark.parametrize("operation, request_", [
    ("DescribeTable", {"TableName": "Cnn"}),
    ("UpdateTable", {"TableName": "Cnn", "BillingMode": "PROVISIONED",
                     "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}),
    ("DeleteTable", {"TableName": "Cnn"}),
    ("CreateTable", {"TableName": "New", "BillingMode": "PAY_PER_REQUEST",
                     "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                     "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}),
])
def test_a12_partitions_is_not_a_dynamodb_member_on_the_wire(handler, operation, request_):
    status, body = _call(handler, operation, request_)
    description = body.get("Table") or body.get("TableDescription")
    assert status == 200 and description and "Partitions" not in description


def test_a12_the_library_keeps_partitions():
    with partiql.connect() as db:
        db.execute("CREATE TABLE Ccc PRIMARY KEY (pk STRING HASH)")
        assert db.engine.describe_table(TableName="Ccc")["Table"]["Partitions"]


A3 = {  # a legacy request with {"NULL": true} -> DynamoDB's status and message (None: 200)
    "AttributeUpdates PUT NULL": ("UpdateItem", {"TableName": "Hhh", "Key": {"pk": {"S": "a"}}, "AttributeUpdates": {
        "m": {"Action": "PUT", "Value": {"NULL": True}}}}, 200, None),
    "AttributeUpdates ADD NULL": ("UpdateItem", {"TableName": "Hhh", "Key": {"pk": {"S": "a"}}, "AttributeUpdates": {
        "m": {"Action": "ADD", "Value": {"NULL": True}}}}, 400,
        "One or more parameter values were invalid: ADD action is not supported for the type NULL"),
    "Expected Value NULL": ("PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}, "m": {"NULL": True}},
                                        "Expected": {"m": {"Value": {"NULL": True}}}}, 200, None),
    "Expected EQ [NULL]": ("PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}}, "Expected": {
        "m": {"ComparisonOperator": "EQ", "AttributeValueList": [{"NULL": True}]}}}, 200, None),
    "ScanFilter LT [NULL]": ("Scan", {"TableName": "Hhh", "ScanFilter": {
        "m": {"ComparisonOperator": "LT", "AttributeValueList": [{"NULL": True}]}}}, 400,
        "One or more parameter values were invalid: ComparisonOperator LT is not valid for NULL AttributeValue type"),
    "a Value of JSON null is absent, not NULL": (
        "UpdateItem", {"TableName": "Hhh", "Key": {"pk": {"S": "a"}},
                       "AttributeUpdates": {"m": {"Action": "PUT", "Value": None}}},
        400, "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is "
             "specified"),
}


@pytest.mark.parametrize("operation, request_, status, message", A3.values(), ids=A3)
def test_a3_null_in_the_legacy_parameters(handler, operation, request_, status, message):
    assert _call(handler, "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "a"}, "m": {"NULL": True}}})[0] == 200
    found_status, body = _call(handler, operation, request_)
    assert (found_status, body.get("message")) == (status, message)
    if operation == "UpdateItem" and status == 200:
        item = _call(handler, "GetItem", {"TableName": "Hhh", "Key": {"pk": {"S": "a"}}})[1]["Item"]
        assert item["m"] == {"NULL": True}


_N5 = {"pk": {"N": "5"}}
A5 = {  # one action of a TransactWriteItems on Hhh (pk S) with a key of the wrong type -> its reason's message
    "Put": ({"Put": {"TableName": "Hhh", "Item": _N5}},
            "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"),
    "Update": ({"Update": {"TableName": "Hhh", "Key": _N5, "UpdateExpression": "SET a = :v",
                           "ExpressionAttributeValues": {":v": {"S": "x"}}}},
               "The provided key element does not match the schema"),
    "Delete": ({"Delete": {"TableName": "Hhh", "Key": _N5}}, "The provided key element does not match the schema"),
    "ConditionCheck": ({"ConditionCheck": {"TableName": "Hhh", "Key": _N5,
                                           "ConditionExpression": "attribute_exists(a)"}},
                       "The provided key element does not match the schema"),
}


@pytest.mark.parametrize("action, message", A5.values(), ids=A5)
def test_a5_a_key_of_the_wrong_type_cancels_the_transaction(handler, action, message):
    first = {"Put": {"TableName": "Hhh", "Item": {"pk": {"S": "fine"}}}}
    status, body = _call(handler, "TransactWriteItems", {"TransactItems": [first, action]})
    assert status == 400 and body["__type"] == "com.amazonaws.dynamodb.v20120810#TransactionCanceledException"
    assert body["CancellationReasons"] == [{"Code": "None"}, {"Code": "ValidationError", "Message": message}]
    assert _call(handler, "GetItem", {"TableName": "Hhh", "Key": {"pk": {"S": "fine"}}})[1] == {}  # (nothing written)


def test_a6_a_parameter_that_cannot_be_converted_fails_its_statement_alone(handler):
    status, body = _call(handler, "BatchExecuteStatement", {"Statements": [
        {"Statement": "INSERT INTO Hhh VALUE {'pk': ?}", "Parameters": [{"S": "a"}]},
        {"Statement": "INSERT INTO Hhh VALUE {'pk': 'b', 'n': ?}", "Parameters": [{"N": "abc"}]},
        {"Statement": "INSERT INTO Hhh VALUE {'pk': ?}", "Parameters": [{"S": "c"}]}]})
    assert status == 200 and body["Responses"] == [
        {"TableName": "Hhh"},
        {"Error": {"Code": "ValidationError", "Message": "The parameter cannot be converted to a numeric value: abc"}},
        {"TableName": "Hhh"}]
    scanned = _call(handler, "Scan", {"TableName": "Hhh"})[1]["Items"]
    assert sorted(item["pk"]["S"] for item in scanned) == ["a", "c"]


A4 = {  # a WHERE on Hhh whose OR names no key attribute -> the items DynamoDB returns (a 200)
    "the recorded statement": (
        "SELECT * FROM \"Hhh\" WHERE pk = 'k1' AND (attribute_exists(nope) OR attribute_exists(ss))",
        ["k1"]),
    "neither branch holds": (
        "SELECT * FROM \"Hhh\" WHERE pk = 'k1' AND (attribute_exists(nope) OR attribute_exists(gone))",
        []),
}


@pytest.mark.parametrize("statement, keys", A4.values(), ids=A4)
def test_a4_an_or_over_non_key_attributes_is_a_filter_not_overlapping_reads(handler, statement, keys):
    assert _call(handler, "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "k1"}, "ss": {"SS": ["a"]}}})[0] == 200
    status, body = _call(handler, "ExecuteStatement", {"Statement": statement})
    assert status == 200 and [item["pk"]["S"] for item in body["Items"]] == keys


def test_a4_branches_that_read_one_key_twice_still_overlap(handler):
    status, body = _call(handler, "ExecuteStatement",
                         {"Statement": "SELECT * FROM \"Hhh\" WHERE pk = 'a' OR pk = 'a'"})  # (findings C-012, D-12a)
    assert (status, body["message"]) == (400, "Overlapping conditions with range keys are not supported in where "
                                              "clause")


def _batch_get_until_done(engine, request: dict) -> tuple[list, int, list]:
    """An application's retry loop over UnprocessedKeys: (every item, the calls, the first answer's sizes)."""
    items, calls, first = [], 0, None
    while request:
        answer = engine.batch_get_item(RequestItems=request, ReturnConsumedCapacity="TOTAL")
        calls += 1
        got = [item for found in answer["Responses"].values() for item in found]
        first = first or (len(got), answer["ConsumedCapacity"])
        items += got
        request = answer["UnprocessedKeys"]
        assert calls <= 20
    return items, calls, first


def test_a10_more_than_a_megabyte_from_one_partition_comes_back_in_part():
    """The recorded case: 3 items of ~400 KB and 17 of ~20 KB in one small (one-partition) table."""
    with partiql.connect() as db:
        db.execute("CREATE TABLE Small (pk STRING) PRIMARY KEY (pk HASH) BILLING MODE PROVISIONED (100 RCU, 100 WCU)")
        for n, size in enumerate([400_000] * 3 + [20_000] * 17):
            db.engine.put_item(TableName="Small", Item={"pk": f"k{n:02}", "b": "x" * size})
        keys = [{"pk": f"k{n:02}"} for n in range(20)] + [{"pk": "missing"}]
        items, calls, (served, capacity) = _batch_get_until_done(
            db.engine, {"Small": {"Keys": keys, "ConsistentRead": True}})
        assert sorted(item["pk"] for item in items) == [f"k{n:02}" for n in range(20)]
        assert calls > 1 and 0 < served < 20  # (some, then the rest on retries)
        served_units = sum(-(-(len("pk") + 3 + len("b") + len(item["b"])) // 4096) for item in items[:served])
        assert capacity == [{"TableName": "Small", "CapacityUnits": float(served_units + 1)}]  # (+ the missing key)


def test_a10_a_response_stops_at_16_megabytes():
    with partiql.connect() as db:
        per_table = {"Aaa": 34, "Bbb": 33, "Ccc": 33}
        for name, count in per_table.items():
            db.execute(f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH)")
            for n in range(count):
                db.engine.put_item(TableName=name, Item={"pk": f"k{n}", "b": "x" * 390_000})
        request = {name: {"Keys": [{"pk": f"k{n}"} for n in range(count)]} for name, count in per_table.items()}
        answer = db.engine.batch_get_item(RequestItems=request)
        served = sum(len(found) for found in answer["Responses"].values())
        assert 0 < served * 390_000 <= 16 * 1024 * 1024 < (served + 1) * 390_000 + 8 * 1024 * 1024
        items, calls, _ = _batch_get_until_done(db.engine, request)
        assert len(items) == 100 and calls > 1


# A11: DynamoDB's Scan order (the digest of b"Outliers" and the key's bytes), and its parallel-Scan segments.
# why S keys in the segment row: the recording lists the keys 3635, 228, 1668 and 3435 as N, but the answer it
# gives is the one for their UTF-8 bytes (digests 0008c2…, 000efb…, 001fef…, 004477…); their base-100 N form,
# which the same entry gives for N keys and whose bytes order as the numbers do, puts them in buckets 0x600,
# 0x59f, 0xa5b and 0xe55. The text's N form is the rule followed (tests/engine/test_placement.py checks it).
A11_KEYS = [str(n) for n in range(10)] + ["aardman", "hello", "zapf", "äáöü"]
A11_ORDER = ["2", "8", "9", "1", "6", "hello", "0", "5", "4", "äáöü", "aardman", "7", "3", "zapf"]


def _scan(handler, **request) -> list:
    status, body = _call(handler, "Scan", {"TableName": "Hhh", **request})
    assert status == 200, body
    return [item["pk"]["S"] for item in body["Items"]]


def test_a11_scan_returns_items_in_dynamodb_s_order(handler):
    for key in A11_KEYS:
        assert _call(handler, "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": key}}})[0] == 200
    assert _scan(handler) == A11_ORDER
    assert _scan(handler, Limit=5) == A11_ORDER[:5]


@pytest.mark.parametrize("segment, total, expected", [
    (0, 4096, {"228", "3635"}),  # (the recording's answer)
    (1, 4096, {"1668"}),
    (4, 4096, {"3435"}),
    (2, 4096, set()),
    (0, 1, {"228", "3635", "1668", "3435"}),
])
def test_a11_a_parallel_scan_segment_holds_the_keys_of_its_12_bit_range(handler, segment, total, expected):
    for key in ("3635", "228", "1668", "3435"):
        assert _call(handler, "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": key}}})[0] == 200
    assert set(_scan(handler, Segment=segment, TotalSegments=total)) == expected


# A9: UpdateItem's 400 KB gate is sized by the statement, before the condition (the majority of regions).
TOO_LARGE = "Item size to update has exceeded the maximum allowed size"


def _update(handler, expression: str, values: dict, condition: str | None = None) -> tuple[int, dict]:
    request = {"TableName": "Hhh", "Key": {"pk": {"S": "K"}}, "UpdateExpression": expression,
               "ExpressionAttributeValues": {name: {"S": "x" * length} for name, length in values.items()}}
    if condition is not None:
        request["ConditionExpression"] = condition
    return _call(handler, "UpdateItem", request)


@pytest.mark.parametrize("stored, expression, values, condition, outcome", [
    # the recording: 409,578 bytes in b, the finished item 409,582 bytes (ceiling 409,600 - 3 - 19 for b's value)
    (None, "SET b = :pad", {":pad": 409_578}, None, TOO_LARGE),
    (None, "SET b = :pad", {":pad": 409_577}, None, "stored"),
    # if_not_exists(c, :huge) is sized by :huge, and before the condition, which would fail
    ({"c": 10}, "SET c = if_not_exists(c, :huge)", {":huge": 409_700}, "attribute_exists(nope)", TOO_LARGE),
    ({"c": 10}, "SET c = if_not_exists(c, :v)", {":v": 100}, "attribute_exists(nope)", "ConditionalCheckFailedException"),
    # untouched bytes of the stored item forgive the clauses' overhead: the ordinary 400 KB limit
    ({"big": 409_000}, "SET small = :v", {":v": 500}, None, "stored"),
    ({"big": 409_000}, "SET small = :v", {":v": 600}, None, TOO_LARGE),
    # two clauses: 3 + 2 x 19 bytes of overhead
    (None, "SET a = :v, b = :w", {":v": 200_000, ":w": 209_557}, None, "stored"),
    (None, "SET a = :v, b = :w", {":v": 200_000, ":w": 209_558}, None, TOO_LARGE),
])
def test_a9_the_update_gate_is_sized_by_the_statement(handler, stored, expression, values, condition, outcome):
    if stored is not None:
        item = {"pk": {"S": "K"}, **{name: {"S": "y" * length} for name, length in stored.items()}}
        assert _call(handler, "PutItem", {"TableName": "Hhh", "Item": item})[0] == 200
    status, body = _update(handler, expression, values, condition)
    if outcome == "stored":
        assert status == 200, body
    elif outcome == TOO_LARGE:
        assert (status, body["__type"], body["message"]) == (400, VALIDATION, TOO_LARGE)
    else:  # (a small statement reaches the condition)
        assert (status, body["__type"].rsplit("#")[-1]) == (400, outcome)


def test_a9_a_transaction_s_update_is_gated_by_its_statement_too(handler):
    status, body = _call(handler, "TransactWriteItems", {"TransactItems": [{"Update": {
        "TableName": "Hhh", "Key": {"pk": {"S": "K"}}, "UpdateExpression": "SET b = :pad",
        "ExpressionAttributeValues": {":pad": {"S": "x" * 409_578}}}}]})
    assert status == 400 and body["CancellationReasons"] == [{"Code": "ValidationError", "Message": TOO_LARGE}]


def test_a11_a_key_in_bucket_1365_is_in_segment_0_of_3(handler):
    """k7888's digest begins 0x5558…: 12-bit bucket 1365, below ceil(4096/3) = 1366, so segment 0 of 3, though
    its hash is past a third of the 64-bit space (an even split of the hash space would put it in segment 1)."""
    assert _call(handler, "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "k7888"}}})[0] == 200
    assert [_scan(handler, Segment=s, TotalSegments=3) for s in range(3)] == [["k7888"], [], []]


SERIALIZATION = "com.amazon.coral.service#SerializationException"


@pytest.mark.parametrize("value, stored", [
    ({"B": "+/+="}, None), ({"BS": ["YQ==", "YR=="]}, None), ({"B": "YQ"}, None),  # (C3: not canonical base64)
    ({"B": "+/8="}, {"B": "+/8="}), ({"BS": ["YQ=="]}, {"BS": ["YQ=="]}),
])
def test_c3_base64_must_be_canonical(handler, value, stored):
    status, body = _call(handler, "PutItem", {"TableName": "Hhh", "Item": {"pk": {"S": "b"}, "b": value}})
    if stored is None:
        assert (status, body["__type"]) == (400, SERIALIZATION)
        assert body["Message"] in ("Invalid last non-pad Base64 character dectected",
                                   "Base64 encoded length is expected a multiple of 4 bytes but found: 2")
        return
    assert status == 200
    assert _call(handler, "GetItem", {"TableName": "Hhh", "Key": {"pk": {"S": "b"}}})[1]["Item"]["b"] == stored
