"""UpdateTable (item-api §5.6): the request's own checks, then the plan against the current table."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .. import limits
from ..errors import LimitExceededException, ResourceNotFoundException, ValidationException
from ..schema import IndexSpec, TableSpec, Throughput
from .control import (GSI_LIMIT, GSI_UPDATE_AMBIGUOUS, INVALID, NEITHER_CAPACITY, NO_STREAM_TO_DISABLE,
                      NOTHING_TO_UPDATE, ON_DEMAND, PROVISIONED, STREAM_ALREADY_ENABLED,
                      THROUGHPUT_FOR_PROVISIONED, UPDATE_TABLE, control_request, defined_names, defined_types,
                      key_names, raise_first)
from ..vectors import definitions as vectors
from .create_table import (duplicate_definitions_problem, gsi_key_schema_problem, gsi_throughput_problem, index_spec,
                           on_demand_problem, on_demand_spec, warm_spec,
                           projected_count, projected_count_problem, projection_problem,
                           stream_specification_problem, throughput_bounds_problem, throughput_spec,
                           undefined_keys_problem)


def _unchanged_throughput(current: Throughput, requested: Throughput) -> str:
    return ("The provisioned throughput for the table will not change. The requested value equals "
            f"the current value. Current ReadCapacityUnits provisioned for the table: {current.read}. "
            f"Requested ReadCapacityUnits: {requested.read}. Current WriteCapacityUnits provisioned "
            f"for the table: {current.write}. Requested WriteCapacityUnits: {requested.write}. "
            "Refer to the Amazon DynamoDB Developer Guide for current limits and how to request "
            "higher limits.")


_GSI_ACTIONS = ("Update", "Create", "Delete")
# Members whose presence makes an UpdateTable do something.
_UPDATING_MEMBERS = ("ProvisionedThroughput", "BillingMode", "StreamSpecification",
                     "SSESpecification", "TableClass", "DeletionProtectionEnabled", "OnDemandThroughput",
                     "WarmThroughput")


def _update_something(request):
    # why: an empty GlobalSecondaryIndexUpdates list counts as nothing (§5.6)
    if any(request.get(member) is not None for member in _UPDATING_MEMBERS) \
            or request.get("GlobalSecondaryIndexUpdates") or request.get("VectorIndexUpdates"):
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
    return (gsi_key_schema_problem(action["KeySchema"])
            or undefined_keys_problem(action["KeySchema"], defined)
            or projection_problem(action["Projection"])
            or throughput_bounds_problem(action.get("ProvisionedThroughput")))


def _update_gsi_entries(request):
    seen, defined = set(), defined_names(request)
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
    _update_gsi_entries, _update_online_index_limit, vectors.update_problem, stream_specification_problem,
    on_demand_problem,
)


def validate_update_table(request) -> dict:
    """The UpdateTable checks that need no table (steps 1–4); the normalised request.

    Call it before looking the table up, so that request errors win over
    ResourceNotFoundException (§2.1); ``update_table_spec`` calls it again.
    """
    checked = control_request(request, UPDATE_TABLE)
    raise_first(UPDATE_TABLE_CHECKS, checked)
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
    vectors: list = field(default_factory=list)

    def __post_init__(self):
        self.mode = self.spec.billing_mode
        self.throughput = self.spec.throughput
        self.indexes = list(self.spec.indexes)
        self.types = dict(self.spec.attribute_types)
        self.stream = self.spec.stream_view_type
        self.deletion_protection = self.spec.deletion_protection
        self.vectors = list(self.spec.vectors)

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
        used = set(key.names).union(*(index.key.names for index in self.indexes),
                                     *(index.schema_names for index in self.vectors))
        types = {name: kind for name, kind in self.types.items() if name in used}
        # replace, not a new TableSpec: what UpdateTable does not touch (tags, TTL) stays
        spec = replace(self.spec, attribute_types=types, throughput=self.throughput, indexes=tuple(self.indexes),
                       stream_view_type=self.stream, deletion_protection=self.deletion_protection,
                       vectors=tuple(self.vectors),
                       on_demand=on_demand_spec(self.request.get("OnDemandThroughput"), self.spec.on_demand),
                       warm=warm_spec(self.request.get("WarmThroughput"), self.spec.warm))
        return spec, tuple(self.changes)


def _plan_billing(plan: _Update) -> None:
    spec, request = plan.spec, plan.request
    plan.mode = request.get("BillingMode", spec.billing_mode)
    requested = throughput_spec(request.get("ProvisionedThroughput"))
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
    if problem := gsi_throughput_problem(index.name, action["ProvisionedThroughput"], plan.mode):
        raise ValidationException(problem)
    # INF: an unchanged index throughput is accepted (no "will not change" text pinned).
    updated = replace(index, throughput=throughput_spec(action["ProvisionedThroughput"]))
    plan.indexes[plan.indexes.index(index)] = updated
    plan.changes.append(("update_gsi", updated))


def _plan_create_gsi(plan: _Update, action: dict) -> None:
    name = action["IndexName"]
    if plan.spec.vector(name) is not None:  # (vector-search.md §2.4: DynamoDB's words, not the GSI ones)
        raise ValidationException(vectors.M.ALREADY_EXISTS)
    if plan.index(name) is not None:
        # INF: ALT pins only "already exists".
        raise ValidationException(INVALID + f"Index already exists: {name}")
    vectors.gsi_key_problem(plan.spec, action, plan.request)
    throughput = action.get("ProvisionedThroughput")
    problem = gsi_throughput_problem(name, throughput, plan.mode)
    if not problem and sum(index.is_global for index in plan.indexes) >= limits.MAX_GSIS:
        problem = INVALID + f"GlobalSecondaryIndex count exceeds the per-table limit of {limits.MAX_GSIS}"
    if not problem:
        existing = sum(len(index.projection.non_key_attributes) for index in plan.indexes)
        problem = projected_count_problem(existing + projected_count([action]))
    if problem:
        raise ValidationException(problem)
    requested = defined_types(plan.request)
    plan.types.update((key, requested[key]) for key in key_names(action["KeySchema"]))
    index = index_spec(action, "GSI", plan.types, plan.mode)
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
UPDATE_TABLE_STEPS = (_plan_billing, _plan_definitions, _plan_gsis, vectors.plan_updates, _plan_stream, _plan_flags)


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
    ``create_vector``       the new ``VectorIndexSpec`` (build its entries)
    ``delete_vector``       the deleted ``VectorIndexSpec`` (its entries go)
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
