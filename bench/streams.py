"""Stream benchmark: what an enabled stream adds to PutItem (issue 17: at most 15 %).

    python bench/streams.py [--runs 7] [--calls 20000] [--file]

Two engines side by side (throughput off, so only the stream differs): one table without a stream, one
with a NEW_AND_OLD_IMAGES stream; PutItem of new items, the engines taking turns run by run (a shared VM
drifts more than the difference measured). Prints the medians and the ratio. ``--file`` runs both on a
database file (the record is written in the item's transaction) instead of in memory.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from _support import reference_speed, timed  # (must precede the partiql import)

from partiql.engine import Engine

VIEW = {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}


def make(stream: bool, folder: str | None) -> Engine:
    storage = None
    if folder is not None:
        from partiql.engine.storage.sqlite import SqliteStorage
        storage = SqliteStorage(Path(folder) / f"bench-{stream}.db")
    engine = Engine(throughput="off", storage=storage)
    engine.create_table(TableName="bench", BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                   {"AttributeName": "sk", "KeyType": "RANGE"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "sk", "AttributeType": "N"}],
                        **({"StreamSpecification": VIEW} if stream else {}))
    return engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--file", action="store_true", help="on a database file instead of in memory")
    args = parser.parse_args()
    print(reference_speed())
    folder = tempfile.mkdtemp() if args.file else None
    print("on a database file" if args.file else "in memory")
    engines = {"without a stream": make(False, folder), "with a stream": make(True, folder)}
    samples: dict = {name: [] for name in engines}
    for run in range(args.runs):
        for name, engine in engines.items():
            def put(i, engine=engine, base=run * args.calls):
                engine.put_item(TableName="bench", Item={"pk": f"k{base + i}", "sk": i, "name": "x", "age": i})
            samples[name].append(timed(put, args.calls, 1))
    base = statistics.median(samples["without a stream"])
    for name in engines:
        median = statistics.median(samples[name])
        print(f"  PutItem {name:<18} {median * 1e6:7.2f} µs/op  {median / base - 1:+.1%}")
    print(reference_speed())


if __name__ == "__main__":
    main()
