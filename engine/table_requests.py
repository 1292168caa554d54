"""The control plane's requests as pure functions (item-api §5.1–§5.6).

CreateTable / UpdateTable requests become ``TableSpec`` values after every
check DynamoDB makes, in DynamoDB's order (§2.1):

1. JSON types → SerializationException (``envelope.check_types``);
2. TableName presence and length, reported alone;
3. the constraint envelope (``envelope.validate``);
4. the operation's own checks, first failure wins (the ``*_CHECKS`` registries);
5. for UpdateTable only, the checks that need the current table (``update_table_spec``).

Nothing here touches storage: the storage layer looks tables up, raises
ResourceNotFound / ResourceInUse, and renders descriptions with
``table_description``. Requests are dicts with DynamoDB's member names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from . import limits
from .envelope import (ATTRIBUTE_TYPE, BILLING_MODE, KEY_TYPE, NAME_PATTERN, PROJECTION_TYPE,
                       SSE_TYPE, STREAM_VIEW_TYPE, TABLE_CLASS, boolean, check_request,
                       check_types, integer, list_of, long, string, structure, validate)
from .errors import (LimitExceededException, ResourceInUseException, ResourceNotFoundException,
                     ValidationException)
from .schema import IndexSpec, KeySchema, Projection, TableSpec, Throughput

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


def _unchanged_throughput(current: Throughput, requested: Throughput) -> str:
    return ("The provisioned throughput for the table will not change. The requested value equals "
            f"the current value. Current ReadCapacityUnits provisioned for the table: {current.read}. "
            f"Requested ReadCapacityUnits: {requested.read}. Current WriteCapacityUnits provisioned "
            f"for the table: {current.write}. Requested WriteCapacityUnits: {requested.write}. "
            "Refer to the Amazon DynamoDB Developer Guide for current limits and how to request "
            "higher limits.")


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
KEY_SCHEMA = list_of(structure({
    "AttributeName": _ATTRIBUTE_NAME,
    "KeyType": string(required=True, enum=KEY_TYPE),
}, name="KeySchemaElement"), required=True, min_len=1, max_len=2)
ATTRIBUTE_DEFINITIONS = list_of(structure({
    "AttributeName": _ATTRIBUTE_NAME,
    "AttributeType": string(required=True, enum=ATTRIBUTE_TYPE),
}, name="AttributeDefinition"))
PROVISIONED_THROUGHPUT = structure({
    # INF: dynalite lists WriteCapacityUnits first
    "WriteCapacityUnits": long(required=True, min=1),
    "ReadCapacityUnits": long(required=True, min=1),
}, name="ProvisionedThroughput")
PROJECTION = structure({
    "ProjectionType": string(enum=PROJECTION_TYPE),  # absent → custom "Unknown ProjectionType: null"
    "NonKeyAttributes": list_of(string(min_len=1, max_len=255), min_len=1, max_len=20),
}, required=True, name="Projection")
INDEX_NAME = string(required=True, pattern=NAME_PATTERN, min_len=3, max_len=255)
LOCAL_SECONDARY_INDEX = structure({
    "IndexName": INDEX_NAME, "KeySchema": KEY_SCHEMA, "Projection": PROJECTION,
}, name="LocalSecondaryIndex")
GLOBAL_SECONDARY_INDEX = structure({
    "IndexName": INDEX_NAME, "KeySchema": KEY_SCHEMA, "Projection": PROJECTION,
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

CREATE_TABLE = structure({
    "AttributeDefinitions": dict(ATTRIBUTE_DEFINITIONS, required=True),  # the service requires it
    "TableName": _CONTROL_TABLE_NAME,
    "KeySchema": KEY_SCHEMA,
    "LocalSecondaryIndexes": list_of(LOCAL_SECONDARY_INDEX),
    "GlobalSecondaryIndexes": list_of(GLOBAL_SECONDARY_INDEX),
    "BillingMode": string(enum=BILLING_MODE),
    "ProvisionedThroughput": PROVISIONED_THROUGHPUT,
    "StreamSpecification": STREAM_SPECIFICATION,
    "SSESpecification": SSE_SPECIFICATION,
    # INF: > 50 tags fails CreateTable (ALT); the envelope is our way to say so.
    "Tags": list_of(TAG, max_len=50),
    "TableClass": string(enum=TABLE_CLASS),
    "DeletionProtectionEnabled": boolean(),
}, name="CreateTableInput")

GLOBAL_SECONDARY_INDEX_UPDATE = structure({
    "Update": structure({
        "IndexName": INDEX_NAME,
        # INF: required (we model no OnDemandThroughput/WarmThroughput on indexes)
        "ProvisionedThroughput": dict(PROVISIONED_THROUGHPUT, required=True),
    }, name="UpdateGlobalSecondaryIndexAction"),
    "Create": structure({
        "IndexName": INDEX_NAME, "KeySchema": KEY_SCHEMA, "Projection": PROJECTION,
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


def control_request(request, shape: dict) -> dict:
    """Steps 1–4 shared by the control plane: types, TableName alone, envelope."""
    checked = check_types(request, shape)
    name = checked.get("TableName")
    if name is None:
        raise ValidationException(TABLE_NAME_REQUIRED)
    name = resolve_table_name(name)
    if not limits.TABLE_NAME_MIN <= len(name) <= limits.TABLE_NAME_MAX:
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

def _first_problem(checks, *args) -> str | None:
    for check in checks:
        problem = check(*args)
        if problem:
            return problem
    return None


def _raise_first(checks, *args) -> None:
    problem = _first_problem(checks, *args)
    if problem:
        raise ValidationException(problem)


def _names(key_schema: list) -> list[str]:
    return [element["AttributeName"] for element in key_schema]


def _defined(request: dict) -> list[str]:
    """AttributeDefinitions names, in request order."""
    return [definition["AttributeName"] for definition in request.get("AttributeDefinitions", ())]


def key_schema_problem(key_schema: list) -> str | None:
    """HASH first, RANGE second, two distinct names."""
    names = _names(key_schema)
    if len(names) == 2 and names[0] == names[1]:
        return "Both the Hash Key and the Range Key element in the KeySchema have the same name"
    if key_schema[0]["KeyType"] != "HASH":
        return "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"
    if len(key_schema) == 2 and key_schema[1]["KeyType"] != "RANGE":
        return "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"
    return None


def undefined_keys_problem(key_schema: list, defined: list[str]) -> str | None:
    """Every key attribute must appear in AttributeDefinitions (lists in request order)."""
    names = _names(key_schema)
    if all(name in defined for name in names):
        return None
    return (INVALID + "Some index key attributes are not defined in AttributeDefinitions. "
            f"Keys: [{', '.join(names)}], AttributeDefinitions: [{', '.join(defined)}]")


def projection_problem(projection: dict) -> str | None:
    """A ProjectionType is needed; NonKeyAttributes only with INCLUDE."""
    kind = projection.get("ProjectionType")
    if kind is None:
        return INVALID + "Unknown ProjectionType: null"
    if kind != "INCLUDE" and "NonKeyAttributes" in projection:
        return INVALID + f"ProjectionType is {kind}, but NonKeyAttributes is specified"
    # INF: INCLUDE without NonKeyAttributes is accepted (projects the keys only).
    return None


def throughput_bounds_problem(throughput: dict | None) -> str | None:
    """Capacity units above 10^12 (the envelope already enforced ≥ 1)."""
    if throughput is None:
        return None
    for member in ("ReadCapacityUnits", "WriteCapacityUnits"):
        if throughput[member] > limits.MAX_CAPACITY_UNITS:
            return f"Given value {throughput[member]} for {member} is out of bounds"
    return None


def duplicate_definitions_problem(request: dict) -> str | None:
    """The same attribute defined twice."""
    seen = set()
    for name in _defined(request):
        if name in seen:
            # INF: ALT pins only "Duplicate" and the name.
            return INVALID + f"Duplicate AttributeName in AttributeDefinitions: {name}"
        seen.add(name)
    return None


def projected_count(indexes) -> int:
    """NonKeyAttributes summed over indexes (the same name in two indexes counts twice)."""
    return sum(len(index["Projection"].get("NonKeyAttributes", ())) for index in indexes)


def projected_count_problem(count: int) -> str | None:
    if count <= limits.MAX_PROJECTED_ATTRIBUTES:
        return None
    # INF: AWS's text from the era of the 20-attribute limit, with today's figure.
    return (INVALID + "Number of projected attributes in all indexes exceeds limit of "
            f"{limits.MAX_PROJECTED_ATTRIBUTES}, number of projected attributes:{count}")


def _gsi_throughput_problem(name: str, throughput: dict | None, mode: str) -> str | None:
    if mode == ON_DEMAND and throughput is not None:
        return (INVALID + f"ProvisionedThroughput should not be specified for index: {name} "
                "when BillingMode is PAY_PER_REQUEST")
    if mode == PROVISIONED and throughput is None:
        # INF: the UpdateTable wording of §5.6 for one index
        return INVALID + f"ProvisionedThroughput must be specified for index: {name}"
    return throughput_bounds_problem(throughput)


# ============================================================ CreateTable (§5.1)

@dataclass
class _Create:
    """One CreateTable request under check, and what its index checks share."""

    request: dict
    seen: set = field(default_factory=set)  # index names so far (LSI and GSI share them)

    @property
    def defined(self) -> list[str]:
        return _defined(self.request)

    @property
    def mode(self) -> str:
        return self.request.get("BillingMode", PROVISIONED)  # DynamoDB's default

    @property
    def key_schema(self) -> list:
        return self.request["KeySchema"]

    @property
    def indexes(self) -> list:
        return (list(self.request.get("LocalSecondaryIndexes", ()))
                + list(self.request.get("GlobalSecondaryIndexes", ())))


# ----------------------------------------------------------- per-index checks

def _index_key_form(index, ctx):
    return key_schema_problem(index["KeySchema"])


def _lsi_has_range(index, ctx):
    if len(index["KeySchema"]) == 1:
        return INVALID + f"Index KeySchema does not have a range key for index: {index['IndexName']}"
    return None


def _lsi_same_hash(index, ctx):
    index_hash, table_hash = index["KeySchema"][0]["AttributeName"], ctx.key_schema[0]["AttributeName"]
    if index_hash == table_hash:
        return None
    return (INVALID + "Index KeySchema does not have the same leading hash key as table KeySchema "
            f"for index: {index['IndexName']}. index hash key: {index_hash}, "
            f"table hash key: {table_hash}")


def _index_keys_defined(index, ctx):
    return undefined_keys_problem(index["KeySchema"], ctx.defined)


def _index_projection(index, ctx):
    return projection_problem(index["Projection"])


def _unique_index_name(index, ctx):
    name = index["IndexName"]
    if name in ctx.seen:
        return INVALID + f"Duplicate index name: {name}"
    ctx.seen.add(name)
    return None


def _gsi_throughput(index, ctx):
    return _gsi_throughput_problem(index["IndexName"], index.get("ProvisionedThroughput"), ctx.mode)


LSI_CHECKS = (_index_key_form, _lsi_has_range, _lsi_same_hash, _index_keys_defined,
              _index_projection, _unique_index_name)
GSI_CHECKS = (_index_key_form, _index_keys_defined, _index_projection, _unique_index_name,
              _gsi_throughput)


# ------------------------------------------------------------- request checks

def _create_billing(ctx):
    has_throughput = ctx.request.get("ProvisionedThroughput") is not None
    if ctx.mode == ON_DEMAND and has_throughput:
        return NEITHER_CAPACITY  # DL's text; MOTO's other wording is unverified (§10)
    if ctx.mode == PROVISIONED and not has_throughput:
        return BOTH_CAPACITIES
    return None


def _create_throughput_bounds(ctx):
    return throughput_bounds_problem(ctx.request.get("ProvisionedThroughput"))


def _create_duplicate_definitions(ctx):
    # INF: looked for before the key-schema checks, else the count mismatch
    # further down would hide a duplicate.
    return duplicate_definitions_problem(ctx.request)


def _create_key_count(ctx):
    if len(ctx.key_schema) > len(ctx.request["AttributeDefinitions"]):
        return "Invalid KeySchema: Some index key attribute have no definition"  # sic
    return None


def _create_key_form(ctx):
    return key_schema_problem(ctx.key_schema)


def _create_keys_defined(ctx):
    return undefined_keys_problem(ctx.key_schema, ctx.defined)


def _lsi_needs_table_range(ctx):
    if len(ctx.key_schema) == 1:
        return (INVALID + "Table KeySchema does not have a range key, which is required when "
                "specifying a LocalSecondaryIndex")
    return None


def _index_family(member: str, checks, limit: int, too_many: str, precondition=None):
    """The checks of one list of secondary indexes, as one CreateTable check."""

    def check(ctx):
        indexes = ctx.request.get(member)
        if indexes is None:
            return None
        if not indexes:
            return INVALID + f"List of {member} is empty"
        if precondition is not None and (problem := precondition(ctx)):
            return problem
        for index in indexes:
            if problem := _first_problem(checks, index, ctx):
                return problem
        if len(indexes) > limit:
            return INVALID + too_many
        return None

    return check


_create_lsis = _index_family(
    "LocalSecondaryIndexes", LSI_CHECKS, limits.MAX_LSIS,
    f"Number of LocalSecondaryIndexes exceeds per-table limit of {limits.MAX_LSIS}",
    precondition=_lsi_needs_table_range)
_create_gsis = _index_family(
    "GlobalSecondaryIndexes", GSI_CHECKS, limits.MAX_GSIS,
    f"GlobalSecondaryIndex count exceeds the per-table limit of {limits.MAX_GSIS}")


def _create_definitions_used(ctx):
    defined, indexes = ctx.defined, ctx.indexes
    used = set(_names(ctx.key_schema)).union(*(_names(index["KeySchema"]) for index in indexes))
    if set(defined) <= used:
        return None
    if not indexes:
        return (INVALID + "Number of attributes in KeySchema does not exactly match number of "
                "attributes defined in AttributeDefinitions")
    return (INVALID + f"Some AttributeDefinitions are not used. AttributeDefinitions: "
            f"[{', '.join(sorted(defined))}], keys used: [{', '.join(sorted(used))}]")


def _create_projected_count(ctx):
    return projected_count_problem(projected_count(ctx.indexes))


def stream_specification_problem(request: dict) -> str | None:
    """StreamViewType exactly when the stream is enabled (INF texts)."""
    stream = request.get("StreamSpecification")
    if stream is None:
        return None
    if stream["StreamEnabled"] and "StreamViewType" not in stream:
        return STREAM_VIEW_TYPE_MISSING
    if not stream["StreamEnabled"] and "StreamViewType" in stream:
        return STREAM_VIEW_TYPE_UNWANTED
    return None


def _create_stream(ctx):
    return stream_specification_problem(ctx.request)


# DynamoDB's order after the envelope (§5.1; dynalite's validations/createTable.js).
CREATE_TABLE_CHECKS = (
    _create_billing, _create_throughput_bounds, _create_duplicate_definitions,
    _create_key_count, _create_key_form, _create_keys_defined,
    _create_lsis, _create_gsis,
    _create_definitions_used, _create_projected_count, _create_stream,
)


def _key(key_schema: list, types: dict) -> KeySchema:
    hash_name = key_schema[0]["AttributeName"]
    range_name = key_schema[1]["AttributeName"] if len(key_schema) == 2 else None
    return KeySchema(hash_name, types[hash_name], range_name,
                     types[range_name] if range_name is not None else None)


def _throughput(throughput: dict | None) -> Throughput | None:
    if throughput is None:
        return None
    return Throughput(throughput["ReadCapacityUnits"], throughput["WriteCapacityUnits"])


def _projection(projection: dict) -> Projection:
    return Projection(projection["ProjectionType"], tuple(projection.get("NonKeyAttributes", ())))


def _index_spec(index: dict, kind: str, types: dict, mode: str) -> IndexSpec:
    provisioned = kind == "GSI" and mode == PROVISIONED  # LSIs share the table's throughput
    throughput = _throughput(index.get("ProvisionedThroughput")) if provisioned else None
    return IndexSpec(index["IndexName"], kind, _key(index["KeySchema"], types),
                     _projection(index["Projection"]), throughput)


def _stream_view_type(request: dict) -> str | None:
    stream = request.get("StreamSpecification")
    return stream["StreamViewType"] if stream and stream["StreamEnabled"] else None


def create_table_spec(request: dict) -> TableSpec:
    """Validate a CreateTable request (§5.1) and return the table's spec.

    Raises SerializationException or ValidationException with DynamoDB's
    message. SSESpecification, Tags and TableClass are validated but not
    part of TableSpec. "Table already exists" is the storage layer's check.
    """
    checked = control_request(request, CREATE_TABLE)
    context = _Create(checked)
    _raise_first(CREATE_TABLE_CHECKS, context)
    mode = context.mode
    types = {d["AttributeName"]: d["AttributeType"] for d in checked["AttributeDefinitions"]}
    indexes = tuple(_index_spec(index, "LSI", types, mode)
                    for index in checked.get("LocalSecondaryIndexes", ())) + tuple(
        _index_spec(index, "GSI", types, mode) for index in checked.get("GlobalSecondaryIndexes", ()))
    return TableSpec(
        name=checked["TableName"], key=_key(checked["KeySchema"], types), attribute_types=types,
        throughput=_throughput(checked.get("ProvisionedThroughput")) if mode == PROVISIONED else None,
        indexes=indexes, stream_view_type=_stream_view_type(checked),
        deletion_protection=checked.get("DeletionProtectionEnabled", False))


# ============================================================ UpdateTable (§5.6)

_GSI_ACTIONS = ("Update", "Create", "Delete")
# Members whose presence makes an UpdateTable do something.
_UPDATING_MEMBERS = ("ProvisionedThroughput", "BillingMode", "StreamSpecification",
                     "SSESpecification", "TableClass", "DeletionProtectionEnabled")


def _update_something(request):
    # why: an empty GlobalSecondaryIndexUpdates list counts as nothing (§5.6)
    if any(request.get(member) is not None for member in _UPDATING_MEMBERS) \
            or request.get("GlobalSecondaryIndexUpdates"):
        return None
    return NOTHING_TO_UPDATE


def _update_billing(request):
    mode, has_throughput = request.get("BillingMode"), request.get("ProvisionedThroughput") is not None
    if mode == PROVISIONED and not has_throughput:
        return THROUGHPUT_FOR_PROVISIONED
    if mode == ON_DEMAND and has_throughput:
        return NEITHER_CAPACITY
    return None


def _update_throughput_bounds(request):
    return throughput_bounds_problem(request.get("ProvisionedThroughput"))


def _gsi_action(entry: dict) -> tuple[str, dict]:
    name = next(action for action in _GSI_ACTIONS if action in entry)
    return name, entry[name]


def _create_action_problem(action: dict, defined: list[str]) -> str | None:
    return (key_schema_problem(action["KeySchema"])
            or undefined_keys_problem(action["KeySchema"], defined)
            or projection_problem(action["Projection"])
            or throughput_bounds_problem(action.get("ProvisionedThroughput")))


def _update_gsi_entries(request):
    seen, defined = set(), _defined(request)
    for entry in request.get("GlobalSecondaryIndexUpdates", ()):
        present = [action for action in _GSI_ACTIONS if action in entry]
        if not present:
            return (INVALID + "One of GlobalSecondaryIndexUpdate.Update, "
                    "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null")
        if len(present) > 1:
            return GSI_UPDATE_AMBIGUOUS
        kind, action = _gsi_action(entry)
        name = action["IndexName"]
        if name in seen:
            return (INVALID + "Only one global secondary index update per index is allowed "
                    f"simultaneously. Index: {name}")
        seen.add(name)
        problem = (_create_action_problem(action, defined) if kind == "Create"
                   else throughput_bounds_problem(action.get("ProvisionedThroughput")))
        if problem:
            return problem
    return None


def _update_online_index_limit(request):
    changes = [entry for entry in request.get("GlobalSecondaryIndexUpdates", ())
               if "Create" in entry or "Delete" in entry]
    if len(changes) > 1:
        raise LimitExceededException(GSI_LIMIT)
    return None


UPDATE_TABLE_CHECKS = (
    _update_something, _update_billing, _update_throughput_bounds, duplicate_definitions_problem,
    _update_gsi_entries, _update_online_index_limit, stream_specification_problem,
)


def validate_update_table(request) -> dict:
    """The UpdateTable checks that need no table (steps 1–4); the normalised request.

    Call it before looking the table up, so that request errors win over
    ResourceNotFoundException (§2.1); ``update_table_spec`` calls it again.
    """
    checked = control_request(request, UPDATE_TABLE)
    _raise_first(UPDATE_TABLE_CHECKS, checked)
    return checked


@dataclass
class _Update:
    """A table spec being changed by one UpdateTable request."""

    spec: TableSpec
    request: dict
    mode: str = ""
    throughput: Throughput | None = None
    indexes: list = field(default_factory=list)
    types: dict = field(default_factory=dict)
    stream: str | None = None
    deletion_protection: bool = False
    changes: list = field(default_factory=list)

    def __post_init__(self):
        self.mode = self.spec.billing_mode
        self.throughput = self.spec.throughput
        self.indexes = list(self.spec.indexes)
        self.types = dict(self.spec.attribute_types)
        self.stream = self.spec.stream_view_type
        self.deletion_protection = self.spec.deletion_protection

    def index(self, name: str) -> IndexSpec | None:
        return next((index for index in self.indexes if index.name == name), None)

    def gsi(self, name: str) -> IndexSpec:
        index = self.index(name)
        if index is None or not index.is_global:
            # INF: the spec names only the class for a missing index.
            raise ResourceNotFoundException(f"Requested resource not found: Index: {name} not found")
        return index

    def gsi_updates(self, kind: str) -> list[dict]:
        return [entry[kind] for entry in self.request.get("GlobalSecondaryIndexUpdates", ())
                if kind in entry]

    def result(self) -> tuple[TableSpec, tuple]:
        key = self.spec.key
        used = set(key.names).union(*(index.key.names for index in self.indexes))
        types = {name: kind for name, kind in self.types.items() if name in used}
        spec = TableSpec(self.spec.name, key, types, self.throughput, tuple(self.indexes),
                         self.stream, self.deletion_protection)
        return spec, tuple(self.changes)


def _plan_billing(plan: _Update) -> None:
    spec, request = plan.spec, plan.request
    plan.mode = request.get("BillingMode", spec.billing_mode)
    requested = _throughput(request.get("ProvisionedThroughput"))
    if requested is not None and plan.mode == ON_DEMAND:
        raise ValidationException(NEITHER_CAPACITY)
    if plan.mode == PROVISIONED and spec.billing_mode == ON_DEMAND:
        # why: every remaining GSI needs its own throughput in the same call
        covered = {action["IndexName"] for kind in ("Update", "Delete") for action in plan.gsi_updates(kind)}
        lacking = [index.name for index in spec.gsis if index.name not in covered]
        if lacking:
            raise ValidationException(
                INVALID + f"ProvisionedThroughput must be specified for index: {','.join(lacking)}")
    if plan.mode != spec.billing_mode:
        plan.changes.append(("billing_mode", plan.mode))
    if requested is not None:
        if requested == spec.throughput:
            raise ValidationException(_unchanged_throughput(spec.throughput, requested))
        plan.throughput = requested
        plan.changes.append(("throughput", requested))
    elif plan.mode == ON_DEMAND and spec.billing_mode == PROVISIONED:
        plan.throughput = None
        plan.changes.append(("throughput", None))
        plan.indexes = [replace(index, throughput=None) for index in plan.indexes]


def _plan_definitions(plan: _Update) -> None:
    for definition in plan.request.get("AttributeDefinitions", ()):
        name, kind = definition["AttributeName"], definition["AttributeType"]
        current = plan.types.get(name)
        if current is not None and current != kind:
            # INF: the spec pins only "redefined".
            raise ValidationException(
                INVALID + f"Attribute {name} is already defined with type {current} and cannot be "
                f"redefined as {kind}")


def _plan_delete_gsi(plan: _Update, action: dict) -> None:
    index = plan.gsi(action["IndexName"])
    plan.indexes.remove(index)
    plan.changes.append(("delete_gsi", index.name))


def _plan_update_gsi(plan: _Update, action: dict) -> None:
    index = plan.gsi(action["IndexName"])
    if problem := _gsi_throughput_problem(index.name, action["ProvisionedThroughput"], plan.mode):
        raise ValidationException(problem)
    # INF: an unchanged index throughput is accepted (no "will not change" text pinned).
    updated = replace(index, throughput=_throughput(action["ProvisionedThroughput"]))
    plan.indexes[plan.indexes.index(index)] = updated
    plan.changes.append(("update_gsi", updated))


def _plan_create_gsi(plan: _Update, action: dict) -> None:
    name = action["IndexName"]
    if plan.index(name) is not None:
        # INF: ALT pins only "already exists".
        raise ValidationException(INVALID + f"Index already exists: {name}")
    throughput = action.get("ProvisionedThroughput")
    problem = _gsi_throughput_problem(name, throughput, plan.mode)
    if not problem and sum(index.is_global for index in plan.indexes) >= limits.MAX_GSIS:
        problem = INVALID + f"GlobalSecondaryIndex count exceeds the per-table limit of {limits.MAX_GSIS}"
    if not problem:
        existing = sum(len(index.projection.non_key_attributes) for index in plan.indexes)
        problem = projected_count_problem(existing + projected_count([action]))
    if problem:
        raise ValidationException(problem)
    requested = {d["AttributeName"]: d["AttributeType"] for d in plan.request.get("AttributeDefinitions", ())}
    plan.types.update((key, requested[key]) for key in _names(action["KeySchema"]))
    index = _index_spec(action, "GSI", plan.types, plan.mode)
    plan.indexes.append(index)
    plan.changes.append(("create_gsi", index))


_GSI_PLANNERS = {"Delete": _plan_delete_gsi, "Update": _plan_update_gsi, "Create": _plan_create_gsi}


def _plan_gsis(plan: _Update) -> None:
    for entry in plan.request.get("GlobalSecondaryIndexUpdates", ()):
        kind, action = _gsi_action(entry)
        _GSI_PLANNERS[kind](plan, action)


def _plan_stream(plan: _Update) -> None:
    stream = plan.request.get("StreamSpecification")
    if stream is None:
        return
    if stream["StreamEnabled"]:
        # why: enabling over an enabled stream is a ValidationException on AWS (ALT), not ResourceInUse
        if plan.stream is not None:
            raise ValidationException(STREAM_ALREADY_ENABLED)
        plan.stream = stream["StreamViewType"]
        plan.changes.append(("enable_stream", plan.stream))
    else:
        if plan.stream is None:
            raise ValidationException(NO_STREAM_TO_DISABLE)
        plan.stream = None
        plan.changes.append(("disable_stream", None))


def _plan_flags(plan: _Update) -> None:
    request = plan.request
    protection = request.get("DeletionProtectionEnabled")
    if protection is not None and protection != plan.deletion_protection:
        plan.deletion_protection = protection
        plan.changes.append(("deletion_protection", protection))
    if "TableClass" in request:
        plan.changes.append(("table_class", request["TableClass"]))
    if "SSESpecification" in request:
        plan.changes.append(("sse", request["SSESpecification"]))


# The checks that need the table, in order (INF: the spec does not order them).
UPDATE_TABLE_STEPS = (_plan_billing, _plan_definitions, _plan_gsis, _plan_stream, _plan_flags)


def update_table_spec(spec: TableSpec, request: dict) -> tuple[TableSpec, tuple]:
    """Apply an UpdateTable request (§5.6) to ``spec``: ``(new_spec, changes)``.

    ``new_spec`` is authoritative for the description (attribute definitions
    are trimmed to the attributes some key still uses). ``changes`` is a tuple
    of ``(kind, payload)`` pairs, in the order below (GSI actions in request
    order), for what the storage layer must act on:

    ======================  =============================================
    ``billing_mode``        the new mode (stamp LastUpdateToPayPerRequest…)
    ``throughput``          the table's new ``Throughput`` or None
    ``update_gsi``          the ``IndexSpec`` with its new throughput
    ``create_gsi``          the new ``IndexSpec`` (backfill it)
    ``delete_gsi``          the index name (drop its entries)
    ``enable_stream``       the StreamViewType (start a new stream/label)
    ``disable_stream``      None
    ``deletion_protection`` the new flag
    ``table_class``         the TableClass asked for (not in TableSpec)
    ``sse``                 the SSESpecification asked for (not in TableSpec)
    ======================  =============================================

    Raises ValidationException, LimitExceededException or (missing index)
    ResourceNotFoundException. A missing table, or one not ACTIVE, is the
    storage layer's check.
    """
    plan = _Update(spec, validate_update_table(request))
    for step in UPDATE_TABLE_STEPS:
        step(plan)
    return plan.result()


# ======================================================= TableDescription (§5.2)

def table_arn(name: str, region: str = "us-east-1", account: str = "123456789012") -> str:
    """``arn:aws:dynamodb:<region>:<account>:table/<name>``."""
    return f"arn:aws:dynamodb:{region}:{account}:table/{name}"


def make_stream_label(timestamp: float) -> str:
    """A stream label: the ISO-8601 UTC time with milliseconds (``2015-05-11T21:21:33.291``)."""
    moment = datetime.fromtimestamp(timestamp, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}"


def _throughput_description(throughput: Throughput | None, history: dict | None = None) -> dict:
    # why: on-demand tables and their GSIs report 0, 0, 0
    out = {"NumberOfDecreasesToday": 0,
           "ReadCapacityUnits": throughput.read if throughput else 0,
           "WriteCapacityUnits": throughput.write if throughput else 0}
    out.update(history or {})
    return out


def _billing_summary(spec: TableSpec, created_at, billing_updated_at) -> dict | None:
    if spec.billing_mode == ON_DEMAND:
        summary = {"BillingMode": ON_DEMAND}
        stamp = billing_updated_at if billing_updated_at is not None else created_at
        if stamp is not None:
            summary["LastUpdateToPayPerRequestDateTime"] = stamp
        return summary
    if billing_updated_at is not None:  # switched to provisioned at some point
        return {"BillingMode": PROVISIONED, "LastUpdateToPayPerRequestDateTime": billing_updated_at}
    return None  # created provisioned: omitted, as dynalite does (§5.2, R)


def _stats(index_stats, name: str) -> dict:
    """``(count, bytes)`` or a mapping with ItemCount/IndexSizeBytes/IndexStatus/Backfilling."""
    found = (index_stats or {}).get(name)
    if found is None:
        return {}
    if isinstance(found, dict):
        return found
    count, size = found
    return {"ItemCount": count, "IndexSizeBytes": size}


def _lsi_description(index: IndexSpec, arn: str, stats: dict) -> dict:
    return {"IndexName": index.name, "KeySchema": index.key.to_api(),
            "Projection": index.projection.to_api(),
            "IndexSizeBytes": stats.get("IndexSizeBytes", 0), "ItemCount": stats.get("ItemCount", 0),
            "IndexArn": f"{arn}/index/{index.name}"}


def _gsi_description(index: IndexSpec, arn: str, stats: dict) -> dict:
    status = stats.get("IndexStatus", "ACTIVE")
    out = {"IndexName": index.name, "KeySchema": index.key.to_api(),
           "Projection": index.projection.to_api(), "IndexStatus": status}
    if status == "CREATING":
        out["Backfilling"] = stats.get("Backfilling", True)
    out.update({"ProvisionedThroughput": _throughput_description(index.throughput),
                "IndexSizeBytes": stats.get("IndexSizeBytes", 0),
                "ItemCount": stats.get("ItemCount", 0),
                "IndexArn": f"{arn}/index/{index.name}"})
    return out


def table_description(spec: TableSpec, *, status: str, created_at: float, item_count: int,
                      size_bytes: int, table_id: str, index_stats=None,
                      region: str = "us-east-1", account: str = "123456789012",
                      partitions: list | None = None, stream_label: str | None = None,
                      billing_updated_at: float | None = None,
                      throughput_history: dict | None = None) -> dict:
    """DynamoDB's TableDescription (§5.2).

    ``index_stats`` maps index name → ``(item_count, size_bytes)`` or a dict
    with ``ItemCount``, ``IndexSizeBytes``, ``IndexStatus`` (default ACTIVE)
    and ``Backfilling``. ``stream_label`` is the LatestStreamLabel (default:
    derived from ``created_at``). ``billing_updated_at`` is when the table last
    switched billing mode; ``throughput_history`` is merged into the table's
    ProvisionedThroughput (LastIncreaseDateTime, LastDecreaseDateTime,
    NumberOfDecreasesToday). ``partitions`` is our extension, passed through
    under "Partitions".
    """
    arn = table_arn(spec.name, region, account)
    out = {
        "AttributeDefinitions": [{"AttributeName": name, "AttributeType": kind}
                                 for name, kind in spec.attribute_types.items()],
        "TableName": spec.name,
        "KeySchema": spec.key.to_api(),
        "TableStatus": status,
        "CreationDateTime": created_at,
        "ProvisionedThroughput": _throughput_description(spec.throughput, throughput_history),
        "TableSizeBytes": size_bytes,
        "ItemCount": item_count,
        "TableArn": arn,
        "TableId": table_id,
    }
    summary = _billing_summary(spec, created_at, billing_updated_at)
    if summary is not None:
        out["BillingModeSummary"] = summary
    if spec.lsis:
        out["LocalSecondaryIndexes"] = [_lsi_description(index, arn, _stats(index_stats, index.name))
                                        for index in spec.lsis]
    if spec.gsis:
        out["GlobalSecondaryIndexes"] = [_gsi_description(index, arn, _stats(index_stats, index.name))
                                         for index in spec.gsis]
    if spec.stream_view_type is not None:  # absent when no stream is enabled
        label = stream_label or make_stream_label(created_at)
        out["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": spec.stream_view_type}
        out["LatestStreamLabel"] = label
        out["LatestStreamArn"] = f"{arn}/stream/{label}"
    out["DeletionProtectionEnabled"] = spec.deletion_protection
    if partitions is not None:
        out["Partitions"] = list(partitions)
    return out


def deleted_table_description(spec: TableSpec, *, table_id: str, item_count: int = 0,
                              size_bytes: int = 0, created_at: float | None = None,
                              region: str = "us-east-1", account: str = "123456789012",
                              billing_updated_at: float | None = None,
                              throughput_history: dict | None = None) -> dict:
    """DeleteTable's reduced TableDescription (status DELETING; no keys, indexes or dates)."""
    out = {"TableName": spec.name, "TableStatus": "DELETING", "TableId": table_id,
           "TableArn": table_arn(spec.name, region, account)}
    summary = _billing_summary(spec, created_at, billing_updated_at)
    if summary is not None:
        out["BillingModeSummary"] = summary
    out["ProvisionedThroughput"] = _throughput_description(spec.throughput, throughput_history)
    out["TableSizeBytes"] = size_bytes
    out["ItemCount"] = item_count
    return out


# ============================================================= ListTables (§5.4)

def _name_bytes(name: str) -> bytes:
    return name.encode("utf-8")


def list_tables_page(names, request: dict) -> dict:
    """One ListTables page: names in byte order after ExclusiveStartTableName, at most Limit.

    ``LastEvaluatedTableName`` is present only when more names remain.
    """
    checked = check_request(request, LIST_TABLES)
    limit = checked.get("Limit", 100)
    ordered = sorted(names, key=_name_bytes)
    start = checked.get("ExclusiveStartTableName")
    if start is not None:  # need not exist; the page starts strictly after it
        ordered = [name for name in ordered if _name_bytes(name) > _name_bytes(start)]
    page = ordered[:limit]
    out = {"TableNames": page}
    if len(ordered) > limit:
        out["LastEvaluatedTableName"] = page[-1]
    return out
