"""SearchVectors at scale (issue 36): 100,000 items of 1,024-dimension vectors.

    python bench/vectors.py [--items 100000] [--dimensions 1024] [--searches 20]

Loads the items (PutItem through the engine), adds a COSINE vector index by UpdateTable, and prints: the
load rate, the index build time (its backfill), memory per vector (the process's resident size before and
after the build, over the items), a write followed by a search (numpy's matrix kept through the write), and
the latency of a TopK-10 search over all of them two ways in one run — numpy's shortlist, then the exact scoring of every
candidate in Python — and their ratio (what numpy pays for itself; ``engine.vectors.index.NUMPY_FROM`` is
where the engine starts using it). Figures depend on this machine's speed: see the reference lines.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from decimal import Decimal

from _support import reference_speed  # (must precede the partiql import)

import partiql
from partiql.engine.vectors import index as vector_index

TABLE = "Embeddings"


def _rss() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def _timed(fn, runs: int) -> float:
    spent = []
    for _ in range(runs):
        began = time.perf_counter()
        fn()
        spent.append(time.perf_counter() - began)
    return statistics.median(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--dimensions", type=int, default=1024)
    parser.add_argument("--searches", type=int, default=20)
    args = parser.parse_args()
    print(reference_speed())
    db = partiql.connect(throughput="off")
    engine = db.engine
    db.control("CreateTable", {"TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
                               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                               "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]})
    rng = random.Random(7)
    numbers = [Decimal(f"{rng.uniform(-1, 1):.6f}") for _ in range(4096)]
    began = time.perf_counter()
    for n in range(args.items):
        engine.put_item(TableName=TABLE, Item={"pk": f"doc#{n}", "title": f"document {n}",
                                               "embedding": rng.choices(numbers, k=args.dimensions)})
    loaded = time.perf_counter() - began
    print(f"load: {args.items:,} items of {args.dimensions:,} dimensions in {loaded:,.1f} s "
          f"({args.items / loaded:,.0f} items/s, PutItem through the engine, no index yet)")
    before, began = _rss(), time.perf_counter()  # (UpdateTable answers once the index is built: instant timing)
    db.control("UpdateTable", {"TableName": TABLE, "VectorIndexUpdates": [{"Create": {
        "IndexName": "byEmbedding", "VectorAttribute": {"AttributeName": "embedding"}, "Dimensions": args.dimensions,
        "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]}}}]})
    built, grown = time.perf_counter() - began, _rss() - before
    print(f"index build (backfill by UpdateTable): {built:,.1f} s ({args.items / built:,.0f} items/s); memory "
          f"{grown / args.items:,.0f} bytes per vector ({4 * args.dimensions:,} of them its 32-bit floats)")
    query = rng.choices(numbers, k=args.dimensions)
    request = {"TableName": TABLE, "IndexName": "byEmbedding", "SearchVector": [{"N": str(x)} for x in query],
               "TopK": 10}
    client = partiql.client(db)
    began = time.perf_counter()
    client.search_vectors(**request)  # (numpy's matrix of the partition, built once)
    print(f"first search (numpy's matrix of the index made): {(time.perf_counter() - began) * 1e3:,.0f} ms")
    with_numpy = _timed(lambda: client.search_vectors(**request), args.searches)
    counter = iter(range(10 ** 9))

    def write_then_search():  # (the kept matrix takes the write: no rebuild)
        engine.put_item(TableName=TABLE, Item={"pk": f"doc#new{next(counter)}", "title": "new",
                                               "embedding": rng.choices(numbers, k=args.dimensions)})
        client.search_vectors(**request)
    after_write = _timed(write_then_search, args.searches)
    print(f"a PutItem then a search, with numpy: {after_write * 1e3:,.1f} ms (the matrix kept, not rebuilt)")
    vector_index.NUMPY_FROM = 10 ** 12
    exact = _timed(lambda: client.search_vectors(**request), max(1, args.searches // 10))
    print(f"SearchVectors TopK 10 over {args.items:,}: numpy shortlist {with_numpy * 1e3:,.1f} ms, exact Python "
          f"scoring {exact * 1e3:,.0f} ms: numpy ×{exact / with_numpy:,.0f} faster")
    print(reference_speed())


if __name__ == "__main__":
    main()
