"""Request limits on statements as the client sends them (spec §7): ExecuteTransaction's
4 MB (like TransactWriteItems') and BatchExecuteStatement's 16 MB."""

from __future__ import annotations

import re

import pytest

import partiql
from partiql.engine.errors import ValidationException

BIG = "x" * 390_000  # 10 statements carrying one of these stay below 4 MB, 11 exceed it
INSERT = "INSERT INTO tbl VALUE {'pk': ?, 'v': ?}"


@pytest.fixture
def db():
    connection = partiql.connect()
    connection.execute("CREATE TABLE tbl (pk STRING) PRIMARY KEY (pk HASH)")
    return connection


def test_an_execute_transaction_over_4_mb_is_rejected_and_changes_nothing(db):
    with pytest.raises(ValidationException, match=r"Transaction payload size cannot exceed 4MB\. Payload Size: \d+"):
        db.execute_transaction([(INSERT, [f"k{i}", BIG]) for i in range(11)])
    assert db.execute("SELECT pk FROM tbl").items == []


def test_an_execute_transaction_below_4_mb_runs(db):
    db.execute_transaction([(INSERT, [f"k{i}", BIG]) for i in range(10)])
    assert db.execute("SELECT pk FROM tbl WHERE pk = 'k9'").items == [{"pk": "k9"}]


HUGE = "y" * 720_000  # 24 statements carrying one of these exceed 16 MB; 25 carrying LARGE do not
LARGE = "y" * 600_000
UPDATE = "UPDATE tbl SET v = ? WHERE pk = ?"
TOO_LARGE = r"BatchExecuteStatement payload size cannot exceed 16MB\. Payload Size: (\d+)"


def test_a_batch_over_16_mb_is_rejected_and_changes_nothing(db):
    db.execute(INSERT, ["k0", "old"])
    statements = [("UPDATE tbl SET v = 'new' WHERE pk = 'k0'", [])]
    statements += [(UPDATE, [HUGE, f"k{i}"]) for i in range(1, 25)]
    with pytest.raises(ValidationException) as failure:
        db.execute_batch(statements)
    size = re.fullmatch(TOO_LARGE, failure.value.message)
    assert size and int(size[1]) > 24 * len(HUGE)
    assert db.execute("SELECT v FROM tbl WHERE pk = 'k0'").items == [{"v": "old"}]


def test_a_batch_below_16_mb_runs_statement_by_statement(db):
    """15 MB of parameters pass the request limit; each update then fails on its own (400 KB items)."""
    for i in range(25):
        db.execute(INSERT, [f"k{i}", "old"])
    statements = [("UPDATE tbl SET v = 'new' WHERE pk = 'k0'", [])]
    statements += [(UPDATE, [LARGE, f"k{i}"]) for i in range(1, 25)]
    results = db.execute_batch(statements)
    assert [getattr(result, "message", None) for result in results] == (
        [None] + ["Item size to update has exceeded the maximum allowed size"] * 24)
    assert db.execute("SELECT v FROM tbl WHERE pk = 'k0'").items == [{"v": "new"}]
