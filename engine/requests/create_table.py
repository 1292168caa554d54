"""CreateTable (item-api §5.1): the request's checks, in DynamoDB's order, and the ``TableSpec`` it makes.

The key, index and throughput checks here are shared with UpdateTable's
``Create`` GSI action (``update_table``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import limits
from ..schema import IndexSpec, KeySchema, OnDemandThroughput, Projection, TableSpec, Throughput, WarmThroughput
from ..vectors import definitions as vectors
from .control import (BOTH_CAPACITIES, CREATE_TABLE, INVALID, NEITHER_CAPACITY, ON_DEMAND, PROVISIONED,
                      STREAM_VIEW_TYPE_MISSING, STREAM_VIEW_TYPE_UNWANTED, control_request, defined_names,
                      defined_types, first_problem, key_names, raise_first)


def key_schema_problem(key_schema: list) -> str | None:
    """HASH first, RANGE second, two distinct names."""
    names = key_names(key_schema)
    if len(names) == 2 and names[0] == names[1]:
        return "Both the Hash Key and the Range Key element in the KeySchema have the same name"
    if key_schema[0]["KeyType"] != "HASH":
        return "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"
    if len(key_schema) == 2 and key_schema[1]["KeyType"] != "RANGE":
        return "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"
    return None


def gsi_key_schema_problem(key_schema: list) -> str | None:
    """A GSI's key: 1-4 HASH attributes, then 0-4 RANGE attributes, each named once (multi-attribute-keys.md
    §2.2-§2.3; the order of these checks is not published: §2.3 rule 8's)."""
    kinds = [element["KeyType"] for element in key_schema]
    if kinds[0] != "HASH":
        return "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"
    if kinds.count("HASH") > limits.MAX_GSI_HASH_ATTRIBUTES:
        return INVALID + "The KeySchema exceeds the maximum allowed number of HASH key attributes"
    if kinds.count("RANGE") > limits.MAX_GSI_RANGE_ATTRIBUTES:
        return INVALID + "The KeySchema exceeds the maximum allowed number of RANGE key attributes"
    if "RANGE" in kinds and "HASH" in kinds[kinds.index("RANGE"):]:
        return INVALID + "All HASH key attributes must precede RANGE key attributes in the KeySchema"
    names = key_names(key_schema)
    if len(set(names)) != len(names):
        return "The KeySchema contains multiple key attributes with the same name"
    return None


def undefined_keys_problem(key_schema: list, defined: list[str]) -> str | None:
    """Every key attribute must appear in AttributeDefinitions (lists in request order)."""
    names = key_names(key_schema)
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
    for name in defined_names(request):
        if name in seen:
            # recorded-2026-11 B10: DynamoDB's words, reported twice independently (ALT pinned only the name)
            return f"Attribute Name is duplicated: {name}"
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


def gsi_throughput_problem(name: str, throughput: dict | None, mode: str) -> str | None:
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
        return defined_names(self.request)

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


def _gsi_key_form(index, ctx):
    return gsi_key_schema_problem(index["KeySchema"])


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
    return gsi_throughput_problem(index["IndexName"], index.get("ProvisionedThroughput"), ctx.mode)


LSI_CHECKS = (_index_key_form, _lsi_has_range, _lsi_same_hash, _index_keys_defined,
              _index_projection, _unique_index_name)
