"""The constraint envelope and the JSON type pass (item-api §1.1, §2.1–§2.2, §9.2).

The item-operation shapes below are small stand-ins written the way the
item operations will declare theirs: shapes are data.

The spec's fixture names ``H`` and ``HR`` are shorter than the 3 characters
a table name needs (§2.1 case 12, §2.2), so the cases use ``Hash`` and
``HashRange`` instead.
"""

from __future__ import annotations

import pytest

from partiql.engine import envelope as env
from partiql.engine.envelope import (ATTRIBUTE_MAP, ATTRIBUTE_VALUE, TABLE_NAME, blob, boolean,
                                     integer, list_of, long, map_of, string, structure)
from partiql.engine.errors import SerializationException, ValidationException
from partiql.engine.requests.wire import error_to_wire

# ------------------------------------------------------------ stand-in shapes
UPDATE_ITEM = structure({
    "ReturnConsumedCapacity": string(enum=env.RETURN_CONSUMED_CAPACITY),
    "TableName": TABLE_NAME,
    "Key": dict(ATTRIBUTE_MAP, required=True),
    "ReturnItemCollectionMetrics": string(enum=env.RETURN_ITEM_COLLECTION_METRICS),
    "ReturnValues": string(enum=env.RETURN_VALUES),
    "ReturnValuesOnConditionCheckFailure": string(enum=env.RETURN_VALUES_ON_CONDITION_CHECK_FAILURE),
})
PUT_ITEM = structure({"TableName": TABLE_NAME, "Item": dict(ATTRIBUTE_MAP, required=True)})
QUERY = structure({"TableName": TABLE_NAME, "Select": string(enum=env.SELECT),
                   "Limit": integer(min=1), "ConsistentRead": boolean()})
LIST_TABLES = structure({"ExclusiveStartTableName": string(pattern=env.NAME_PATTERN, min_len=3, max_len=255),
                         "Limit": integer(min=1, max=100)})
_TABLE_KEY = string(pattern=env.NAME_PATTERN, min_len=3, max_len=255)
BATCH_GET = structure({"RequestItems": map_of(_TABLE_KEY, structure({
    "Keys": list_of(ATTRIBUTE_MAP, required=True, min_len=1, max_len=100),
    "ConsistentRead": boolean(),
}, name="KeysAndAttributes"), required=True, min_len=1, max_len=100)})
BATCH_WRITE = structure({"RequestItems": map_of(_TABLE_KEY, list_of(structure({
    "PutRequest": structure({"Item": dict(ATTRIBUTE_MAP, required=True)}, name="PutRequest"),
    "DeleteRequest": structure({"Key": dict(ATTRIBUTE_MAP, required=True)}, name="DeleteRequest"),
}, name="WriteRequest"), min_len=1, max_len=25), required=True, min_len=1, max_len=100)})
MIXED = structure({
    "Name": string(), "Count": integer(), "Big": long(), "Flag": boolean(), "Data": blob(),
    "Names": list_of(string()), "Tags": map_of(string(), string()),
    "Inner": structure({"Deep": string(required=True, min_len=2)}, name="Inner"),
})

NULL = "failed to satisfy constraint: Member must not be null"


