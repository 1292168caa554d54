"""The worked cases of multi-attribute-keys.md §15, each a row, over the wire and through the library.

The spec's fixtures MQ, MA, MA1, C1, MX and MM are named Mqq, Maa, Ma1, Cc1, Mxx and Mmm here (DynamoDB's table
names take three characters).
"""

from __future__ import annotations

import json

import pytest

import partiql
from partiql.engine.errors import DynamoDBError
from partiql.engine.requests.convert import convert
from partiql.engine.wire_values import from_wire
from partiql.server.handler import Handler

HEADERS = {"content-type": "application/x-amz-json-1.0"}
VALIDATION = "com.amazon.coral.validate#ValidationException"
REFUSED = ("PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute "
           "RANGE keys.")


def _call(handler, operation: str, request: dict) -> tuple[int, dict]:
    status, _, body = handler.handle(f"DynamoDB_20120810.{operation}", HEADERS, json.dumps(request).encode())
    return status, json.loads(body) if body else {}


def _library(db, operation: str, request: dict) -> tuple[int, dict]:
    """The same request through the library's Engine methods, with Python values (200, or 400 and the error's
    words)."""
    method = getattr(db.engine, "".join("_" + c.lower() if c.isupper() else c for c in operation).lstrip("_"))
    try:
        return 200, method(**convert(request, from_wire))
    except DynamoDBError as error:
        return 400, {"message": error.message}


def _key_schema(hashes, ranges=()) -> list:
    return ([{"AttributeName": n, "KeyType": "HASH"} for n in hashes]
            + [{"AttributeName": n, "KeyType": "RANGE"} for n in ranges])


