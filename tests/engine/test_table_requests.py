"""CreateTable / UpdateTable / TableDescription / ListTables as pure functions (item-api §5.1–§5.6).

Rows are request dict → expected spec fields, or exact error class + message.
Table names are at least 3 characters: the spec's fixture names ``H`` / ``P1``
would fail the TableName length check that case 12 pins (``Hash`` etc. here).
"""

from __future__ import annotations

import re

import pytest

from partiql.engine.requests import control, create_table, descriptions, update_table
from partiql.engine.errors import (LimitExceededException, ResourceNotFoundException,
                                   SerializationException, ValidationException)
from partiql.engine.schema import IndexSpec, KeySchema, Projection, TableSpec, Throughput

DROP = object()  # removes a member from the base request
INVALID = "One or more parameter values were invalid: "
NULL = "failed to satisfy constraint: Member must not be null"


# ------------------------------------------------------------ request builders
def defs(**types) -> list:
    return [{"AttributeName": name, "AttributeType": kind} for name, kind in types.items()]


def keys(*pairs) -> list:
    """keys("pk") / keys("pk", "sk") / keys(("a", "SORT")) for odd key types."""
    out = []
    for position, element in enumerate(pairs):
        name, kind = element if isinstance(element, tuple) else (element, ("HASH", "RANGE")[position])
        out.append({"AttributeName": name, "KeyType": kind})
    return out


def pt(read=1, write=1) -> dict:
    return {"ReadCapacityUnits": read, "WriteCapacityUnits": write}


def index(name, *key, projection="ALL", non_key=None, throughput=None) -> dict:
    out = {"IndexName": name, "KeySchema": keys(*key), "Projection": {"ProjectionType": projection}}
    if projection is None:
        out["Projection"] = {}
    if non_key is not None:
        out["Projection"]["NonKeyAttributes"] = non_key
    if throughput is not None:
        out["ProvisionedThroughput"] = throughput
    return out


def create(**members) -> dict:
    """An on-demand hash-key table, with ``members`` replacing (or DROP removing) members."""
    request = {"TableName": "Hash", "AttributeDefinitions": defs(pk="S"), "KeySchema": keys("pk"),
               "BillingMode": "PAY_PER_REQUEST"}
    for name, value in members.items():
        if value is DROP:
            request.pop(name, None)
        else:
            request[name] = value
    return request


def hr(**members) -> dict:
    """A hash-and-range on-demand table (LSIs need one)."""
    return create(AttributeDefinitions=members.pop("AttributeDefinitions", defs(pk="S", sk="S", lk="S")),
                  KeySchema=keys("pk", "sk"), **members)


def many(count, make) -> list:
    return [make(number) for number in range(count)]


