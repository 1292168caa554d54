"""Transactions and batches in the shell (issue #13 point 2): BEGIN … COMMIT / ROLLBACK, BEGIN BATCH."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import connected

SETUP = ["CREATE TABLE Accounts (Id STRING) PRIMARY KEY (Id HASH)",
         "INSERT INTO Accounts VALUE {'Id': 'a', 'Balance': 10}"]
TRANSFER = ("UPDATE Accounts SET Balance = Balance - {n} WHERE Id = 'a' AND Balance >= {n};\n"
            "INSERT INTO Accounts VALUE {{'Id': 'b', 'Balance': {n}}};\n")


@pytest.fixture
def accounts():
    return connected(SETUP)


def balance(db, account: str):
    found = db.execute(f"SELECT Balance FROM Accounts WHERE Id = '{account}'").items
    return found[0]["Balance"] if found else None


def test_a_committed_transaction_runs_every_statement(make_session, accounts):
    session, streams = make_session(accounts)
    assert session.run_script("BEGIN TRANSACTION;\n" + TRANSFER.format(n=4) + "COMMIT;")
    assert (balance(accounts, "a"), balance(accounts, "b")) == (6, 4)
    assert streams.err.getvalue().splitlines()[-1] == "transaction committed: 2 statements · 4 WCU"


def test_a_cancelled_transaction_shows_its_reasons_and_changes_nothing(make_session, accounts):
    session, streams = make_session(accounts)
    assert session.run_script("BEGIN;\n" + TRANSFER.format(n=20) + "COMMIT;") is False
    assert (balance(accounts, "a"), balance(accounts, "b")) == (10, None)
    assert "TransactionCanceledException: Transaction cancelled, please refer cancellation reasons for " \
           "specific reasons [ConditionalCheckFailed, None]" in streams.err.getvalue()
    table = streams.out.getvalue()
    assert "│ statement " in table and "│ code " in table and "│ message " in table
    assert "ConditionalCheckFailed │ The conditional request failed" in table
    assert "INSERT" not in table  # only the statements DynamoDB gave a reason for


def test_rollback_drops_the_queued_statements(make_session, accounts):
    session, streams = make_session(accounts)
    assert session.run_script("BEGIN;\n" + TRANSFER.format(n=4) + "ROLLBACK;")
    assert (balance(accounts, "a"), balance(accounts, "b")) == (10, None)
    assert streams.err.getvalue().splitlines()[-1] == "transaction rolled back: 2 statements dropped, none run"


def test_a_batch_shows_each_statements_outcome(make_session, accounts):
    session, streams = make_session(accounts)
    ok = session.run_script("BEGIN BATCH;\nINSERT INTO Accounts VALUE {'Id': 'c'};\n"
                            "INSERT INTO Accounts VALUE {'Id': 'a'};\nCOMMIT;")
    assert ok is False  # the first statement ran on its own, the second failed
    table = streams.out.getvalue()
    assert "│ ok " in table and "DuplicateItemException: Duplicate primary key exists in table" in table
    assert streams.err.getvalue().splitlines()[-1] == "batch: 2 statements, 1 failed · 1 WCU"
    assert accounts.execute("SELECT * FROM Accounts WHERE Id = 'c'").items == [{"Id": "c"}]


def test_a_read_transaction_shows_the_items(make_session, accounts):
    session, streams = make_session(accounts, format="csv")
    assert session.run_script("BEGIN;\nSELECT * FROM Accounts WHERE Id = 'a';\nCOMMIT;")
    assert streams.out.getvalue().split() == ["Id,Balance", "a,10"]


@pytest.mark.parametrize("script, error", [
    ("COMMIT;", "COMMIT outside a transaction: open one with BEGIN (or BEGIN BATCH)"),
    ("ROLLBACK;", "ROLLBACK outside a transaction: open one with BEGIN (or BEGIN BATCH)"),
    ("BEGIN;\nBEGIN BATCH;", "a transaction is already open (0 statements queued): COMMIT or ROLLBACK it first"),
    ("BEGIN BATCH;\n" + "SELECT * FROM Accounts WHERE Id = 'a';\n" * 26,
     "a batch holds at most 25 statements (DynamoDB's limit)"),
])
def test_misplaced_block_statements_are_refused(make_session, accounts, script, error):
    session, streams = make_session(accounts)
    assert session.run_script(script) is False
    assert error in streams.err.getvalue()


def test_help_explains_transactions(make_session, accounts):
    session, streams = make_session(accounts)
    session.run_script(".help transaction")
    assert streams.out.getvalue().startswith("BEGIN [TRANSACTION]; statements … COMMIT;")
    session.run_script(".help")
    assert "BEGIN [TRANSACTION] or BEGIN BATCH, statements, COMMIT or ROLLBACK" in streams.out.getvalue()


def test_a_transaction_in_a_script_file(tmp_path):
    script = tmp_path / "tx.sql"
    script.write_text(";\n".join(SETUP) + ";\nBEGIN;\n" + TRANSFER.format(n=20) + "COMMIT;\n")
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "-f", str(script)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 1
    assert "ConditionalCheckFailed" in done.stdout and "TransactionCanceledException" in done.stderr
