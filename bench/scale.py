"""Scale benchmark (issue 19): a database of N items — import, open, memory, writes to the file.

    python bench/scale.py [--sizes 100000 1000000] [--runs 3]

For each size, in a fresh process each (so one size's heap does not weigh on
the next): import N small items (~60 bytes in DynamoDB terms) from a JSON-lines
file into a database file (items/s; and the same items from DynamoDB JSON, as
an export to S3 writes them, into a database of their own), open that file
(seconds; the median of ``--runs`` opens), the memory the open database holds per item (traced Python
allocations, and what an open adds to the resident size of a fresh process that
does nothing else, over the item count), and PutItem to
the open file (ops/s, after a collection: the steady state), sustained: ``PUTS``
writes, enough for the write log to fold into the file several times, timed
until the database is closed (the last fold and SQLite's last checkpoint
included), beside the rate of the calls alone. The table is
provisioned at 40,000 WCU, so the throughput model (report mode, the default)
runs on every write but throttles none: a loop faster than 4,000 writes a
second on a new on-demand table would be throttled, as DynamoDB would, and
its warnings would be measured instead of the file. Prints one line per size
with the issue's goals.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc

from _support import reference_speed  # (must precede the partiql import)

GOALS = "goals: open 1M ≤ 3 s (100k ≤ 0.3 s), import ≥ 50,000 items/s, ≤ 400 B/item, PutItem to a file ≥ 15,000/s"
PUTS = 60_000  # (~8 MB of write log: folded in at 4 MB, and on close)


def measure(size: int, runs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="partiql-scale-") as folder:  # (1M items: ~200 MB of files)
        return _measure(folder, size, runs)


def _measure(folder: str, size: int, runs: int) -> dict:
    import partiql

    path = os.path.join(folder, "scale.db")
    imports = {}
    for format, line in SOURCES.items():  # (the ddb-json one into a database of its own, then gone)
        source, target = os.path.join(folder, f"items.{format}"), os.path.join(folder, f"{format}.db")
        with open(source, "w") as file:
            file.writelines(json.dumps(line(n)) + "\n" for n in range(size))
        imports[format] = size / _import(target, source, format)
        os.remove(source)
    os.rename(os.path.join(folder, "json.db"), path)
    os.remove(os.path.join(folder, "ddb-json.db"))
    opens = []
    for _ in range(runs):
        started = time.perf_counter()
        partiql.connect(path).close()
        opens.append(time.perf_counter() - started)
    tracemalloc.start()
    db = partiql.connect(path)
    traced = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    gc.collect()  # (the steady state: not the first full collection after a load of N items)
    started = time.perf_counter()
    for n in range(PUTS):
        db.engine.put_item(TableName="Scale", Item={"pk": f"new#{n}", "sk": n, "name": "x", "age": 1})
    calls = time.perf_counter() - started
    db.close()
    puts = PUTS / (time.perf_counter() - started)
    opened = subprocess.run([sys.executable, __file__, "--rss", path], capture_output=True, text=True, check=True)
    return {"size": size, "import": imports["json"], "import ddb-json": imports["ddb-json"],
            "open": statistics.median(opens), "traced": traced / size, "rss": int(opened.stdout) / size,
            "puts": puts, "calls": PUTS / calls}


def _item(n: int) -> dict:
    return {"pk": f"user#{n % 50_000}", "sk": n, "name": f"name {n}", "age": n % 90}


# format -> line n of its source: the same items as plain JSON and as DynamoDB JSON (an export to S3)
SOURCES = {
    "json": _item,
    "ddb-json": lambda n: {"Item": {name: {"N": str(value)} if type(value) is int else {"S": value}
                                    for name, value in _item(n).items()}},
}


def _import(path: str, source: str, format: str) -> float:
    """Seconds an import of ``source`` takes into table Scale of a new database ``path``."""
    import partiql

    with partiql.connect(path) as db:
        db.engine.create_table(
            TableName="Scale", ProvisionedThroughput={"ReadCapacityUnits": 40_000, "WriteCapacityUnits": 40_000},
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "N"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}])
        started = time.perf_counter()
        db.import_items("Scale", source, format)
        return time.perf_counter() - started


def _resident() -> int:
    with open("/proc/self/statm") as file:
        return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def open_rss(path: str) -> int:
    """The bytes opening ``path`` adds to this process's resident set (its modules already imported)."""
    import partiql

    with tempfile.TemporaryDirectory(prefix="partiql-scale-") as folder:  # (an open's imports: not its items)
        partiql.connect(os.path.join(folder, "warm.db")).close()
    gc.collect()
    before = _resident()
    db = partiql.connect(path)
    gc.collect()
    grown = _resident() - before
    db.close()
    return grown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--rss", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rss:
        print(open_rss(args.rss))
        return
    if args.child:
        print(json.dumps(measure(args.child, args.runs)))
        return
    print(reference_speed())
    print(GOALS)
    for size in args.sizes:
        done = subprocess.run([sys.executable, __file__, "--child", str(size), "--runs", str(args.runs)],
                              capture_output=True, text=True, check=True)
        found = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{size:>9,} items: import {found['import']:8,.0f} items/s ({found['import ddb-json']:,.0f} from "
              f"DynamoDB JSON)   open {found['open']:6.2f} s   "
              f"{found['traced']:5,.0f} B/item traced ({found['rss']:5,.0f} B/item RSS of an open)   "
              f"PutItem to the file {found['puts']:7,.0f}/s sustained ({found['calls']:7,.0f}/s the calls)")
    print(reference_speed())


if __name__ == "__main__":
    main()
