"""SearchVectors (vector-search.md §5): the k items of a vector index nearest a query vector.

The request is checked in the spec's order (§5.5), the first failing step answering: the members'
deserialisation (their JSON types, DynamoDB's strict deserialiser's words), their constraints, TopK's range,
the expression parameters and texts, the table, the index, the query vector, the condition's attributes,
the HASH element, the values. Then the index's candidates (the HASH value's entries, inline-filtered) are
scored exactly (``engine.vectors.index``), and the first TopK returned with what the index holds of them.
Capacity is bytes, not units (§6.4).
"""

from __future__ import annotations

import json

from ..errors import ResourceNotFoundException, SerializationException, ValidationException
from ..expressions.model import Comparison, Path, Value, conjuncts
from ..expressions.projection import project
from ..types import item_size, type_of
from ..vectors import messages as M
from ..vectors.values import f32_text, f32_vector
from .common import Expressions
from .control import resolve_table_name

MAX_TOP_K = 100
RESPONSE_BYTES = 16 * 1024 * 1024   # a response's cap: the longest prefix of results that fits (§5.3, model)
# (member, what the deserialiser expects, the Python types it takes): §5.5 step 1, in this order
REQUIRED = (("TableName", "a string", (str,)), ("IndexName", "a string", (str,)),
            ("SearchVector", "a sequence", (list,)), ("TopK", "i32", (int,)))
OPTIONAL = (("SearchConditionExpression", "a string", (str,)), ("ProjectionExpression", "a string", (str,)),
            ("ExpressionAttributeNames", "a map", (dict,)), ("ExpressionAttributeValues", "a map", (dict,)),
            ("ReturnConsumedCapacity", "a string", (str,)))
CAPACITY_MODES = ("INDEXES", "TOTAL", "NONE")


def search_vectors(engine, request) -> dict:
    """SearchVectors: ``SearchResults`` (``Item``, ``Score``), closest first, and the bytes consumed."""
    _deserialised(request)
    _constraints(request)
    condition, paths = _expressions(request)
    with engine.lock:
        table = engine.tables.get(resolve_table_name(request["TableName"]))
        if table is None or table.status == "CREATING":
            raise ResourceNotFoundException("Requested resource not found")
        spec = table.spec.vector(request["IndexName"])
        if spec is None:
            raise ValidationException(M.NO_SUCH_INDEX.format(request["IndexName"]))
        query = _query_vector(request["SearchVector"], spec.dimensions)
        terms = _terms(condition, spec)
        index = table.vectors.index(spec.name)
        hash_value = terms.pop(spec.hash[0]) if spec.hash else None
        found = index.nearest(query, hash_value, terms, request["TopK"])
        results, returned = _results(found, spec, paths)
        searched = index.search_bytes(hash_value, returned)
        table.vectors.searched(spec.name, hash_value, searched)
    response = {"SearchResults": results}
    if request.get("ReturnConsumedCapacity", "NONE") != "NONE":
        response["ConsumedCapacity"] = {"VectorSearchRequestBytes": float(searched)}
    return response


# ------------------------------------------------------------------------- checks

def _column(request) -> int:
    """Where DynamoDB's deserialiser stopped, as near as a request without its body allows: the end of the
    request as compact JSON (model: the recordings do not assert the column)."""
    try:
        return len(json.dumps(request, separators=(",", ":"), default=str))
    except (TypeError, ValueError):
        return 1


def _found(value) -> str:
    """The deserialiser's name for what it found."""
    if isinstance(value, bool):
        return f"boolean `{str(value).lower()}`"
    if isinstance(value, int):
        return f"integer `{value}`"
    if isinstance(value, float) or type(value).__name__ == "Decimal":
        return f"floating point `{value}`"
    if isinstance(value, str):
        return f'string "{value}"'
    return {list: "sequence", dict: "map"}.get(type(value), type(value).__name__)


def _deserialised(request) -> None:
    """§5.5 step 1: null and mistyped members (SerializationException), then missing ones."""
    if not isinstance(request, dict):
        raise SerializationException(f"invalid type: {_found(request)}, expected struct SearchVectorsInput")
    for member, wanted, kinds in REQUIRED + OPTIONAL:
        if member not in request:
            continue
        value = request[member]
        if value is None:
            raise SerializationException(M.NULL_MEMBER.format(wanted, _column(request)))
        if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
            raise SerializationException(f"invalid type: {_found(value)}, expected {wanted} at line 1 column "
                                         f"{_column(request)}")
    for name in (request.get("ExpressionAttributeNames") or {}).values():
        if not isinstance(name, str):
            raise SerializationException(f"invalid type: {_found(name)}, expected a string at line 1 column "
                                         f"{_column(request)}")
    for member, _, _ in REQUIRED:
        if member not in request:
            raise ValidationException(M.MISSING_FIELD.format(member, _column(request)))