# =========================================================== CreateTable: errors
V = ValidationException
CREATE_ERRORS = [
    # --- TableName first and alone (§2.1 step 3)
    pytest.param(create(TableName=DROP, KeySchema=DROP), V, control.TABLE_NAME_REQUIRED, id="case13-no-table-name"),
    # CreateTable's name length is an envelope item (corrected against DynamoDB 2026-04, issue #14 point 5)
    pytest.param(create(TableName="ab"), V, "1 validation error detected: Value 'ab' at 'tableName' failed to "
                 "satisfy constraint: Member must have length greater than or equal to 3", id="case12-short-name"),
    pytest.param(create(TableName="a" * 256), V, f"1 validation error detected: Value '{'a' * 256}' at "
                 "'tableName' failed to satisfy constraint: Member must have length less than or equal to 255",
                 id="long-name"),
    pytest.param(create(TableName="ab", KeySchema=DROP), V, "2 validation errors detected: Value 'ab' at "
                 "'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; "
                 "Value null at 'keySchema' failed to satisfy constraint: Member must not be null",
                 id="name-in-envelope"),
    pytest.param(create(TableName="abc;"), V,
                 "1 validation error detected: Value 'abc;' at 'tableName' failed to satisfy constraint: "
                 "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+", id="name-pattern"),
    # --- types before everything
    pytest.param(create(TableName=5), SerializationException, "NUMBER_VALUE cannot be converted to String",
                 id="name-type"),
    pytest.param(create(KeySchema="pk"), SerializationException, "Unexpected field type", id="key-schema-type"),
    pytest.param(create(BillingMode=DROP, ProvisionedThroughput=pt(read="5")), SerializationException,
                 "STRING_VALUE cannot be converted to Long", id="capacity-type"),
    # --- the envelope
    pytest.param(create(AttributeDefinitions=DROP, KeySchema=DROP), V,
                 f"2 validation errors detected: Value null at 'attributeDefinitions' {NULL}; "
                 f"Value null at 'keySchema' {NULL}", id="definitions-and-keys-required"),
    pytest.param(create(AttributeDefinitions=defs(a="S", b="S"), KeySchema=keys("a", ("b", "SORT"))), V,
                 "1 validation error detected: Value 'SORT' at 'keySchema.2.member.keyType' failed to "
                 "satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]", id="case103-key-type"),
    pytest.param(create(AttributeDefinitions=defs(pk="BOOL")), V,
                 "1 validation error detected: Value 'BOOL' at 'attributeDefinitions.1.member.attributeType' "
                 "failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]",
                 id="attribute-type"),
    pytest.param(create(AttributeDefinitions=defs(**{"a" * 256: "S"}), KeySchema=keys("a" * 256)), V,
                 f"2 validation errors detected: Value '{'a' * 256}' at 'attributeDefinitions.1.member."
                 "attributeName' failed to satisfy constraint: Member must have length less than or equal "
                 f"to 255; Value '{'a' * 256}' at 'keySchema.1.member.attributeName' failed to satisfy "
                 "constraint: Member must have length less than or equal to 255", id="key-name-length"),
    pytest.param(create(KeySchema=keys("a", "b", ("c", "RANGE"))), V,
                 # corrected against DynamoDB 2026-04 (issue #14 point 5): elements print as their class
                 "1 validation error detected: Value '[KeySchemaElement(attributeName=a, keyType=HASH), "
                 "KeySchemaElement(attributeName=b, keyType=RANGE), KeySchemaElement(attributeName=c, "
                 "keyType=RANGE)]' at 'keySchema' failed to satisfy "
                 "constraint: Member must have length less than or equal to 2", id="three-keys"),
    pytest.param(create(BillingMode="ON_DEMAND"), V,
                 "1 validation error detected: Value 'ON_DEMAND' at 'billingMode' failed to satisfy "
                 "constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
                 id="billing-mode-enum"),
    pytest.param(create(BillingMode=DROP, ProvisionedThroughput=pt(0, 0)), V,
                 "2 validation errors detected: Value '0' at 'provisionedThroughput.writeCapacityUnits' "
                 "failed to satisfy constraint: Member must have value greater than or equal to 1; Value '0' "
                 "at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have "
                 "value greater than or equal to 1", id="capacity-minimum"),
    pytest.param(create(BillingMode=DROP, ProvisionedThroughput={"ReadCapacityUnits": 1}), V,
                 f"1 validation error detected: Value null at 'provisionedThroughput.writeCapacityUnits' {NULL}",
                 id="capacity-missing-one"),
    pytest.param(hr(LocalSecondaryIndexes=[{"IndexName": "ab", "KeySchema": keys("pk", "lk"),
                                            "Projection": {"ProjectionType": "SOME"}}]), V,
                 "2 validation errors detected: Value 'ab' at 'localSecondaryIndexes.1.member.indexName' "
                 "failed to satisfy constraint: Member must have length greater than or equal to 3; Value "
                 "'SOME' at 'localSecondaryIndexes.1.member.projection.projectionType' failed to satisfy "
                 "constraint: Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]",
                 id="index-name-and-projection-type"),
    pytest.param(hr(GlobalSecondaryIndexes=[index("gix", "lk", projection="INCLUDE",
                                                  non_key=[f"n{n}" for n in range(21)])],
                    AttributeDefinitions=defs(pk="S", sk="S", lk="S")), V,
                 "1 validation error detected: Value '[" + ", ".join(f"n{n}" for n in range(21)) + "]' at "
                 "'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy "
                 "constraint: Member must have length less than or equal to 20", id="non-key-attributes-20"),
    pytest.param(create(StreamSpecification={"StreamViewType": "NEW_IMAGE"}), V,
                 f"1 validation error detected: Value null at 'streamSpecification.streamEnabled' {NULL}",
                 id="stream-enabled-required"),
    pytest.param(create(StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW"}), V,
                 "1 validation error detected: Value 'NEW' at 'streamSpecification.streamViewType' failed to "
                 "satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, "
                 "NEW_AND_OLD_IMAGES, KEYS_ONLY]", id="stream-view-type-enum"),
    pytest.param(create(Tags=many(51, lambda n: {"Key": f"k{n}", "Value": "v"})), V,
                 None, id="too-many-tags"),
    # --- billing and throughput
    pytest.param(create(TableName="Prov1", BillingMode=DROP), V, control.BOTH_CAPACITIES, id="case102-no-throughput"),
    pytest.param(create(BillingMode="PROVISIONED"), V, control.BOTH_CAPACITIES, id="provisioned-no-throughput"),
    pytest.param(create(ProvisionedThroughput=pt()), V, control.NEITHER_CAPACITY, id="on-demand-with-throughput"),
    pytest.param(create(BillingMode=DROP, ProvisionedThroughput=pt(10 ** 12 + 1, 10 ** 12 + 1)), V,
                 "Given value 1000000000001 for ReadCapacityUnits is out of bounds", id="read-out-of-bounds"),
    pytest.param(create(BillingMode=DROP, ProvisionedThroughput=pt(1, 10 ** 12 + 1)), V,
                 "Given value 1000000000001 for WriteCapacityUnits is out of bounds", id="write-out-of-bounds"),
    # --- key schema and attribute definitions
    pytest.param(create(AttributeDefinitions=defs(a="S"), KeySchema=keys("a", "b")), V,
                 "Invalid KeySchema: Some index key attribute have no definition", id="more-keys-than-definitions"),
    pytest.param(create(AttributeDefinitions=defs(b="S"), KeySchema=keys("a")), V,
                 INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [a], "
                 "AttributeDefinitions: [b]", id="case104-key-not-defined"),
    pytest.param(create(AttributeDefinitions=defs(a="S", b="S"), KeySchema=keys("a", "a")), V,
                 "Both the Hash Key and the Range Key element in the KeySchema have the same name",
                 id="same-key-names"),
    pytest.param(create(AttributeDefinitions=defs(a="S"), KeySchema=keys(("a", "RANGE"))), V,
                 "Invalid KeySchema: The first KeySchemaElement is not a HASH key type", id="first-not-hash"),
    pytest.param(create(AttributeDefinitions=defs(a="S", b="S"), KeySchema=keys("a", ("b", "HASH"))), V,
                 "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type", id="second-not-range"),
    pytest.param(create(AttributeDefinitions=defs(pk="S", x="N")), V,
                 INVALID + "Number of attributes in KeySchema does not exactly match number of attributes "
                 "defined in AttributeDefinitions", id="unused-definition-no-index"),
    pytest.param(create(AttributeDefinitions=defs(pk="S", x="N", gk="S"),
                        GlobalSecondaryIndexes=[index("gix", "gk")]), V,
                 INVALID + "Some AttributeDefinitions are not used. AttributeDefinitions: [gk, pk, x], "
                 "keys used: [gk, pk]", id="unused-definition-with-index"),
    pytest.param(create(AttributeDefinitions=[*defs(pk="S"), *defs(pk="N")]), V,
                 "Attribute Name is duplicated: pk", id="duplicate-definition"),
    # --- local secondary indexes
    pytest.param(hr(LocalSecondaryIndexes=[]), V, INVALID + "List of LocalSecondaryIndexes is empty",
                 id="lsi-empty-list"),
    pytest.param(create(AttributeDefinitions=defs(pk="S", lk="S"),
                        LocalSecondaryIndexes=[index("lix", "pk", "lk")]), V,
                 INVALID + "Table KeySchema does not have a range key, which is required when specifying a "
                 "LocalSecondaryIndex", id="lsi-table-without-range"),
    pytest.param(hr(LocalSecondaryIndexes=[index("lix", "pk")]), V,
                 INVALID + "Index KeySchema does not have a range key for index: lix", id="lsi-without-range"),
    pytest.param(hr(LocalSecondaryIndexes=[index("lix", "lk", "sk")]), V,
                 INVALID + "Index KeySchema does not have the same leading hash key as table KeySchema for "
                 "index: lix. index hash key: lk, table hash key: pk", id="lsi-other-hash"),
    pytest.param(hr(LocalSecondaryIndexes=[index("lix", "pk", "zz")]), V,
                 INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [pk, zz], "
                 "AttributeDefinitions: [pk, sk, lk]", id="lsi-key-not-defined"),
    pytest.param(hr(LocalSecondaryIndexes=[index("lix", "pk", ("lk", "HASH"))]), V,
                 "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type", id="lsi-key-form"),
    pytest.param(hr(LocalSecondaryIndexes=many(6, lambda n: index(f"lsi{n}", "pk", "lk"))), V,
                 INVALID + "Number of LocalSecondaryIndexes exceeds per-table limit of 5", id="six-lsis"),
    # --- projections
    pytest.param(hr(LocalSecondaryIndexes=[index("lix", "pk", "lk", projection=None)]), V,
                 INVALID + "Unknown ProjectionType: null", id="projection-type-missing"),
    pytest.param(hr(LocalSecondaryIndexes=[index("lix", "pk", "lk", projection="KEYS_ONLY", non_key=["x"])]), V,
                 INVALID + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified",
                 id="non-key-attributes-without-include"),
    pytest.param(hr(AttributeDefinitions=defs(pk="S", sk="S", **{f"g{n}": "S" for n in range(6)}),
                    GlobalSecondaryIndexes=many(6, lambda n: index(
                        f"gsi{n}", f"g{n}", projection="INCLUDE",
                        non_key=[f"a{n}_{m}" for m in range(17 if n < 5 else 16)]))), V,
                 INVALID + "Number of projected attributes in all indexes exceeds limit of 100, number of "
                 "projected attributes:101", id="projected-attributes-101"),
    # --- global secondary indexes
    pytest.param(create(GlobalSecondaryIndexes=[]), V, INVALID + "List of GlobalSecondaryIndexes is empty",
                 id="gsi-empty-list"),
    pytest.param(create(AttributeDefinitions=defs(pk="S", gk="S"),
                        GlobalSecondaryIndexes=many(21, lambda n: index(f"gsi{n}", "gk"))), V,
                 INVALID + "GlobalSecondaryIndex count exceeds the per-table limit of 20", id="21-gsis"),
    pytest.param(create(AttributeDefinitions=defs(pk="S", gk="S"),
                        GlobalSecondaryIndexes=[index("gix", "gk", throughput=pt())]), V,
                 INVALID + "ProvisionedThroughput should not be specified for index: gix when BillingMode is "
                 "PAY_PER_REQUEST", id="on-demand-gsi-with-throughput"),
    pytest.param(create(BillingMode=DROP, ProvisionedThroughput=pt(), AttributeDefinitions=defs(pk="S", gk="S"),
                        GlobalSecondaryIndexes=[index("gix", "gk")]), V,
                 INVALID + "ProvisionedThroughput must be specified for index: gix", id="provisioned-gsi-without"),
    pytest.param(create(BillingMode=DROP, ProvisionedThroughput=pt(), AttributeDefinitions=defs(pk="S", gk="S"),
                        GlobalSecondaryIndexes=[index("gix", "gk", throughput=pt(2 * 10 ** 12))]), V,
                 "Given value 2000000000000 for ReadCapacityUnits is out of bounds", id="gsi-out-of-bounds"),
    pytest.param(create(AttributeDefinitions=defs(pk="S", gk="S"), GlobalSecondaryIndexes=[index("gix", "nope")]),
                 V, INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [nope], "
                 "AttributeDefinitions: [pk, gk]", id="gsi-key-not-defined"),
    pytest.param(hr(LocalSecondaryIndexes=[index("idx", "pk", "lk")], GlobalSecondaryIndexes=[index("idx", "lk")]),
                 V, INVALID + "Duplicate index name: idx", id="duplicate-index-name"),
    # --- streams (INF texts)
    pytest.param(create(StreamSpecification={"StreamEnabled": True}), V, control.STREAM_VIEW_TYPE_MISSING,
                 id="stream-without-view-type"),
    pytest.param(create(StreamSpecification={"StreamEnabled": False, "StreamViewType": "KEYS_ONLY"}), V,
                 control.STREAM_VIEW_TYPE_UNWANTED, id="disabled-stream-with-view-type"),
]


@pytest.mark.parametrize("request_, error, message", CREATE_ERRORS)
def test_create_table_errors(request_, error, message):
    with pytest.raises(error) as caught:
        create_table.create_table_spec(request_)
    assert type(caught.value) is error
    if message is not None:
        assert caught.value.message == message
    else:
        assert caught.value.message.startswith("1 validation error detected: Value '[")


def test_case115_only_ten_of_27_violations():
    request = {"TableName": "abc", "AttributeDefinitions": defs(a="S", b="S"), "KeySchema": keys("a", "b"),
               "LocalSecondaryIndexes": [{}] * 9, "ProvisionedThroughput": pt()}
    with pytest.raises(ValidationException) as caught:
        create_table.create_table_spec(request)
    message = caught.value.message
    assert message.startswith("10 validation errors detected: ")
    assert f"Value null at 'localSecondaryIndexes.1.member.indexName' {NULL}" in message
    assert message.count("; ") == 9


# ========================================================= CreateTable: specs
GSI_G1 = IndexSpec("gix", "GSI", KeySchema("gk", "S"), Projection("KEYS_ONLY"))
CREATE_SPECS = [
    # (request, expected TableSpec)
    pytest.param(create(), TableSpec("Hash", KeySchema("pk", "S"), {"pk": "S"}), id="on-demand"),
    pytest.param(create(BillingMode=DROP, ProvisionedThroughput=pt(5, 7), AttributeDefinitions=defs(pk="N")),
                 TableSpec("Hash", KeySchema("pk", "N"), {"pk": "N"}, Throughput(5, 7)), id="provisioned-default"),
    pytest.param(create(TableName="arn:aws:dynamodb:us-east-1:123456789012:table/FromArn"),
                 TableSpec("FromArn", KeySchema("pk", "S"), {"pk": "S"}), id="table-arn"),
    pytest.param(create(StreamSpecification={"StreamEnabled": "true", "StreamViewType": "NEW_AND_OLD_IMAGES"},
                        DeletionProtectionEnabled=True, Tags=[{"Key": "k", "Value": ""}],
                        SSESpecification={"Enabled": True}, TableClass="STANDARD", Unknown={"x": 1}),
                 TableSpec("Hash", KeySchema("pk", "S"), {"pk": "S"}, stream_view_type="NEW_AND_OLD_IMAGES",
                           deletion_protection=True, tags=(("k", ""),)), id="stream-and-flags"),
    pytest.param(create(StreamSpecification={"StreamEnabled": False}),
                 TableSpec("Hash", KeySchema("pk", "S"), {"pk": "S"}), id="stream-disabled"),
    pytest.param(hr(AttributeDefinitions=defs(pk="S", sk="N", gk="S", lk="B"),
                    GlobalSecondaryIndexes=[index("gix", "gk", projection="KEYS_ONLY")],
                    LocalSecondaryIndexes=[index("lix", "pk", "lk", projection="INCLUDE", non_key=["a", "b"])]),
                 TableSpec("Hash", KeySchema("pk", "S", "sk", "N"), {"pk": "S", "sk": "N", "gk": "S", "lk": "B"},
                           indexes=(IndexSpec("lix", "LSI", KeySchema("pk", "S", "lk", "B"),
                                              Projection("INCLUDE", ("a", "b"))), GSI_G1)),
                 id="indexes-lsi-first"),
    pytest.param(hr(BillingMode="PROVISIONED", ProvisionedThroughput=pt(), AttributeDefinitions=defs(pk="S", sk="S", gk="S"),
                    GlobalSecondaryIndexes=[index("gix", "gk", "sk", throughput=pt(3, 4))]),
                 TableSpec("Hash", KeySchema("pk", "S", "sk", "S"), {"pk": "S", "sk": "S", "gk": "S"},
                           Throughput(1, 1), (IndexSpec("gix", "GSI", KeySchema("gk", "S", "sk", "S"),
                                                        Projection("ALL"), Throughput(3, 4)),)),
                 id="provisioned-gsi"),
]


@pytest.mark.parametrize("request_, spec", CREATE_SPECS)
def test_create_table_spec(request_, spec):
    assert create_table.create_table_spec(request_) == spec


@pytest.mark.parametrize("request_", [
    pytest.param(hr(LocalSecondaryIndexes=many(5, lambda n: index(f"lsi{n}", "pk", "lk"))), id="five-lsis"),
    pytest.param(create(AttributeDefinitions=defs(pk="S", gk="S"),
                        GlobalSecondaryIndexes=many(20, lambda n: index(f"gsi{n}", "gk"))), id="twenty-gsis"),
    pytest.param(hr(AttributeDefinitions=defs(pk="S", sk="S", lk="S"), LocalSecondaryIndexes=many(
        5, lambda n: index(f"lsi{n}", "pk", "lk", projection="INCLUDE", non_key=[f"a{n}_{m}" for m in range(20)]))),
        id="hundred-projected"),
    pytest.param(hr(LocalSecondaryIndexes=[index("lix", "pk", "lk", projection="INCLUDE")]), id="include-no-names"),
])
def test_create_table_limits_accepted(request_):
    create_table.create_table_spec(request_)


def test_create_does_not_mutate_the_request():
    request = create(StreamSpecification={"StreamEnabled": "yes", "StreamViewType": "KEYS_ONLY"})
    before = repr(request)
    create_table.create_table_spec(request)
    assert repr(request) == before


# ================================================================= UpdateTable
HASH = TableSpec("Hash", KeySchema("pk", "S"), {"pk": "S"})
HASH_GSI = TableSpec("HashGsi", KeySchema("pk", "S"), {"pk": "S", "gk": "S"}, indexes=(GSI_G1,))
PROV = TableSpec("Prov", KeySchema("pk", "S"), {"pk": "S", "gk": "S"}, Throughput(5, 5),
                 (IndexSpec("gix", "GSI", KeySchema("gk", "S"), Projection("ALL"), Throughput(1, 1)),))
STREAMED = TableSpec("Streamed", KeySchema("pk", "S"), {"pk": "S"}, stream_view_type="NEW_IMAGE")
LSI_TABLE = TableSpec("WithLsi", KeySchema("pk", "S", "sk", "S"), {"pk": "S", "sk": "S", "lk": "S"},
                      indexes=(IndexSpec("lix", "LSI", KeySchema("pk", "S", "lk", "S"), Projection("ALL")),))
TWENTY = TableSpec("Twenty", KeySchema("pk", "S"), {"pk": "S", "gk": "S"},
                   indexes=tuple(IndexSpec(f"gsi{n}", "GSI", KeySchema("gk", "S"), Projection("ALL"))
                                 for n in range(20)))


def update(spec: TableSpec, **members) -> tuple[TableSpec, dict]:
    return spec, {"TableName": spec.name, **members}


def gsi_create(name, *key, **options) -> dict:
    return {"Create": index(name, *key, **options)}


UPDATE_ERRORS = [
    # (spec, request, error class, message)
    pytest.param(*update(HASH), V, control.NOTHING_TO_UPDATE, id="case107-nothing"),
    pytest.param(*update(HASH, GlobalSecondaryIndexUpdates=[]), V, control.NOTHING_TO_UPDATE, id="empty-gsi-updates"),
    pytest.param(HASH, {"BillingMode": "PROVISIONED"}, V, control.TABLE_NAME_REQUIRED, id="no-table-name"),
    pytest.param(HASH, {"TableName": "ab", "BillingMode": "x"}, V, control.TABLE_NAME_LENGTH, id="short-table-name"),
    pytest.param(*update(HASH, BillingMode="PROVISIONED"), V,
                 INVALID + "ProvisionedThroughput must be specified when BillingMode is PROVISIONED",
                 id="provisioned-without-throughput"),
    pytest.param(*update(PROV, BillingMode="PAY_PER_REQUEST", ProvisionedThroughput=pt()), V,
                 control.NEITHER_CAPACITY, id="on-demand-with-throughput"),
    pytest.param(*update(HASH, ProvisionedThroughput=pt()), V, control.NEITHER_CAPACITY, id="throughput-on-on-demand"),
    pytest.param(*update(PROV, ProvisionedThroughput=pt(10 ** 13)), V,
                 "Given value 10000000000000 for ReadCapacityUnits is out of bounds", id="out-of-bounds"),
    pytest.param(*update(PROV, ProvisionedThroughput=pt(5, 5)), V,
                 "The provisioned throughput for the table will not change. The requested value equals the "
                 "current value. Current ReadCapacityUnits provisioned for the table: 5. Requested "
                 "ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the table: 5. Requested "
                 "WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for current limits and "
                 "how to request higher limits.", id="throughput-will-not-change"),
    pytest.param(*update(TWENTY, BillingMode="PROVISIONED", ProvisionedThroughput=pt()), V,
                 INVALID + "ProvisionedThroughput must be specified for index: "
                 + ",".join(f"gsi{n}" for n in range(20)), id="switch-gsis-lack-throughput"),
    pytest.param(*update(HASH, GlobalSecondaryIndexUpdates=[{}]), V,
                 INVALID + "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                 "GlobalSecondaryIndexUpdate.Delete must not be null", id="empty-gsi-update"),
    pytest.param(*update(PROV, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "gix"},
                                                             "Update": {"IndexName": "gix", "ProvisionedThroughput": pt()}}]),
                 V, control.GSI_UPDATE_AMBIGUOUS, id="two-actions-in-one-entry"),
    pytest.param(*update(PROV, GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "gix", "ProvisionedThroughput": pt()}},
                                                            {"Delete": {"IndexName": "gix"}}]), V,
                 INVALID + "Only one global secondary index update per index is allowed simultaneously. "
                 "Index: gix", id="same-index-twice"),
    pytest.param(*update(PROV, GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "gix"}}]), V,
                 f"1 validation error detected: Value null at 'globalSecondaryIndexUpdates.1.member.update."
                 f"provisionedThroughput' {NULL}", id="update-needs-throughput"),
    pytest.param(*update(HASH, AttributeDefinitions=defs(a="S", b="S"), GlobalSecondaryIndexUpdates=[
        gsi_create("new1", "a"), gsi_create("new2", "b")]), LimitExceededException, control.GSI_LIMIT, id="two-creates"),
    pytest.param(*update(HASH_GSI, AttributeDefinitions=defs(a="S"), GlobalSecondaryIndexUpdates=[
        gsi_create("new1", "a"), {"Delete": {"IndexName": "gix"}}]), LimitExceededException, control.GSI_LIMIT,
        id="create-and-delete"),
    pytest.param(*update(HASH, GlobalSecondaryIndexUpdates=[gsi_create("new1", "nk")]), V,
                 INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [nk], "
                 "AttributeDefinitions: []", id="create-key-not-defined"),
    pytest.param(*update(HASH, AttributeDefinitions=defs(nk="S"),
                         GlobalSecondaryIndexUpdates=[gsi_create("new1", "nk", projection=None)]), V,
                 INVALID + "Unknown ProjectionType: null", id="create-projection"),
    pytest.param(*update(HASH, AttributeDefinitions=[*defs(nk="S"), *defs(nk="S")],
                         GlobalSecondaryIndexUpdates=[gsi_create("new1", "nk")]), V,
                 "Attribute Name is duplicated: nk", id="create-duplicate-definition"),
    pytest.param(*update(HASH_GSI, AttributeDefinitions=defs(gk="S"), GlobalSecondaryIndexUpdates=[gsi_create("gix", "gk")]),
                 V, INVALID + "Index already exists: gix", id="create-existing"),
    pytest.param(*update(LSI_TABLE, AttributeDefinitions=defs(lk="S"), GlobalSecondaryIndexUpdates=[gsi_create("lix", "lk")]),
                 V, INVALID + "Index already exists: lix", id="create-over-lsi-name"),
    pytest.param(*update(HASH, AttributeDefinitions=defs(pk="N"), GlobalSecondaryIndexUpdates=[gsi_create("new1", "pk")]),
                 V, INVALID + "Attribute pk is already defined with type S and cannot be redefined as N",
                 id="create-redefines"),
    pytest.param(*update(PROV, AttributeDefinitions=defs(nk="S"), GlobalSecondaryIndexUpdates=[gsi_create("new1", "nk")]),
                 V, INVALID + "ProvisionedThroughput must be specified for index: new1", id="create-provisioned-without"),
    pytest.param(*update(HASH, AttributeDefinitions=defs(nk="S"),
                         GlobalSecondaryIndexUpdates=[gsi_create("new1", "nk", throughput=pt())]), V,
                 INVALID + "ProvisionedThroughput should not be specified for index: new1 when BillingMode is "
                 "PAY_PER_REQUEST", id="create-on-demand-with"),
    pytest.param(*update(TWENTY, AttributeDefinitions=defs(nk="S"), GlobalSecondaryIndexUpdates=[gsi_create("new1", "nk")]),
                 V, INVALID + "GlobalSecondaryIndex count exceeds the per-table limit of 20", id="create-21st"),
    pytest.param(*update(HASH_GSI, GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "gix", "ProvisionedThroughput": pt()}}]),
                 V, INVALID + "ProvisionedThroughput should not be specified for index: gix when BillingMode is "
                 "PAY_PER_REQUEST", id="update-on-demand-gsi"),
    pytest.param(*update(HASH, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "nope"}}]),
                 ResourceNotFoundException, "Requested resource not found: Index: nope not found", id="delete-missing"),
    pytest.param(*update(LSI_TABLE, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "lix"}}]),
                 ResourceNotFoundException, "Requested resource not found: Index: lix not found", id="delete-lsi"),
    pytest.param(*update(PROV, GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "nope", "ProvisionedThroughput": pt()}}]),
                 ResourceNotFoundException, "Requested resource not found: Index: nope not found", id="update-missing"),
    pytest.param(*update(STREAMED, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}), V,
                 "Table already has an enabled stream", id="case113-enable-enabled"),
    pytest.param(*update(HASH, StreamSpecification={"StreamEnabled": False}), V,
                 "Table has no stream to disable", id="case113-disable-disabled"),
    pytest.param(*update(HASH, StreamSpecification={"StreamEnabled": True}), V, control.STREAM_VIEW_TYPE_MISSING,
                 id="enable-without-view-type"),
]


