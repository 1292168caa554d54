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
from partiql.engine.types import to_wire


def _expressions(request: dict, renderer: Renderer) -> dict:
    if renderer.names:
        request["ExpressionAttributeNames"] = dict(renderer.names)
    if renderer.values:
        request["ExpressionAttributeValues"] = {k: to_wire(v) for k, v in renderer.values.items()}
    return request


def _key_wire(key: dict) -> dict:
    return {name: to_wire(value) for name, value in key.items()}


@dataclass
class GetItem:
    """A point read of the table; ``filter`` is applied to the item read."""

    table: str
    key: dict
    filter: object = None
    projection: tuple | None = None  # model paths, or None for every attribute
    consistent: bool = False

    def request(self) -> dict:
        renderer = Renderer()
        out = {"TableName": self.table, "Key": _key_wire(self.key)}
        if self.projection:
            out["ProjectionExpression"] = renderer.projection(self.projection)
        if self.filter is not None:
            out["FilterExpression"] = renderer.condition(self.filter)
        out["ConsistentRead"] = self.consistent
        return _expressions(out, renderer)


@dataclass
class Query:
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

    def request(self) -> dict:
        renderer = Renderer()
        out = {"TableName": self.table}
        if self.index is not None:
            out["IndexName"] = self.index
        out["KeyConditionExpression"] = renderer.condition(self.key_condition())
        if self.filter is not None:
            out["FilterExpression"] = renderer.condition(self.filter)
        if self.projection:
            out["ProjectionExpression"] = renderer.projection(self.projection)
        out["ConsistentRead"] = self.consistent
        out["ScanIndexForward"] = self.forward
        return _expressions(out, renderer)


@dataclass
class Scan:
    """A full Scan of the table or an index: ``dynamodb:FullTableScan`` is true."""

    table: str
    index: str | None = None
    filter: object = None
    projection: tuple | None = None
    consistent: bool = False

    def request(self) -> dict:
        renderer = Renderer()
        out = {"TableName": self.table}
        if self.index is not None:
            out["IndexName"] = self.index
        if self.filter is not None:
            out["FilterExpression"] = renderer.condition(self.filter)
        if self.projection:
            out["ProjectionExpression"] = renderer.projection(self.projection)
        out["ConsistentRead"] = self.consistent
        return _expressions(out, renderer)


@dataclass
class PutItem:
    table: str
    item: dict
    condition: object = None

    def request(self) -> dict:
        renderer = Renderer()
        out = {"TableName": self.table, "Item": _key_wire(self.item)}
        if self.condition is not None:
            out["ConditionExpression"] = renderer.condition(self.condition)
        return _expressions(out, renderer)


@dataclass
class UpdateItem:
    table: str
    key: dict
    update: object
    condition: object = None
    return_values: str = "NONE"

    def request(self) -> dict:
        renderer = Renderer()
        out = {"TableName": self.table, "Key": _key_wire(self.key),
               "UpdateExpression": renderer.update(self.update)}
        if self.condition is not None:
            out["ConditionExpression"] = renderer.condition(self.condition)
        if self.return_values != "NONE":
            out["ReturnValues"] = self.return_values
        return _expressions(out, renderer)


@dataclass
class DeleteItem:
    table: str
    key: dict
    condition: object = None
    return_values: str = "NONE"

    def request(self) -> dict:
        renderer = Renderer()
        out = {"TableName": self.table, "Key": _key_wire(self.key)}
        if self.condition is not None:
            out["ConditionExpression"] = renderer.condition(self.condition)
        if self.return_values != "NONE":
            out["ReturnValues"] = self.return_values
        return _expressions(out, renderer)


@dataclass
class ConditionCheck:
    """EXISTS(SELECT …) inside a transaction."""

    table: str
    key: dict
    condition: object

    def request(self) -> dict:
        renderer = Renderer()
        out = {"TableName": self.table, "Key": _key_wire(self.key),
               "ConditionExpression": renderer.condition(self.condition)}
        return _expressions(out, renderer)


@dataclass
class TableOperation:
    """A DDL statement lowered to a control-plane call (CreateTable, DeleteTable…)."""

    operation: str
    request_body: dict = field(default_factory=dict)

    def request(self) -> dict:
        return dict(self.request_body)
