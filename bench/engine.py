"""Engine benchmark: single thread, in process, through the public Engine API.

    python bench/engine.py [--sizes 10000 100000] [--runs 5]

For tables of each size: GetItem, PutItem, UpdateItem, Query of 100 items,
Scan of 10k items with a filter (and of 10k small items a filter never matches: the
accounting against the least work an entry can cost) — ops/s and µs/op, the median of several
runs — plus memory per item (tracemalloc while loading). Targets (issue 2):
GetItem ≥ 100,000/s, PutItem ≥ 50,000/s, Query(100) ≥ 5,000/s, Scan ≥
500,000 evaluated items/s, point reads flat from 10k to 100k items. Each
operation is measured twice: as a DynamoDB-shaped request
(``engine.get_item(TableName=…, Key=…)``, with full request validation) and
through the typed core the PartiQL executor uses (``engine.get(…)``).
"core Query(100) no copy" reads the stored items themselves, as the wire layer
does (it converts them at once): its difference to "core Query(100)" is what
copying the returned items costs.

``--modes off report enforce`` runs everything once per throughput mode
(spec throughput.md §1) and prints the modes side by side with their cost
over ``off`` (issue 15: report/enforce ≤ 10 % on GetItem and PutItem), the
median of paired slice-by-slice ratios (see ``bench``). The
table is provisioned at 40,000 RCU / 40,000 WCU (54 partitions) and the
engine's clock moves 200 µs per call: 5,000 requests a second, spread over
the partitions, so the model does all its accounting (a second closes every
5,000 calls) but never throttles: what is measured is its cost.
"""

from __future__ import annotations

import argparse
import itertools
from operator import attrgetter
import tracemalloc

from _support import paired, reference_speed  # (must precede the partiql import)
from decimal import Decimal

from partiql.engine import Engine
from partiql.engine.engine import WriteAction
from partiql.engine.expressions.evaluate import compile_condition
from partiql.engine.expressions.parser import ExpressionContext, parse_condition
from partiql.engine.partition import copy_of

QUERY_PARTITIONS = 100  # partition-key values holding 100 items each, for Query(100)
_stored_item = attrgetter("item")
SLICES = 10  # turns the modes take per run (see ``bench``)


