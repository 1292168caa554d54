"""EXPLAIN and .describe, rendered for people.

``render_plan`` shows what a statement lowers to: the access path, whether
it is a full table scan (the IAM condition key ``dynamodb:FullTableScan``),
the capacity estimate and each DynamoDB request as indented JSON.
``render_description`` shows a table's TableDescription: keys, billing,
size, indexes with their projections, and partitions.
"""

from __future__ import annotations

import json


def render_plan(plan) -> str:
    """A PlanSummary as text: a header, the scan flag, the estimate, each request as JSON."""
    lines = [plan.access_path,
             f"full table scan: {'yes' if plan.full_table_scan else 'no'}"]
    if plan.capacity_estimate:
        lines.append(f"capacity estimate: {plan.capacity_estimate}")
    total = len(plan.requests)
    for number, request in enumerate(plan.requests, 1):
        label = f"{plan.kind} request" + (f" {number} of {total}" if total > 1 else "")
        lines.append(f"{label}:")
        lines.append(_indent(pretty_json(request)))
    return "\n".join(lines)


def pretty_json(value, width: int = 72, depth: int = 0) -> str:
    """JSON indented by two spaces, with any object or array that fits in ``width`` on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or len(flat) + 2 * depth <= width:
        return flat
    pad = "  " * (depth + 1)
    if isinstance(value, dict):
        members = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {pretty_json(v, width, depth + 1)}"
                   for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + "  " * depth + "}"
    members = [pad + pretty_json(v, width, depth + 1) for v in value]
    return "[\n" + ",\n".join(members) + "\n" + "  " * depth + "]"


def _indent(text: str, by: str = "  ") -> str:
    return "\n".join(by + line for line in text.splitlines())


# ---------------------------------------------------------------- .describe

def _key(schema: list, types: dict) -> str:
    return ", ".join(f"{k['AttributeName']} {types.get(k['AttributeName'], '?')} {k['KeyType']}"
                     for k in schema)


def _throughput(description: dict) -> str:
    summary = description.get("ProvisionedThroughput") or {}
    return f"{summary.get('ReadCapacityUnits', 0)} RCU, {summary.get('WriteCapacityUnits', 0)} WCU"


def _on_demand(table: dict) -> bool:
    return (table.get("BillingModeSummary") or {}).get("BillingMode") == "PAY_PER_REQUEST"


def _billing(table: dict) -> str:
    return "PAY_PER_REQUEST" if _on_demand(table) else f"PROVISIONED ({_throughput(table)})"


def _hash_range(bounds) -> str:
    """A partition's key-hash range [low, high) as 16 hex digits each way."""
    low, high = bounds
    return f"{low:016x}-{high - 1:016x}"


def _projection(index: dict) -> str:
    projection = index.get("Projection") or {}
    kind = projection.get("ProjectionType", "ALL")
    if kind == "INCLUDE":
        return f"INCLUDE ({', '.join(projection.get('NonKeyAttributes', []))})"
    return kind


def _index_rows(table: dict, types: dict) -> list:
    rows = []
    provisioned = not _on_demand(table)
    for kind, member in (("GSI", "GlobalSecondaryIndexes"), ("LSI", "LocalSecondaryIndexes")):
        for index in table.get(member) or []:
            capacity = [_throughput(index) if kind == "GSI" else ""] if provisioned else []
            rows.append([kind, index["IndexName"], _key(index["KeySchema"], types), _projection(index),
                         index.get("ItemCount", 0)] + capacity)
    return rows


def render_description(table: dict) -> str:
    """A DynamoDB TableDescription (plus our ``Partitions``) as text."""
    from tabulate import tabulate  # why: ~30 ms to import; only .describe and tables need it

    types = {d["AttributeName"]: d["AttributeType"] for d in table.get("AttributeDefinitions", [])}
    lines = [f"Table {table['TableName']} ({table.get('TableStatus', 'ACTIVE')})",
             f"  key:      {_key(table['KeySchema'], types)}",
             f"  billing:  {_billing(table)}",
             f"  items:    {table.get('ItemCount', 0)}",
             f"  size:     {table.get('TableSizeBytes', 0)} bytes"]
    indexes = _index_rows(table, types)
    if indexes:
        headers = ["", "name", "key", "projection", "items", "provisioned"]
        lines += ["Indexes:", _indent(tabulate(indexes, headers=headers[:len(indexes[0])], tablefmt="plain"))]
    partitions = table.get("Partitions") or []
    if partitions:
        rows = [[p["Partition"], _hash_range(p["KeyHashRange"]), p["ItemCount"], p["SizeBytes"]]
                for p in partitions]
        lines += ["Partitions:", _indent(tabulate(rows, headers=["partition", "key hash range", "items",
                                                                "bytes"], tablefmt="plain"))]
    return "\n".join(lines)