@pytest.mark.parametrize("spec, request_, error, message", UPDATE_ERRORS)
def test_update_table_errors(spec, request_, error, message):
    with pytest.raises(error) as caught:
        update_table.update_table_spec(spec, request_)
    assert type(caught.value) is error
    assert caught.value.message == message


def test_request_errors_need_no_table():
    # §2.1: request checks precede the table lookup, so they run without a spec
    with pytest.raises(LimitExceededException):
        update_table.validate_update_table({"TableName": "Nope", "AttributeDefinitions": defs(a="S"),
                                  "GlobalSecondaryIndexUpdates": [gsi_create("new1", "a"), {"Delete": {"IndexName": "old"}}]})
    assert update_table.validate_update_table({"TableName": "Nope", "DeletionProtectionEnabled": False}) == {
        "TableName": "Nope", "DeletionProtectionEnabled": False}


NEW_GSI = IndexSpec("new1", "GSI", KeySchema("nk", "N"), Projection("INCLUDE", ("x",)))
UPDATE_RESULTS = [
    # (spec, request, {TableSpec field: expected}, expected changes)
    pytest.param(*update(HASH, BillingMode="PROVISIONED", ProvisionedThroughput=pt(4, 6)),
                 {"throughput": Throughput(4, 6)},
                 (("billing_mode", "PROVISIONED"), ("throughput", Throughput(4, 6))), id="to-provisioned"),
    pytest.param(*update(HASH_GSI, BillingMode="PROVISIONED", ProvisionedThroughput=pt(), GlobalSecondaryIndexUpdates=[
        {"Update": {"IndexName": "gix", "ProvisionedThroughput": pt(2, 3)}}]),
        {"throughput": Throughput(1, 1), "indexes": (IndexSpec("gix", "GSI", KeySchema("gk", "S"),
                                                               Projection("KEYS_ONLY"), Throughput(2, 3)),)},
        (("billing_mode", "PROVISIONED"), ("throughput", Throughput(1, 1)),
         ("update_gsi", IndexSpec("gix", "GSI", KeySchema("gk", "S"), Projection("KEYS_ONLY"), Throughput(2, 3)))),
        id="to-provisioned-with-gsi"),
    pytest.param(*update(PROV, BillingMode="PAY_PER_REQUEST"),
                 {"throughput": None, "indexes": (IndexSpec("gix", "GSI", KeySchema("gk", "S"), Projection("ALL")),)},
                 (("billing_mode", "PAY_PER_REQUEST"), ("throughput", None)), id="to-on-demand"),
    pytest.param(*update(PROV, ProvisionedThroughput=pt(5, 6)), {"throughput": Throughput(5, 6)},
                 (("throughput", Throughput(5, 6)),), id="throughput"),
    pytest.param(*update(PROV, BillingMode="PROVISIONED", ProvisionedThroughput=pt(9, 9)),
                 {"throughput": Throughput(9, 9)}, (("throughput", Throughput(9, 9)),), id="provisioned-stays"),
    pytest.param(*update(HASH, BillingMode="PAY_PER_REQUEST"), {"throughput": None}, (), id="on-demand-stays"),
    pytest.param(*update(PROV, GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "gix", "ProvisionedThroughput": pt(8, 9)}}]),
                 {"indexes": (IndexSpec("gix", "GSI", KeySchema("gk", "S"), Projection("ALL"), Throughput(8, 9)),)},
                 (("update_gsi", IndexSpec("gix", "GSI", KeySchema("gk", "S"), Projection("ALL"), Throughput(8, 9))),),
                 id="gsi-throughput"),
    pytest.param(*update(HASH, AttributeDefinitions=defs(nk="N", pk="S"), GlobalSecondaryIndexUpdates=[
        gsi_create("new1", "nk", projection="INCLUDE", non_key=["x"])]),
        {"indexes": (NEW_GSI,), "attribute_types": {"pk": "S", "nk": "N"}},
        (("create_gsi", NEW_GSI),), id="create-gsi"),
    pytest.param(*update(PROV, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "gix"}}]),
                 {"indexes": (), "attribute_types": {"pk": "S"}}, (("delete_gsi", "gix"),), id="delete-gsi"),
    pytest.param(*update(HASH, StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}),
                 {"stream_view_type": "KEYS_ONLY"}, (("enable_stream", "KEYS_ONLY"),), id="enable-stream"),
    pytest.param(*update(STREAMED, StreamSpecification={"StreamEnabled": False}),
                 {"stream_view_type": None}, (("disable_stream", None),), id="disable-stream"),
    pytest.param(*update(HASH, DeletionProtectionEnabled=True), {"deletion_protection": True},
                 (("deletion_protection", True),), id="protect"),
    pytest.param(*update(HASH, DeletionProtectionEnabled=False), {"deletion_protection": False}, (), id="protect-unchanged"),
    pytest.param(*update(HASH, TableClass="STANDARD_INFREQUENT_ACCESS", SSESpecification={"Enabled": True}), {},
                 (("table_class", "STANDARD_INFREQUENT_ACCESS"), ("sse", {"Enabled": True})), id="class-and-sse"),
]