def _constraints(request: dict) -> None:
    """§5.5 steps 2 and 3: the members' constraints, then TopK's range."""
    name = request["IndexName"]
    if len(name) < 3 or len(name) > 255:
        bound = "greater than or equal to 3" if len(name) < 3 else "less than or equal to 255"
        raise ValidationException(f"1 validation error detected: Value at 'IndexName' failed to satisfy "
                                  f"constraint: Member must have length {bound}")
    if not request["SearchVector"]:
        raise ValidationException("1 validation error detected: Value at 'SearchVector' failed to satisfy "
                                  "constraint: Member must have length greater than or equal to 1")
    if request["TopK"] < 1:
        raise ValidationException(M.TOP_K_MIN.format(request["TopK"]))
    table = request["TableName"]
    if not 1 <= len(table) <= 1024:
        raise ValidationException("1 validation error detected: Value '' at 'tableName' failed to satisfy "
                                  "constraint: Member must have length greater than or equal to 1")
    mode = request.get("ReturnConsumedCapacity")
    if mode is not None and mode not in CAPACITY_MODES:
        raise ValidationException(f"1 validation error detected: Value '{mode}' at 'returnConsumedCapacity' "
                                  "failed to satisfy constraint: Member must satisfy enum value set: "
                                  f"[{', '.join(CAPACITY_MODES)}]")
    if request["TopK"] > MAX_TOP_K:
        raise ValidationException(M.TOP_K_RANGE.format(request["TopK"]))


def _expressions(request: dict) -> tuple:
    """§5.5 steps 4-6: the parameters, the condition's shape (equalities joined by AND), the projection."""
    expressions = Expressions(request, ("SearchConditionExpression", "ProjectionExpression"))
    text = request.get("SearchConditionExpression")
    if text is not None and not text.strip():
        raise ValidationException(M.EMPTY_EXPRESSION)
    condition = expressions.condition(text, "SearchConditionExpression")
    for term in conjuncts(condition) if condition is not None else ():
        if not (isinstance(term, Comparison) and term.op == "="
                and {type(term.left), type(term.right)} == {Path, Value}):
            raise ValidationException(M.COMPARATOR)
    paths = expressions.projection(request.get("ProjectionExpression"))
    expressions.finish()
    return condition, paths


def _query_vector(values: list, dimensions: int):
    """§5.5 step 10: every element a number within the f32 range, then the length."""
    query = f32_vector(values)
    if query is None:
        raise ValidationException(M.BAD_SEARCH_VALUES)
    if len(query) != dimensions:
        raise ValidationException(M.DIMENSION_MISMATCH.format(len(query), dimensions))
    return query


def _terms(condition, spec) -> dict:
    """§5.5 steps 11-13: the condition's attribute -> value, each a SearchSchema attribute once, the HASH one
    present when the index has one, each value of its declared type."""
    terms = {}
    schema = dict(([spec.hash] if spec.hash else []) + list(spec.filters))
    for term in conjuncts(condition) if condition is not None else ():
        path, value = (term.left, term.right) if isinstance(term.left, Path) else (term.right, term.left)
        if len(path.elements) > 1:
            raise ValidationException(M.NESTED)
        if path.name not in schema:
            raise ValidationException(M.NOT_IN_SCHEMA.format(path.name))
        if path.name in terms:
            raise ValidationException(M.ONE_PER_ATTRIBUTE)
        terms[path.name] = value.value
    if spec.hash is not None and spec.hash[0] not in terms:
        raise ValidationException(M.HASH_REQUIRED)
    for name, value in terms.items():
        actual = type_of(value)
        if actual != schema[name]:
            raise ValidationException(M.VALUE_TYPE.format(name, actual, schema[name]))
        if spec.hash is not None and name == spec.hash[0] and type(value) in (str, bytes) and not value:
            raise ValidationException(M.EMPTY_HASH_VALUE.format(name))
    return terms


# ------------------------------------------------------------------------ results

def _results(found: list, spec, paths) -> tuple:
    """The SearchResults of the scored entries (within the response cap), and how many return the vector."""
    results, size, returned = [], 0, 0
    for value, entry in found:
        item = dict(entry.held) if paths is None else project(entry.held, paths)
        if paths is None:
            item.pop(spec.attribute, None)  # (never without a ProjectionExpression naming it: §5.4 rule 9)
        elif spec.attribute in item and any(path.elements == (spec.attribute,) for path in paths):
            item[spec.attribute] = [f32_text(x) for x in entry.vector]  # (the index's f32 copy: rule 8)
        returned += spec.attribute in item
        size += item_size(item)
        if size > RESPONSE_BYTES:
            break
        results.append({"Item": item, "Score": value})
    return results, returned


OPERATIONS = {"SearchVectors": search_vectors}
