"""What DescribeTable, CreateTable, DeleteTable and ListTables return (item-api §5.2, §5.4)."""

from __future__ import annotations


from ..envelope import check_request
from ..schema import IndexSpec, TableSpec, Throughput
from .control import LIST_TABLES, ON_DEMAND, PROVISIONED


def table_arn(name: str, region: str = "us-east-1", account: str = "123456789012") -> str:
    """``arn:aws:dynamodb:<region>:<account>:table/<name>``."""
    return f"arn:aws:dynamodb:{region}:{account}:table/{name}"


def _throughput_description(throughput: Throughput | None, history: dict | None = None) -> dict:
    # why: on-demand tables and their GSIs report 0, 0, 0
    out = {"NumberOfDecreasesToday": 0,
           "ReadCapacityUnits": throughput.read if throughput else 0,
           "WriteCapacityUnits": throughput.write if throughput else 0}
    out.update(history or {})
    return out


def _billing_summary(spec: TableSpec, created_at, billing_updated_at) -> dict | None:
    if spec.billing_mode == ON_DEMAND:
        summary = {"BillingMode": ON_DEMAND}
        stamp = billing_updated_at if billing_updated_at is not None else created_at
        if stamp is not None:
            summary["LastUpdateToPayPerRequestDateTime"] = stamp
        return summary
    if billing_updated_at is not None:  # switched to provisioned at some point
        return {"BillingMode": PROVISIONED, "LastUpdateToPayPerRequestDateTime": billing_updated_at}
    return None  # created provisioned: omitted, as dynalite does (§5.2, R)


def _stats(index_stats, name: str) -> dict:
    """``(count, bytes)`` or a mapping with ItemCount/IndexSizeBytes/IndexStatus/Backfilling."""
    found = (index_stats or {}).get(name)
    if found is None:
        return {}
    if isinstance(found, dict):
        return found
    count, size = found
    return {"ItemCount": count, "IndexSizeBytes": size}


def _lsi_description(index: IndexSpec, arn: str, stats: dict) -> dict:
    return {"IndexName": index.name, "KeySchema": index.key.to_api(),
            "Projection": index.projection.to_api(),
            "IndexSizeBytes": stats.get("IndexSizeBytes", 0), "ItemCount": stats.get("ItemCount", 0),
            "IndexArn": f"{arn}/index/{index.name}"}


def _gsi_description(index: IndexSpec, arn: str, stats: dict) -> dict:
    status = stats.get("IndexStatus", "ACTIVE")
    out = {"IndexName": index.name, "KeySchema": index.key.to_api(),
           "Projection": index.projection.to_api(), "IndexStatus": status}
    if status == "CREATING":
        out["Backfilling"] = stats.get("Backfilling", True)
    out.update({"ProvisionedThroughput": _throughput_description(index.throughput),
                "IndexSizeBytes": stats.get("IndexSizeBytes", 0),
                "ItemCount": stats.get("ItemCount", 0),
                "IndexArn": f"{arn}/index/{index.name}"})
    return out


