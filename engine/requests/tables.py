"""CreateTable, DescribeTable, ListTables, DeleteTable, UpdateTable (item-api §5.1–§5.6).

Request problems are reported before the table is looked up (item-api §2.1).
"""

from __future__ import annotations

from ..engine import Engine
from .control import check_deletable, table_not_found, validate_table_name_request
from .create_table import create_table_spec
from .descriptions import deleted_table_description, list_tables_page, table_description
from .update_table import update_table_spec, validate_update_table


def describe(engine: Engine, table, status: str | None = None, vector_states: dict | None = None,
             gone: tuple = ()) -> dict:
    """The TableDescription of a table, with its partitions (our extension); ``vector_states`` maps a vector
    index to the status (and Backfilling) to say of it, ``gone`` the vector indexes deleted by the request
    being answered (said DELETING)."""
    return table_description(
        table.spec, status=status or table.status, created_at=table.created_at,
        item_count=table.item_count, size_bytes=table.size_bytes,
        index_stats={index.name: table.index_stats(index) for index in table.spec.indexes},
        table_id=table.table_id, region=engine.region, account=engine.account,
        partitions=table.store.stats(), stream_label=table.stream_label,
        vectors=_vector_descriptions(table, vector_states or {}, gone))


def _vector_descriptions(table, states: dict, gone: tuple) -> list:
    """(spec, stats) of the table's vector indexes in creation order, then those ``gone``."""
    out = []
    for index in table.spec.vectors:
        count, size = table.vectors.stats(index.name)
        out.append((index, {"IndexStatus": "ACTIVE", **states.get(index.name, {}), "IndexSizeBytes": size,
                            "ItemCount": count}))
    return out + [(index, {"IndexStatus": "DELETING", "IndexSizeBytes": 0, "ItemCount": 0}) for index in gone]


def _existing(engine: Engine, name: str):
    table = engine.tables.get(name)
    if table is None:
        raise table_not_found(name)
    return table


def create_table(engine: Engine, request: dict) -> dict:
    spec = create_table_spec(request)
    with engine.lock:
        engine.storage.check_writable()
        table = engine.add_table(spec)
        engine.streams.sync(table)  # (a stream's label and state are saved with the table)
        engine.storage.save_table(table)
        # CreateTable answers CREATING; the table is usable at once (item-api §5.1, R), its vector indexes too
        # (vector-search.md §3.4: instant index timing)
        creating = {index.name: {"IndexStatus": "CREATING"} for index in spec.vectors}
        return {"TableDescription": describe(engine, table, status="CREATING", vector_states=creating)}


def describe_table(engine: Engine, request: dict) -> dict:
    name = validate_table_name_request(request)
    with engine.lock:
        return {"Table": describe(engine, _existing(engine, name))}


def list_tables(engine: Engine, request: dict) -> dict:
    return list_tables_page(engine.table_names(), request)


def delete_table(engine: Engine, request: dict) -> dict:
    name = validate_table_name_request(request)
    with engine.lock:
        check_deletable(_existing(engine, name).spec)
        table = engine.remove_table(name)
        return {"TableDescription": deleted_table_description(
            table.spec, table_id=table.table_id, item_count=table.item_count,
            size_bytes=table.size_bytes, created_at=table.created_at, region=engine.region,
            account=engine.account)}


def update_table(engine: Engine, request: dict) -> dict:
    name = validate_update_table(request)["TableName"]
    with engine.lock:
        table = _existing(engine, name)
        spec, changes = update_table_spec(table.spec, request)
        engine.storage.check_writable()
        table.set_spec(spec)
        for kind, payload in changes:
            apply = _APPLY.get(kind)
            if apply is not None:
                apply(table, payload)
        table.ensure_partitions()
        engine.version += 1
        engine.streams.sync(table)
        engine.storage.save_table(table)
        return {"TableDescription": _updated(engine, table, changes)}


def _updated(engine: Engine, table, changes: tuple) -> dict:
    """UpdateTable's description: a vector index created or deleted says so (UPDATING; CREATING without
    Backfilling yet, or DELETING), though under instant index timing it is done (vector-search.md §3.4)."""
    created = {spec.name: {"IndexStatus": "CREATING", "Backfilling": False}
               for kind, spec in changes if kind == "create_vector"}
    deleted = tuple(spec for kind, spec in changes if kind == "delete_vector")
    if not created and not deleted:
        return describe(engine, table)
    return describe(engine, table, status="UPDATING", vector_states=created, gone=deleted)


# What the storage does for each kind of change; billing, throughput, deletion
# protection and the like live in the new spec alone.
_APPLY = {
    "create_gsi": lambda table, index: table.add_gsi(index),
    "delete_gsi": lambda table, name: table.drop_gsi(name),
}

OPERATIONS = {"CreateTable": create_table, "DescribeTable": describe_table, "ListTables": list_tables,
              "DeleteTable": delete_table, "UpdateTable": update_table}
