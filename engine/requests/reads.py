"""Query and Scan (item-api §5.11, §5.12): key conditions, Select, pages."""

from __future__ import annotations

from decimal import Decimal

from ..engine import Engine
from ..placement import segment_range
from ..errors import ValidationException
from ..vectors import messages as vector_messages
from ..expressions.evaluate import compile_condition
from ..expressions.model import Between, Call, Comparison, Path, conjuncts, paths_in
from ..types import comparable, copy_value, type_of
from . import legacy, shapes
from .multi_keys import hash_matches, multi_key_conditions
from .common import ENVELOPE_PREFIX, Expressions, check_key_paths, return_capacity, shaper, table_name

START_KEY_INVALID = "The provided starting key is invalid"
OUTSIDE_RANGE_PREDICATE = "The provided starting key does not match the range key predicate"

_FLIPPED = {"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _select_problem(request: dict, paths, index, operation: str) -> str | None:
    """Select's rules (item-api §5.11); Query's messages carry the envelope prefix."""
    select = request.get("Select")
    has_projection = request.get("ProjectionExpression") is not None
    has_attributes = request.get("AttributesToGet") is not None
    if select == "ALL_PROJECTED_ATTRIBUTES" and request.get("IndexName") is None:
        return "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"
    if select == "SPECIFIC_ATTRIBUTES" and not (has_projection or has_attributes):
        return "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"
    if select in ("ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "COUNT") and (has_projection or has_attributes):
        what = {"ALL_ATTRIBUTES": "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES": "ALL_PROJECTED_ATTRIBUTES",
                "COUNT": "only the Count"}[select]
        member = "ProjectionExpression" if has_projection else "AttributesToGet"
        return f"Cannot specify the {member} when choosing to get {what}"
    return None


def _check_select(request: dict, operation: str) -> None:
    problem = _select_problem(request, None, None, operation)
    if problem:
        raise ValidationException((ENVELOPE_PREFIX if operation == "Query" else "") + problem)


def _check_segments(request: dict) -> tuple[int, int]:
    segment, total = request.get("Segment"), request.get("TotalSegments")
    if segment is not None and total is None:
        raise ValidationException("The TotalSegments parameter is required but was not present in the "
                                  "request when Segment parameter is present")
    if total is not None and segment is None:
        raise ValidationException("The Segment parameter is required but was not present in the request "
                                  "when parameter TotalSegments is present")
    if segment is not None and segment >= total:
        raise ValidationException("The Segment parameter is zero-based and must be less than parameter "
                                  f"TotalSegments: Segment: {segment} is not less than TotalSegments: {total}")
    return (segment or 0), (total or 1)


def _refuse_vector_index(operation: str, request: dict) -> None:
    """A Query or Scan naming a vector index (vector-search.md §8): a Query's consistent read is refused first,
    as on a GSI; then the index type."""
    if operation == "Query":
        if request.get("ConsistentRead"):
            raise ValidationException("Consistent reads are not supported on global secondary indexes")
        raise ValidationException(vector_messages.QUERY_REFUSED)
    raise ValidationException(vector_messages.SCAN_REFUSED)


def _key_attributes(engine: Engine, request: dict) -> int:
    """How many key attributes the queried index has, when it is known (legacy KeyConditions' bound)."""
    table = engine.tables.get(request.get("TableName"))
    index = table.spec.index(request["IndexName"]) if table is not None and request.get("IndexName") else None
    return len(index.key.names) if index is not None else 2


def _resolve_index(engine: Engine, request: dict, operation: str = "Query"):
    table = engine.table(table_name(request))
    name = request.get("IndexName")
    index = None
    if name is not None:
        index = table.spec.index(name)
        if index is None and table.spec.vector(name) is not None:
            _refuse_vector_index(operation, request)
        if index is None:
            raise ValidationException(f"The table does not have the specified index: {name}")
        if index.is_global and request.get("ConsistentRead"):
            raise ValidationException("Consistent reads are not supported on global secondary indexes")
        if index.is_global and request.get("Select") == "ALL_ATTRIBUTES" and index.projection.type != "ALL":
            raise ValidationException(
                "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported "
                f"for global secondary index {name} because its projection type is not ALL")
    return table, index


def _key_conditions(condition, key) -> tuple:
    """(hash value, sort condition, equality prefix) from a parsed KeyConditionExpression (item-api §3.9; a
    multi-attribute index: ``multi_keys``)."""
    by_name = {}
    for atom in conjuncts(condition):
        name, shaped = _key_atom(atom)
        by_name[name] = shaped
    if key.multi:
        return multi_key_conditions(by_name, key)
    if key.hash_name not in by_name:
        raise ValidationException(f"Query condition missed key schema element: {key.hash_name}")
    extra = [name for name in by_name if name != key.hash_name]
    attributes = len(key.names)
    if len(by_name) > attributes:  # (recorded-2026-11 A2: a third clause, over any name, is this; never a 500)
        raise ValidationException(
            f"The number of query conditions ({len(by_name)}) exceeds the number of key attributes "
            f"defined in the schema ({attributes})")
    if extra and extra[0] != key.range_name:
        raise ValidationException(f"Query condition missed key schema element: {key.range_name}")
    op, *values = by_name[key.hash_name]
    if op != "=":
        raise ValidationException("Query key condition not supported")
    for name, (op_, *vals) in by_name.items():
        expected = key.types[name]
        if any(type_of(v) != expected for v in vals):
            raise ValidationException(
                "One or more parameter values were invalid: Condition parameter type does not match schema type")
    sort = by_name.get(key.range_name) if key.range_name else None
    return values[0], (tuple(sort) if sort else None), ()


def _key_atom(atom):
    """(attribute name, (op, value…)) of one structurally valid key condition."""
    if isinstance(atom, Comparison):
        if isinstance(atom.left, Path):
            return atom.left.name, (atom.op, atom.right.value)
        return atom.right.name, (_FLIPPED[atom.op], atom.left.value)
    if isinstance(atom, Between):
        return atom.subject.name, ("BETWEEN", atom.low.value, atom.high.value)
    if isinstance(atom, Call) and atom.name == "begins_with":
        return atom.args[0].name, ("BEGINS_WITH", atom.args[1].value)
    raise ValidationException("Query key condition not supported")


def _check_filter_keys(condition, key, member: str = "Filter Expression") -> None:
    """A Query filter may not name a key attribute of the queried schema (item-api §3.9)."""
    for name in _condition_names(condition):
        if name in key.names:
            raise ValidationException(
                f"{member} can only contain non-primary key attributes: Primary key attribute: {name}")


def _condition_names(node):
    return (path.name for path in paths_in(node))


def _reach_back(table, index, paths, request, filter_=None) -> bool:
    """An LSI read fetches the base item for attributes it does not project
    (asked for by Select, the projection or the filter)."""
    if index is None or index.is_global:
        return False
    projected = index.projected_names(table.spec.key)
    if projected is None:
        return False
    if request.get("Select") == "ALL_ATTRIBUTES":
        return True
    wanted = [path.name for path in paths or ()] + list(_condition_names(filter_))
    return any(name not in projected for name in wanted)


# ------------------------------------------------------------ ExclusiveStartKey

def _start_key_names(table, index) -> tuple:
    names = list(table.spec.key.names)
    if index is not None:
        names += [name for name in index.key.names if name not in names]
    return tuple(names)


def _check_start_key(table, index, start: dict) -> None:
    """The starting key names exactly the table's (and index's) key attributes (item-api §5.11)."""
    names = _start_key_names(table, index)
    if len(start) != len(names) or any(name not in start for name in names):
        raise ValidationException(START_KEY_INVALID)
    types = dict(table.spec.key.types, **(index.key.types if index is not None else {}))
    if any(type(start[name]) not in (str, bytes, Decimal) or type_of(start[name]) != types[name]
           for name in names):
        raise ValidationException(f"{START_KEY_INVALID}: The provided key element does not match the schema")


_SORT_TESTS = {
    "=": lambda v, a, b: v == a, "<": lambda v, a, b: v < a, "<=": lambda v, a, b: v <= a,
    ">": lambda v, a, b: v > a, ">=": lambda v, a, b: v >= a,
    "BETWEEN": lambda v, a, b: a <= v <= b, "BEGINS_WITH": lambda v, a, b: v[:len(a)] == a,
}


def _check_query_start(key, start: dict, hash_value, sort_condition, prefix: tuple) -> None:
    """A Query's starting key lies inside its key condition (item-api §5.11; the HASH tuple and the RANGE
    prefix of a multi-attribute index)."""
    if not hash_matches(key, start, hash_value):
        raise ValidationException("The provided starting key is outside query boundaries based on "
                                  "provided conditions")
    if any(start[name] != value for name, value in zip(key.range_names, prefix)):
        raise ValidationException(OUTSIDE_RANGE_PREDICATE)
    if sort_condition is None:
        return
    op, *bounds = sort_condition
    value = start[key.range_names[len(prefix)]]
    if not (comparable(value, bounds[0])
            and _SORT_TESTS[op](value, bounds[0], bounds[-1])):
        raise ValidationException(OUTSIDE_RANGE_PREDICATE)


def _check_scan_start(table, index, start: dict, segment: int, total: int) -> None:
    """A parallel Scan's starting key belongs to its segment (item-api §5.12)."""
    if total == 1:
        return
    h = table.position(index, start)[0]
    lo, hi = segment_range(segment, total)
    if not lo <= h < hi:
        raise ValidationException(
            f"{START_KEY_INVALID}: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct "
            f"Segment. TotalSegments: {total} Segment: {segment}")


def _emit(request: dict, paths):
    """What a page keeps of each matching record: nothing to copy for Select COUNT."""
    return _counted if request.get("Select") == "COUNT" else shaper(paths)


def _counted(record) -> None:
    """Select COUNT keeps no more of a matching record than that it matched."""
    return None


def _respond(request: dict, page, paths, table, index) -> dict:
    response = {"Count": len(page.records), "ScannedCount": page.scanned}
    if request.get("Select") != "COUNT":
        response["Items"] = page.records  # shaped as they were read (``_emit``)
    if page.last_key is not None:
        response["LastEvaluatedKey"] = copy_value(page.last_key)
    return return_capacity(response, page.consumed, request)


def query(engine: Engine, request: dict) -> dict:
    """Query: one page of a partition-key value's items (item-api §5.11)."""
    request = shapes.check("Query", request)
    expressions = Expressions(request, ("FilterExpression", "KeyConditionExpression", "ProjectionExpression"))
    key_condition = expressions.key_condition(request.get("KeyConditionExpression"))
    filter_ = expressions.condition(request.get("FilterExpression"), "FilterExpression")
    paths = expressions.projection(request.get("ProjectionExpression"))
    expressions.finish()
    key_condition, filter_ = legacy.lower_query(request, key_condition, filter_, _key_attributes(engine, request))
    _check_select(request, "Query")
    if key_condition is None:
        raise ValidationException(
            "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
    paths = paths if paths is not None else shapes.attributes_to_get(request)
    table, index = _resolve_index(engine, request)
    check_key_paths(table.spec, request, key_condition, filter_, paths)
    key = table.source(index)[2]
    hash_value, sort_condition, prefix = _key_conditions(key_condition, key)
    _check_filter_keys(filter_, key, "QueryFilter" if "QueryFilter" in request else "Filter Expression")
    # why: a table's whole key pinned reads one item at most: such a Query cannot be resumed (recorded-2026-11
    # B9), so it never hands out a LastEvaluatedKey either (the rule we follow: nothing follows its one row)
    one_row = index is None and (key.range_name is None or (sort_condition or ("",))[0] == "=")
    start = request.get("ExclusiveStartKey")
    if start is not None:
        if one_row:
            raise ValidationException("The query can return at most one row and cannot be restarted")
        _check_start_key(table, index, start)
        _check_query_start(key, start, hash_value, sort_condition, prefix)
    page = engine.query_page(table.name, request.get("IndexName"), hash_value, sort_condition, prefix=prefix,
                        forward=request.get("ScanIndexForward", True) is not False,
                        start_key=start, limit=request.get("Limit"),
                        consistent=bool(request.get("ConsistentRead")),
                        matches_fn=compile_condition(filter_) if filter_ is not None else None,
                        reach_back=_reach_back(table, index, paths, request, filter_), emit=_emit(request, paths))
    if one_row:
        page.last_key = None
    return _respond(request, page, paths, table, index)


def scan(engine: Engine, request: dict) -> dict:
    """Scan: one page of the table or index, or of one segment of it (item-api §5.12)."""
    request = shapes.check("Scan", request)
    expressions = Expressions(request, ("FilterExpression", "ProjectionExpression"))
    filter_ = expressions.condition(request.get("FilterExpression"), "FilterExpression")
    paths = expressions.projection(request.get("ProjectionExpression"))
    expressions.finish()
    filter_ = legacy.lower_scan(request, filter_)
    _check_select(request, "Scan")
    segment, total = _check_segments(request)
    paths = paths if paths is not None else shapes.attributes_to_get(request)
    table, index = _resolve_index(engine, request, "Scan")
    check_key_paths(table.spec, request, filter_, paths)
    start = request.get("ExclusiveStartKey")
    if start is not None:
        _check_start_key(table, index, start)
        _check_scan_start(table, index, start, segment, total)
    page = engine.scan_page(table.name, request.get("IndexName"), start_key=start,
                       limit=request.get("Limit"), consistent=bool(request.get("ConsistentRead")),
                       matches_fn=compile_condition(filter_) if filter_ is not None else None,
                       segment=segment, total_segments=total,
                       reach_back=_reach_back(table, index, paths, request, filter_), emit=_emit(request, paths))
    return _respond(request, page, paths, table, index)


OPERATIONS = {"Query": query, "Scan": scan}
