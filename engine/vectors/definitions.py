"""CreateTable's ``VectorIndexes`` and UpdateTable's ``VectorIndexUpdates`` (vector-search.md §2): the checks in
the spec's order, and the ``VectorIndexSpec`` s they make.

Order (§2.3, model): billing mode → empty list → count → per index in request order: dimensions range →
SearchSchema (HASH count, duplicates, definitions) → vector attribute not in AttributeDefinitions →
same-attribute dimensions → projection count; then duplicate names across every index of the table.
"""

from __future__ import annotations

from ..errors import LimitExceededException, ResourceNotFoundException, ValidationException
from ..requests.control import defined_types
from ..schema import Projection, VectorIndexSpec
from . import messages as M

MAX_INDEXES = 5
MAX_DIMENSIONS = 4096
MAX_FILTERS = 18
MAX_PROJECTED = 20  # NonKeyAttributes + the vector + each INLINE_FILTER (§2.2 rule 7)


def _dimensions(index: dict, ctx: dict):
    if not 1 <= index["Dimensions"] <= MAX_DIMENSIONS:
        return M.DIMENSIONS_RANGE
    return None


def _search_schema(index: dict, ctx: dict):
    elements = index.get("SearchSchema") or []
    hashes = sum(element["SearchSchemaElementType"] == "HASH" for element in elements)
    if hashes > 1:
        return M.HASH_COUNT.format(hashes)
    names = [element["AttributeName"] for element in elements]
    if len(set(names)) != len(names):
        return M.SCHEMA_DUPLICATE
    if len(names) - hashes > MAX_FILTERS:
        return M.FILTER_LIMIT
    if any(ctx["types"].get(name) not in ("S", "N", "B") for name in names):
        return M.SCHEMA_NOT_DEFINED
    return None


def _vector_not_defined(index: dict, ctx: dict):
    attribute = index["VectorAttribute"]["AttributeName"]
    if attribute in ctx["types"]:
        return M.VECTOR_DEFINED.format(attribute)
    return None


def _same_dimensions(index: dict, ctx: dict):
    attribute = index["VectorAttribute"]["AttributeName"]
    seen = ctx["dimensions"].setdefault(attribute, index["Dimensions"])
    if seen != index["Dimensions"]:
        return M.DIMENSIONS_CONFLICT.format(attribute)
    return None


def _projected_count(index: dict, ctx: dict):
    filters = sum(e["SearchSchemaElementType"] == "INLINE_FILTER" for e in index.get("SearchSchema") or [])
    count = len(index["Projection"].get("NonKeyAttributes", ())) + 1 + filters
    if count > MAX_PROJECTED:
        return M.PROJECTED_LIMIT.format(index["IndexName"])
    return None


INDEX_CHECKS = (_dimensions, _search_schema, _vector_not_defined, _same_dimensions, _projected_count)


def create_problem(request: dict, on_demand: bool, other_names: list) -> str | None:
    """The first problem of a CreateTable's ``VectorIndexes`` (None without any); ``other_names``: the
    request's GSI and LSI names."""
    indexes = request.get("VectorIndexes")
    if indexes is None:
        return None
    if not on_demand:
        return M.ON_DEMAND_ONLY
    if not indexes:
        return M.EMPTY_LIST
    if len(indexes) > MAX_INDEXES:
        return M.TOO_MANY
    context = {"types": defined_types(request), "dimensions": {}}
    for index in indexes:
        for check in INDEX_CHECKS:
            if problem := check(index, context):
                return problem
    seen = set(other_names)
    for index in indexes:
        if index["IndexName"] in seen:
            return M.DUPLICATE_NAME.format(index["IndexName"])
        seen.add(index["IndexName"])
    return None


def schema_names(request: dict) -> set:
    """The attributes the SearchSchemas of a CreateTable's vector indexes use (they count as used
    AttributeDefinitions, §2.2 rule 6)."""
    return {element["AttributeName"] for index in request.get("VectorIndexes") or ()
            for element in index.get("SearchSchema") or ()}