def _raises(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert caught.value.message == message
    return caught.value


# ================================================================ type pass
TYPE_ERRORS = [
    # (shape, request, SerializationException text)
    pytest.param(PUT_ITEM, {"TableName": "Hash", "Item": {"pk": {"N": 123}}},
                 "NUMBER_VALUE cannot be converted to String", id="case3-number-for-N"),
    pytest.param(MIXED, {"Name": 1.5}, "DECIMAL_VALUE cannot be converted to String", id="decimal-for-string"),
    pytest.param(MIXED, {"Name": True}, "TRUE_VALUE cannot be converted to String", id="true-for-string"),
    pytest.param(MIXED, {"Name": False}, "FALSE_VALUE cannot be converted to String", id="false-for-string"),
    pytest.param(MIXED, {"Name": {"a": 1}}, "Start of structure or map found where not expected",
                 id="object-for-string"),
    pytest.param(MIXED, {"Name": ["a"]}, "Unrecognized collection type class java.lang.String",
                 id="array-for-string"),
    pytest.param(MIXED, {"Count": "5"}, "STRING_VALUE cannot be converted to Integer", id="string-for-integer"),
    pytest.param(MIXED, {"Big": "5"}, "STRING_VALUE cannot be converted to Long", id="string-for-long"),
    pytest.param(MIXED, {"Big": True}, "TRUE_VALUE cannot be converted to Long", id="bool-for-long"),
    pytest.param(MIXED, {"Big": {}}, "Start of structure or map found where not expected", id="object-for-long"),
    pytest.param(MIXED, {"Flag": 1}, "NUMBER_VALUE cannot be converted to Boolean", id="number-for-boolean"),
    pytest.param(MIXED, {"Flag": "maybe"}, "STRING_VALUE cannot be converted to Boolean", id="word-for-boolean"),
    pytest.param(MIXED, {"Names": "a"}, "Unexpected field type", id="scalar-for-list"),
    pytest.param(MIXED, {"Names": {"a": "b"}}, "Start of structure or map found where not expected",
                 id="object-for-list"),
    pytest.param(MIXED, {"Names": [1]}, "NUMBER_VALUE cannot be converted to String", id="list-element"),
    pytest.param(MIXED, {"Tags": 5}, "Unexpected field type", id="scalar-for-map"),
    pytest.param(MIXED, {"Tags": ["a"]},
                 "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>",
                 id="array-for-map"),
    pytest.param(MIXED, {"Inner": "x"}, "Unexpected field type", id="scalar-for-structure"),
    pytest.param(MIXED, {"Inner": []},
                 "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.Inner",
                 id="array-for-structure"),
    pytest.param(MIXED, {"Data": "abc"}, "Base64 encoded length is expected a multiple of 4 bytes but found: 3",
                 id="blob-length"),
    pytest.param(MIXED, {"Data": "ab!="}, "Invalid last non-pad Base64 character dectected", id="blob-alphabet"),
    pytest.param(PUT_ITEM, {"TableName": "H", "Item": {"pk": "a"}}, "Unexpected value type in payload",
                 id="attribute-value-not-object"),
    pytest.param(PUT_ITEM, {"TableName": "H", "Item": {"m": {"M": {"x": {"SS": "a"}}}}},
                 "Unexpected field type", id="nested-attribute-value"),
    pytest.param(PUT_ITEM, {"TableName": "H", "Item": {"l": {"L": [{"BOOL": 3}]}}},
                 "NUMBER_VALUE cannot be converted to Boolean", id="attribute-value-in-list"),
]


@pytest.mark.parametrize("shape, request_, message", TYPE_ERRORS)
def test_type_errors(shape, request_, message):
    _raises(lambda: env.check_types(request_, shape), SerializationException, message)


def test_type_errors_win_over_the_envelope():
    # phase 2 before phase 4: 'a;' would fail the pattern
    _raises(lambda: env.check_request({"TableName": "a;", "Item": {"pk": {"N": 1}}}, PUT_ITEM),
            SerializationException, "NUMBER_VALUE cannot be converted to String")


@pytest.mark.parametrize("body", [None, [], "x", 3])
def test_a_body_that_is_not_an_object(body):
    error = _raises(lambda: env.check_types(body, PUT_ITEM), SerializationException, "")
    assert error_to_wire(error) == {"__type": "com.amazon.coral.service#SerializationException"}


NORMALISED = [
    # (shape, request, normalised request)
    pytest.param(MIXED, {"Name": "a", "Unknown": 1, "Count": None}, {"Name": "a"}, id="unknown-and-null-dropped"),
    pytest.param(MIXED, {"Flag": "TRUE"}, {"Flag": True}, id="boolean-string-true"),
    pytest.param(MIXED, {"Flag": "no"}, {"Flag": False}, id="boolean-string-no"),
    pytest.param(MIXED, {"Big": 7.9, "Count": 2}, {"Count": 2, "Big": 7}, id="decimal-truncated"),
    pytest.param(MIXED, {"Data": "YWI=", "Names": ["x", None]}, {"Data": "YWI=", "Names": ["x", None]},
                 id="blob-kept-as-text"),
    pytest.param(MIXED, {"Data": b"\x00"}, {"Data": b"\x00"}, id="blob-bytes-in-process"),
    pytest.param(MIXED, {"Inner": {"Deep": "ab", "Other": 1}}, {"Inner": {"Deep": "ab"}},
                 id="nested-unknown-dropped"),
    pytest.param(PUT_ITEM, {"TableName": "H", "Item": {"pk": {"S": "a"}, "n": {"NULL": "true"}}},
                 {"TableName": "H", "Item": {"pk": {"S": "a"}, "n": {"NULL": True}}}, id="attribute-value"),
]


@pytest.mark.parametrize("shape, request_, expected", NORMALISED)
def test_normalised_request(shape, request_, expected):
    assert env.check_types(request_, shape) == expected


# ============================================================ constraint pass
ENVELOPES = [
    # (shape, request, exact message)
    pytest.param(LIST_TABLES, {"Limit": 101},
                 "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: "
                 "Member must have value less than or equal to 100", id="case10-limit"),
    pytest.param(LIST_TABLES, {"Limit": 0},
                 "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
                 "Member must have value greater than or equal to 1", id="limit-zero"),
    pytest.param(QUERY, {"TableName": "HashRange", "Select": "count"},
                 "1 validation error detected: Value 'count' at 'select' failed to satisfy constraint: "
                 "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, "
                 "ALL_PROJECTED_ATTRIBUTES]", id="case11-select-case-sensitive"),
    pytest.param(QUERY, {"TableName": "a;"},
                 "2 validation errors detected: Value 'a;' at 'tableName' failed to satisfy constraint: "
                 "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value 'a;' at "
                 "'tableName' failed to satisfy constraint: Member must have length greater than or "
                 "equal to 3", id="table-name-pattern-then-length"),
    pytest.param(UPDATE_ITEM, {"TableName": "abc", "Key": {}, "ReturnValuesOnConditionCheckFailure": "UPDATED_OLD"},
                 "1 validation error detected: Value 'UPDATED_OLD' at 'returnValuesOnConditionCheckFailure' "
                 "failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]",
                 id="case120-return-values-on-failure"),
    pytest.param(MIXED, {"Inner": {}}, f"1 validation error detected: Value null at 'inner.deep' {NULL}",
                 id="nested-path"),
    pytest.param(MIXED, {"Inner": {"Deep": "é"}},
                 "1 validation error detected: Value 'é' at 'inner.deep' failed to satisfy constraint: "
                 "Member must have length greater than or equal to 2", id="nested-length"),
    pytest.param(MIXED, {"Names": ["a", None]},
                 f"1 validation error detected: Value null at 'names.2.member' {NULL}", id="null-list-element"),
    pytest.param(BATCH_WRITE, {"RequestItems": {"a;": [{"PutRequest": {"Item": {}}}]}},
                 "1 validation error detected: Value '{a;=[{PutRequest={Item={}}}]}' at 'requestItems' "
                 "failed to satisfy constraint: Map keys must satisfy constraint: [Member must have length "
                 "less than or equal to 255, Member must have length greater than or equal to 3, Member "
                 "must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]", id="map-keys"),
    pytest.param(BATCH_WRITE, {"RequestItems": {"abc": [{"PutRequest": {}}]}},
                 f"1 validation error detected: Value null at 'requestItems.abc.member.1.member.putRequest.item' {NULL}",
                 id="map-entry-path"),
]


@pytest.mark.parametrize("shape, request_, message", ENVELOPES)
def test_envelope_messages(shape, request_, message):
    _raises(lambda: env.check_request(request_, shape), ValidationException, message)


def _items(message: str, count: int) -> set[str]:
    noun = "error" if count == 1 else "errors"
    head = f"{count} validation {noun} detected: "
    assert message.startswith(head), message
    items = message[len(head):].split("; ")
    assert len(items) == count
    return set(items)


def test_case8_update_item_without_members():
    error = _raises_any(lambda: env.check_request({}, UPDATE_ITEM))
    assert _items(error.message, 2) == {f"Value null at 'tableName' {NULL}", f"Value null at 'key' {NULL}"}


def test_case9_five_violations():
    request = {"TableName": "abc;", "ReturnConsumedCapacity": "hi", "ReturnItemCollectionMetrics": "hi",
               "ReturnValues": "hi"}
    error = _raises_any(lambda: env.check_request(request, UPDATE_ITEM))
    assert _items(error.message, 5) == {
        "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum "
        "value set: [INDEXES, TOTAL, NONE]",
        "Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression "
        "pattern: [a-zA-Z0-9_.-]+",
        "Value 'hi' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum "
        "value set: [SIZE, NONE]",
        "Value 'hi' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: "
        "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]",
        f"Value null at 'key' {NULL}",
    }


def test_case14_batch_get_too_many_keys():
    keys = [{"pk": {"S": str(number)}} for number in range(101)]
    error = _raises_any(lambda: env.check_request({"RequestItems": {"Hash": {"Keys": keys}}}, BATCH_GET))
    assert error.message.startswith("1 validation error detected: Value '[")
    assert ("' at 'requestItems.Hash.member.keys' failed to satisfy constraint: Member must have length "
            "less than or equal to 100") in error.message


def test_case16_batch_write_too_many_requests():
    puts = [{"PutRequest": {"Item": {"pk": {"S": str(number)}}}} for number in range(26)]
    error = _raises_any(lambda: env.check_request({"RequestItems": {"Hash": puts}}, BATCH_WRITE))
    assert error.message.startswith("1 validation error detected: Value '{")
    assert error.message.endswith(
        "' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: "
        "[Member must have length less than or equal to 25, Member must have length greater than or equal to 1]")


def test_at_most_ten_items_are_reported():
    request = {"Names": [None] * 12}
    error = _raises_any(lambda: env.check_request(request, MIXED))
    assert _items(error.message, 10) == {f"Value null at 'names.{n}.member' {NULL}" for n in range(1, 11)}
    assert len(env.violations(request, MIXED)) == 12


def _raises_any(call):
    with pytest.raises(ValidationException) as caught:
        call()
    return caught.value


# ============================================================ pieces
RENDERED = [
    (None, "null"), ("x y", "x y"), (5, "5"), (True, "true"), (["a", "b"], "[a, b]"),
    ({"k": "v", "n": [1]}, "{k=v, n=[1]}"), (b"ab", "YWI="), ([], "[]"),
]


@pytest.mark.parametrize("value, text", RENDERED)
def test_render_value(value, text):
    assert env.render_value(value) == text


def test_violation_renders_null_unquoted_and_strings_raw():
    assert env.violation(None, "a.b", "X") == "Value null at 'a.b' failed to satisfy constraint: X"
    assert env.violation("it's", "a", "X") == "Value 'it's' at 'a' failed to satisfy constraint: X"


@pytest.mark.parametrize("parent, name, path", [
    ("", "TableName", "tableName"), ("", "SSESpecification", "sSESpecification"),
    ("keySchema.2.member", "KeyType", "keySchema.2.member.keyType"),
])
def test_member_path(parent, name, path):
    assert env.member_path(parent, name) == path


ENUMS = [  # §2.2: the server's order
    (env.RETURN_CONSUMED_CAPACITY, "INDEXES TOTAL NONE"),
    (env.RETURN_ITEM_COLLECTION_METRICS, "SIZE NONE"),
    (env.RETURN_VALUES, "ALL_NEW UPDATED_OLD ALL_OLD NONE UPDATED_NEW"),
    (env.SELECT, "SPECIFIC_ATTRIBUTES COUNT ALL_ATTRIBUTES ALL_PROJECTED_ATTRIBUTES"),
    (env.COMPARISON_OPERATOR, "IN NULL BETWEEN LT NOT_CONTAINS EQ GT NOT_NULL NE LE BEGINS_WITH GE CONTAINS"),
    (env.CONDITIONAL_OPERATOR, "OR AND"), (env.BILLING_MODE, "PROVISIONED PAY_PER_REQUEST"),
    (env.KEY_TYPE, "HASH RANGE"), (env.ATTRIBUTE_TYPE, "B N S"), (env.PROJECTION_TYPE, "ALL INCLUDE KEYS_ONLY"),
    (env.ATTRIBUTE_ACTION, "ADD DELETE PUT"), (env.RETURN_VALUES_ON_CONDITION_CHECK_FAILURE, "ALL_OLD NONE"),
]


@pytest.mark.parametrize("values, order", ENUMS)
def test_enum_orders(values, order):
    assert values == tuple(order.split())


def test_shapes_are_plain_data():
    assert string(required=True, min_len=0) == {"type": "String", "required": True, "min_len": 0}
    assert ATTRIBUTE_VALUE["members"]["L"]["member"] is ATTRIBUTE_VALUE
    assert env.envelope_message(["a"]) == "1 validation error detected: a"
    assert env.envelope_message(["a", "b"]) == "2 validation errors detected: a; b"