@pytest.mark.parametrize("spec, request_, fields, changes", UPDATE_RESULTS)
def test_update_table_spec(spec, request_, fields, changes):
    new_spec, found = update_table.update_table_spec(spec, request_)
    assert found == changes
    for name, expected in fields.items():
        assert getattr(new_spec, name) == expected, name
    assert (new_spec.name, new_spec.key) == (spec.name, spec.key)


# ============================================================ TableDescription
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
TABLE_ID = "6f1d1a3c-0b9e-4c55-9a63-2f1c0b0d7e11"
IDX = create_table.create_table_spec(hr(TableName="Idx", AttributeDefinitions=defs(pk="S", sk="S", gk="S", lk="S"),
                              GlobalSecondaryIndexes=[index("gsi1", "gk", projection="KEYS_ONLY")],
                              LocalSecondaryIndexes=[index("lsi1", "pk", "lk")]))


def describe(spec, **options):
    arguments = dict(status="ACTIVE", created_at=1_700_000_000.25, item_count=3, size_bytes=40,
                     table_id=TABLE_ID, index_stats={})
    arguments.update(options)
    return descriptions.table_description(spec, **arguments)


def test_case105_on_demand_description():
    found = describe(HASH)
    assert found["TableStatus"] == "ACTIVE"
    assert found["BillingModeSummary"] == {"BillingMode": "PAY_PER_REQUEST",
                                           "LastUpdateToPayPerRequestDateTime": 1_700_000_000.25}
    assert found["ProvisionedThroughput"] == {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0,
                                              "WriteCapacityUnits": 0}
    assert found["TableArn"] == "arn:aws:dynamodb:us-east-1:123456789012:table/Hash"
    assert UUID.match(found["TableId"])
    assert "StreamSpecification" not in found and "SSEDescription" not in found
    assert (found["ItemCount"], found["TableSizeBytes"], found["DeletionProtectionEnabled"]) == (3, 40, False)
    assert found["KeySchema"] == [{"AttributeName": "pk", "KeyType": "HASH"}]
    assert found["AttributeDefinitions"] == [{"AttributeName": "pk", "AttributeType": "S"}]