def vector_spec(index: dict, types: dict) -> VectorIndexSpec:
    """The spec of a checked ``VectorIndex`` (or ``CreateVectorIndexAction``)."""
    elements = index.get("SearchSchema") or []
    hashes = [(e["AttributeName"], types[e["AttributeName"]]) for e in elements
              if e["SearchSchemaElementType"] == "HASH"]
    filters = tuple((e["AttributeName"], types[e["AttributeName"]]) for e in elements
                    if e["SearchSchemaElementType"] == "INLINE_FILTER")
    projection = index["Projection"]
    return VectorIndexSpec(index["IndexName"], index["VectorAttribute"]["AttributeName"], int(index["Dimensions"]),
                           index["DistanceFunction"],
                           Projection(projection["ProjectionType"], tuple(projection.get("NonKeyAttributes", ()))),
                           hashes[0] if hashes else None, filters, tuple(e["AttributeName"] for e in elements))


# ------------------------------------------------------------------ UpdateTable (§2.4)

def update_problem(request: dict):
    """The request-only checks of ``VectorIndexUpdates``: raises as DynamoDB answers (§2.4)."""
    updates = request.get("VectorIndexUpdates")
    if updates is None:
        return None
    if any("Create" not in entry and "Delete" not in entry for entry in updates):
        return M.UPDATE_EMPTY
    if len(updates) > 1 or (updates and request.get("GlobalSecondaryIndexUpdates")):
        raise LimitExceededException(M.ONLINE_LIMIT)
    return None


def plan_updates(plan) -> None:
    """UpdateTable's vector-index actions against the table (``update_table._Update``): the new specs and the
    changes (``create_vector`` and ``delete_vector``, each with the index's spec)."""
    vectors = list(plan.spec.vectors)
    for entry in plan.request.get("VectorIndexUpdates") or ():
        if "Delete" in entry:
            name = entry["Delete"]["IndexName"]
            found = next((index for index in vectors if index.name == name), None)
            if found is None:
                raise ResourceNotFoundException(M.INDEX_NOT_FOUND.format(name, plan.spec.name))
            vectors.remove(found)
            plan.changes.append(("delete_vector", found))
            continue
        action = entry["Create"]
        if plan.mode != "PAY_PER_REQUEST":
            raise ValidationException(M.ON_DEMAND_ONLY)
        names = [index.name for index in plan.indexes] + [index.name for index in vectors]
        if action["IndexName"] in names:
            raise ValidationException(M.ALREADY_EXISTS)
        if len(vectors) >= MAX_INDEXES:
            raise ValidationException(M.TOO_MANY)
        types = dict(plan.types, **defined_types(plan.request))
        context = {"types": types, "dimensions": {index.attribute: index.dimensions for index in vectors}}
        for check in INDEX_CHECKS:
            if problem := check(action, context):
                raise ValidationException(problem)
        plan.types.update((name, types[name]) for name in schema_names({"VectorIndexes": [action]}))
        created = vector_spec(action, types)
        vectors.append(created)
        plan.changes.append(("create_vector", created))
    if plan.spec.vectors and plan.mode != "PAY_PER_REQUEST":
        raise ValidationException(M.PROVISIONED_REFUSED)
    plan.vectors = vectors


def gsi_key_problem(spec, action: dict, request: dict) -> None:
    """A GSI Create keyed on an attribute a vector index reads: DynamoDB's "cannot be redefined" (§2.4,
    captured), naming the vector and the key element."""
    types = defined_types(request)
    for element in action["KeySchema"]:
        index = next((v for v in spec.vectors if v.attribute == element["AttributeName"]), None)
        if index is not None:
            raise ValidationException(M.REDEFINED.format(
                attribute=index.attribute, dimensions=index.dimensions, type=types.get(index.attribute, "S"),
                key_type=element["KeyType"]))