GSI_CHECKS = (_gsi_key_form, _index_keys_defined, _index_projection, _unique_index_name,
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
            if problem := first_problem(checks, index, ctx):
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


def _create_vectors(ctx):
    return vectors.create_problem(ctx.request, ctx.mode == ON_DEMAND, [index["IndexName"] for index in ctx.indexes])


def _create_definitions_used(ctx):
    defined, indexes = ctx.defined, ctx.indexes
    used = set(key_names(ctx.key_schema)).union(*(key_names(index["KeySchema"]) for index in indexes))
    used |= vectors.schema_names(ctx.request)  # (a SearchSchema's attributes are used too: vector-search.md §2.2)
    if set(defined) <= used:
        return None
    if not indexes and not ctx.request.get("VectorIndexes"):
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
def on_demand_problem(request: dict) -> str | None:
    """OnDemandThroughput's maxima are -1 (no cap) or at least one unit a second.

    R: DynamoDB documents the values, not the message; this one names the member.
    """
    member = request.get("OnDemandThroughput") or {}
    for name in ("MaxReadRequestUnits", "MaxWriteRequestUnits"):
        value = member.get(name)
        if value is not None and value != -1 and value < 1:
            return INVALID + f"OnDemandThroughput {name} must be -1 (no maximum) or a positive number: {value}"
    return None


def _create_on_demand(ctx):
    return on_demand_problem(ctx.request)


def on_demand_spec(member: dict | None, current: OnDemandThroughput | None = None) -> OnDemandThroughput | None:
    """The OnDemandThroughput a request member sets (an absent maximum keeps ``current``'s)."""
    if member is None:
        return current
    base = current or OnDemandThroughput()
    return OnDemandThroughput(member.get("MaxReadRequestUnits", base.max_read),
                              member.get("MaxWriteRequestUnits", base.max_write))


def warm_spec(member: dict | None, current: WarmThroughput | None = None) -> WarmThroughput | None:
    """The WarmThroughput a request member sets (warm throughput only ever rises: model)."""
    if member is None:
        return current
    read, write = member.get("ReadUnitsPerSecond", 0), member.get("WriteUnitsPerSecond", 0)
    if current is not None:
        read, write = max(read, current.read), max(write, current.write)
    return WarmThroughput(read, write)


CREATE_TABLE_CHECKS = (
    _create_billing, _create_throughput_bounds, _create_duplicate_definitions,
    _create_key_count, _create_key_form, _create_keys_defined,
    _create_lsis, _create_gsis, _create_vectors,
    _create_definitions_used, _create_projected_count, _create_stream, _create_on_demand,
)


def _key(key_schema: list, types: dict) -> KeySchema:
    """The KeySchema of checked elements: HASH attributes, then RANGE ones (several only in a GSI)."""
    hashes = [(e["AttributeName"], types[e["AttributeName"]]) for e in key_schema if e["KeyType"] == "HASH"]
    ranges = [(e["AttributeName"], types[e["AttributeName"]]) for e in key_schema if e["KeyType"] == "RANGE"]
    first_range = ranges[0] if ranges else (None, None)
    return KeySchema(*hashes[0], *first_range, tuple(hashes[1:]), tuple(ranges[1:]))


def throughput_spec(throughput: dict | None) -> Throughput | None:
    if throughput is None:
        return None
    return Throughput(throughput["ReadCapacityUnits"], throughput["WriteCapacityUnits"])


def _projection(projection: dict) -> Projection:
    return Projection(projection["ProjectionType"], tuple(projection.get("NonKeyAttributes", ())))


def index_spec(index: dict, kind: str, types: dict, mode: str) -> IndexSpec:
    provisioned = kind == "GSI" and mode == PROVISIONED  # LSIs share the table's throughput
    throughput = throughput_spec(index.get("ProvisionedThroughput")) if provisioned else None
    return IndexSpec(index["IndexName"], kind, _key(index["KeySchema"], types),
                     _projection(index["Projection"]), throughput)


def _stream_view_type(request: dict) -> str | None:
    stream = request.get("StreamSpecification")
    return stream["StreamViewType"] if stream and stream["StreamEnabled"] else None


def create_table_spec(request: dict) -> TableSpec:
    """Validate a CreateTable request (§5.1) and return the table's spec.

    Raises SerializationException or ValidationException with DynamoDB's
    message. SSESpecification and TableClass are validated but not part of
    TableSpec; Tags become the table's tags (ListTagsOfResource). "Table already exists" is the storage layer's check.
    """
    checked = control_request(request, CREATE_TABLE, length_alone=False)
    context = _Create(checked)
    raise_first(CREATE_TABLE_CHECKS, context)
    mode = context.mode
    types = defined_types(checked)
    indexes = tuple(index_spec(index, "LSI", types, mode)
                    for index in checked.get("LocalSecondaryIndexes", ())) + tuple(
        index_spec(index, "GSI", types, mode) for index in checked.get("GlobalSecondaryIndexes", ()))
    return TableSpec(
        name=checked["TableName"], key=_key(checked["KeySchema"], types), attribute_types=types,
        throughput=throughput_spec(checked.get("ProvisionedThroughput")) if mode == PROVISIONED else None,
        indexes=indexes, stream_view_type=_stream_view_type(checked),
        deletion_protection=checked.get("DeletionProtectionEnabled", False),
        tags=tuple({tag["Key"]: tag["Value"] for tag in checked.get("Tags", ())}.items()),
        on_demand=on_demand_spec(checked.get("OnDemandThroughput")), warm=warm_spec(checked.get("WarmThroughput")),
        vectors=tuple(vectors.vector_spec(index, types) for index in checked.get("VectorIndexes", ())))


# ============================================================ UpdateTable (§5.6)