def test_case106_deleted_description_is_reduced():
    found = descriptions.deleted_table_description(IDX, table_id=TABLE_ID, item_count=2, size_bytes=9, created_at=5.0)
    assert found == {
        "TableName": "Idx", "TableStatus": "DELETING", "TableId": TABLE_ID,
        "TableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Idx",
        "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST", "LastUpdateToPayPerRequestDateTime": 5.0},
        "ProvisionedThroughput": {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0, "WriteCapacityUnits": 0},
        "TableSizeBytes": 9, "ItemCount": 2}


def test_index_descriptions():
    found = describe(IDX, index_stats={"gsi1": (4, 100), "lsi1": {"ItemCount": 1, "IndexSizeBytes": 7}})
    arn = "arn:aws:dynamodb:us-east-1:123456789012:table/Idx"
    assert found["LocalSecondaryIndexes"] == [{
        "IndexName": "lsi1", "KeySchema": keys("pk", "lk"), "Projection": {"ProjectionType": "ALL"},
        "IndexSizeBytes": 7, "ItemCount": 1, "IndexArn": f"{arn}/index/lsi1"}]
    assert found["GlobalSecondaryIndexes"] == [{
        "IndexName": "gsi1", "KeySchema": keys("gk"), "Projection": {"ProjectionType": "KEYS_ONLY"},
        "IndexStatus": "ACTIVE",
        "ProvisionedThroughput": {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0, "WriteCapacityUnits": 0},
        "IndexSizeBytes": 100, "ItemCount": 4, "IndexArn": f"{arn}/index/gsi1"}]


