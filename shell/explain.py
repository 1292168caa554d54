"""EXPLAIN and .describe, rendered for people.

``render_plan`` shows what a statement lowers to: the access path, whether
it is a full table scan (the IAM condition key ``dynamodb:FullTableScan``),
the capacity estimate and each DynamoDB request as indented JSON.
``render_description`` shows a table's TableDescription: keys, billing,
size, indexes with their projections, and partitions.
"""

from __future__ import annotations

import json

from partiql.schema import on_demand


def render_plan(plan) -> str:
    """A PlanSummary as text: a header, the scan flag, the estimate, each request as JSON."""
    lines = [plan.access_path,
             f"full table scan: {'yes' if plan.full_table_scan else 'no'}"]
    if plan.refused:
        lines.append(f"refused by DynamoDB's PartiQL: {plan.refused} The API serves the same read:")
    if plan.capacity_estimate:
        lines.append(f"capacity estimate: {plan.capacity_estimate}")
    lines += [f"realism: {line}" for line in plan.realism]
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


def _billing(table: dict) -> str:
    return "PAY_PER_REQUEST" if on_demand(table) else f"PROVISIONED ({_throughput(table)})"


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
    provisioned = not on_demand(table)
    for kind, member in (("GSI", "GlobalSecondaryIndexes"), ("LSI", "LocalSecondaryIndexes")):
        for index in table.get(member) or []:
            capacity = [_throughput(index) if kind == "GSI" else ""] if provisioned else []
            rows.append([kind, index["IndexName"], _key(index["KeySchema"], types), _projection(index),
                         f"{index.get('ItemCount', 0):,}", human_bytes(index.get("IndexSizeBytes", 0))] + capacity)
    return rows


def _vector_rows(table: dict) -> list:
    """A row per vector index: its vector (attribute × dimensions), distance, SearchSchema, projection, size."""
    rows = []
    for index in table.get("VectorIndexes") or []:
        schema = ", ".join(f"{e['AttributeName']} {'HASH' if e['SearchSchemaElementType'] == 'HASH' else 'FILTER'}"
                           for e in index.get("SearchSchema") or []) or "-"
        status = "" if index.get("IndexStatus", "ACTIVE") == "ACTIVE" else f" ({index['IndexStatus']})"
        rows.append([index["IndexName"] + status, f"{index['VectorAttribute']['AttributeName']} × {index['Dimensions']}",
                     index["DistanceFunction"], schema, _projection(index), f"{index.get('ItemCount', 0):,}",
                     human_bytes(index.get("IndexSizeBytes", 0))])
    return rows


def render_tables(descriptions: list) -> str:
    """``.tables``: each table's key, indexes and item count."""
    from tabulate import tabulate

    rows = []
    for table in descriptions:
        types = {d["AttributeName"]: d["AttributeType"] for d in table.get("AttributeDefinitions", [])}
        indexes = [f"{index['IndexName']} ({kind})" for kind, member in (("GSI", "GlobalSecondaryIndexes"),
                                                                          ("LSI", "LocalSecondaryIndexes"))
                   for index in table.get(member) or []]
        rows.append([table["TableName"], _key(table["KeySchema"], types), ", ".join(indexes) or "-",
                     f"{table.get('ItemCount', 0):,}"])
    return tabulate(rows, headers=["table", "key", "indexes", "items"], tablefmt="plain", disable_numparse=True,
                    colalign=("left", "left", "left", "right"))


def human_bytes(size: int) -> str:
    """``812 B``, ``14.2 KB``, ``3.1 MB``: sizes in DynamoDB's units (1 KB = 1,024 bytes)."""
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:,} {unit}" if unit == "B" else f"{size:,.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


# A partition-key value holding at least this share of at least SKEW_ITEMS items is flagged: its
# partition takes that share of every read and write of the table or index (a hot key in waiting).
SKEW_SHARE = 0.10
SKEW_ITEMS = 100


def spread_lines(spread: dict) -> list:
    """How items spread over partition-key values, per table and index, skewed ones flagged."""
    lines = []
    for name, (values, items, largest, most) in spread.items():
        if not items:
            continue
        share = most / items
        text = (f"{name or 'table'}: {values:,} partition-key value{'s' if values != 1 else ''} for {items:,} "
                f"item{'s' if items != 1 else ''}; the largest ({_literal(largest)}) holds {share:.0%}")
        if share >= SKEW_SHARE and items >= SKEW_ITEMS:
            text += f" -- skewed: one partition takes {share:.0%} of its reads and writes"
        lines.append(text)
    return lines


def _literal(value) -> str:
    """A key value as PartiQL writes it: 'text', 42, binary as hex, a multi-attribute index's HASH values as a
    map ({'TenantId': 't1', 'Region': 'eu'})."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(name)}: {_literal(part)}" for name, part in value.items()) + "}"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, (bytes, bytearray)):
        return f"x'{bytes(value).hex()}'"
    return str(value)


def render_description(table: dict, layout: dict | None = None) -> str:
    """A DynamoDB TableDescription as text; ``layout`` (``Connection.layout``) adds how the items spread
    over partition-key values, advice on the design and the partitions."""
    from tabulate import tabulate  # why: ~30 ms to import; only .describe and tables need it

    types = {d["AttributeName"]: d["AttributeType"] for d in table.get("AttributeDefinitions", [])}
    lines = [f"Table {table['TableName']} ({table.get('TableStatus', 'ACTIVE')})",
             f"  key:      {_key(table['KeySchema'], types)}",
             f"  billing:  {_billing(table)}",
             f"  items:    {table.get('ItemCount', 0):,}",
             f"  size:     {human_bytes(table.get('TableSizeBytes', 0))}"]
    indexes = _index_rows(table, types)
    if indexes:
        headers = ["", "name", "key", "projection", "items", "size", "provisioned"]
        width = len(indexes[0])
        lines += ["Indexes:", _indent(tabulate(indexes, headers=headers[:width], tablefmt="plain",
                                               disable_numparse=True,
                                               colalign=("left",) * 4 + ("right",) * (width - 4)))]
    vectors = _vector_rows(table)
    if vectors:
        lines += ["Vector indexes:", _indent(tabulate(
            vectors, headers=["name", "vector", "distance", "search schema", "projection", "items", "size"],
            tablefmt="plain", disable_numparse=True, colalign=("left",) * 5 + ("right",) * 2))]
    layout = layout or {}
    spread, advice = layout.get("key_spread"), layout.get("advice")
    if spread:
        found = spread_lines(spread)
        if found:
            lines += ["Partition keys:"] + [f"  {line}" for line in found]
    if advice:
        lines += ["Advice:"] + [f"  {line}" for line in advice]
    partitions = layout.get("partitions", table.get("Partitions")) or []
    if partitions:
        rows = [[p["Partition"], _hash_range(p["KeyHashRange"]), f"{p['ItemCount']:,}", human_bytes(p["SizeBytes"])]
                for p in partitions]
        lines += ["Partitions:", _indent(tabulate(rows, headers=["partition", "key hash range", "items",
                                                                "size"], tablefmt="plain",
                                                  colalign=("right", "left", "right", "right")))]
    return "\n".join(lines)
