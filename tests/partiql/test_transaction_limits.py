"""ExecuteTransaction's request limit: 4 MB as the client sends it (spec §7), like TransactWriteItems."""

from __future__ import annotations

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