def _table(name, key, definitions: dict, gsis=(), lsis=()) -> dict:
    request = {"TableName": name, "BillingMode": "PAY_PER_REQUEST", "KeySchema": key,
               "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t} for n, t in definitions.items()]}
    if gsis:
        request["GlobalSecondaryIndexes"] = [{"IndexName": n, "KeySchema": k, "Projection": {"ProjectionType": "ALL"}}
                                             for n, k in gsis]
    if lsis:
        request["LocalSecondaryIndexes"] = [{"IndexName": n, "KeySchema": k, "Projection": {"ProjectionType": "ALL"}}
                                            for n, k in lsis]
    return request


def _s(**values) -> dict:
    return {name: ({"N": str(value)} if isinstance(value, int) else {"S": value}) for name, value in values.items()}


MQ_ROWS = [("p1", "T", "live", "b", "r1"), ("p2", "T", "live", "a", "r2"), ("p3", "T", "live", "a", "r1"),
           ("p4", "T", "draft", "c", "r1"), ("p5", "F", "live", "a", "r0"), ("p6", "T", "live", None, "r1")]
MQ_VALUES = {":h": "o1", ":a": "T", ":b": "live", ":c": "a", ":d": "r", ":x": "r1", ":y": "r1"}
MM_ROWS = {"1": ("pk1", "skA", 100), "2": ("pk1", "skA", 200), "3": ("pk1", "skA", 300), "4": ("pk1", "skB", 150),
           "5": ("pk2", "skA", 250)}


@pytest.fixture(scope="module")
def served():
    db = partiql.connect(throughput="off")
    handler = Handler(db)
    tables = [
        (_table("Mqq", _key_schema(["pk"]), dict.fromkeys(["pk", "h", "a", "b", "c", "d"], "S"),
                [("gsi", _key_schema(["h"], ["a", "b", "c", "d"]))]),
         [_s(pk=pk, h="o1", a=a, b=b, d=d, **({"c": c} if c else {})) for pk, a, b, c, d in MQ_ROWS]),
        (_table("Maa", _key_schema(["id"]), dict.fromkeys(["id", "h1", "h2", "r1", "r2"], "S"),
                [("gsi", _key_schema(["h1", "h2"], ["r1", "r2"]))]), [_s(id="i1", h1="a", h2="x", r1="m", r2="n")]),
        (_table("Ma1", _key_schema(["id"]), dict.fromkeys(["id", "h1", "h2", "r1"], "S"),
                [("gsi", _key_schema(["h1", "h2"], ["r1"]))]), [_s(id="i1", h1="a", h2="x", r1="m")]),
        (_table("Cc1", _key_schema(["id"]), dict.fromkeys(["id", "h1", "r1"], "S"),
                [("gsi", _key_schema(["h1"], ["r1"]))]), [_s(id="i1", h1="a", r1="m")]),
        (_table("Mxx", _key_schema(["id"], ["sk"]), dict.fromkeys(["id", "sk", "g", "h1", "h2", "r1", "l"], "S"),
                [("single", _key_schema(["g"])), ("multi", _key_schema(["h1", "h2"], ["r1"]))],
                [("local", _key_schema(["id"], ["l"]))]),
         [_s(id="i1", sk="s", g="g1", h1="a", h2="x", r1="m", l="l1")]),
        (_table("Mmm", _key_schema(["pk"]), {"pk": "S", "gsi_pk": "S", "gsi_sk": "S", "gsi_sk2": "N"},
                [("test_gsi", _key_schema(["gsi_pk"], ["gsi_sk", "gsi_sk2"]))]),
         [_s(pk=pk, gsi_pk=g, gsi_sk=s, gsi_sk2=n) for pk, (g, s, n) in MM_ROWS.items()]),
    ]
    for definition, items in tables:
        assert _call(handler, "CreateTable", definition)[0] == 200
        for item in items:
            assert _call(handler, "PutItem", {"TableName": definition["TableName"], "Item": item})[0] == 200
    yield handler, db
    db.close()


def _query_both(served, request: dict) -> tuple:
    """(status, items' first key values or the message, LastEvaluatedKey) over the wire; the library agrees."""
    handler, db = served
    status, body = _call(handler, "Query", request)
    library_status, library_body = _library(db, "Query", request)
    assert library_status == status
    if status != 200:
        assert library_body["message"] == body["message"]
        return status, body["message"], None
    keys = [next(iter(item[name].values())) for item in body["Items"] for name in ("pk", "id") if name in item]
    assert [item.get("pk", item.get("id")) for item in library_body["Items"]] == \
        [from_wire(item.get("pk", item.get("id"))) for item in body["Items"]]
    return status, keys, body.get("LastEvaluatedKey")


def _mq(expression: str, **options) -> dict:
    used = {name: {"S": value} for name, value in MQ_VALUES.items() if name in expression}
    return {"TableName": "Mqq", "IndexName": "gsi", "KeyConditionExpression": expression,
            "ExpressionAttributeValues": used, **options}


GAP = "RANGE key attributes {} must have equality conditions specified in the query because a condition is present on key attribute {}"
MQ_CASES = {  # §15 cases 1-14: key condition (and options) -> the items' pk in order, or the refusal
    "1 the HASH attribute alone": ("h = :h", {}, ["p5", "p4", "p3", "p2", "p1"]),
    "2 an equality on the first RANGE": ("h = :h AND a = :a", {}, ["p4", "p3", "p2", "p1"]),
    "3 read backwards": ("h = :h AND a = :a", {"ScanIndexForward": False}, ["p1", "p2", "p3", "p4"]),
    "4 two equalities": ("h = :h AND a = :a AND b = :b", {}, ["p3", "p2", "p1"]),
    "5 three equalities": ("h = :h AND a = :a AND b = :b AND c = :c", {}, ["p3", "p2"]),
    "6 a range condition on the last named": ("h = :h AND a = :a AND b = :b AND c > :c", {}, ["p1"]),
    "7 begins_with on the fourth": ("h = :h AND a = :a AND b = :b AND c = :c AND begins_with(d, :d)", {},
                                    ["p3", "p2"]),
    "8 BETWEEN on the fourth": ("h = :h AND a = :a AND b = :b AND c = :c AND d BETWEEN :x AND :y", {}, ["p3"]),
    "9 a range condition on the second": ("h = :h AND a = :a AND b < :b", {}, ["p4"]),
    "10 clauses in any order": ("b = :b AND h = :h AND a = :a", {}, ["p3", "p2", "p1"]),
    "12 a gap": ("h = :h AND a = :a AND c = :c", {}, GAP.format("b", "c")),
    "13 a range condition before the last": ("h = :h AND a = :a AND b > :b AND c = :c", {}, GAP.format("b", "c")),
    "14 the first RANGE skipped": ("h = :h AND b = :b", {}, GAP.format("a", "b")),
    "backwards from the end of a begins_with": ("h = :h AND a = :a AND b = :b AND c = :c AND begins_with(d, :d)",
                                               {"ScanIndexForward": False}, ["p2", "p3"]),
}


@pytest.mark.parametrize("expression, options, expected", MQ_CASES.values(), ids=MQ_CASES)
def test_mq_query(served, expression, options, expected):
    status, found, _ = _query_both(served, _mq(expression, **options))
    assert (status, found) == ((200, expected) if isinstance(expected, list) else (400, expected))


def test_mq_11_a_page_carries_every_key_attribute_and_paging_returns_each_entry_once(served):
    request = _mq("h = :h AND a = :a", Limit=2)
    status, found, last = _query_both(served, request)
    assert (status, found) == (200, ["p4", "p3"])
    assert last == _s(pk="p3", h="o1", a="T", b="live", c="a", d="r1")
    status, rest, last = _query_both(served, {**request, "ExclusiveStartKey": last})
    assert (rest, last is not None) == (["p2", "p1"], True)
    assert _query_both(served, {**request, "ExclusiveStartKey": last})[1:] == ([], None)


HASH_MISSING = "HASH key attributes h2 must have equality conditions"
MA_QUERIES = {  # the HASH rule and the clause count on Maa (h1, h2 HASH; r1, r2 RANGE)
    "a HASH attribute missing": ("h1 = :a", HASH_MISSING),
    "a HASH attribute with >": ("h1 = :a AND h2 > :x", HASH_MISSING),
    "a HASH attribute with begins_with": ("h1 = :a AND begins_with(h2, :x)", HASH_MISSING),
    "only RANGE attributes": ("r1 = :m", "HASH key attributes h1, h2 must have equality conditions"),
    "a clause on a non-key attribute": ("h1 = :a AND h2 = :x AND id = :m", "Query condition missed key schema element: r1"),
    "every key attribute": ("h1 = :a AND h2 = :x AND r1 = :m AND r2 = :n", ["i1"]),
    "a value of another type": ("h1 = :a AND h2 = :five", "One or more parameter values were invalid: Condition "
                                                          "parameter type does not match schema type"),
}


@pytest.mark.parametrize("expression, expected", MA_QUERIES.values(), ids=MA_QUERIES)
def test_ma_query(served, expression, expected):
    values = {":a": {"S": "a"}, ":x": {"S": "x"}, ":m": {"S": "m"}, ":n": {"S": "n"}, ":five": {"N": "5"}}
    request = {"TableName": "Maa", "IndexName": "gsi", "KeyConditionExpression": expression,
               "ExpressionAttributeValues": {k: v for k, v in values.items() if k in expression.split()
                                             or k + ")" in expression}}
    status, found, _ = _query_both(served, request)
    assert (status, found) == ((200, expected) if isinstance(expected, list) else (400, expected))


def _statement(served, text: str, parameters=None) -> tuple[int, dict]:
    request = {"Statement": text, **({"Parameters": parameters} if parameters else {})}
    return _call(served[0], "ExecuteStatement", request)


PARTIQL = {  # §15 cases 15-17, 19: statement (and parameters) -> None for a success, or the message
    "15 two HASH and two RANGE": ('SELECT * FROM "Maa"."gsi" WHERE h1 = \'a\'', None, REFUSED),
    "15 ORDER BY": ('SELECT id FROM "Maa"."gsi" WHERE h1 = \'a\' AND h2 = \'x\' ORDER BY r1 DESC', None, REFUSED),
    "15 two HASH and one RANGE": ('SELECT * FROM "Ma1"."gsi" WHERE h1 = \'a\'', None, REFUSED),
    "15 ahead of a key type mismatch": ('SELECT * FROM "Ma1"."gsi" WHERE h1 = 5', None, REFUSED),
    "15 ahead of a non-key WHERE": ('SELECT * FROM "Ma1"."gsi" WHERE id = \'i1\'', None, REFUSED),
    "15 ahead of a missing WHERE": ('SELECT * FROM "Ma1"."gsi"', None, REFUSED),
    "15 ahead of COUNT(*)": ('SELECT COUNT(*) FROM "Ma1"."gsi"', None, REFUSED),
    "16 a syntax error first": ('SELECT * FROM "Ma1"."gsi" WHERE', None,
                                "Statement wasn't well formed, can't be processed: Unexpected term"),
    "16 a number literal first": ('SELECT * FROM "Ma1"."gsi" WHERE h1 = 1e99999999999', None,
                                  "Statement wasn't well formed, can't be processed: "),
    "16 a parameter first": ('SELECT * FROM "Ma1"."gsi" WHERE h1 = ?', [{"N": "1e99999999999"}],
                             "The parameter cannot be converted to a numeric value: 1e99999999999"),
    "17 base table INSERT": ("INSERT INTO \"Maa\" VALUE {'id': 'n1'}", None, None),
    "17 base table UPDATE": ("UPDATE \"Maa\" SET a = 1 WHERE id = 'i1'", None, None),
    "17 base table DELETE": ("DELETE FROM \"Maa\" WHERE id = 'zz'", None, None),
    "17 base table SELECT": ("SELECT * FROM \"Maa\" WHERE id = 'i1'", None, None),
    "19 the same table's base table": ("SELECT * FROM \"Mxx\" WHERE id = 'i1'", None, None),
    "19 its single-attribute GSI": ("SELECT * FROM \"Mxx\".\"single\" WHERE g = 'g1'", None, None),
    "19 its LSI": ("SELECT * FROM \"Mxx\".\"local\" WHERE id = 'i1'", None, None),
    "19 its multi-attribute GSI": ("SELECT * FROM \"Mxx\".\"multi\" WHERE h1 = 'a' AND h2 = 'x'", None, REFUSED),
}


@pytest.mark.parametrize("text, parameters, message", PARTIQL.values(), ids=PARTIQL)
def test_partiql(served, text, parameters, message):
    status, body = _statement(served, text, parameters)
    if message is None:
        assert status == 200, body
        if text.startswith("SELECT"):
            assert len(body["Items"]) == 1
            assert len(served[1].execute(text).items) == 1  # (the library reads it too)
        return
    assert (status, body["__type"], body["message"]) == (400, VALIDATION, message)
    if parameters is None:  # (the library answers alike; a parameter's text is the wire's alone)
        with pytest.raises(DynamoDBError) as refused:
            served[1].execute(text)
        assert refused.value.message == message


def test_18_in_a_batch_only_the_statement_reading_the_index_fails_ahead_of_the_key_only_rule(served):
    status, body = _call(served[0], "BatchExecuteStatement", {"Statements": [
        {"Statement": "SELECT * FROM \"Cc1\".\"gsi\" WHERE h1 = 'a' AND r1 = 'm'"},
        {"Statement": "SELECT * FROM \"Ma1\".\"gsi\" WHERE h1 = 'a' AND h2 = 'x' AND r1 = 'm'"},
        {"Statement": "SELECT * FROM \"Ma1\" WHERE id = 'i1'"}]})
    assert status == 200
    first, second, third = body["Responses"]
    assert first["Error"] == {"Code": "ValidationError", "Message": "Select statements within "
                              "BatchExecuteStatement must specify the primary key in the where clause."}
    assert second["Error"] == {"Code": "ValidationError", "Message": REFUSED}
    assert "Error" not in third and third["Item"]["id"] == {"S": "i1"}


P = {"AttributeName": "p", "AttributeType": "S"}
TOO_MANY_HASH = ("One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of "
                 "HASH key attributes")
CREATE = {  # §15 cases 20-26: a GSI key (or an LSI's) -> DynamoDB's message (None: accepted)
    "20 five HASH": (_key_schema([f"a{n}" for n in range(1, 6)]), None, TOO_MANY_HASH),
    "21 five RANGE": (_key_schema(["h"], [f"r{n}" for n in range(5)]), None,
                      "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number "
                      "of RANGE key attributes"),
    "22 a HASH after a RANGE": ([{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType": "RANGE"},
                                 {"AttributeName": "c", "KeyType": "HASH"}], None,
                                "One or more parameter values were invalid: All HASH key attributes must precede "
                                "RANGE key attributes in the KeySchema"),
    "23 RANGE first": ([{"AttributeName": "b", "KeyType": "RANGE"}, {"AttributeName": "a", "KeyType": "HASH"}], None,
                       "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    "23 RANGE only": (_key_schema([], ["a", "b"]), None,
                      "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    "24 an attribute twice": (_key_schema(["a", "a"]), None,
                              "The KeySchema contains multiple key attributes with the same name"),
    "24 HASH and RANGE alike": (_key_schema(["a"], ["a"]), None,
                                "The KeySchema contains multiple key attributes with the same name"),
    "25 four and four": (_key_schema([f"h{n}" for n in range(1, 5)], [f"r{n}" for n in range(1, 5)]), None, None),
    "26 an LSI of three": (None, [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "c", "KeyType": "RANGE"},
                                  {"AttributeName": "l", "KeyType": "RANGE"}],
                           "1 validation error detected: Value '[KeySchemaElement(attributeName=p, keyType=HASH), "
                           "KeySchemaElement(attributeName=c, keyType=RANGE), KeySchemaElement(attributeName=l, "
                           "keyType=RANGE)]' at 'localSecondaryIndexes.1.member.keySchema' failed to satisfy "
                           "constraint: Member must have length less than or equal to 2"),
}


@pytest.mark.parametrize("gsi, lsi, message", CREATE.values(), ids=CREATE)
def test_create_table(served, gsi, lsi, message):
    handler, db = served
    names = sorted({e["AttributeName"] for e in (gsi or lsi)} | {"p", "c"})
    request = _table("New", _key_schema(["p"], ["c"]), dict.fromkeys(names, "S"),
                     [("gsi", gsi)] if gsi else (), [("lsi", lsi)] if lsi else ())
    status, body = _call(handler, "CreateTable", request)
    if message is None:
        assert status == 200, body
        described = _call(handler, "DescribeTable", {"TableName": "New"})[1]["Table"]
        assert described["GlobalSecondaryIndexes"][0]["KeySchema"] == gsi
        assert _call(handler, "DeleteTable", {"TableName": "New"})[0] == 200
        return
    assert (status, body["message"]) == (400, message)
    assert _library(db, "CreateTable", request) == (400, {"message": message})


def test_20_five_hash_through_update_table(served):
    handler, _ = served
    status, body = _call(handler, "UpdateTable", {
        "TableName": "Maa", "AttributeDefinitions": [{"AttributeName": f"a{n}", "AttributeType": "S"} for n in range(1, 6)],
        "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "five", "KeySchema": _key_schema(
            [f"a{n}" for n in range(1, 6)]), "Projection": {"ProjectionType": "ALL"}}}]})
    assert (status, body["message"]) == (400, TOO_MANY_HASH)