def table_description(spec: TableSpec, *, status: str, created_at: float, item_count: int,
                      size_bytes: int, table_id: str, index_stats=None,
                      region: str = "us-east-1", account: str = "123456789012",
                      partitions: list | None = None, stream_label: str | None = None,
                      billing_updated_at: float | None = None,
                      throughput_history: dict | None = None, vectors: list | None = None) -> dict:
    """DynamoDB's TableDescription (§5.2).

    ``index_stats`` maps index name → ``(item_count, size_bytes)`` or a dict
    with ``ItemCount``, ``IndexSizeBytes``, ``IndexStatus`` (default ACTIVE)
    and ``Backfilling``. ``stream_label`` is the LatestStreamLabel. ``billing_updated_at`` is when the table last
    switched billing mode; ``throughput_history`` is merged into the table's
    ProvisionedThroughput (LastIncreaseDateTime, LastDecreaseDateTime,
    NumberOfDecreasesToday). ``partitions`` is our extension, passed through
    under "Partitions". ``vectors``: ``(VectorIndexSpec, stats)`` pairs, stats a dict with ``ItemCount``,
    ``IndexSizeBytes``, ``IndexStatus`` and maybe ``Backfilling`` (vector-search.md §2.5).
    """
    arn = table_arn(spec.name, region, account)
    out = {
        "AttributeDefinitions": [{"AttributeName": name, "AttributeType": kind}
                                 for name, kind in spec.attribute_types.items()],
        "TableName": spec.name,
        "KeySchema": spec.key.to_api(),
        "TableStatus": status,
        "CreationDateTime": created_at,
        "ProvisionedThroughput": _throughput_description(spec.throughput, throughput_history),
        "TableSizeBytes": size_bytes,
        "ItemCount": item_count,
        "TableArn": arn,
        "TableId": table_id,
    }
    summary = _billing_summary(spec, created_at, billing_updated_at)
    if summary is not None:
        out["BillingModeSummary"] = summary
    if spec.lsis:
        out["LocalSecondaryIndexes"] = [_lsi_description(index, arn, _stats(index_stats, index.name))
                                        for index in spec.lsis]
    if spec.gsis:
        out["GlobalSecondaryIndexes"] = [_gsi_description(index, arn, _stats(index_stats, index.name))
                                         for index in spec.gsis]
    if vectors:
        out["VectorIndexes"] = [dict(index.to_api(spec.attribute_types), **stats,
                                     IndexArn=f"{arn}/index/{index.name}") for index, stats in vectors]
    if spec.stream_view_type is not None:  # absent when no stream is enabled
        label = stream_label  # (Streams.sync names it)
        out["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": spec.stream_view_type}
        out["LatestStreamLabel"] = label
        out["LatestStreamArn"] = f"{arn}/stream/{label}"
    out["DeletionProtectionEnabled"] = spec.deletion_protection
    if spec.on_demand is not None:
        out["OnDemandThroughput"] = spec.on_demand.to_api()
    if spec.warm is not None:
        out["WarmThroughput"] = spec.warm.to_api()
    if partitions is not None:
        out["Partitions"] = list(partitions)
    return out


def deleted_table_description(spec: TableSpec, *, table_id: str, item_count: int = 0,
                              size_bytes: int = 0, created_at: float | None = None,
                              region: str = "us-east-1", account: str = "123456789012",
                              billing_updated_at: float | None = None,
                              throughput_history: dict | None = None) -> dict:
    """DeleteTable's reduced TableDescription (status DELETING; no keys, indexes or dates)."""
    out = {"TableName": spec.name, "TableStatus": "DELETING", "TableId": table_id,
           "TableArn": table_arn(spec.name, region, account)}
    summary = _billing_summary(spec, created_at, billing_updated_at)
    if summary is not None:
        out["BillingModeSummary"] = summary
    out["ProvisionedThroughput"] = _throughput_description(spec.throughput, throughput_history)
    out["TableSizeBytes"] = size_bytes
    out["ItemCount"] = item_count
    return out


# ============================================================= ListTables (§5.4)

def _name_bytes(name: str) -> bytes:
    return name.encode("utf-8")


def list_tables_page(names, request: dict) -> dict:
    """One ListTables page: names in byte order after ExclusiveStartTableName, at most Limit.

    ``LastEvaluatedTableName`` is present only when more names remain.
    """
    checked = check_request(request, LIST_TABLES)
    limit = checked.get("Limit", 100)
    ordered = sorted(names, key=_name_bytes)
    start = checked.get("ExclusiveStartTableName")
    if start is not None:  # need not exist; the page starts strictly after it
        ordered = [name for name in ordered if _name_bytes(name) > _name_bytes(start)]
    page = ordered[:limit]
    out = {"TableNames": page}
    if len(ordered) > limit:
        out["LastEvaluatedTableName"] = page[-1]
    return out
