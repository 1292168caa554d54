"""Patterns that are item-API requests instead of PartiQL: what an imported model's access patterns are
(the AWS MCP server writes them as AWS CLI commands).

::

    [[pattern]]
    name = "orders of a customer"
    operation = "Query"
    request = { TableName = "Orders", KeyConditionExpression = "pk = :pk",
                ExpressionAttributeValues = { ":pk" = "?" } }
    params = [{ item = "Orders.pk" }]
    rate = 50

The request is DynamoDB's JSON, as the wire carries it; a ``"?"`` in place of
an attribute value takes the next of ``params`` (in the order a depth-first
walk of the request meets them). It runs through the wire layer
(``wire_call``: DynamoDB's validation and messages), with
``ReturnConsumedCapacity`` TOTAL for the units it consumed (a SearchVectors pattern: the bytes its searches
examined, vector-search.md §6.4, reported beside the units).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from partiql.engine.types import from_python
from partiql.engine.wire_values import to_wire

from .errors import WorkloadError

OPERATIONS = ("GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem", "BatchWriteItem",
              "TransactGetItems", "TransactWriteItems", "SearchVectors")
MARK = "?"


@dataclass(frozen=True)
class ItemRequest:
    """An operation and its request (wire JSON) with ``?`` where drawn values go."""

    operation: str
    body: dict

    @property
    def marks(self) -> int:
        return _count(self.body)

    @property
    def shown(self) -> str:
        """How reports show it (where a statement would be)."""
        return f"{self.operation} {json.dumps(self.body, separators=(',', ':'), ensure_ascii=False)}"

    @property
    def table(self) -> str | None:
        name = self.body.get("TableName")
        return name if isinstance(name, str) else None

    def filled(self, values: list) -> dict:
        """The request with each ``?`` replaced by the next of ``values`` (Python values), asking for its
        consumed capacity."""
        body = copy.deepcopy(self.body)
        _fill(body, iter(values))
        body["ReturnConsumedCapacity"] = "TOTAL"
        return body


def parse_request(operation, request, where: str) -> ItemRequest:
    if operation not in OPERATIONS:
        raise WorkloadError(f"{where}.operation takes {', '.join(OPERATIONS)}, not {operation!r}")
    if not isinstance(request, dict) or not request:
        raise WorkloadError(f"{where}.request takes the {operation} request, as DynamoDB's JSON")
    return ItemRequest(operation, request)


def consumed(response: dict) -> float:
    """The units a response says were consumed (a list for the batch and transaction operations)."""
    found = response.get("ConsumedCapacity") or []
    return sum(entry.get("CapacityUnits", 0.0) for entry in ([found] if isinstance(found, dict) else found))


def search_bytes(response: dict) -> float:
    """The bytes a SearchVectors response says it examined (vector-search.md §6.4); 0 for the others."""
    found = response.get("ConsumedCapacity")
    return found.get("VectorSearchRequestBytes", 0.0) if isinstance(found, dict) else 0.0


def _count(value) -> int:
    if value == MARK:
        return 1
    members = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return sum(_count(member) for member in members)


def _fill(value, values) -> None:
    members = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, member in list(members):
        if member == MARK:
            drawn = to_wire(from_python(next(values)))
            # why: SearchVector is a bare list of numbers, not a list attribute value (vector-search.md §5.2)
            value[key] = drawn["L"] if key == "SearchVector" and "L" in drawn else drawn
        else:
            _fill(member, values)