def _mm(expression: str, values: dict, **options) -> dict:
    wire = {name: ({"N": str(v)} if isinstance(v, int) else {"S": v}) for name, v in values.items()}
    return {"TableName": "Mmm", "IndexName": "test_gsi", "KeyConditionExpression": expression,
            "ExpressionAttributeValues": wire, **options}


MM = {  # §15 cases 27-31
    "27 sorted by both RANGE attributes": ("gsi_pk = :pk", {":pk": "pk1"}, ["1", "2", "3", "4"]),
    "28 a partial range comparison": ("gsi_pk = :pk AND gsi_sk > :sk", {":pk": "pk1", ":sk": "skA"}, ["4"]),
    "29 BETWEEN on the last": ("gsi_pk = :pk AND gsi_sk = :sk AND gsi_sk2 BETWEEN :lo AND :hi",
                               {":pk": "pk1", ":sk": "skA", ":lo": 150, ":hi": 250}, ["2"]),
    "31 the first RANGE skipped": ("gsi_pk = :pk AND gsi_sk2 > :sk2", {":pk": "pk1", ":sk2": 100},
                                   GAP.format("gsi_sk", "gsi_sk2")),
}


@pytest.mark.parametrize("expression, values, expected", MM.values(), ids=MM)
def test_mm_query(served, expression, values, expected):
    status, found, _ = _query_both(served, _mm(expression, values))
    assert (status, found) == ((200, expected) if isinstance(expected, list) else (400, expected))


