"""A table as the statement that recreates it (``.schema``), or as DynamoDB's CreateTable request.

Both are built from the table's DescribeTable description, so what they say
is what the engine holds. What the shell's DDL cannot say (an on-demand
maximum, warm throughput, deletion protection) is written as a
``--`` comment under the statement; the CreateTable request carries it.
"""

from __future__ import annotations

import re

from partiql.keywords import RESERVED

DDL_TYPES = {"S": "STRING", "N": "NUMBER", "B": "BINARY"}
# Words the DDL reads as its own where a name may stand: a name spelled so is quoted.
CONTEXTUAL = frozenset("""table tables show explain if hash range billing mode provisioned demand gsi lsi
                          projecting keys include rcu wcu only stream new_and_old_images new_image old_image
                          keys_only vector index dimensions filter cosine euclidean dot_product""".split())
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def name(text: str) -> str:
    """A table, index or attribute name as the DDL takes it: bare when it can be, else "quoted"."""
    if _PLAIN.match(text) and text.lower() not in RESERVED and text.lower() not in CONTEXTUAL:
        return text
    return '"' + text.replace('"', '""') + '"'


def create_statement(table: dict) -> str:
    """The CREATE TABLE statement that recreates ``table`` (a TableDescription), one clause a line."""
    types = {d["AttributeName"]: d["AttributeType"] for d in table.get("AttributeDefinitions", [])}
    lines = [f"CREATE TABLE {name(table['TableName'])}",
             f"  PRIMARY KEY ({_keys(table['KeySchema'], types)})",
             f"  BILLING MODE {'ON DEMAND' if on_demand(table) else 'PROVISIONED ' + _units(table)}"]
    for kind, member in (("GSI", "GlobalSecondaryIndexes"), ("LSI", "LocalSecondaryIndexes")):
        for index in table.get(member) or []:
            lines.append("  " + index_clause(kind, index, types, provisioned=kind == "GSI" and not on_demand(table)))
    for index in table.get("VectorIndexes") or []:
        lines.append("  " + vector_clause(index, types))
    stream = table.get("StreamSpecification") or {}
    if stream.get("StreamEnabled"):
        lines.append(f"  STREAM {stream['StreamViewType']}")
    lines[-1] += ";"
    return "\n".join(lines + [f"-- {note}" for note in _unsaid(table)])


def index_clause(kind: str, index: dict, types: dict, provisioned: bool) -> str:
    """``GSI (name ON (keys) PROJECTING … [PROVISIONED (r RCU, w WCU)])`` of an index's description or
    request (``types``: attribute name → S, N or B)."""
    units = f" PROVISIONED {_units(index)}" if provisioned else ""
    return (f"{kind} ({name(index['IndexName'])} ON ({_keys(index['KeySchema'], types)}) "
            f"PROJECTING {_projection(index['Projection'])}{units})")


VECTOR_MEMBERS = ("IndexName", "VectorAttribute", "Dimensions", "DistanceFunction", "Projection", "SearchSchema")


def vector_clause(index: dict, types: dict) -> str:
    """``VECTOR INDEX (name ON attribute DIMENSIONS n DISTANCE [HASH a TYPE] [FILTER b TYPE, …] PROJECTING …)``
    of a vector index's description or request."""
    schema = index.get("SearchSchema") or []
    hashed = [e["AttributeName"] for e in schema if e["SearchSchemaElementType"] == "HASH"]
    filters = [e["AttributeName"] for e in schema if e["SearchSchemaElementType"] == "INLINE_FILTER"]
    parts = [f"VECTOR INDEX ({name(index['IndexName'])} ON {name(index['VectorAttribute']['AttributeName'])}",
             f"DIMENSIONS {index['Dimensions']} {index['DistanceFunction']}"]
    if hashed:
        parts.append(f"HASH {name(hashed[0])} {DDL_TYPES[types[hashed[0]]]}")
    if filters:
        parts.append("FILTER " + ", ".join(f"{name(f)} {DDL_TYPES[types[f]]}" for f in filters))
    return " ".join(parts) + f" PROJECTING {_projection(index['Projection'])})"


def create_request(table: dict) -> dict:
    """The CreateTable request that recreates ``table`` (a TableDescription)."""
    demand = on_demand(table)
    request = {"TableName": table["TableName"], "AttributeDefinitions": table["AttributeDefinitions"],
               "KeySchema": table["KeySchema"], "BillingMode": "PAY_PER_REQUEST" if demand else "PROVISIONED"}
    if not demand:
        request["ProvisionedThroughput"] = _throughput(table)
    gsis = [{"IndexName": index["IndexName"], "KeySchema": index["KeySchema"], "Projection": index["Projection"],
             **({} if demand else {"ProvisionedThroughput": _throughput(index)})}
            for index in table.get("GlobalSecondaryIndexes") or []]
    lsis = [{"IndexName": index["IndexName"], "KeySchema": index["KeySchema"], "Projection": index["Projection"]}
            for index in table.get("LocalSecondaryIndexes") or []]
    if gsis:
        request["GlobalSecondaryIndexes"] = gsis
    if lsis:
        request["LocalSecondaryIndexes"] = lsis
    vectors = [{member: index[member] for member in VECTOR_MEMBERS if member in index}
               for index in table.get("VectorIndexes") or []]
    if vectors:
        request["VectorIndexes"] = vectors
    stream = table.get("StreamSpecification")
    if stream and stream.get("StreamEnabled"):
        request["StreamSpecification"] = stream
    if table.get("OnDemandThroughput"):
        request["OnDemandThroughput"] = table["OnDemandThroughput"]
    warm = table.get("WarmThroughput")
    if warm:
        request["WarmThroughput"] = {k: v for k, v in warm.items() if k != "Status"}
    if table.get("DeletionProtectionEnabled"):
        request["DeletionProtectionEnabled"] = True
    return request


def _keys(schema: list, types: dict) -> str:
    return ", ".join(f"{name(k['AttributeName'])} {DDL_TYPES[types[k['AttributeName']]]} {k['KeyType']}"
                     for k in schema)


def on_demand(table: dict) -> bool:
    """Whether a TableDescription bills on demand."""
    return (table.get("BillingModeSummary") or {}).get("BillingMode") == "PAY_PER_REQUEST"


def _throughput(description: dict) -> dict:
    found = description.get("ProvisionedThroughput") or {}
    return {"ReadCapacityUnits": found.get("ReadCapacityUnits", 0),
            "WriteCapacityUnits": found.get("WriteCapacityUnits", 0)}


def _units(description: dict) -> str:
    found = _throughput(description)
    return f"({found['ReadCapacityUnits']} RCU, {found['WriteCapacityUnits']} WCU)"


def _projection(projection: dict) -> str:
    kind = projection.get("ProjectionType", "ALL")
    if kind == "INCLUDE":
        return f"INCLUDE ({', '.join(name(n) for n in projection.get('NonKeyAttributes', []))})"
    return "KEYS ONLY" if kind == "KEYS_ONLY" else "ALL"


def _unsaid(table: dict) -> list:
    """What the table has that the DDL cannot say."""
    notes = []
    if table.get("OnDemandThroughput"):
        notes.append(f"and OnDemandThroughput {table['OnDemandThroughput']} (UpdateTable)")
    warm = {k: v for k, v in (table.get("WarmThroughput") or {}).items() if k != "Status"}
    if warm:
        notes.append(f"and WarmThroughput {warm} (UpdateTable)")
    if table.get("DeletionProtectionEnabled"):
        notes.append("and deletion protection (UpdateTable DeletionProtectionEnabled)")
    return notes
