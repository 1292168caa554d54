"""``Table.commit_all`` (how the engine applies a long run of puts, an import) leaves every store as
``commit`` one by one does: items, index entries, counts, sizes, and the partitions' layout."""

from __future__ import annotations

import json
import threading
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

import partiql
from partiql.engine import Engine, limits
from partiql.engine.table import BULK_PUTS, Table

TABLES = {
    "hash and range": {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                {"AttributeName": "sk", "AttributeType": "N"}],
                       "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                     {"AttributeName": "sk", "KeyType": "RANGE"}]},
    "hash only": {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]},
    "with a GSI": {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                            {"AttributeName": "sk", "AttributeType": "N"},
                                            {"AttributeName": "g", "AttributeType": "S"}],
                   "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                 {"AttributeName": "sk", "KeyType": "RANGE"}],
                   "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                               "Projection": {"ProjectionType": "INCLUDE",
                                                              "NonKeyAttributes": ["pad"]}}]},
    "with an LSI": {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                             {"AttributeName": "sk", "AttributeType": "N"},
                                             {"AttributeName": "l", "AttributeType": "N"}],
                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                  {"AttributeName": "sk", "KeyType": "RANGE"}],
                    "LocalSecondaryIndexes": [{"IndexName": "byL", "KeySchema": [
                        {"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}],
                        "Projection": {"ProjectionType": "ALL"}}]},
}

ITEMS = st.builds(lambda pk, sk, pad, g, l: {"pk": f"p{pk}", "sk": Decimal(sk), "pad": "x" * pad,
                                              **({"g": f"g{g}"} if g is not None else {}), "l": Decimal(l)},
                  st.integers(0, 12), st.integers(0, 5), st.integers(0, 400), st.none() | st.integers(0, 3),
                  st.integers(0, 3))


def _engine(kind: str, partition_bytes: int) -> Engine:
    engine = Engine(limits.Limits(partition_bytes=partition_bytes))
    engine.create_table(TableName="Items", BillingMode="PAY_PER_REQUEST", **TABLES[kind])
    return engine


def _mutations(engine: Engine, items: list) -> list:
    table = engine.table("Items")
    mutations = []
    for item in items:
        located = table.locate(item["pk"], item.get("sk") if table.spec.key.range_name else None)
        mutations.append(table.prepare(located, table.lookup(located), item))
    return mutations


def _state(engine: Engine) -> list:
    table = engine.table("Items")
    stores = [table.store, *table.gsi_stores.values()]
    state = []
    for store in stores:
        for partition in store.partitions:
            for name, space in partition.spaces.items():
                records = list(space.records())
                assert len(space.by_key) == len(records) and all(space.get(r.key) is r for r in records)
                state.append((partition.lo, partition.hi, name, partition.counts[name], partition.sizes[name],
                              [(r.key, r.size, r.item) for r in records]))
    return state + [dict(table.collection_bytes)]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(TABLES)), st.sampled_from([limits.PARTITION_BYTES, 3_000]),
       st.lists(ITEMS, max_size=20), st.lists(ITEMS, min_size=1, max_size=40))
def test_a_run_of_puts_committed_at_once_stores_what_commits_one_by_one_do(kind, partition_bytes, before, run):
    at_once, one_by_one = _engine(kind, partition_bytes), _engine(kind, partition_bytes)
    for engine in (at_once, one_by_one):
        for mutation in _mutations(engine, before):
            engine.table("Items").commit(mutation)
    at_once.table("Items").commit_all(_mutations(at_once, run))
    for mutation in _mutations(one_by_one, run):
        one_by_one.table("Items").commit(mutation)
    assert _state(at_once) == _state(one_by_one)


def test_an_import_past_the_bulk_run_reads_back_as_puts_one_by_one(tmp_path, monkeypatch):
    runs = []
    commit_all = Table.commit_all
    monkeypatch.setattr(Table, "commit_all", lambda table, mutations: (runs.append(len(mutations)),
                                                                        commit_all(table, mutations)))
    source = tmp_path / "items.jsonl"
    items = [{"pk": f"p{n % 97}", "sk": n, "g": f"g{n % 5}", "pad": "x" * (n % 13)} for n in range(BULK_PUTS + 250)]
    source.write_text("".join(json.dumps(item) + "\n" for item in items))
    imported, put = partiql.connect(tmp_path / "imported.db"), partiql.connect()
    for db in (imported, put):
        db.engine.create_table(TableName="Items", BillingMode="PAY_PER_REQUEST", **TABLES["with a GSI"])
        db.engine.put_item(TableName="Items", Item={"pk": "p1", "sk": 1, "g": "old"})  # (an overwrite)
    imported.import_items("Items", source, "json")
    for item in items:
        put.engine.put_item(TableName="Items", Item=item)
    assert runs == [len(items)]  # (the puts one by one are runs of one)
    assert _state(imported.engine) == _state(put.engine)
    imported.close()
    reopened = partiql.connect(tmp_path / "imported.db")
    assert reopened.engine.scan(TableName="Items") == put.engine.scan(TableName="Items")
    reopened.close()
    put.close()


def test_an_import_and_puts_from_threads_started_together_all_land(tmp_path):
    """The bulk commit runs under the engine's lock like any write: writers racing an import lose
    nothing, and every partition's two views of its records agree afterwards."""
    source = tmp_path / "items.jsonl"
    imported = [{"pk": f"i{n % 89}", "sk": n, "g": f"g{n % 3}"} for n in range(BULK_PUTS + 500)]
    source.write_text("".join(json.dumps(item) + "\n" for item in imported))
    db = partiql.connect(tmp_path / "raced.db")
    db.engine.create_table(TableName="Items", BillingMode="PAY_PER_REQUEST", **TABLES["with a GSI"])
    barrier, errors = threading.Barrier(5), []

    def run(work):
        try:
            barrier.wait()
            work()
        except Exception as error:  # (reported below)
            errors.append(error)

    def puts(number):
        return lambda: [db.engine.put_item(TableName="Items", Item={"pk": f"w{number}", "sk": n, "g": "w"})
                        for n in range(300)]

    threads = [threading.Thread(target=run, args=(lambda: db.import_items("Items", source, "json"),))]
    threads += [threading.Thread(target=run, args=(puts(number),)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    _state(db.engine)  # (asserts each space's key map and order hold the same records)
    scanned = db.engine.scan(TableName="Items")["Items"]
    assert len(scanned) == len(imported) + 4 * 300
    assert db.engine.scan(TableName="Items", IndexName="byG", Select="COUNT")["Count"] == len(scanned)
    db.close()