def test_mm_30_legacy_key_conditions_on_three_attributes(served):
    request = {"TableName": "Mmm", "IndexName": "test_gsi", "KeyConditions": {
        "gsi_pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "pk1"}]},
        "gsi_sk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "skA"}]},
        "gsi_sk2": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "100"}]}}}
    assert _query_both(served, request)[:2] == (200, ["2", "3"])


def test_mm_32_items_missing_a_key_attribute_are_written_and_left_out(served):
    handler, _ = served
    for item in (_s(pk="6", gsi_pk="pk1", gsi_sk="skB"), _s(pk="7", gsi_pk="pk1", gsi_sk2=200)):
        assert _call(handler, "PutItem", {"TableName": "Mmm", "Item": item})[0] == 200
    assert _query_both(served, _mm("gsi_pk = :pk", {":pk": "pk1"}))[1] == ["1", "2", "3", "4"]
    for pk in ("6", "7"):
        assert _call(handler, "DeleteItem", {"TableName": "Mmm", "Key": _s(pk=pk)})[0] == 200


MORE = {  # other rules of the spec (§4.2, §4.3, §7.2, §7.3, §7.4) on Maa (h1, h2 HASH; r1, r2 RANGE): request -> message
    "§7.3 a filter on a HASH attribute": ("Query", {
        "TableName": "Maa", "IndexName": "gsi", "KeyConditionExpression": "h1 = :a AND h2 = :x",
        "FilterExpression": "#r = :m", "ExpressionAttributeNames": {"#r": "r2"},
        "ExpressionAttributeValues": {":a": {"S": "a"}, ":x": {"S": "x"}, ":m": {"S": "m"}}},
        "Filter Expression can only contain non-primary key attributes: Primary key attribute: r2"),
    "§7.2 ConsistentRead": ("Query", {
        "TableName": "Maa", "IndexName": "gsi", "KeyConditionExpression": "h1 = :a AND h2 = :x", "ConsistentRead": True,
        "ExpressionAttributeValues": {":a": {"S": "a"}, ":x": {"S": "x"}}},
        "Consistent reads are not supported on global secondary indexes"),
    "§7.4 a starting key without an index key attribute": ("Query", {
        "TableName": "Maa", "IndexName": "gsi", "KeyConditionExpression": "h1 = :a AND h2 = :x",
        "ExclusiveStartKey": _s(id="i1", h1="a", h2="x", r1="m"),
        "ExpressionAttributeValues": {":a": {"S": "a"}, ":x": {"S": "x"}}}, "The provided starting key is invalid"),
    "§4.2 a key attribute of another type": ("PutItem", {
        "TableName": "Maa", "Item": {**_s(id="i9", h1="a"), "h2": {"N": "5"}}},
        "One or more parameter values were invalid: Type mismatch for Index Key h2 Expected: S Actual: N IndexName: gsi"),
    "§4.3 an empty key attribute": ("PutItem", {"TableName": "Maa", "Item": _s(id="i9", h1="a", r2="")},
                                   "One or more parameter values are not valid. A value specified for a secondary "
                                   "index key is not supported. The AttributeValue for a key attribute cannot contain "
                                   "an empty string value. IndexName: gsi, IndexKey: r2"),
}


