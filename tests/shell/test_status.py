"""The status line after every statement."""

from __future__ import annotations

import pytest

from partiql.engine.capacity import Consumed
from partiql.result import ConsumedCapacity, PlanSummary, Result
from partiql.shell.status import Run, capacity_text, duration, status_fragments, units


def consumed(table=0.0, write=0.0, **indexes):
    units = Consumed("Music")
    units.table.read, units.table.write = table, write
    for name, value in indexes.items():
        units.index(name, "GSI").read = value
    return ConsumedCapacity.of([units])


def text(run, timer=False):
    return "".join(piece for _, piece in status_fragments(run, timer))


CASES = [
    # statement, result, status line
    ("SELECT * FROM Music WHERE Artist = 'a' AND SongTitle = 'b'",
     Result([{"a": 1}], 1, 1, consumed_capacity=consumed(0.5), plan=PlanSummary("GetItem", "Music")),
     "1 item · GetItem on Music · 0.5 RCU"),
    ("SELECT * FROM Music.ByYear WHERE Released = 2024",
     Result([{}, {}], 2, 5, consumed_capacity=consumed(0, ByYear=1.5), plan=PlanSummary("Query", "Music", "ByYear")),
     "2 items (5 scanned) · Query on Music.ByYear · 1.5 RCU (table 0, ByYear 1.5)"),
    ("SELECT * FROM Music",
     Result([], 0, 40, consumed_capacity=consumed(3), plan=PlanSummary("Scan", "Music", full_table_scan=True)),
     "0 items (40 scanned) · SCAN of Music · 3 RCU"),
    ("INSERT INTO Music VALUE {'Artist': 'a'}",
     Result(consumed_capacity=consumed(write=2), plan=PlanSummary("PutItem", "Music")),
     "PutItem on Music · 2 WCU"),
    ("UPDATE Music SET x = 1 WHERE Artist = 'a' RETURNING ALL NEW *",
     Result([{"x": 1}], 1, consumed_capacity=consumed(1, 1), plan=PlanSummary("UpdateItem", "Music")),
     "1 item · UpdateItem on Music · 1 RCU + 1 WCU"),
    ("CREATE TABLE T (a S) PRIMARY KEY (a HASH)",
     Result(message="Table T created", plan=PlanSummary("CreateTable", "T")),
     "Table T created · CreateTable on T"),
    ("DESCRIBE Music", Result([{"TableName": "Music"}], 1, plan=PlanSummary("DescribeTable", "Music")),
     "DescribeTable on Music"),
    ("EXPLAIN SELECT * FROM Music", Result(message="EXPLAIN (nothing was executed)",
                                           plan=PlanSummary("Scan", "Music", full_table_scan=True)),
     "EXPLAIN (nothing was executed) · SCAN of Music"),
    ("SHOW TABLES", Result([], 0, plan=PlanSummary("ListTables")), "0 items · ListTables"),
]


@pytest.mark.parametrize("statement, result, expected", CASES)
def test_status_line(statement, result, expected):
    assert text(Run(statement, result, 0.0)) == expected


def test_a_scan_is_painted_as_a_scan():
    run = Run("SELECT * FROM Music", CASES[2][1], 0.0)
    assert ("scan", "SCAN of Music") in status_fragments(run, False)


def test_cancelled_runs_and_the_timer():
    run = Run("SELECT * FROM Music", CASES[2][1], 0.0042, pages=3, cancelled=True)
    assert text(run, timer=True) == "cancelled after 3 pages · 0 items (40 scanned) · SCAN of Music · 3 RCU · 4.2 ms"


@pytest.mark.parametrize("seconds, expected", [(0.0004, "0.4 ms"), (0.042, "42 ms"), (1.254, "1.25 s")])
def test_duration(seconds, expected):
    assert duration(seconds) == expected


def test_capacity_text_of_nothing():
    assert capacity_text(ConsumedCapacity()) == "0 RCU"


@pytest.mark.parametrize("value, expected", [(1.0, "1"), (0.5, "0.5"), (0, "0"), (1234567.5, "1234567.5")])
def test_units(value, expected):
    assert units(value) == expected
