"""Storage benchmark: a file database against memory, through the public APIs.

    python bench/storage.py [--items 100000] [--writes 20000] [--runs 3]

Prints the median of ``--runs`` runs of:

* single-item writes/s (PutItem through ``Engine.put_item``, and PartiQL
  INSERT through ``Connection.execute``) to a file database at the default
  durability, at ``durability="full"``, and in memory; the difference is the
  storage's cost per write (target: ≥ 10,000 PutItem/s to a file);
* importing ``--items`` items from DynamoDB JSON lines and from CSV into a
  file database (target: 100,000 in ≤ 10 s);
* opening that database (target: 100,000 items in ≤ 2 s);
* GetItem and Query(100) on the reopened file database and on an in-memory
  one holding the same items (target: the same speed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from _support import reference_speed  # (must precede the partiql import)
import partiql
from partiql.engine import Engine

GROUPS = 100  # partition-key values holding the first GROUPS * 100 items, for Query(100)


def item(i: int) -> dict:
    """The item shape of bench/engine.py: six attributes, ~60 bytes."""
    return {"pk": f"user#{i % GROUPS if i < GROUPS * 100 else i}", "sk": i, "name": f"name {i}",
            "age": i % 90, "active": i % 3 == 0, "tags": ["a", "b"]}


def create(engine: Engine) -> None:
    engine.create_table(
        TableName="bench", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}])


def median_rate(run, runs: int) -> float:
    """Median of ``runs`` calls of ``run()``, each returning (operations, seconds)."""
    return statistics.median(count / seconds for count, seconds in (run() for _ in range(runs)))


def median_seconds(run, runs: int) -> float:
    return statistics.median(run() for _ in range(runs))


def clock(fn, count: int) -> tuple[int, float]:
    start = time.perf_counter()
    for i in range(count):
        fn(i)
    return count, time.perf_counter() - start


# ------------------------------------------------------------------- writes

def writes(folder: Path, count: int, runs: int) -> list:
    rows = []
    for label, path, options in (("memory", None, {}), ("file", "w.db", {}),
                                 ("file, durability=full", "f.db", {"durability": "full"})):
        quick = options.get("durability") == "full"  # an fsync per write: fewer of them
        n = max(200, count // 20) if quick else count
        rows.append((f"PutItem, {label}", median_rate(lambda: _puts(folder, path, options, n), runs), "writes/s"))
        rows.append((f"PartiQL INSERT, {label}", median_rate(lambda: _inserts(folder, path, options, n), runs),
                     "writes/s"))
    return rows


def _fresh(folder: Path, path, options) -> partiql.Connection:
    if path is not None:
        for suffix in ("", "-wal", "-shm"):
            Path(folder, path + suffix).unlink(missing_ok=True)
    db = partiql.connect(None if path is None else folder / path, **options)
    create(db.engine)
    return db


def _puts(folder, path, options, count) -> tuple[int, float]:
    with _fresh(folder, path, options) as db:
        return clock(lambda i: db.engine.put_item(TableName="bench", Item=item(i)), count)


def _inserts(folder, path, options, count) -> tuple[int, float]:
    with _fresh(folder, path, options) as db:
        return clock(lambda i: db.execute("INSERT INTO bench VALUE {'pk': ?, 'sk': ?, 'name': ?, 'age': ?}",
                                          [f"user#{i}", i, f"name {i}", i % 90]), count)


# --------------------------------------------------------- import and open

def write_sources(folder: Path, size: int) -> dict:
    """The items as DynamoDB JSON lines and as CSV, written by an in-memory export."""
    with partiql.connect() as db:
        create(db.engine)
        db.engine.batch_write([_put(i) for i in range(size)])
        sources = {"ddb-json": folder / "items.json", "csv": folder / "items.csv"}
        for format, path in sources.items():
            db.export_items("bench", path, format)
    return sources


def _put(i: int):
    from partiql.engine.engine import WriteAction
    from partiql.engine.types import item_from_python
    return WriteAction("Put", "bench", item=item_from_python(item(i)))


def imports(folder: Path, sources: dict, runs: int) -> list:
    rows = []
    for format, source in sources.items():
        seconds = median_seconds(lambda: _import(folder / "big.db", source), runs)
        rows.append((f"import {format}", seconds, "s"))
    return rows


def _import(path: Path, source: Path) -> float:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with partiql.connect(path) as db:
        create(db.engine)
        start = time.perf_counter()
        db.import_items("bench", source)
        return time.perf_counter() - start


def opening(path: Path, runs: int) -> float:
    def once() -> float:
        start = time.perf_counter()
        db = partiql.connect(path)
        seconds = time.perf_counter() - start
        db.close()
        return seconds
    return median_seconds(once, runs)


# --------------------------------------------------------------------- reads

def reads(path: Path, size: int, runs: int) -> list:
    rows = []
    memory = partiql.connect()
    create(memory.engine)
    memory.engine.batch_write([_put(i) for i in range(size)])
    with partiql.connect(path) as file:
        for label, db in (("memory", memory), ("file", file)):
            engine = db.engine
            keys = [{"pk": item(i)["pk"], "sk": i} for i in range(0, size, max(1, size // 1000))]
            get = lambda i: engine.get_item(TableName="bench", Key=keys[i % len(keys)])  # noqa: E731
            query = lambda i: engine.query(  # noqa: E731
                TableName="bench", KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": f"user#{i % GROUPS}"})
            rows.append((f"GetItem, {label}", median_rate(lambda: clock(get, 20_000), runs), "ops/s"))
            rows.append((f"Query(100), {label}", median_rate(lambda: clock(query, 1000), runs), "ops/s"))
    memory.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000, help="items imported, opened and read")
    parser.add_argument("--writes", type=int, default=20_000, help="single-item writes per run")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        print(reference_speed())
        print(f"single-item writes ({args.writes:,} per run, median of {args.runs})")
        _print(writes(folder, args.writes, args.runs))
        sources = write_sources(folder, args.items)
        print(f"{args.items:,} items")
        _print(imports(folder, sources, args.runs))
        _print([("open the database", opening(folder / "big.db", args.runs), "s")])
        _print(reads(folder / "big.db", args.items, args.runs))
        print(f"  (file: {os.path.getsize(folder / 'big.db') / 1e6:,.1f} MB)")
        print(reference_speed())


def _print(rows: list) -> None:
    for name, value, unit in rows:
        figure = f"{value:,.2f}" if unit == "s" else f"{value:,.0f}"
        print(f"  {name:<36} {figure:>12} {unit}")


if __name__ == "__main__":
    main()
