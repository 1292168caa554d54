"""Driving an engine at a steady rate on a virtual clock, second by second (spec throughput.md §8)."""

from __future__ import annotations

from collections import Counter

from partiql.engine import Engine
from partiql.engine.actions import WriteAction
from partiql.engine.clock import VirtualClock
from partiql.engine.errors import THROTTLES
from partiql.engine.requests import OPERATIONS

SERVED = "served"
ONE_KB = "x" * (1024 - 40)  # with its key, an item of just under 1 KB: one write unit


def engine_on(mode: str = "enforce", adaptive: bool = True) -> tuple[Engine, VirtualClock]:
    clock = VirtualClock(10_000.0)
    return Engine(clock=clock, throughput=mode, adaptive_capacity=adaptive), clock


def table_request(name: str, read: int | None = None, write: int | None = None, gsi: dict | None = None) -> dict:
    """CreateTable for a table keyed on ``pk`` (provisioned when ``read``/``write`` are given), with an
    optional GSI on ``g`` (``gsi``: name, read, write)."""
    request = {"TableName": name, "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
               "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}
    if read is None:
        request["BillingMode"] = "PAY_PER_REQUEST"
    else:
        request["ProvisionedThroughput"] = {"ReadCapacityUnits": read, "WriteCapacityUnits": write}
    if gsi is not None:
        request["AttributeDefinitions"].append({"AttributeName": "g", "AttributeType": "S"})
        index = {"IndexName": gsi["name"], "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                 "Projection": {"ProjectionType": "ALL"}}
        if read is not None:
            index["ProvisionedThroughput"] = {"ReadCapacityUnits": gsi["read"], "WriteCapacityUnits": gsi["write"]}
        request["GlobalSecondaryIndexes"] = [index]
    return request


def create(engine: Engine, name: str, read: int | None = None, write: int | None = None, gsi: dict | None = None):
    """Create ``table_request``'s table in ``engine``."""
    OPERATIONS["CreateTable"](engine, table_request(name, read, write, gsi))


def put(table: str, key: str, **extra) -> WriteAction:
    return WriteAction("Put", table, item={"pk": key, "v": ONE_KB, **extra})


def drive(engine: Engine, clock: VirtualClock, per_second: int, seconds: int, action_of,
          errors: dict | None = None) -> list[Counter]:
    """Run ``per_second`` requests evenly over each of ``seconds`` seconds; per second, the
    count of each outcome (``served`` or the throttle's reason). ``errors`` collects the
    last exception of each reason."""
    step = 1.0 / per_second
    outcomes = []
    n = 0
    for _ in range(seconds):
        second = Counter()
        start = clock.now()
        for i in range(per_second):
            clock.set(start + i * step)
            try:
                engine.write(action_of(n))
                second[SERVED] += 1
            except THROTTLES as error:
                reason = error.throttling_reasons[0]["reason"]
                second[reason] += 1
                if errors is not None:
                    errors[reason] = error
            n += 1
        clock.set(start + 1.0)
        outcomes.append(second)
    return outcomes
