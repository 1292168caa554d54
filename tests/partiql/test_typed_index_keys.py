"""Index keys of every type in the DDL (issue #13 point 1): typed in the key, refused when untyped and
unknown, and a new index that holds none of the table's items says why."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import partiql
from partiql.engine.errors import ValidationException

ORDERS = "CREATE TABLE Orders (OrderId STRING) PRIMARY KEY (OrderId HASH)"


@pytest.fixture
def db():
    connection = partiql.connect()
    connection.execute(ORDERS)
    for i, total in enumerate([5, 12, 7]):
        connection.execute("INSERT INTO Orders VALUE {'OrderId': ?, 'Status': 'open', 'Total': ?, "
                           "'Ship': {'City': 'Oslo'}}", [f"o{i}", total])
    yield connection
    connection.close()


def types_of(db, table: str) -> dict:
    return dict(db.engine.table(table).spec.attribute_types)


@pytest.mark.parametrize("statement, table, types", [
    ("CREATE TABLE Scores (Game STRING) PRIMARY KEY (Game HASH, Score NUMBER RANGE)", "Scores",
     {"Game": "S", "Score": "N"}),
    ("CREATE TABLE Scores (Game S) PRIMARY KEY (Game HASH) GSI (Top ON (Board S HASH, Score N RANGE) PROJECTING ALL)",
     "Scores", {"Game": "S", "Board": "S", "Score": "N"}),
    ("CREATE TABLE Files PRIMARY KEY (Id BINARY HASH)", "Files", {"Id": "B"}),  # no column list needed
    ("CREATE TABLE Files (Owner STRING) PRIMARY KEY (Id BINARY HASH, Owner RANGE) "
     "LSI (ByDate ON (Id HASH, Made NUMBER RANGE) PROJECTING KEYS ONLY)", "Files",
     {"Owner": "S", "Id": "B", "Made": "N"}),
])
def test_create_table_types_every_key_attribute(statement, table, types):
    db = partiql.connect()
    db.execute(statement)
    assert types_of(db, table) == types


def test_a_typed_numeric_gsi_key_backfills_and_takes_later_writes(db):
    result = db.execute("ALTER TABLE Orders CREATE GSI (ByTotal ON (Status STRING HASH, Total NUMBER RANGE) "
                        "PROJECTING ALL)")
    assert result.warnings == []
    db.execute("INSERT INTO Orders VALUE {'OrderId': 'o9', 'Status': 'open', 'Total': 9}")
    found = db.execute("SELECT OrderId FROM Orders.ByTotal WHERE Status = 'open' AND Total > 6")
    assert [item["OrderId"] for item in found.items] == ["o2", "o9", "o1"]  # in Total order


@pytest.mark.parametrize("statement, message", [
    ("ALTER TABLE Orders CREATE GSI (ByTotal ON (Status HASH, Total RANGE) PROJECTING ALL)",
     "Status has no type: give it in the key, as in (Status STRING HASH) (STRING, NUMBER or BINARY), or among "
     "the table's attributes"),
    ("ALTER TABLE Orders CREATE GSI (ById ON (OrderId NUMBER HASH) PROJECTING ALL)",
     "OrderId is STRING in Orders; it cannot be keyed as NUMBER"),
    ("CREATE TABLE T2 (pk STRING) PRIMARY KEY (pk HASH, sk RANGE)",
     "sk has no type: give it in the key, as in (sk STRING RANGE) (STRING, NUMBER or BINARY), or among the "
     "table's attributes"),
    ("CREATE TABLE T2 (pk STRING) PRIMARY KEY (pk NUMBER HASH)", "pk is STRING in this table; it cannot be keyed "
                                                                 "as NUMBER"),
])
def test_an_untyped_or_doubly_typed_key_is_refused_never_guessed(db, statement, message):
    with pytest.raises(ValidationException) as caught:
        db.execute(statement)
    assert caught.value.message == message
    assert db.engine.table("Orders").spec.gsis == ()


@pytest.mark.parametrize("index, warning", [
    ("(ByCity ON (ShipCity STRING HASH) PROJECTING ALL)",
     "ByCity is empty: 0 of 3 items have ShipCity (an index key is a top-level attribute; a value inside a map, "
     "like Ship.City, cannot key an index)"),
    ("(ByTotal ON (Total STRING HASH) PROJECTING ALL)",
     "ByTotal is empty: 3 of 3 items have Total, but none as STRING (an item whose key attribute has another type "
     "is left out of the index)"),
])
def test_an_index_that_holds_no_item_says_why(db, index, warning):
    assert db.execute(f"ALTER TABLE Orders CREATE GSI {index}").warnings == [warning]


def test_a_sparse_index_is_not_warned_of(db):
    db.execute("INSERT INTO Orders VALUE {'OrderId': 'o8', 'Flag': 'x'}")
    assert db.execute("ALTER TABLE Orders CREATE GSI (Flagged ON (Flag STRING HASH) PROJECTING KEYS ONLY)"
                      ).warnings == []


def test_through_the_shell_command_line():
    run = subprocess.run(
        [sys.executable, "-m", "partiql.shell", "-e", ORDERS + ";",
         "-e", "INSERT INTO Orders VALUE {'OrderId': 'a', 'Total': 3};",
         "-e", "ALTER TABLE Orders CREATE GSI (ByTotal ON (Total HASH) PROJECTING ALL);",
         "-e", "ALTER TABLE Orders CREATE GSI (ByTotal ON (Total STRING HASH) PROJECTING ALL);"],
        capture_output=True, text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    assert run.returncode == 1
    assert "Total has no type: give it in the key, as in (Total STRING HASH)" in run.stderr
    assert "warning: ByTotal is empty: 1 of 1 items have Total, but none as STRING" in run.stderr
