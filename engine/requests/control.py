"""The control plane's shared vocabulary: messages, request shapes, the common steps (item-api §5.1–§5.6).

CreateTable / UpdateTable requests become ``TableSpec`` values after every
check DynamoDB makes, in DynamoDB's order (§2.1):

1. JSON types → SerializationException (``type_pass.check_types``);
2. TableName presence and length, reported alone (``control_request``);
3. the constraint envelope (``envelope.validate``);
4. the operation's own checks, first failure wins (the ``*_CHECKS`` registries
   in ``create_table`` and ``update_table``);
5. for UpdateTable only, the checks that need the current table (``update_table.update_table_spec``).

Nothing in these modules touches storage: the engine looks tables up, raises
ResourceNotFound / ResourceInUse, and renders descriptions with
``descriptions.table_description``. Requests are dicts with DynamoDB's member names.
"""

from __future__ import annotations

import re

from .. import limits
from ..envelope import (ATTRIBUTE_TYPE, BILLING_MODE, KEY_TYPE, NAME_PATTERN, PROJECTION_TYPE,
                        SSE_TYPE, STREAM_VIEW_TYPE, TABLE_CLASS, boolean, check_types, integer,
                        list_of, long, string, structure, validate)
from ..errors import ResourceInUseException, ResourceNotFoundException, ValidationException
from ..schema import TableSpec

PROVISIONED, ON_DEMAND = BILLING_MODE
INVALID = "One or more parameter values were invalid: "

# --------------------------------------------------------------------- messages
TABLE_NAME_REQUIRED = "The parameter 'TableName' is required but was not present in the request"
TABLE_NAME_LENGTH = "TableName must be at least 3 characters long and at most 255 characters long"
NOTHING_TO_UPDATE = ("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
                     "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required")
GSI_LIMIT = ("Subscriber limit exceeded: Only 1 online index can be created or deleted "
             "simultaneously per table")
BOTH_CAPACITIES = INVALID + ("ReadCapacityUnits and WriteCapacityUnits must both be specified "
                             "when BillingMode is PROVISIONED")
NEITHER_CAPACITY = INVALID + ("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified "
                              "when BillingMode is PAY_PER_REQUEST")
THROUGHPUT_FOR_PROVISIONED = (INVALID + "ProvisionedThroughput must be specified when BillingMode "
                              "is PROVISIONED")
STREAM_ALREADY_ENABLED = "Table already has an enabled stream"
NO_STREAM_TO_DISABLE = "Table has no stream to disable"
# INF: the spec gives no text for these; worded like their neighbours.
STREAM_VIEW_TYPE_MISSING = INVALID + "StreamViewType must be specified when StreamEnabled is true"
STREAM_VIEW_TYPE_UNWANTED = INVALID + "StreamViewType can only be specified when StreamEnabled is true"
GSI_UPDATE_AMBIGUOUS = INVALID + ("Only one of GlobalSecondaryIndexUpdate.Update, "
                                  "GlobalSecondaryIndexUpdate.Create, "
                                  "GlobalSecondaryIndexUpdate.Delete can be specified")


def deletion_protected(name: str) -> str:
    """DeleteTable on a protected table (§2.7; the prefix is AWS's)."""
    return (f"1 validation error detected: Table '{name}' can't be deleted while "
            "DeletionProtectionEnabled is set to True")


def table_not_found(name: str) -> ResourceNotFoundException:
    """The control plane's ResourceNotFoundException (§2.7)."""
    return ResourceNotFoundException(f"Requested resource not found: Table: {name} not found")


def table_already_exists(name: str) -> ResourceInUseException:
    """CreateTable of an existing name (§2.7, case 101)."""
    return ResourceInUseException(f"Table already exists: {name}")


# ======================================================================= shapes
# Member order is the server's where dynalite records it (it orders the envelope).