def test_provisioned_description():
    found = describe(PROV, index_stats={"gix": {"IndexStatus": "CREATING"}},
                     throughput_history={"LastIncreaseDateTime": 9.0})
    assert "BillingModeSummary" not in found  # created provisioned (§5.2, R)
    assert found["ProvisionedThroughput"] == {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 5,
                                              "WriteCapacityUnits": 5, "LastIncreaseDateTime": 9.0}
    gsi = found["GlobalSecondaryIndexes"][0]
    assert (gsi["IndexStatus"], gsi["Backfilling"]) == ("CREATING", True)
    assert gsi["ProvisionedThroughput"]["ReadCapacityUnits"] == 1
    switched = describe(PROV, billing_updated_at=77.0)
    assert switched["BillingModeSummary"] == {"BillingMode": "PROVISIONED", "LastUpdateToPayPerRequestDateTime": 77.0}


def test_stream_members_only_when_enabled():
    found = describe(STREAMED, stream_label="2015-05-11T21:21:33.291")
    arn = "arn:aws:dynamodb:us-east-1:123456789012:table/Streamed"
    assert found["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
    assert found["LatestStreamLabel"] == "2015-05-11T21:21:33.291"
    assert found["LatestStreamArn"] == f"{arn}/stream/2015-05-11T21:21:33.291"
    assert "LatestStreamArn" not in describe(HASH)


def test_partitions_pass_through_and_region():
    parts = [{"Partition": 0, "KeyHashRange": [0, 2 ** 64], "ItemCount": 3, "SizeBytes": 40}]
    found = describe(HASH, partitions=parts, region="eu-west-1", account="000000000000")
    assert found["Partitions"] == parts
    assert found["TableArn"] == "arn:aws:dynamodb:eu-west-1:000000000000:table/Hash"
    assert "Partitions" not in describe(HASH)


# ============================================== DescribeTable / DeleteTable names
@pytest.mark.parametrize("request_, expected", [
    ({"TableName": "Hash"}, "Hash"),
    ({"TableName": "arn:aws:dynamodb:us-east-1:123456789012:table/Hash"}, "Hash"),
    ({}, ValidationException(control.TABLE_NAME_REQUIRED)),
    ({"TableName": "ab"}, ValidationException(control.TABLE_NAME_LENGTH)),
    ({"TableName": "a b"}, ValidationException(
        "1 validation error detected: Value 'a b' at 'tableName' failed to satisfy constraint: Member must "
        "satisfy regular expression pattern: [a-zA-Z0-9_.-]+")),
    ({"TableName": ["x"]}, SerializationException("Unrecognized collection type class java.lang.String")),
])
def test_table_name_requests(request_, expected):
    if isinstance(expected, str):
        assert control.validate_table_name_request(request_) == expected
        return
    with pytest.raises(type(expected)) as caught:
        control.validate_table_name_request(request_)
    assert caught.value.message == expected.message


def test_deletion_protection():
    control.check_deletable(HASH)
    with pytest.raises(ValidationException) as caught:
        control.check_deletable(TableSpec("Kept", KeySchema("pk", "S"), {"pk": "S"}, deletion_protection=True))
    assert caught.value.message == ("1 validation error detected: Table 'Kept' can't be deleted while "
                                    "DeletionProtectionEnabled is set to True")
    assert control.table_not_found("Nope").message == "Requested resource not found: Table: Nope not found"
    assert str(control.table_already_exists("Hash")) == "ResourceInUseException: Table already exists: Hash"  # case 101


# ==================================================================== ListTables
NAMES = ["beta", "Alpha", "gamma", "alpha", "a.b", "a-b", "a_b"]
LIST_PAGES = [
    # (request, expected page)
    pytest.param({}, {"TableNames": ["Alpha", "a-b", "a.b", "a_b", "alpha", "beta", "gamma"]}, id="byte-order"),
    pytest.param({"Limit": 2}, {"TableNames": ["Alpha", "a-b"], "LastEvaluatedTableName": "a-b"}, id="limit"),
    pytest.param({"Limit": 2, "ExclusiveStartTableName": "a-b"},
                 {"TableNames": ["a.b", "a_b"], "LastEvaluatedTableName": "a_b"}, id="next-page"),
    pytest.param({"ExclusiveStartTableName": "b00"}, {"TableNames": ["beta", "gamma"]}, id="start-need-not-exist"),
    pytest.param({"ExclusiveStartTableName": "alpha", "Limit": 2}, {"TableNames": ["beta", "gamma"]},
                 id="exact-last-page"),
    pytest.param({"ExclusiveStartTableName": "zzz"}, {"TableNames": []}, id="past-the-end"),
]


@pytest.mark.parametrize("request_, page", LIST_PAGES)
def test_list_tables_page(request_, page):
    assert descriptions.list_tables_page(NAMES, request_) == page


@pytest.mark.parametrize("request_, error, message", [
    pytest.param({"Limit": 101}, ValidationException,
                 "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must "
                 "have value less than or equal to 100", id="case10"),
    pytest.param({"Limit": 0}, ValidationException,
                 "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must "
                 "have value greater than or equal to 1", id="limit-zero"),
    pytest.param({"ExclusiveStartTableName": "ab"}, ValidationException,
                 "1 validation error detected: Value 'ab' at 'exclusiveStartTableName' failed to satisfy "
                 "constraint: Member must have length greater than or equal to 3", id="start-too-short"),
    pytest.param({"Limit": "5"}, SerializationException, "STRING_VALUE cannot be converted to Integer",
                 id="limit-type"),
])
def test_list_tables_errors(request_, error, message):
    with pytest.raises(error) as caught:
        descriptions.list_tables_page(NAMES, request_)
    assert caught.value.message == message
