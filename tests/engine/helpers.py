"""Small builders the engine tests share: key schemas, attribute definitions,
tables, cancellation reasons in DynamoDB's JSON shape."""

from __future__ import annotations


def key_schema(hash_name: str, range_name: str | None = None) -> list:
    """KeySchema: a HASH element and an optional RANGE element."""
    out = [{"AttributeName": hash_name, "KeyType": "HASH"}]
    if range_name:
        out.append({"AttributeName": range_name, "KeyType": "RANGE"})
    return out


def definitions(**types) -> list:
    """AttributeDefinitions from ``name=type`` pairs."""
    return [{"AttributeName": name, "AttributeType": kind} for name, kind in types.items()]


def create(db, name: str, hash_name: str = "pk", range_name: str | None = None, types: dict | None = None, **extra):
    """An on-demand table with string keys unless ``types`` says otherwise; its description."""
    types = types or {hash_name: "S", **({range_name: "S"} if range_name else {})}
    extra.setdefault("BillingMode", "PAY_PER_REQUEST")
    return db.create_table(TableName=name, AttributeDefinitions=definitions(**types),
                           KeySchema=key_schema(hash_name, range_name), **extra)["TableDescription"]


def reasons(error, item=lambda value: value) -> list:
    """A TransactionCanceledException's CancellationReasons as DynamoDB sends them (items via ``item``)."""
    out = []
    for reason in error.reasons:
        entry = {"Code": reason.code}
        if reason.message is not None:
            entry["Message"] = reason.message
        if reason.item is not None:
            entry["Item"] = item(reason.item)
        out.append(entry)
    return out


def snapshot(db) -> dict:
    """Items of every table and index, counts, sizes, partitions, collection sizes."""
    state = {}
    for name in db.table_names():
        description = db.describe_table(TableName=name)["Table"]
        description.pop("CreationDateTime")
        state[name] = description
        state[name, "items"] = sorted(map(repr, db.scan(TableName=name, ConsistentRead=True)["Items"]))
        for index in description.get("GlobalSecondaryIndexes", []) + description.get("LocalSecondaryIndexes", []):
            items = db.scan(TableName=name, IndexName=index["IndexName"])["Items"]
            state[name, index["IndexName"]] = sorted(map(repr, items))
        state[name, "collections"] = dict(db.tables[name].collection_bytes)
    return state