_ATTRIBUTE_NAME = string(required=True, min_len=1, max_len=limits.MAX_KEY_ATTRIBUTE_NAME_BYTES)
_KEY_SCHEMA_ELEMENT = structure({
    "AttributeName": _ATTRIBUTE_NAME,
    "KeyType": string(required=True, enum=KEY_TYPE),
}, name="KeySchemaElement", to_string="class")
KEY_SCHEMA = list_of(_KEY_SCHEMA_ELEMENT, required=True, min_len=1, max_len=2)
# A GSI's key may hold up to 4 HASH and 4 RANGE attributes (multi-attribute-keys.md §2.2): the service
# model has no maximum, the per-kind counts are checked with their own messages.
GSI_KEY_SCHEMA = list_of(_KEY_SCHEMA_ELEMENT, required=True, min_len=1)
ATTRIBUTE_DEFINITIONS = list_of(structure({
    "AttributeName": _ATTRIBUTE_NAME,
    "AttributeType": string(required=True, enum=ATTRIBUTE_TYPE),
}, name="AttributeDefinition"))
PROVISIONED_THROUGHPUT = structure({
    # INF: dynalite lists WriteCapacityUnits first
    "WriteCapacityUnits": long(required=True, min=1),
    "ReadCapacityUnits": long(required=True, min=1),
}, name="ProvisionedThroughput")
ON_DEMAND_THROUGHPUT = structure({
    "MaxReadRequestUnits": long(), "MaxWriteRequestUnits": long(),
}, name="OnDemandThroughput")
WARM_THROUGHPUT = structure({
    "ReadUnitsPerSecond": long(min=1), "WriteUnitsPerSecond": long(min=1),
}, name="WarmThroughput")
PROJECTION = structure({
    "ProjectionType": string(enum=PROJECTION_TYPE),  # absent → custom "Unknown ProjectionType: null"
    "NonKeyAttributes": list_of(string(min_len=1, max_len=255), min_len=1, max_len=20),
}, required=True, name="Projection")
INDEX_NAME = string(required=True, pattern=NAME_PATTERN, min_len=3, max_len=255)
LOCAL_SECONDARY_INDEX = structure({
    "IndexName": INDEX_NAME, "KeySchema": KEY_SCHEMA, "Projection": PROJECTION,
}, name="LocalSecondaryIndex")
GLOBAL_SECONDARY_INDEX = structure({
    "IndexName": INDEX_NAME, "KeySchema": GSI_KEY_SCHEMA, "Projection": PROJECTION,
    "ProvisionedThroughput": PROVISIONED_THROUGHPUT,
}, name="GlobalSecondaryIndex")
STREAM_SPECIFICATION = structure({
    "StreamEnabled": boolean(required=True),
    "StreamViewType": string(enum=STREAM_VIEW_TYPE),
}, name="StreamSpecification")
SSE_SPECIFICATION = structure({
    "Enabled": boolean(), "SSEType": string(enum=SSE_TYPE), "KMSMasterKeyId": string(),
}, name="SSESpecification")
TAG = structure({
    "Key": string(required=True, min_len=1, max_len=128),
    "Value": string(required=True, min_len=0, max_len=256),
}, name="Tag")
# The control plane checks TableName's presence and length first and alone
# (§2.1 step 3), so the envelope only keeps the pattern.
_CONTROL_TABLE_NAME = string(pattern=NAME_PATTERN)

# Vector indexes (vector-search.md §2.1, §2.4): the members in the order of the spec's table.
DISTANCE_FUNCTION = ("COSINE", "DOT_PRODUCT", "EUCLIDEAN")
SEARCH_SCHEMA_ELEMENT_TYPE = ("HASH", "INLINE_FILTER")
_VECTOR_INDEX_MEMBERS = {
    "IndexName": INDEX_NAME,
    "VectorAttribute": structure({"AttributeName": string(required=True, min_len=1, max_len=255)},
                                 required=True, name="VectorAttribute"),
    "Dimensions": long(required=True, min=1),
    "DistanceFunction": string(required=True, enum=DISTANCE_FUNCTION),
    "Projection": PROJECTION,
    "SearchSchema": list_of(structure({
        "AttributeName": string(required=True, max_len=65535),
        "SearchSchemaElementType": string(required=True, enum=SEARCH_SCHEMA_ELEMENT_TYPE),
    }, name="SearchSchemaElement"), min_len=1),
}
VECTOR_INDEX = structure(_VECTOR_INDEX_MEMBERS, name="VectorIndex")
VECTOR_INDEX_UPDATE = structure({
    "Create": structure(_VECTOR_INDEX_MEMBERS, name="CreateVectorIndexAction"),
    "Delete": structure({"IndexName": INDEX_NAME}, name="DeleteVectorIndexAction"),
}, name="VectorIndexUpdate")

CREATE_TABLE = structure({
    "AttributeDefinitions": dict(ATTRIBUTE_DEFINITIONS, required=True),  # the service requires it
    # why: CreateTable reports a name's length in the envelope (recorded against
    # DynamoDB 2026-04: "Value 'ab' at 'tableName' … length greater than or equal to 3").
    "TableName": string(pattern=NAME_PATTERN, min_len=limits.TABLE_NAME_MIN, max_len=limits.TABLE_NAME_MAX),
    "KeySchema": KEY_SCHEMA,
    # why (recorded-2026-11 B2): a GSI's item is listed before an LSI's
    "GlobalSecondaryIndexes": list_of(GLOBAL_SECONDARY_INDEX),
    "LocalSecondaryIndexes": list_of(LOCAL_SECONDARY_INDEX),
    "BillingMode": string(enum=BILLING_MODE),
    "ProvisionedThroughput": PROVISIONED_THROUGHPUT,
    "StreamSpecification": STREAM_SPECIFICATION,
    "SSESpecification": SSE_SPECIFICATION,
    # INF: > 50 tags fails CreateTable (ALT); the envelope is our way to say so.
    "Tags": list_of(TAG, max_len=50),
    "TableClass": string(enum=TABLE_CLASS),
    "DeletionProtectionEnabled": boolean(),
    "OnDemandThroughput": ON_DEMAND_THROUGHPUT,
    "WarmThroughput": WARM_THROUGHPUT,
    "VectorIndexes": list_of(VECTOR_INDEX),
}, name="CreateTableInput")

