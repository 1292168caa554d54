"""PartiQL benchmark: single thread, in process, through ``partiql.connect()``.

    python bench/partiql.py [--items 10000] [--runs 5]

Parameterized point SELECT, INSERT, UPDATE, Query of 100 items, Scan of
10k items, and a cold parse+plan of statements of each kind (a text never
seen: the caches bypassed); medians of several runs. Targets (issue 3): ≥
50,000 point SELECTs/s, ≥ 30,000 INSERTs/s, a cold parse+plan ≤ 150 µs
(issue 19: of any new statement, not only a point SELECT). The point SELECT
is also timed against the engine's GetItem of the same items
(``engine.get_item``, a DynamoDB-shaped request) in paired slices: issue 34
asks for ≥ 0.8× its rate.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _support import paired, reference_speed, timed  # (must precede the partiql import)
import partiql
from partiql import parser
from partiql.planner import plan


def setup(items: int):
    db = partiql.connect()
    db.execute("CREATE TABLE bench (pk STRING, sk NUMBER) PRIMARY KEY (pk HASH, sk RANGE)")
    # INSERTs go to their own table, so the Scan row reads the 10k items it names
    db.execute("CREATE TABLE inserts (pk STRING, sk NUMBER) PRIMARY KEY (pk HASH, sk RANGE)")
    for i in range(items):
        db.execute("INSERT INTO bench VALUE {'pk': ?, 'sk': ?, 'age': ?, 'name': ?}",
                   [f"user#{i % 100}", i, i % 90, f"name {i}"])
    return db



# statements whose texts differ by a number, so that each is new to the caches
COLD_STATEMENTS = {
    "point SELECT": 'SELECT * FROM "bench" WHERE pk = ? AND sk = {n}',
    "INSERT": ("INSERT INTO \"bench\" VALUE "
               "{{'pk': 'a{n}', 'sk': {n}, 'name': 'x', 'tags': ['a', 'b'], 'm': {{'k': 1}}}}"),
    "UPDATE": "UPDATE \"bench\" SET age = age + 1, name = 'n{n}' WHERE pk = 'a' AND sk = {n}",
    "DELETE": "DELETE FROM \"bench\" WHERE pk = 'a' AND sk = {n}",
    "Query + filter": "SELECT pk, sk, name FROM \"bench\" WHERE pk = 'a' AND sk BETWEEN 1 AND {n} AND age > 3",
}


def cold_parse_plan(db, runs: int, shape: str) -> float:
    """Parse + plan of a statement of ``shape`` whose text was never seen (caches bypassed)."""
    samples = []
    for run in range(runs):
        texts = [shape.format(n=run * 10_000 + i) for i in range(1000)]
        start = time.perf_counter()
        for text in texts:
            plan(parser._parse.__wrapped__(text, "dml_statement"), db.engine.tables)
        samples.append((time.perf_counter() - start) / len(texts))
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    db = setup(args.items)
    n = args.items
    cases = [
        ("point SELECT (param)", lambda i: db.execute("SELECT * FROM bench WHERE pk = ? AND sk = ?",
                                                      [f"user#{i % 100}", i % n]), 20_000),
        ("INSERT", lambda i: db.execute("INSERT INTO inserts VALUE {'pk': ?, 'sk': ?, 'age': 1}",
                                        [f"new#{i}", time.perf_counter_ns()]), 20_000),
        ("UPDATE", lambda i: db.execute("UPDATE bench SET age = age + 1 WHERE pk = ? AND sk = ?",
                                        [f"user#{i % 100}", i % n]), 10_000),
        ("Query (100 items)", lambda i: db.execute("SELECT * FROM bench WHERE pk = ?", [f"user#{i % 100}"]), 500),
        ("Scan 10k + filter", lambda i: list(db.pages("SELECT pk FROM bench WHERE age > 45")), 3),
    ]
    print(reference_speed())
    print(f"table of {n:,} items")
    for name, fn, count in cases:
        seconds = timed(fn, count, args.runs)
        print(f"  {name:<22} {1 / seconds:>12,.0f} ops/s  {seconds * 1e6:>10,.1f} µs/op")
    both = paired({"GetItem": lambda i: db.engine.get_item(TableName="bench",
                                                          Key={"pk": f"user#{i % 100}", "sk": i % n}),
                   "point SELECT": lambda i: db.execute("SELECT * FROM bench WHERE pk = ? AND sk = ?",
                                                        [f"user#{i % 100}", i % n])}, 20_000, args.runs)
    (engine, _), (select, ratio) = both["GetItem"], both["point SELECT"]
    print(f"  point SELECT {1 / select:,.0f}/s against engine GetItem {1 / engine:,.0f}/s: "
          f"×{1 / ratio:.2f} of its rate (paired slices)")
    for name, shape in COLD_STATEMENTS.items():
        print(f"  {'cold parse+plan ' + name:<34}   {cold_parse_plan(db, args.runs, shape) * 1e6:>10,.1f} µs/op")
    print(reference_speed())


if __name__ == "__main__":
    main()
