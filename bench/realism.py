"""Realism's cost on the request path (issue 33: "off" must cost one attribute test).

    python bench/realism.py [--runs 7] [--count 20000] [--operation GetItem|PutItem]

A GetItem (or a PutItem of one item, over and over) through the operation registry as every request reaches it
(``OPERATIONS.call``) — realism off (one attribute test) and on but idle (a rule that never matches, eventual
consistency with no stale chance, transactions of no time: every hook runs, nothing happens) — against the
dispatch before realism (``OPERATIONS[name](engine, request)``; a write still passes the engine's own attribute
tests), in paired slices timing the three in turn; prints µs per request and each one's median ratio to the
dispatch before.
"""

from __future__ import annotations

import argparse
import statistics

from _support import reference_speed, timed  # (must precede the partiql import)

import partiql
from partiql.engine.realism import realism_from
from partiql.engine.requests import OPERATIONS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--operation", choices=("GetItem", "PutItem"), default="GetItem")
    args = parser.parse_args()
    print(reference_speed())
    db = partiql.connect(throughput="off")
    db.execute("CREATE TABLE Items PRIMARY KEY (pk STRING HASH)")
    engine = db.engine
    for n in range(1000):
        engine.put_item(TableName="Items", Item={"pk": f"k{n}"})
    operation = args.operation
    request = ({"TableName": "Items", "Key": {"pk": "k7"}} if operation == "GetItem"
               else {"TableName": "Items", "Item": {"pk": "k7", "n": 1}})
    never = realism_from({"fault": [{"operation": operation, "table": "Nowhere", "error": "InternalServerError"}],
                          "consistency": {"stale": 0}, "transactions": {"duration": 0}})

    def off():
        engine.realism = None
        return timed(lambda _: OPERATIONS.call(engine, operation, request), args.count, 1)

    def on():
        engine.realism = never
        return timed(lambda _: OPERATIONS.call(engine, operation, request), args.count, 1)

    def plain():
        engine.realism = None
        return timed(lambda _: OPERATIONS[operation](engine, request), args.count, 1)

    slices = [(plain(), off(), on()) for _ in range(args.runs)]
    base = statistics.median(s[0] for s in slices)
    for n, name in enumerate(("dispatch before", "realism off", "realism on, idle")):
        ratio = statistics.median(s[n] / s[0] for s in slices)
        print(f"  {name:<22} {statistics.median(s[n] for s in slices) * 1e6:7.2f} µs/{operation}  ×{ratio:.3f}")
    print(f"  (before: {base * 1e6:.2f} µs)")
    print(reference_speed())


if __name__ == "__main__":
    main()
