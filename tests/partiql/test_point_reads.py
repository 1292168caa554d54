"""Issue 34 point 1: the point SELECT's lane (``partiql/point_reads.py``) gives what the general path gives —
items, counts, capacity, the plan summary, the errors — for generated point statements on tables with and
without a sort key, found and missing items, projections, literals and parameters, every key type; and only
statements that read one item by its whole key on the table take it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

import partiql
from partiql.engine.errors import DynamoDBError
from partiql.point_reads import point_read

KEYS = {"S": st.text(alphabet="abc", min_size=1, max_size=3), "N": st.integers(0, 5),
        "B": st.binary(min_size=1, max_size=2)}
WRONG = {"S": 7, "N": "seven", "B": "b"}


def _db(hash_type: str, range_type: str | None):
    db = partiql.connect()
    names = {"S": "STRING", "N": "NUMBER", "B": "BINARY"}
    key = f"pk {names[hash_type]} HASH" + (f", sk {names[range_type]} RANGE" if range_type else "")
    db.execute(f"CREATE TABLE Points PRIMARY KEY ({key}) GSI (ByName ON (name STRING HASH) PROJECTING ALL)")
    return db


def _both(db, statement: str, params: list, consistent: bool):
    """(the lane's answer, the general path's), each a Result's fields or the error's code and message."""
    runner = db.runner
    python = partiql.api._python_params(params)

    def fields(call):
        try:
            result = call()
        except DynamoDBError as error:
            return error.code, error.message
        plan = result.plan
        return (result.items, result.count, result.scanned_count, result.next_token,
                result.consumed_capacity.total, result.consumed_capacity.table, plan.kind, plan.table,
                plan.index, plan.full_table_scan, plan.requests, plan.capacity_estimate, result.warnings)

    template = runner.template(statement, python, True)
    lane = fields(lambda: runner.execute(statement, python, consistent=consistent, shell=True))
    general = fields(lambda: runner.executor.select(statement, template, python, consistent=consistent))
    return lane, general


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([("S", None), ("N", "S"), ("B", "N"), ("S", "B")]), st.data())
def test_the_point_lane_answers_as_the_general_path(types, data):
    hash_type, range_type = types
    db = _db(hash_type, range_type)
    for _ in range(data.draw(st.integers(0, 6))):
        item = {"pk": data.draw(KEYS[hash_type]), "name": "n", "big": "x" * data.draw(st.integers(0, 5000))}
        if range_type:
            item["sk"] = data.draw(KEYS[range_type])
        db.engine.put_item(TableName="Points", Item=item)
    projection = data.draw(st.sampled_from(["*", "pk", "name, big", "absent"]))
    names = ["pk"] + (["sk"] if range_type else [])
    params, where = [], []
    for name, kind in zip(names, [hash_type, range_type]):
        value = data.draw(st.one_of(KEYS[kind], st.just(WRONG[kind])) if data.draw(st.booleans()) else KEYS[kind])
        if data.draw(st.booleans()) and not isinstance(value, bytes):  # a literal in the text
            where.append(f"{name} = {value!r}" if isinstance(value, str) else f"{name} = {value}")
        else:
            params.append(value)
            where.append(f"{name} = ?")
    statement = f"SELECT {projection} FROM Points WHERE {' AND '.join(where)}"
    lane, general = _both(db, statement, params, data.draw(st.booleans()))
    assert lane == general
    assert point_read(db.runner.template(statement, partiql.api._python_params(params), True)) is not None


@pytest.mark.parametrize("statement, lane", [
    ("SELECT * FROM Points WHERE pk = ? AND sk = ?", True),
    ("SELECT * FROM Points WHERE sk = ? AND pk = ?", True),
    ("SELECT * FROM Points WHERE pk = ?", False),                        # (a Query: the sort key is free)
    ("SELECT * FROM Points WHERE pk = ? AND sk > ?", False),
    ("SELECT * FROM Points WHERE pk = ? AND sk = ? AND name = 'n'", False),  # (a filter)
    ("SELECT * FROM Points WHERE pk = ? AND sk = ? OR pk = ? AND sk = ?", False),  # (two reads)
    ("SELECT * FROM Points WHERE pk IN [?, ?] AND sk = ?", False),
    ("SELECT * FROM Points WHERE pk = ? AND sk = ? ORDER BY sk", False),
    ("SELECT * FROM \"Points\".\"ByName\" WHERE name = ?", False),
    ("SELECT * FROM Points WHERE name = ?", False),                       # (a Scan)
])
def test_only_reads_of_one_item_by_its_whole_key_take_the_lane(statement, lane):
    db = _db("S", "N")
    params = partiql.api._python_params(["a", Decimal(1), "b", Decimal(2)])
    assert (point_read(db.runner.template(statement, params, True)) is not None) == lane


def test_the_lane_keeps_report_mode_warnings_and_realism_takes_the_general_path():
    from partiql.engine.clock import VirtualClock

    clock = VirtualClock()
    db = partiql.connect(clock=clock, throughput="report")
    db.execute("CREATE TABLE Hot PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (1 RCU, 1 WCU)")
    warned = [db.execute("SELECT * FROM Hot WHERE pk = 'a'").warnings for _ in range(700)]
    assert any(any("ProvisionedThroughputExceeded" in text for text in found) for found in warned)
    stale = partiql.connect(clock=clock, realism={"seed": 1, "consistency": {"window": 5, "stale": 1.0}})
    stale.execute("CREATE TABLE Hot PRIMARY KEY (pk STRING HASH)")
    stale.execute("INSERT INTO Hot VALUE {'pk': 'a'}")
    assert stale.execute("SELECT * FROM Hot WHERE pk = 'a'").items == []  # (not there yet: realism asked)
