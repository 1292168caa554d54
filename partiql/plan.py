"""The plan vocabulary: DynamoDB calls, each able to render its request (EXPLAIN).

A planned statement lowers to these nodes, named as DynamoDB's API names
them. ``request()`` renders the DynamoDB request JSON a node stands for —
expressions with ``#n`` / ``:v`` placeholders, values in wire form — which is
what ``EXPLAIN`` prints and ``PlanSummary.requests`` holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from partiql.engine.expressions import model as m
from partiql.engine.expressions.render import Renderer
from partiql.engine.wire_values import to_wire


def _expressions(request: dict, renderer: Renderer) -> dict:
    if renderer.names:
        request["ExpressionAttributeNames"] = dict(renderer.names)
    if renderer.values:
        request["ExpressionAttributeValues"] = {k: to_wire(v) for k, v in renderer.values.items()}
    return request


def _key_wire(key: dict) -> dict:
    return {name: to_wire(value) for name, value in key.items()}


# How each kind of request member is rendered (None leaves the member out).
_RENDERERS = {
    "value": lambda renderer, value: value,
    "attributes": lambda renderer, value: _key_wire(value),
    "condition": lambda renderer, value: renderer.condition(value),
    "update": lambda renderer, value: renderer.update(value),
    "projection": lambda renderer, value: renderer.projection(value) if value else None,
    "return_values": lambda renderer, value: None if value == "NONE" else value,
}


class _Call:
    """A DynamoDB call whose request is declared as (member, attribute, kind) rows, in member order."""

    MEMBERS: tuple = ()

    def request(self) -> dict:
        renderer = Renderer()
        out = {}
        for member, attribute, kind in self.MEMBERS:
            value = getattr(self, attribute)
            if callable(value):
                value = value()
            rendered = None if value is None else _RENDERERS[kind](renderer, value)
            if rendered is not None:
                out[member] = rendered
        return _expressions(out, renderer)


@dataclass
class GetItem(_Call):
    """A point read of the table; ``filter`` is applied to the item read."""

    table: str
    key: dict
    filter: object = None
    projection: tuple | None = None  # model paths, or None for every attribute
    consistent: bool = False

    MEMBERS = (("TableName", "table", "value"), ("Key", "key", "attributes"),
               ("ProjectionExpression", "projection", "projection"), ("FilterExpression", "filter", "condition"),
               ("ConsistentRead", "consistent", "value"))


@dataclass
class Query(_Call):
    """A Query of the table or an index: one partition value, an optional sort condition."""

    table: str
    index: str | None
    hash_name: str
    hash_value: object
    sort_name: str | None = None
    sort: tuple | None = None  # (op, value[, value2])
    filter: object = None
    projection: tuple | None = None
    forward: bool = True
    consistent: bool = False

    MEMBERS = (("TableName", "table", "value"), ("IndexName", "index", "value"),
               ("KeyConditionExpression", "key_condition", "condition"),
               ("FilterExpression", "filter", "condition"), ("ProjectionExpression", "projection", "projection"),
               ("ConsistentRead", "consistent", "value"), ("ScanIndexForward", "forward", "value"))

    def key_condition(self):
        """The KeyConditionExpression as a model condition."""
        hash_condition = m.Comparison("=", m.Path((self.hash_name,)), m.Value(self.hash_value))
        if self.sort is None:
            return hash_condition
        path = m.Path((self.sort_name,))
        op = self.sort[0]
        if op == "BETWEEN":
            sort = m.Between(path, m.Value(self.sort[1]), m.Value(self.sort[2]))
        elif op == "BEGINS_WITH":
            sort = m.Call("begins_with", (path, m.Value(self.sort[1])))
        else:
            sort = m.Comparison(op, path, m.Value(self.sort[1]))
        return m.And((hash_condition, sort))


@dataclass
class Scan(_Call):
    """A full Scan of the table or an index: ``dynamodb:FullTableScan`` is true."""

    table: str
    index: str | None = None
    filter: object = None
    projection: tuple | None = None
    consistent: bool = False

    MEMBERS = (("TableName", "table", "value"), ("IndexName", "index", "value"),
               ("FilterExpression", "filter", "condition"), ("ProjectionExpression", "projection", "projection"),
               ("ConsistentRead", "consistent", "value"))


@dataclass
class PutItem(_Call):
    table: str
    item: dict
    condition: object = None

    MEMBERS = (("TableName", "table", "value"), ("Item", "item", "attributes"),
               ("ConditionExpression", "condition", "condition"))


@dataclass
class UpdateItem(_Call):
    table: str
    key: dict
    update: object
    condition: object = None
    return_values: str = "NONE"

    MEMBERS = (("TableName", "table", "value"), ("Key", "key", "attributes"),
               ("UpdateExpression", "update", "update"), ("ConditionExpression", "condition", "condition"),
               ("ReturnValues", "return_values", "return_values"))


@dataclass
class DeleteItem(_Call):
    table: str
    key: dict
    condition: object = None
    return_values: str = "NONE"

    MEMBERS = (("TableName", "table", "value"), ("Key", "key", "attributes"),
               ("ConditionExpression", "condition", "condition"),
               ("ReturnValues", "return_values", "return_values"))


@dataclass
class ConditionCheck(_Call):
    """EXISTS(SELECT …) inside a transaction."""

    table: str
    key: dict
    condition: object

    MEMBERS = (("TableName", "table", "value"), ("Key", "key", "attributes"),
               ("ConditionExpression", "condition", "condition"))


@dataclass
class IndexQuery(_Call):
    """A Query the API serves and PartiQL does not: one of a multi-attribute GSI (multi-attribute-keys.md §10),
    its key condition over the index's key attributes, the rest of the WHERE as its filter."""

    table: str
    index: str
    key_condition: object
    filter: object = None
    projection: tuple | None = None
    forward: bool = True

    MEMBERS = (("TableName", "table", "value"), ("IndexName", "index", "value"),
               ("KeyConditionExpression", "key_condition", "condition"),
               ("FilterExpression", "filter", "condition"), ("ProjectionExpression", "projection", "projection"),
               ("ScanIndexForward", "forward", "value"))


@dataclass
class TableOperation:
    """A DDL statement lowered to a control-plane call (CreateTable, DeleteTable…)."""

    operation: str
    request_body: dict = field(default_factory=dict)

    def request(self) -> dict:
        return dict(self.request_body)
