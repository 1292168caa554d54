"""Realism's cost on the request path (issue 33: "off" must cost one attribute test).

    python bench/realism.py [--runs 7] [--count 20000]

GetItem through the operation registry as every request reaches it (``OPERATIONS.call``) — realism off (one
attribute test) and on with a rule that never matches — against the dispatch before realism
(``OPERATIONS[name](engine, request)``), in paired slices timing the three in turn; prints µs per GetItem and
each one's median ratio to the dispatch before.
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
    args = parser.parse_args()
    print(reference_speed())
    db = partiql.connect(throughput="off")
    db.execute("CREATE TABLE Items PRIMARY KEY (pk STRING HASH)")
    engine = db.engine
    for n in range(1000):
        engine.put_item(TableName="Items", Item={"pk": f"k{n}"})
    request = {"TableName": "Items", "Key": {"pk": "k7"}}
    never = realism_from({"fault": [{"operation": "PutItem", "table": "Nowhere", "error": "InternalServerError"}]})

    def off():
        engine.realism = None
        return timed(lambda _: OPERATIONS.call(engine, "GetItem", request), args.count, 1)

    def on():
        engine.realism = never
        return timed(lambda _: OPERATIONS.call(engine, "GetItem", request), args.count, 1)

    def plain():
        engine.realism = None
        return timed(lambda _: OPERATIONS["GetItem"](engine, request), args.count, 1)

    slices = [(plain(), off(), on()) for _ in range(args.runs)]
    base = statistics.median(s[0] for s in slices)
    for n, name in enumerate(("dispatch before", "realism off", "realism on, no match")):
        ratio = statistics.median(s[n] / s[0] for s in slices)
        print(f"  {name:<22} {statistics.median(s[n] for s in slices) * 1e6:7.2f} µs/GetItem  ×{ratio:.3f}")
    print(f"  (before: {base * 1e6:.2f} µs)")
    print(reference_speed())


if __name__ == "__main__":
    main()