@pytest.mark.parametrize("operation, request_, message", MORE.values(), ids=MORE)
def test_more_rules(served, operation, request_, message):
    handler, db = served
    status, body = _call(handler, operation, request_)
    assert (status, body.get("message")) == (400, message)
    assert _library(db, operation, request_) == (400, {"message": message})


def test_membership_moves_with_every_key_attribute_and_index_writes_are_charged_so(served):
    """§4.1 and §11 rule 2: gaining the last key attribute writes the entry (W(new)), changing one moves it
    (W(old) + W(new)), losing one removes it (W(old))."""
    handler, _ = served

    def index_units(request):
        request = {"TableName": "Maa", "Key": _s(id="m1"), "ReturnConsumedCapacity": "INDEXES", **request}
        status, body = _call(handler, "UpdateItem", request)
        assert status == 200, body
        return body["ConsumedCapacity"].get("GlobalSecondaryIndexes", {}).get("gsi", {}).get("CapacityUnits", 0)

    def members():
        status, body = _call(handler, "Scan", {"TableName": "Maa", "IndexName": "gsi"})
        return sorted((i["id"]["S"], i["h2"]["S"]) for i in body["Items"])
    values = {":a": {"S": "a"}, ":y": {"S": "y"}, ":m": {"S": "m"}, ":n": {"S": "n"}}
    assert index_units({"UpdateExpression": "SET h1 = :a, r1 = :m, r2 = :n", "ExpressionAttributeValues":
                        {k: values[k] for k in (":a", ":m", ":n")}}) == 0  # (no h2: not in the index)
    assert ("m1", "y") not in members()
    assert index_units({"UpdateExpression": "SET h2 = :y", "ExpressionAttributeValues": {":y": values[":y"]}}) == 1
    assert ("m1", "y") in members()
    assert index_units({"UpdateExpression": "SET h2 = :a", "ExpressionAttributeValues": {":a": values[":a"]}}) == 2
    assert ("m1", "a") in members() and ("m1", "y") not in members()
    assert index_units({"UpdateExpression": "REMOVE r2"}) == 1
    assert all(member[0] != "m1" for member in members())
    assert _call(handler, "DeleteItem", {"TableName": "Maa", "Key": _s(id="m1")})[0] == 200


def test_an_index_created_by_update_table_is_backfilled(served):
    handler, _ = served
    status, body = _call(handler, "UpdateTable", {
        "TableName": "Ma1", "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"} for n in ("r1", "id")],
        "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "late", "KeySchema": _key_schema(["r1", "id"]),
                                                    "Projection": {"ProjectionType": "KEYS_ONLY"}}}]})
    assert status == 200, body
    found = _call(handler, "Query", {"TableName": "Ma1", "IndexName": "late",
                                     "KeyConditionExpression": "r1 = :m AND id = :i",
                                     "ExpressionAttributeValues": {":m": {"S": "m"}, ":i": {"S": "i1"}}})
    assert found[0] == 200 and found[1]["Items"] == [_s(id="i1", r1="m")]
