"""item-api §9: every conformance case the engine can express, as rows of data.

Each row is a case number and its steps; a step is an operation, a request in
wire JSON exactly as the spec writes it, and what must come back (a wire
response, a DynamoDB error with its exact message, or a check). Requests go
through ``wire_call``: JSON types, the constraint envelope, value
well-formedness, then the operation on engine values, in DynamoDB's order.

The spec's fixture table names shorter than 3 characters are refused by
DynamoDB itself, so ``H`` → ``Hash``, ``HR`` → ``HashRange``, ``IDX`` →
``Indexed``, ``NN`` → ``Numbers``, ``S1`` → ``Stream1``, ``P1`` → ``Prov1``.
Adding a case is adding a row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from partiql.engine import Engine
from partiql.engine.errors import DynamoDBError
from partiql.engine.requests.wire import error_to_wire, wire_call

from .helpers import definitions, key_schema

H, HR, IDX, NN = "Hash", "HashRange", "Indexed", "Numbers"
WIRE_SERVER = "HTTP transport (target header, JSON body, response headers) belongs to the wire-server issue"
TTL_STREAMS = "TTL/Streams not implemented"


def _attrs(*pairs) -> list:
    return definitions(**dict(pairs))


def _keys(*names) -> list:
    return key_schema(*names)


ON_DEMAND = {"BillingMode": "PAY_PER_REQUEST"}
FIXTURES = [
    {"TableName": H, "AttributeDefinitions": _attrs(("pk", "S")), "KeySchema": _keys("pk"), **ON_DEMAND},
    {"TableName": HR, "AttributeDefinitions": _attrs(("pk", "S"), ("sk", "S")), "KeySchema": _keys("pk", "sk"),
     **ON_DEMAND},
    {"TableName": IDX, "AttributeDefinitions": _attrs(("pk", "S"), ("sk", "S"), ("gk", "S"), ("lk", "S")),
     "KeySchema": _keys("pk", "sk"), **ON_DEMAND,
     "GlobalSecondaryIndexes": [{"IndexName": "gsi1", "KeySchema": _keys("gk"),
                                 "Projection": {"ProjectionType": "KEYS_ONLY"}}],
     "LocalSecondaryIndexes": [{"IndexName": "lsi1", "KeySchema": _keys("pk", "lk"),
                                "Projection": {"ProjectionType": "ALL"}}]},
    {"TableName": NN, "AttributeDefinitions": _attrs(("p", "N"), ("c", "N")), "KeySchema": _keys("p", "c"),
     **ON_DEMAND},
    {"TableName": "Stream1", "AttributeDefinitions": _attrs(("pk", "S"), ("sk", "S")),
     "KeySchema": _keys("pk", "sk"), **ON_DEMAND,
     "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}},
]


def S(text):  # noqa: N802 - DynamoDB's type letters
    return {"S": text}


def N(number):  # noqa: N802
    return {"N": str(number)}


# ------------------------------------------------------------------ expectations

@dataclass
class Raises:
    """An error: its code and message (exact, or by start / end / parts / envelope items)."""

    code: str
    message: str | None = None
    starts: str | None = None
    ends: str | None = None
    contains: tuple = ()
    items: frozenset | None = None  # the "; "-separated items of an envelope, any order
    body: dict | None = None  # the wire error body
    reasons: list | None = None  # CancellationReasons in wire form
    item: dict | None = None  # ConditionalCheckFailed's Item (wire form); {} = must be absent


OK = object()  # any successful response


@dataclass
class Step:
    op: str
    request: dict
    expect: object = OK  # OK, a wire response dict, Raises, or a callable(response)
    note: str = field(default="")


def step(op, request, expect=OK):
    return Step(op, request, expect)


def fails(op, request, code="ValidationException", message=None, **parts):
    return Step(op, request, Raises(code, message, **parts))


def put(table, item, expect=OK, **extra):
    return Step("PutItem", {"TableName": table, "Item": item, **extra}, expect)


def get(table, key, expect, **extra):
    return Step("GetItem", {"TableName": table, "Key": key, "ConsistentRead": True, **extra}, expect)


def update(table, key, expression, values=None, expect=OK, **extra):
    request = {"TableName": table, "Key": key, "UpdateExpression": expression, **extra}
    if values is not None:
        request["ExpressionAttributeValues"] = values
    return Step("UpdateItem", request, expect)


def envelope(count, *items):
    noun = "error" if count == 1 else "errors"
    return Raises("ValidationException", starts=f"{count} validation {noun} detected: ",
                  items=frozenset(items))


def null(path):
    return f"Value null at '{path}' failed to satisfy constraint: Member must not be null"


def has(*names, absent=()):
    """A check: the response has these members and lacks those."""
    def check(response):
        assert all(name in response for name in names), response
        assert not any(name in response for name in absent), response
    return check


def items_are(*expected, **members):
    """A check on a Query/Scan page: its Items in order, and other members."""
    def check(response):
        assert response["Items"] == list(expected)
        for name, value in members.items():
            if value is None:
                assert name not in response
            else:
                assert response[name] == value
    return check


def many(table, count, make):
    return [put(table, make(i)) for i in range(count)]


CCF = Raises("ConditionalCheckFailedException", "The conditional request failed")
SCHEMA = "The provided key element does not match the schema"
KEY_H = {"pk": S("k")}


# ------------------------------------------------------------------ the cases
# (number, steps); numbers are item-api §9's.

CASES = [
    # §9.1 wire protocol
    (3, [put(H, {"pk": {"N": 123}}, Raises("SerializationException", "NUMBER_VALUE cannot be converted to String"))]),
    (5, [fails("DescribeTable", {"TableName": "NoSuchTable"}, "ResourceNotFoundException",
               body={"__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                     "message": "Requested resource not found: Table: NoSuchTable not found"})]),
    (6, [fails("GetItem", {"TableName": "NoSuchTable", "Key": {"pk": S("a")}}, "ResourceNotFoundException",
               "Requested resource not found")]),
    # §9.2 constraint envelope and request validation
    # corrected against DynamoDB 2026-09/10 (recorded-2026-11 B2): UpdateItem stops at the first item, in
    # the order returnConsumedCapacity; tableName; returnValues; key (DL's captures listed every one)
    (8, [Step("UpdateItem", {}, envelope(1, null("tableName")))]),
    (9, [Step("UpdateItem", {"TableName": "abc;", "ReturnConsumedCapacity": "hi",
                             "ReturnItemCollectionMetrics": "hi", "ReturnValues": "hi"}, envelope(
        1,
        "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum "
        "value set: [INDEXES, TOTAL, NONE]"))]),
    (10, [fails("ListTables", {"Limit": 101}, message="1 validation error detected: Value '101' at 'limit' "
                "failed to satisfy constraint: Member must have value less than or equal to 100")]),
    (11, [fails("Query", {"TableName": HR, "Select": "count", "KeyConditionExpression": "pk = :k",
                          "ExpressionAttributeValues": {":k": S("v")}},
                # corrected against DynamoDB 2026-09/10 (recorded-2026-11 B1): Select keeps the classic form
                message="1 validation error detected: Value 'count' at 'select' failed to satisfy constraint: "
                        "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, "
                        "ALL_PROJECTED_ATTRIBUTES]")]),
    (12, [fails("CreateTable", {"TableName": "ab", "AttributeDefinitions": _attrs(("a", "S")),
                                "KeySchema": _keys("a"), "BillingMode": "PAY_PER_REQUEST"},
                # corrected against DynamoDB 2026-04 (issue #14 point 5): the envelope form
                message="1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
                        "Member must have length greater than or equal to 3")]),
    (13, [fails("CreateTable", {"AttributeDefinitions": _attrs(("a", "S")), "KeySchema": _keys("a"),
                                "BillingMode": "PAY_PER_REQUEST"},
                message="The parameter 'TableName' is required but was not present in the request")]),
    (14, [fails("BatchGetItem", {"RequestItems": {H: {"Keys": [{"pk": S(f"k{i}")} for i in range(101)]}}},
                # corrected against DynamoDB 2026-04 (issue #14 point 5): BatchGetItem's newer form
                message=(f"1 validation error detected: Value at 'RequestItems.{H}.member.Keys' failed to satisfy "
                         "constraint: Member must have length less than or equal to 100"))]),
    (15, [fails("BatchGetItem", {"RequestItems": {
        H: {"Keys": [{"pk": S(f"k{i}")} for i in range(51)]},
        HR: {"Keys": [{"pk": S("p"), "sk": S(f"k{i}")} for i in range(50)]}}},
        message="Too many items requested for the BatchGetItem call")]),
    (16, [fails("BatchWriteItem", {"RequestItems": {H: [{"PutRequest": {"Item": {"pk": S(f"k{i}")}}}
                                                        for i in range(26)]}},
                starts="1 validation error detected: Value '{",
                ends="' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: "
                     "[Member must have length less than or equal to 25, Member must have length greater "
                     "than or equal to 1]")]),
    # §9.3 attribute values, numbers, keys
    (17, [put(H, {"pk": S("a"), "x": {"SS": []}}, Raises(
        "ValidationException", "1 validation error detected: One or more parameter values were invalid: "
                               "An string set  may not be empty"))]),
    (18, [put(H, {"pk": S("a"), "x": {"S": "a", "N": "1"}}, Raises(
        "ValidationException", "Supplied AttributeValue has more than one datatypes set, must contain exactly "
                               "one of the supported datatypes"))]),
    (19, [put(H, {"pk": S("a"), "x": {"N": "1e126"}}, Raises(
        "ValidationException", "Number overflow. Attempting to store a number with magnitude larger than "
                               "supported range"))]),
    (20, [put(H, {"pk": S("a"), "x": N("123456789012345678901234567890123456789")}, Raises(
        "ValidationException", "Attempting to store more than 38 significant digits in a Number"))]),
    (21, [put(H, {"pk": S("a"), "c": N("-00001.23456789012345678901234567890123456780000")}),
          get(H, {"pk": S("a")}, {"Item": {"pk": S("a"), "c": N("-1.2345678901234567890123456789012345678")}})]),
    (22, [put(H, {"x": S("a")}, Raises("ValidationException",
                                       "One or more parameter values were invalid: Missing the key pk in the item"))]),
    (23, [put(H, {"pk": N(1)}, Raises("ValidationException", "One or more parameter values were invalid: "
                                                             "Type mismatch for key pk expected: S actual: N"))]),
    (24, [put(H, {"pk": S("")}, Raises(
        "ValidationException", "One or more parameter values are not valid. The AttributeValue for a key "
                               "attribute cannot contain an empty string value. Key: pk"))]),
    (25, [put(H, {"pk": S("a"), "e": S(""), "l": {"L": []}, "m": {"M": {}}}, {}),
          get(H, {"pk": S("a")}, {"Item": {"pk": S("a"), "e": S(""), "l": {"L": []}, "m": {"M": {}}}})]),
    (26, [put(H, {"pk": S("x" * 2049)}, Raises(
        "ValidationException", "One or more parameter values were invalid: Size of hashkey has exceeded the "
                               "maximum size limit of2048 bytes")),
          put(H, {"pk": S("x" * 2048)}, {})]),
    (27, [get(HR, {"pk": S("a")}, Raises("ValidationException", SCHEMA))]),
    (28, [get(H, {"pk": S("a"), "sk": S("b")}, Raises("ValidationException", SCHEMA))]),
    (29, [get(H, {"pk": S("missing")}, {})]),
    (30, [fails("BatchWriteItem", {"RequestItems": {NN: [{"PutRequest": {"Item": {"p": N(1), "c": N(1000)}}},
                                                         {"PutRequest": {"Item": {"p": N(1), "c": N("1e3")}}}]}},
                contains=("duplicates",)),
          put(NN, {"p": N(1000), "c": N(1)}),
          step("BatchGetItem", {"RequestItems": {NN: {"Keys": [{"p": N(1000), "c": N(1)},
                                                               {"p": N("1e3"), "c": N(1)}]}}},
               {"Responses": {NN: [{"p": N(1000), "c": N(1)}]}, "UnprocessedKeys": {}}),
          fails("BatchGetItem", {"RequestItems": {NN: {"Keys": [{"p": N(1000), "c": N(1)},
                                                                {"c": N(1), "p": N(1000)}]}}},
                message="Provided list of item keys contains duplicates")]),
    # §9.4 expression parameters and static expression errors
    (31, [get(H, {"pk": S("a")}, Raises("ValidationException",
                                        "ExpressionAttributeNames can only be specified when using expressions"),
              ExpressionAttributeNames={"#a": "b"})]),
    (32, [fails("Scan", {"TableName": H, "FilterExpression": "attr = loc",
                         "ExpressionAttributeValues": {"loc": S("sth")}},
                message='ExpressionAttributeValues contains invalid key: Syntax error; key: "loc"')]),
    (33, [fails("Scan", {"TableName": H, "FilterExpression": "#h = :h",
                         "ExpressionAttributeNames": {"#h": "pk", "#count": "count"},
                         "ExpressionAttributeValues": {":h": S("x")}},
                message="Value provided in ExpressionAttributeNames unused in expressions: keys: {#count}")]),
    (34, [put(H, {"pk": S("pk1"), "spec": {"M": {}}}),
          update(H, {"pk": S("pk1")}, "SET spec.#limit = :limit", {":countChange": N(1), ":limit": S("limit")},
                 Raises("ValidationException", "1 validation error detected: Value provided in "
                                               "ExpressionAttributeValues unused in expressions: keys: {:countChange}"),
                 ExpressionAttributeNames={"#limit": "limit"})]),
    (35, [update(H, {"pk": S("foo")}, "", None, Raises(
        "ValidationException", "1 validation error detected: Invalid UpdateExpression: The expression can not "
                               "be empty;"))]),
    (36, [update(H, {"pk": S("foo")}, "SET #d = :s", {}, Raises(
        "ValidationException", "1 validation error detected: ExpressionAttributeValues must not be empty"),
        ExpressionAttributeNames={"#d": "d"})]),
    (37, [fails("Query", {"TableName": HR, "KeyConditionExpression": "pk = :pk",
                          "ExpressionAttributeValues": {":pk": S("pk")}, "ProjectionExpression": ""},
                message="Invalid ProjectionExpression: The expression can not be empty;")]),
    (38, [fails("Scan", {"TableName": H, "FilterExpression": "((a = :v))", "ExpressionAttributeValues": {":v": S("x")}},
                message="Invalid FilterExpression: The expression has redundant parentheses;")]),
    (39, [fails("Scan", {"TableName": H, "FilterExpression": "dog(a)"},
                message="Invalid FilterExpression: Invalid function name; function: dog")]),
    (40, [fails("Scan", {"TableName": H, "FilterExpression": "size(things)"},
                message="Invalid FilterExpression: The function is not allowed to be used this way in an "
                        "expression; function: size")]),
    (41, [fails("Scan", {"TableName": H, "FilterExpression": ":a < abOrT", "ExpressionAttributeValues": {":a": S("x")}},
                message="Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: abOrT")]),
    (42, [fails("Scan", {"TableName": H, "FilterExpression": "#4g > a"},
                message="Invalid FilterExpression: An expression attribute name used in the document path is "
                        "not defined; attribute name: #4g")]),
    (43, [fails("Scan", {"TableName": H, "FilterExpression": ":a < :b"},
                message="Invalid FilterExpression: An expression attribute value used in expression is not "
                        "defined; attribute value: :a")]),
    (44, [fails("Scan", {"TableName": H, "FilterExpression": "begins_with(a, :a)",
                         "ExpressionAttributeValues": {":a": N(1)}},
                message="Invalid FilterExpression: Incorrect operand type for operator or function; operator or "
                        "function: begins_with, operand type: N")]),
    (45, [fails("Scan", {"TableName": H, "FilterExpression": "attribute_exists(things, a) and a=a"},
                message="Invalid FilterExpression: Incorrect number of operands for operator or function; "
                        "operator or function: attribute_exists, number of operands: 2")]),
    (46, [fails("Scan", {"TableName": H, "FilterExpression": "#a <> a", "ExpressionAttributeNames": {"#a": "a"}},
                message="Invalid FilterExpression: The first operand must be distinct from the remaining "
                        "operands for this operator or function; operator: <>, first operand: [a]")]),
    (47, [fails("Scan", {"TableName": H, "FilterExpression": "attribute_exists(:a) and a=a",
                         "ExpressionAttributeValues": {":a": S("1")}},
                message="Invalid FilterExpression: Operator or function requires a document path; operator or "
                        "function: attribute_exists")]),
    (48, [fails("Query", {"TableName": HR, "KeyConditionExpression": "pk = :p AND sk between :b and :a",
                          "ExpressionAttributeValues": {":p": S("x"), ":a": S("a"), ":b": S("b")}},
                message="Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be "
                        "greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, "
                        "upper bound operand: AttributeValue: {S:a}")]),
    (49, [update(H, {"pk": S("k")}, "SET a = :v SET b = :v", {":v": S("x")}, Raises(
        "ValidationException", '1 validation error detected: Invalid UpdateExpression: The "SET" section can '
                               'only be used once in an update expression;'))]),
    (50, [update(H, {"pk": S("k")}, "SET #s = :h, #s = :h", {":h": S("x")}, Raises(
        "ValidationException", "1 validation error detected: Invalid UpdateExpression: Two document paths "
                               "overlap with each other; must remove or rewrite one of these paths; path one: "
                               "[string_set], path two: [string_set]"),
        ExpressionAttributeNames={"#s": "string_set"})]),
    (51, [update(H, {"pk": S("k")}, "SET #a = :a, #b = :b,", {":a": N(3), ":b": N(4)}, Raises(
        "ValidationException", ends='Invalid UpdateExpression: Syntax error; token: "<EOF>", near: ","'),
        ExpressionAttributeNames={"#a": "a", "#b": "b"})]),
    (52, [update(H, {"pk": S("k")}, "delete a.b :a", {":a": N(1)}, Raises(
        "ValidationException", ends="Invalid UpdateExpression: Incorrect operand type for operator or function; "
                                    "operator: DELETE, operand type: NUMBER"))]),
    (53, [update(H, {"pk": S("k")}, "SET b = :v", {":v": S("x")}, Raises(
        "ValidationException", "Can not use both expression and non-expression parameters in the same request: "
                               "Non-expression parameters: {AttributeUpdates} Expression parameters: "
                               "{UpdateExpression}"),
        AttributeUpdates={"a": {"Value": N(3), "Action": "PUT"}})]),
    (54, [put(H, {"pk": S("a")}, Raises("ValidationException", "Return values set to invalid value"),
              ReturnValues="ALL_NEW")]),
    # §9.5 update semantics and ReturnValues
    (55, [update(HR, {"pk": S("a"), "sk": S("b")}, "SET sk = :v", {":v": S("c")}, Raises(
        "ValidationException", "One or more parameter values were invalid: Cannot update attribute sk. This "
                               "attribute is part of the key"))]),
    (56, [update(H, KEY_H, "set c = b", None, Raises(
        "ValidationException", "The provided expression refers to an attribute that does not exist in the item"))]),
    (57, [update(H, KEY_H, "set b.a = :v", {":v": S("x")}, Raises(
        "ValidationException", "The document path provided in the update expression is invalid for update"))]),
    (58, [put(H, {"pk": S("p"), "a": {"M": {"b": S("dog"), "c": {"L": [N(1), N(2), N(3)]}}}, "d": S("cat")}),
          update(H, {"pk": S("p")}, "SET a.c[1] = :val", {":val": N(7)},
                 {"Attributes": {"a": {"M": {"c": {"L": [N(2)]}}}}}, ReturnValues="UPDATED_OLD"),
          update(H, {"pk": S("p")}, "SET a.c[1] = :val", {":val": N(4)},
                 {"Attributes": {"a": {"M": {"c": {"L": [N(4)]}}}}}, ReturnValues="UPDATED_NEW")]),
    (59, [put(H, {"pk": S("p"), "a": S("hi"), "b": S("dog")}),
          update(H, {"pk": S("p")}, "SET b = :val, c = :val2", {":val": S("cat"), ":val2": S("x")},
                 {"Attributes": {"b": S("dog")}}, ReturnValues="UPDATED_OLD"),
          update(H, {"pk": S("p")}, "SET z = :v", {":v": S("new")}, {}, ReturnValues="UPDATED_OLD")]),
    (60, [update(H, {"pk": S("n")}, "REMOVE b", None, {}, ReturnValues="ALL_NEW"),
          get(H, {"pk": S("n")}, {})]),
    (61, [step("UpdateItem", {"TableName": H, "Key": {"pk": S("n2")}}, {}),
          get(H, {"pk": S("n2")}, {"Item": {"pk": S("n2")}})]),
    (62, [put(H, {"pk": S("p"), "a": {"L": [S("one"), S("two"), S("three")]}}),
          update(H, {"pk": S("p")}, "SET a[7] = :v", {":v": S("four")}),
          get(H, {"pk": S("p")}, {"Item": {"pk": S("p"), "a": {"L": [S("one"), S("two"), S("three"), S("four")]}}})]),
    (63, [put(H, {"pk": S("p"), "a": {"SS": ["dog"]}, "b": S("hi")}),
          update(H, {"pk": S("p")}, "DELETE a :s", {":s": {"SS": ["dog"]}}),
          get(H, {"pk": S("p")}, {"Item": {"pk": S("p"), "b": S("hi")}}),
          update(H, {"pk": S("p")}, "DELETE a :s", {":s": {"SS": ["dog"]}}, {}),
          get(H, {"pk": S("p")}, {"Item": {"pk": S("p"), "b": S("hi")}})]),
    (64, [update(H, {"pk": S("p")}, "ADD n :five", {":five": N(5)}),
          get(H, {"pk": S("p")}, {"Item": {"pk": S("p"), "n": N(5)}}),
          update(H, {"pk": S("p")}, "ADD n :five", {":five": N(5)}),
          get(H, {"pk": S("p")}, {"Item": {"pk": S("p"), "n": N(10)}}),
          update(H, {"pk": S("p")}, "ADD n :ss", {":ss": {"SS": ["x"]}}, Raises(
              "ValidationException", "An operand in the update expression has an incorrect data type"))]),
    (65, [put(H, {"pk": S("p"), "list": {"L": [{"M": {"a": N(1)}}, {"M": {"b": N(2)}}]},
                  "some_param": {"NULL": True}}),
          update(H, {"pk": S("p")}, "REMOVE #ulist[0], some_param", None, ExpressionAttributeNames={"#ulist": "list"}),
          get(H, {"pk": S("p")}, {"Item": {"pk": S("p"), "list": {"L": [{"M": {"b": N(2)}}]}}})]),
    # §9.6 conditions
    (66, [put(H, {"pk": S("c1")}),
          put(H, {"pk": S("c1")}, Raises("ConditionalCheckFailedException", "The conditional request failed", item={}),
              ConditionExpression="attribute_not_exists(pk)")]),
    (67, [put(H, {"pk": S("c2"), "s": S("cat")}),
          put(H, {"pk": S("c2"), "s": S("cow")}, Raises(
              "ConditionalCheckFailedException", "The conditional request failed",
              item={"pk": S("c2"), "s": S("cat")}),
              ConditionExpression="s = :v1", ExpressionAttributeValues={":v1": S("dog")},
              ReturnValuesOnConditionCheckFailure="ALL_OLD")]),
    (68, [put(H, {"pk": S("c3"), "a": N(1)}),
          update(H, {"pk": S("c3")}, "SET z = :n", {":n": N(1), ":o": S("17")}, CCF, ConditionExpression="a < :o"),
          update(H, {"pk": S("c3")}, "SET z = :n", {":n": N(1), ":o": {"L": [N(1)]}}, Raises(
              # corrected by recorded-2026-11 B4: UpdateItem envelopes its expressions' errors
              "ValidationException", "1 validation error detected: Invalid ConditionExpression: Incorrect operand "
                                     "type for operator or function; operator or function: <, operand type: L"),
              ConditionExpression="a < :o")]),
    (69, [put(H, {"pk": S("c4")}),
          update(H, {"pk": S("c4")}, "SET a = :v", {":v": S("x")}, {}, ConditionExpression="q <> :v"),
          *[update(H, {"pk": S("c4")}, "SET b = :v", {":v": S("x")}, CCF, ConditionExpression=condition)
            for condition in ("q < z", "q <= z", "q > z", "q >= z", "q BETWEEN z AND y")]]),
    (70, [put(H, {"pk": S("c5"), "a": S("hello"), "c": {"L": [N(2), S("dog"), N(7)]},
                  "e": {"M": {"x": N(2), "y": {"M": {"z": N(1)}}}}, "f": N(3)}),
          *[update(H, {"pk": S("c5")}, "SET g = :one", {":one": N(1), ":v": value}, {}, ConditionExpression=condition)
            for condition, value in (("size(a) = :v", N(5)), ("contains(c, :v)", N(7)), ("size(e) = :v", N(2)))],
          update(H, {"pk": S("c5")}, "SET g = :one", {":one": N(1)}, CCF, ConditionExpression="size(f) = :one")]),
    # §9.7 Query and Scan
    (71, [fails("Query", {"TableName": HR, "KeyConditionExpression": "pk = :a OR sk = :b",
                          "ExpressionAttributeValues": {":a": S("x"), ":b": S("y")}},
                # corrected by recorded-2026-11 B9: the prefix belongs to parse errors only
                message="Invalid operator used in KeyConditionExpression: OR")]),
    (72, [fails("Query", {"TableName": HR, "KeyConditionExpression": "sk = :s", "ExpressionAttributeValues": {":s": S("x")}},
                message="Query condition missed key schema element: pk")]),
    (73, [fails("Query", {"TableName": H, "KeyConditionExpression": "pk > :a", "ExpressionAttributeValues": {":a": S("1")}},
                message="Query key condition not supported")]),
    (74, [fails("Query", {"TableName": HR, "KeyConditionExpression": "pk = :p AND sk > :a AND sk < :b",
                          "ExpressionAttributeValues": {":p": S("p"), ":a": S("a"), ":b": S("b")}},
                message="KeyConditionExpressions must only contain one condition per key")]),  # (B9)
    (75, [fails("Query", {"TableName": HR, "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": N(1)}},
                message="One or more parameter values were invalid: Condition parameter type does not match "
                        "schema type")]),
    (76, [fails("Query", {"TableName": HR, "KeyConditionExpression": "pk = :p", "FilterExpression": "sk = :s",
                          "ExpressionAttributeValues": {":p": S("p"), ":s": S("s")}},
                message="Filter Expression can only contain non-primary key attributes: Primary key attribute: sk")]),
    (77, [fails("Query", {"TableName": HR}, message="Either the KeyConditions or KeyConditionExpression parameter "
                                                    "must be specified in the request.")]),
    (78, [*many(HR, 10, lambda i: {"pk": S("the-key"), "sk": S(str(i))}),
          step("Query", {"TableName": HR, "KeyConditionExpression": "pk = :k", "ExpressionAttributeValues": {":k": S("the-key")},
                         "Limit": 6},
               items_are(*[{"pk": S("the-key"), "sk": S(str(i))} for i in range(6)], Count=6, ScannedCount=6,
                         LastEvaluatedKey={"pk": S("the-key"), "sk": S("5")})),
          step("Query", {"TableName": HR, "KeyConditionExpression": "pk = :k", "ExpressionAttributeValues": {":k": S("the-key")},
                         "Limit": 6, "ExclusiveStartKey": {"pk": S("the-key"), "sk": S("5")}},
               items_are(*[{"pk": S("the-key"), "sk": S(str(i))} for i in range(6, 10)], Count=4, ScannedCount=4,
                         LastEvaluatedKey=None)),
          step("Query", {"TableName": HR, "KeyConditionExpression": "pk = :k", "ExpressionAttributeValues": {":k": S("the-key")},
                         "ScanIndexForward": False},
               items_are(*[{"pk": S("the-key"), "sk": S(str(i))} for i in reversed(range(10))], Count=10))]),
    (79, [put(HR, {"pk": S("a"), "sk": S("1")}), put(HR, {"pk": S("b"), "sk": S("1")}),
          step("Scan", {"TableName": HR, "Select": "COUNT", "Limit": 1, "ConsistentRead": True},
               lambda r: (r["Count"], r["ScannedCount"], "Items" in r, "LastEvaluatedKey" in r) == (1, 1, False, True)
               or pytest.fail(str(r)))]),
    (80, [fails("Query", {"TableName": IDX, "IndexName": "nope", "KeyConditionExpression": "gk = :g",
                          "ExpressionAttributeValues": {":g": S("g")}},
                message="The table does not have the specified index: nope")]),
    (81, [fails("Query", {"TableName": IDX, "IndexName": "gsi1", "ConsistentRead": True,
                          "KeyConditionExpression": "gk = :g", "ExpressionAttributeValues": {":g": S("g")}},
                message="Consistent reads are not supported on global secondary indexes"),
          step("Query", {"TableName": IDX, "IndexName": "lsi1", "ConsistentRead": True,
                         "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": S("p")}},
               {"Items": [], "Count": 0, "ScannedCount": 0})]),
    (82, [fails("Query", {"TableName": HR, "Select": "ALL_PROJECTED_ATTRIBUTES", "KeyConditionExpression": "pk = :k",
                          "ExpressionAttributeValues": {":k": S("k")}},
                message="1 validation error detected: ALL_PROJECTED_ATTRIBUTES can be used only when Querying "
                        "using an IndexName"),
          fails("Scan", {"TableName": HR, "Select": "ALL_PROJECTED_ATTRIBUTES"},
                message="ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName")]),
    (83, [fails("Scan", {"TableName": IDX, "IndexName": "gsi1", "Select": "ALL_ATTRIBUTES"},
                message="One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for "
                        "global secondary index gsi1 because its projection type is not ALL"),
          step("Scan", {"TableName": IDX, "IndexName": "lsi1", "Select": "ALL_ATTRIBUTES"},
               {"Items": [], "Count": 0, "ScannedCount": 0})]),
    (84, [fails("Scan", {"TableName": H, "Select": "COUNT", "ProjectionExpression": "pk"},
                message="Cannot specify the ProjectionExpression when choosing to get only the Count"),
          fails("Query", {"TableName": H, "Select": "COUNT", "ProjectionExpression": "pk",
                          "KeyConditionExpression": "pk = :k", "ExpressionAttributeValues": {":k": S("k")}},
                message="1 validation error detected: Cannot specify the ProjectionExpression when choosing to "
                        "get only the Count")]),
    (85, [fails("Scan", {"TableName": H, "Segment": 3, "TotalSegments": 3},
                message="The Segment parameter is zero-based and must be less than parameter TotalSegments: "
                        "Segment: 3 is not less than TotalSegments: 3")]),
    (86, [fails("Scan", {"TableName": H, "Segment": 1},
                message="The TotalSegments parameter is required but was not present in the request when "
                        "Segment parameter is present"),
          fails("Scan", {"TableName": H, "TotalSegments": 2},
                message="The Segment parameter is required but was not present in the request when parameter "
                        "TotalSegments is present")]),
    # 87: segments partition the table (a dedicated test below).
    # §9.8 batch operations
    (88, [fails("BatchWriteItem", {"RequestItems": {H: [{"PutRequest": {"Item": {"pk": S("x")}}},
                                                        {"DeleteRequest": {"Key": {"pk": S("x")}}}]}},
                message="Provided list of item keys contains duplicates"),
          fails("BatchWriteItem", {"RequestItems": {"NoSuchTable": [{"PutRequest": {"Item": {"pk": S("x")}}},
                                                                    {"DeleteRequest": {"Key": {"pk": S("x")}}}]}},
                "ResourceNotFoundException", "Requested resource not found")]),
    (89, [step("BatchWriteItem", {"RequestItems": {H: [{"PutRequest": {"Item": {"pk": S("x")}}}]}},
               {"UnprocessedItems": {}})]),
    (90, [fails("BatchGetItem", {"RequestItems": {H: {"Keys": [{"pk": S("k")}, {"pk": S("k")}]}}},
                message="Provided list of item keys contains duplicates"),
          # the table is looked up first (§2.1): a missing one wins over duplicate keys
          fails("BatchGetItem", {"RequestItems": {"NoSuchTable": {"Keys": [{"pk": S("k")}, {"pk": S("k")}]}}},
                "ResourceNotFoundException", "Requested resource not found")]),
    (91, [step("BatchGetItem", {"RequestItems": {H: {"Keys": [{"pk": S("absent")}], "ConsistentRead": True}}},
               {"Responses": {H: []}, "UnprocessedKeys": {}})]),
    (92, [fails("BatchWriteItem", {"RequestItems": {HR: [{"PutRequest": {"Item": {"pk": S("x")}}}]}}, message=SCHEMA)]),
    # §9.9 transactions
    (93, [fails("TransactWriteItems", {"TransactItems": [
        {"Put": {"TableName": HR, "Item": {"pk": S("test-pk"), "sk": S("test-sk"), "field": S("f")}}},
        {"Delete": {"TableName": HR, "Key": {"sk": S("test-sk"), "pk": S("test-pk")}}}]},
        message="Transaction request cannot include multiple operations on one item")]),
    (94, [put(H, {"pk": S("foo2")}),
          fails("TransactWriteItems", {"TransactItems": [
              {"Put": {"TableName": H, "Item": {"pk": S(name)}, "ConditionExpression": "#i <> :i",
                       "ExpressionAttributeNames": {"#i": "pk"}, "ExpressionAttributeValues": {":i": S("foo2")}}}
              for name in ("foo1", "foo2")]},
              "TransactionCanceledException",
              "Transaction cancelled, please refer cancellation reasons for specific reasons [None, "
              "ConditionalCheckFailed]",
              reasons=[{"Code": "None"}, {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}]),
          get(H, {"pk": S("foo1")}, {})]),
    (95, [put(H, {"pk": S("foo2")}),
          fails("TransactWriteItems", {"TransactItems": [
              {"Put": {"TableName": H, "Item": {"pk": S(name)}, "ConditionExpression": "#i <> :i",
                       "ExpressionAttributeNames": {"#i": "pk"}, "ExpressionAttributeValues": {":i": S("foo2")},
                       "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}
              for name in ("foo1", "foo2")]},
              "TransactionCanceledException",
              reasons=[{"Code": "None"}, {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed",
                                          "Item": {"pk": S("foo2")}}])]),
    (96, [fails("TransactWriteItems", {"TransactItems": [{"Update": {
        "TableName": H, "Key": {"pk": S("")}, "UpdateExpression": "SET sth = :v",
        "ExpressionAttributeValues": {":v": S("x")}}}]},
        message="One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain "
                "an empty string value. Key: pk")]),
    (97, [fails("TransactWriteItems", {"TransactItems": [{"Put": {
        "TableName": H, "Item": {"pk": S("t")}, "ConditionExpression": "attribute_not_exists(#n0)",
        "ExpressionAttributeNames": {"#n0": "pk"}, "ExpressionAttributeValues": {}}}]},
        message="ExpressionAttributeValues must not be empty")]),
    (98, [put(H, {"pk": S("cnt"), "x": N(42)}),
          *[step("TransactWriteItems", {"ClientRequestToken": "token-1", "TransactItems": [{"Update": {
              "TableName": H, "Key": {"pk": S("cnt")}, "UpdateExpression": "SET x = x + :one",
              "ExpressionAttributeValues": {":one": N(1)}}}]}, {}) for _ in range(2)],
          get(H, {"pk": S("cnt")}, {"Item": {"pk": S("cnt"), "x": N(43)}}),
          *[step("TransactWriteItems", {"TransactItems": [{"Update": {
              "TableName": H, "Key": {"pk": S("cnt")}, "UpdateExpression": "SET x = x + :one",
              "ExpressionAttributeValues": {":one": N(1)}}}]}, {}) for _ in range(2)],
          get(H, {"pk": S("cnt")}, {"Item": {"pk": S("cnt"), "x": N(45)}}),
          fails("TransactWriteItems", {"ClientRequestToken": "token-1", "TransactItems": [{"Update": {
              "TableName": H, "Key": {"pk": S("cnt")}, "UpdateExpression": "SET x = x + :two",
              "ExpressionAttributeValues": {":two": N(2)}}}]},
              "IdempotentParameterMismatchException",
              "Specified idempotent token was used with different request parameters within the idempotency "
              "window")]),
    (99, [step("TransactGetItems", {"TransactItems": [{"Get": {"TableName": H, "Key": {"pk": S("absent")}}}]},
               {"Responses": [{}]})]),
    (100, [fails("TransactWriteItems", {"TransactItems": [{"ConditionCheck": {"TableName": H, "Key": {"pk": S("a")}}}]},
                 message="1 validation error detected: Value null at "
                         "'transactItems.1.member.conditionCheck.conditionExpression' failed to satisfy constraint: "
                         "Member must not be null")]),
    # §9.10 tables (TTL and Streams records are not implemented)
    (101, [fails("CreateTable", FIXTURES[0], "ResourceInUseException", contains=("Table already exists",))]),
    (102, [fails("CreateTable", {"TableName": "Prov1", "AttributeDefinitions": _attrs(("a", "S")),
                                 "KeySchema": _keys("a")},
                 message="One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must "
                         "both be specified when BillingMode is PROVISIONED")]),
    (103, [fails("CreateTable", {"TableName": "abc", "AttributeDefinitions": _attrs(("a", "S"), ("b", "S")),
                                 "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"},
                                               {"AttributeName": "b", "KeyType": "SORT"}],
                                 "BillingMode": "PAY_PER_REQUEST"},
                 message="1 validation error detected: Value 'SORT' at 'keySchema.2.member.keyType' failed to "
                         "satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]")]),
    (104, [fails("CreateTable", {"TableName": "abc", "AttributeDefinitions": _attrs(("b", "S")),
                                 "KeySchema": _keys("a"), "BillingMode": "PAY_PER_REQUEST"},
                 message="One or more parameter values were invalid: Some index key attributes are not defined in "
                         "AttributeDefinitions. Keys: [a], AttributeDefinitions: [b]")]),
    (105, [step("DescribeTable", {"TableName": H}, lambda r: _check_describe(r["Table"]))]),
    (106, [step("DeleteTable", {"TableName": IDX}, lambda r: _check_deleted(r["TableDescription"]))]),
    (107, [fails("UpdateTable", {"TableName": H},
                 message="At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
                         "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required")]),
    (113, [fails("UpdateTable", {"TableName": "Stream1", "StreamSpecification": {
        "StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}}, contains=("already", "enabled")),
        fails("UpdateTable", {"TableName": H, "StreamSpecification": {"StreamEnabled": False}},
              contains=("stream", "disable"))]),
    # §9.11 additional cases
    (115, [fails("CreateTable", {"TableName": "abc", "AttributeDefinitions": _attrs(("a", "S"), ("b", "S")),
                                 "KeySchema": _keys("a", "b"), "LocalSecondaryIndexes": [{}] * 9,
                                 "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}},
                 starts="10 validation errors detected: ",
                 contains=(null("localSecondaryIndexes.1.member.indexName"),))]),
    # 116: a dedicated test below (which items fall in a segment depends on the hash).
    (117, [fails("Query", {"TableName": HR, "KeyConditionExpression": "pk = :p AND begins_with(sk, :x)",
                           "ExpressionAttributeValues": {":p": S("a"), ":x": S("b")},
                           "ExpressionAttributeNames": {"#unused": "u"}},
                 message="Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}")]),
    (118, [put(H, {"pk": S("r"), "a": {"M": {"b": S("dog")}}}),
           update(H, {"pk": S("r")}, "SET a.b = :v", {":v": S("cat")},
                  {"Attributes": {"pk": S("r"), "a": {"M": {"b": S("dog")}}}}, ReturnValues="ALL_OLD"),
           update(H, {"pk": S("r")}, "SET a.b = :v", {":v": S("cow")},
                  {"Attributes": {"pk": S("r"), "a": {"M": {"b": S("cow")}}}}, ReturnValues="ALL_NEW")]),
    (119, [step("DeleteItem", {"TableName": H, "Key": {"pk": S("gone")}, "ReturnValues": "ALL_OLD"}, {}),
           put(H, {"pk": S("here"), "v": N(1)}),
           step("DeleteItem", {"TableName": H, "Key": {"pk": S("here")}, "ReturnValues": "ALL_OLD"},
                {"Attributes": {"pk": S("here"), "v": N(1)}})]),
    (120, [update(H, KEY_H, "SET a = :v", {":v": S("x")}, Raises(
        "ValidationException", "1 validation error detected: Value 'UPDATED_OLD' at "
                               "'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must "
                               "satisfy enum value set: [ALL_OLD, NONE]"),
        ReturnValuesOnConditionCheckFailure="UPDATED_OLD")]),
]

NOT_EXPRESSIBLE = [
    (1, WIRE_SERVER), (2, WIRE_SERVER), (4, WIRE_SERVER),
    (7, "TagResource / ListTagsOfResource are not implemented (control-plane tags, with the wire-server issue)"),
    (108, TTL_STREAMS), (109, TTL_STREAMS), (110, TTL_STREAMS), (111, TTL_STREAMS), (112, TTL_STREAMS),
    (114, TTL_STREAMS),
]


def _check_describe(table: dict) -> None:
    assert table["TableStatus"] == "ACTIVE"
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert table["ProvisionedThroughput"] == {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0,
                                              "WriteCapacityUnits": 0}
    assert table["TableArn"] == f"arn:aws:dynamodb:us-east-1:123456789012:table/{H}"
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", table["TableId"])
    assert "StreamSpecification" not in table and "SSEDescription" not in table


def _check_deleted(description: dict) -> None:
    assert description["TableStatus"] == "DELETING"
    for member in ("KeySchema", "AttributeDefinitions", "GlobalSecondaryIndexes", "LocalSecondaryIndexes",
                   "CreationDateTime"):
        assert member not in description


# ------------------------------------------------------------------ running

@pytest.fixture
def engine() -> Engine:
    db = Engine()
    for request in FIXTURES:
        db.create_table(**request)
    return db


def _check_error(error: DynamoDBError, expected: Raises) -> None:
    assert error.code == expected.code, error
    message = error.message
    if expected.message is not None:
        assert message == expected.message
    if expected.starts is not None:
        assert message.startswith(expected.starts), message
    if expected.ends is not None:
        assert message.endswith(expected.ends), message
    for part in expected.contains:
        assert part in message, message
    if expected.items is not None:
        assert frozenset(message[len(expected.starts):].split("; ")) == expected.items
    if expected.body is not None:
        assert error_to_wire(error) == expected.body
    if expected.reasons is not None:
        assert error_to_wire(error)["CancellationReasons"] == expected.reasons
    if expected.item is not None:
        assert error_to_wire(error).get("Item") == (expected.item or None)


def run_step(engine: Engine, current: Step):
    """Run one step and check its expectation."""
    if isinstance(current.expect, Raises):
        with pytest.raises(DynamoDBError) as caught:
            wire_call(engine, current.op, current.request)
        _check_error(caught.value, current.expect)
        return None
    response = wire_call(engine, current.op, current.request)
    if callable(current.expect):
        current.expect(response)
    elif current.expect is not OK:
        assert response == current.expect
    return response


@pytest.mark.parametrize("steps", [pytest.param(steps, id=str(number)) for number, steps in CASES])
def test_case(engine, steps):
    for current in steps:
        run_step(engine, current)


@pytest.mark.parametrize("number,reason", NOT_EXPRESSIBLE, ids=[str(n) for n, _ in NOT_EXPRESSIBLE])
def test_not_expressible(number, reason):
    pytest.skip(reason)


def _seed(engine, count=40):
    for i in range(count):
        wire_call(engine, "PutItem", {"TableName": H, "Item": {"pk": S(f"item{i}")}})


def _scan(engine, **extra):
    return wire_call(engine, "Scan", {"TableName": H, "ConsistentRead": True, **extra})


def test_87_segments_partition_the_table(engine):
    _seed(engine)
    whole = {item["pk"]["S"] for item in _scan(engine)["Items"]}
    parts = [{item["pk"]["S"] for item in _scan(engine, Segment=s, TotalSegments=4)["Items"]} for s in range(4)]
    assert sum(len(part) for part in parts) == len(whole) == 40
    assert set().union(*parts) == whole
    assert all(part for part in parts)  # 40 keys over 4 segments: none empty


def test_116_starting_key_of_another_segment(engine):
    _seed(engine)
    page = _scan(engine, Segment=1, TotalSegments=2, Limit=1)
    assert page["Count"] == 1 and "LastEvaluatedKey" in page
    run_step(engine, fails("Scan", {"TableName": H, "Segment": 0, "TotalSegments": 2, "Limit": 1,
                                    "ExclusiveStartKey": page["LastEvaluatedKey"]},
                           message="The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
                                   "ExclusiveStartKey with correct Segment. TotalSegments: 2 Segment: 0"))
    following = _scan(engine, Segment=1, TotalSegments=2, ExclusiveStartKey=page["LastEvaluatedKey"])
    assert page["Items"][0] not in following["Items"]
