"""PartiQL benchmark: single thread, in process, through ``partiql.connect()``.

    python bench/partiql.py [--items 10000] [--runs 5]

Parameterized point SELECT, INSERT, UPDATE, Query of 100 items, Scan of
10k items, and a cold parse+plan of a point SELECT; medians of several
runs. Targets (issue 3): ≥ 50,000 point SELECTs/s, ≥ 30,000 INSERTs/s, a
cold parse+plan ≤ 150 µs.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _support import reference_speed, timed  # (must precede the partiql import)
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



def cold_parse_plan(db, runs: int) -> float:
    """Parse + plan of a point SELECT whose text was never seen (caches bypassed)."""
    samples = []
    for run in range(runs):
        texts = [f'SELECT * FROM "bench" WHERE pk = ? AND sk = {run * 10_000 + i}' for i in range(2000)]
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
    print(f"  {'cold parse+plan':<22} {'':>12}        {cold_parse_plan(db, args.runs) * 1e6:>10,.1f} µs/op")
    print(reference_speed())


if __name__ == "__main__":
    main()