def make_engine(mode: str = "report") -> Engine:
    # a virtual clock that costs what a real one does (a C call, as time.monotonic), not a Python lambda's
    engine = Engine(throughput=mode, clock=itertools.count(0.0, 1 / 5_000).__next__)
    engine.create_table(
        TableName="bench", ProvisionedThroughput={"ReadCapacityUnits": 40_000, "WriteCapacityUnits": 40_000},
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}])
    engine.create_table(  # (10k small items: a Scan's accounting against the least work per entry, issue 34)
        TableName="small", ProvisionedThroughput={"ReadCapacityUnits": 40_000, "WriteCapacityUnits": 40_000},
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    return engine


def item(i: int) -> dict:
    return {"pk": f"user#{i % QUERY_PARTITIONS if i < QUERY_PARTITIONS * 100 else i}", "sk": i,
            "name": f"name {i}", "age": i % 90, "active": i % 3 == 0, "tags": ["a", "b"]}


def load(engine: Engine, size: int) -> float:
    """Load ``size`` items; return bytes of memory per item."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(size):
        engine.put_item(TableName="bench", Item=item(i))
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    for i in range(10_000):
        engine.put_item(TableName="small", Item={"pk": f"k{i}", "n": i})
    return (after - before) / size



def operations(engine: Engine, size: int) -> list[tuple]:
    """(name, fn(i), calls per run, unit) of every measured operation on a loaded ``engine``."""
    keys = [{"pk": item(i)["pk"], "sk": i} for i in range(0, size, max(1, size // 1000))]
    n = len(keys)

    def get(i):
        engine.get_item(TableName="bench", Key=keys[i % n])

    def put(i):
        engine.put_item(TableName="bench", Item={"pk": f"new#{i}", "sk": i, "name": "x", "age": 1})

    def update(i):
        engine.update_item(TableName="bench", Key=keys[i % n], UpdateExpression="SET age = age + :one",
                           ExpressionAttributeValues={":one": 1})

    def query(i):
        engine.query(TableName="bench", KeyConditionExpression="pk = :p",
                     ExpressionAttributeValues={":p": f"user#{i % QUERY_PARTITIONS}"})

    def scan_small(_):  # one page (10k items of 10 bytes), a filter no item matches
        engine.scan(TableName="small", FilterExpression="n < :z", ExpressionAttributeValues={":z": -1})

    def scan(_):
        start = None
        for _ in range(10_000 // 1000):
            page = engine.scan(TableName="bench", FilterExpression="age > :a",
                               ExpressionAttributeValues={":a": 45}, Limit=1000,
                               **({"ExclusiveStartKey": start} if start else {}))
            start = page.get("LastEvaluatedKey")

    # The same operations through the typed core the PartiQL executor calls
    # (model objects, no request parsing or validation; reads copy each item
    # as SELECT * does): what the storage engine itself costs, against what
    # DynamoDB-shaped requests add.
    core_keys = [(key["pk"], Decimal(key["sk"])) for key in keys]
    age = compile_condition(parse_condition("age > :a", ExpressionContext(None, {":a": Decimal(45)})))

    def core_get(i):
        engine.get("bench", core_keys[i % n])

    def core_put(i):
        engine.write(WriteAction("Put", "bench", item={"pk": f"core#{i}", "sk": Decimal(i), "name": "x",
                                                        "age": Decimal(1)}))

    def core_query(i):
        engine.query_page("bench", None, f"user#{i % QUERY_PARTITIONS}", emit=copy_of)

    def core_query_stored(i):  # what the copies cost (issue 19): the stored items, as the wire layer takes them
        engine.query_page("bench", None, f"user#{i % QUERY_PARTITIONS}", emit=_stored_item)

    def core_scan(_):
        start = None
        for _ in range(10_000 // 1000):
            start = engine.scan_page("bench", start_key=start, limit=1000, matches_fn=age, emit=copy_of).last_key

    return [("GetItem", get, 20_000, "ops"), ("PutItem", put, 20_000, "ops"),
            ("UpdateItem", update, 10_000, "ops"), ("Query(100)", query, 1000, "ops"),
            ("Scan 10k + filter", scan, 5, "items"), ("Scan 10k small, none match", scan_small, 10, "items"),
            ("core get", core_get, 20_000, "ops"), ("core put", core_put, 20_000, "ops"),
            ("core Query(100)", core_query, 1000, "ops"),
            ("core Query(100) no copy", core_query_stored, 1000, "ops"),
            ("core Scan 10k + filter", core_scan, 5, "items")]


def bench(size: int, runs: int, modes: list[str]) -> tuple[dict, dict]:
    """Per mode, (name, rate) of every operation and the memory per item; and per mode but
    ``off``, each operation's cost over ``off`` (when ``off`` is measured).

    why the modes take turns slice by slice, and the cost is a median of paired ratios:
    a shared VM drifts in speed by more than the differences measured here, within
    seconds (the reference loop's speed, printed first and last, shows it). Each run
    is cut into ``SLICES`` slices; every mode runs each slice in turn (the order
    rotating, so no mode always runs first), and the cost is the median over all
    slices of a mode's time over ``off``'s on the same slice, a few milliseconds
    apart: what a drift does to one it does to the other.
    """
    engines = {}
    results: dict = {mode: [] for mode in modes}
    for mode in modes:
        engines[mode] = make_engine(mode)
        memory = load(engines[mode], size)
        results[mode].append(("memory per item", memory))
    tables = {mode: operations(engine, size) for mode, engine in engines.items()}
    costs: dict = {mode: {} for mode in modes if mode != "off"} if "off" in modes else {}
    order = sorted(modes, key=lambda mode: mode != "off")  # ("off" first: the ratios are to it)
    for row, (name, _, count, unit) in enumerate(tables[modes[0]]):
        timed = paired({mode: tables[mode][row][1] for mode in order}, count, runs, SLICES)
        for mode in modes:
            results[mode].insert(-1, (name, (10_000 if unit == "items" else 1) / timed[mode][0]))
        for mode in costs:
            costs[mode][name] = timed[mode][1] - 1
    return results, costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--modes", nargs="*", default=["report"], choices=["off", "report", "enforce"],
                        help="throughput modes to measure side by side (default: report, the default mode)")
    args = parser.parse_args()
    print(reference_speed())
    for size in args.sizes:
        print(f"table of {size:,} items" + "".join(f"{mode:>24}" for mode in args.modes)
              + ("".join(f"{mode + '/off':>14}" for mode in args.modes if mode != "off")
                 if "off" in args.modes and len(args.modes) > 1 else ""))
        runs, costs = bench(size, args.runs, args.modes)
        first = runs[args.modes[0]]
        for row, (name, _) in enumerate(first):
            unit = "B/item" if name == "memory per item" else ("items/s" if "Scan" in name else "ops/s")
            line = f"  {name:<24}" + "".join(f"{runs[mode][row][1]:>14,.0f} {unit:<9}" for mode in args.modes)
            if name in next(iter(costs.values()), {}):
                line += "".join(f"{costs[mode][name]:>+13.1%} " for mode in costs)
            print(line)
    print(reference_speed())


if __name__ == "__main__":
    main()