GLOBAL_SECONDARY_INDEX_UPDATE = structure({
    "Update": structure({
        "IndexName": INDEX_NAME,
        # INF: required (we model no OnDemandThroughput/WarmThroughput on indexes)
        "ProvisionedThroughput": dict(PROVISIONED_THROUGHPUT, required=True),
    }, name="UpdateGlobalSecondaryIndexAction"),
    "Create": structure({
        "IndexName": INDEX_NAME, "KeySchema": GSI_KEY_SCHEMA, "Projection": PROJECTION,
        "ProvisionedThroughput": PROVISIONED_THROUGHPUT,
    }, name="CreateGlobalSecondaryIndexAction"),
    "Delete": structure({"IndexName": INDEX_NAME}, name="DeleteGlobalSecondaryIndexAction"),
}, name="GlobalSecondaryIndexUpdate")

UPDATE_TABLE = structure({
    "AttributeDefinitions": ATTRIBUTE_DEFINITIONS,
    "TableName": _CONTROL_TABLE_NAME,
    "BillingMode": string(enum=BILLING_MODE),
    "ProvisionedThroughput": PROVISIONED_THROUGHPUT,
    "GlobalSecondaryIndexUpdates": list_of(GLOBAL_SECONDARY_INDEX_UPDATE),
    "StreamSpecification": STREAM_SPECIFICATION,
    "SSESpecification": SSE_SPECIFICATION,
    "TableClass": string(enum=TABLE_CLASS),
    "DeletionProtectionEnabled": boolean(),
    "OnDemandThroughput": ON_DEMAND_THROUGHPUT,
    "WarmThroughput": WARM_THROUGHPUT,
    "VectorIndexUpdates": list_of(VECTOR_INDEX_UPDATE),
}, name="UpdateTableInput")

TABLE_NAME_ONLY = structure({"TableName": _CONTROL_TABLE_NAME}, name="DescribeTableInput")

LIST_TABLES = structure({
    "ExclusiveStartTableName": string(pattern=NAME_PATTERN, min_len=3, max_len=255),
    "Limit": integer(min=1, max=100),
}, name="ListTablesInput")


# ============================================================ TableName (step 3)

_TABLE_ARN = re.compile(r"arn:aws[a-z-]*:dynamodb:[^:]*:[^:]*:table/(?P<name>[^/]*)")


def resolve_table_name(value: str) -> str:
    """A table name, or the name inside a table ARN (``arn:aws:dynamodb:r:a:table/T``)."""
    # INF: the ARN's region and account are not compared with the engine's.
    found = _TABLE_ARN.fullmatch(value)
    return found["name"] if found else value


def control_request(request, shape: dict, length_alone: bool = True) -> dict:
    """Steps 1–4 shared by the control plane: types, TableName alone, envelope.

    ``length_alone=False`` leaves TableName's length to the envelope (the shape's
    constraints), as CreateTable now reports it.
    """
    checked = check_types(request, shape)
    name = checked.get("TableName")
    if name is None:
        raise ValidationException(TABLE_NAME_REQUIRED)
    name = resolve_table_name(name)
    if length_alone and not limits.TABLE_NAME_MIN <= len(name) <= limits.TABLE_NAME_MAX:
        raise ValidationException(TABLE_NAME_LENGTH)
    checked["TableName"] = name
    validate(checked, shape)
    return checked


def validate_table_name_request(request) -> str:
    """DescribeTable / DeleteTable / DescribeTimeToLive: the (ARN-resolved) table name."""
    return control_request(request, TABLE_NAME_ONLY)["TableName"]


def check_deletable(spec: TableSpec) -> None:
    """DeleteTable refuses a table with deletion protection (§2.7)."""
    if spec.deletion_protection:
        raise ValidationException(deletion_protected(spec.name))


# ================================================== shared key/index/throughput checks

def first_problem(checks, *args) -> str | None:
    for check in checks:
        problem = check(*args)
        if problem:
            return problem
    return None


def raise_first(checks, *args) -> None:
    problem = first_problem(checks, *args)
    if problem:
        raise ValidationException(problem)


def key_names(key_schema: list) -> list[str]:
    return [element["AttributeName"] for element in key_schema]


def defined_names(request: dict) -> list[str]:
    """AttributeDefinitions names, in request order."""
    return [definition["AttributeName"] for definition in request.get("AttributeDefinitions", ())]


def defined_types(request: dict) -> dict:
    """AttributeDefinitions as name -> type (S, N or B), in request order."""
    return {definition["AttributeName"]: definition["AttributeType"]
            for definition in request.get("AttributeDefinitions", ())}
