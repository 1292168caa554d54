"""Transactions and batches in the shell (issue #13 point 2), as psql users write them.

``BEGIN [TRANSACTION];`` (or ``BEGIN BATCH;``) opens a block: the statements
that follow are queued, not run, until ``COMMIT;`` sends them as one
ExecuteTransaction (or BatchExecuteStatement); ``ROLLBACK;`` drops them.
What comes back: each statement's outcome, a transaction's cancellation
reasons as a table (statement, code, message), and the capacity consumed.
Meta-commands run as usual inside a block.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from partiql.engine.errors import DynamoDBError, TransactionCanceledException
from partiql.result import ConsumedCapacity

from .diagnostics import ShellError
from .formatting import render_items
from .status import SEPARATOR, capacity_text, leading_word

OPENERS = {("BEGIN",): "transaction", ("BEGIN", "TRANSACTION"): "transaction", ("BEGIN", "WORK"): "transaction",
           ("START", "TRANSACTION"): "transaction", ("BEGIN", "BATCH"): "batch"}
CLOSERS = ("COMMIT", "END", "ROLLBACK", "ABORT")
LIMITS = {"transaction": 100, "batch": 25}  # DynamoDB's: ExecuteTransaction's and BatchExecuteStatement's
SHOWN = 60  # characters of a statement in the outcome tables


HELP = """BEGIN [TRANSACTION]; statements … COMMIT;  one ExecuteTransaction: all or none
BEGIN BATCH;         statements … COMMIT;  one BatchExecuteStatement: each alone
ROLLBACK;                                  drop the queued statements, run none

Statements are queued until COMMIT. A transaction holds up to 100 statements,
all reads or all writes; when DynamoDB cancels it, its reasons are shown as a
table (statement, code, message). A batch holds up to 25, all reads or all
writes, and shows each statement's outcome. Example:

  BEGIN;
  UPDATE Accounts SET Balance = Balance - 20 WHERE Id = 'a' AND Balance >= 20;
  INSERT INTO Accounts VALUE {'Id': 'b', 'Balance': 20};
  COMMIT;"""
TOPICS = ("transaction", "batch", "begin", "commit")


@dataclass
class Block:
    """An open BEGIN … COMMIT: its kind and the statements queued so far."""

    kind: str
    statements: list = field(default_factory=list)


def words(text: str) -> tuple:
    """The statement's words in capitals, when it is one of the block statements (else ())."""
    found = tuple(text.upper().split())
    return found if found in OPENERS or found[:1] in {(c,) for c in CLOSERS} and len(found) <= 2 else ()


def handle(session, text: str) -> bool | None:
    """Run ``text`` if it is a block statement or belongs in an open block; None when it is neither."""
    said = words(text)
    block = session.block
    if said in OPENERS:
        if block is not None:
            raise ShellError(f"a {block.kind} is already open ({len(block.statements)} statements queued): "
                             "COMMIT or ROLLBACK it first")
        session.block = Block(OPENERS[said])
        session.notice(f"{session.block.kind} open: statements are queued until COMMIT (ROLLBACK drops them)")
        return True
    if said:
        if block is None:
            raise ShellError(f"{said[0]} outside a transaction: open one with BEGIN (or BEGIN BATCH)")
        session.block = None
        if said[0] in ("ROLLBACK", "ABORT"):
            session.notice(f"{block.kind} rolled back: {len(block.statements)} statements dropped, none run")
            return True
        return commit(session, block)
    if block is None:
        return None
    if len(block.statements) >= LIMITS[block.kind]:
        raise ShellError(f"a {block.kind} holds at most {LIMITS[block.kind]} statements (DynamoDB's limit)")
    block.statements.append(text)
    session.notice(f"queued ({len(block.statements)})")
    return True


def commit(session, block: Block) -> bool:
    if not block.statements:
        session.notice(f"{block.kind}: nothing to commit")
        return True
    if block.kind == "batch":
        return _batch(session, block.statements)
    return _transaction(session, block.statements)


def _transaction(session, statements: list) -> bool:
    try:
        results = session.db.execute_transaction(statements)
    except TransactionCanceledException as error:
        rows = [{"#": str(n), "statement": _short(text), "code": reason.code, "message": reason.message or ""}
                for n, (text, reason) in enumerate(zip(statements, error.reasons), 1) if reason.code != "None"]
        session.error(error)
        session.show(render_items(rows, "table", ["#", "statement", "code", "message"]))
        return False
    except DynamoDBError as error:
        session.error(error)
        return False
    items = [item for result in results for item in result.items]
    if items:
        session.show(render_items(items, session.settings.format, []))
    capacity = ConsumedCapacity.of([units for result in results for units in result.consumed_capacity.tables])
    for result in results:
        for warning in result.warnings:
            session.notice(f"warning: {warning}", "warning")
    session.notice(f"transaction committed: {len(statements)} statements" + SEPARATOR + capacity_text(capacity))
    return True


def _batch(session, statements: list) -> bool:
    try:
        outcomes = session.db.execute_batch(statements)
    except DynamoDBError as error:
        session.error(error)
        return False
    rows, tables = [], []
    for number, (text, outcome) in enumerate(zip(statements, outcomes), 1):
        if isinstance(outcome, DynamoDBError):
            rows.append({"#": str(number), "statement": _short(text),
                         "outcome": f"{outcome.code}: {outcome.message}"})
            continue
        tables += outcome.consumed_capacity.tables
        found = len(outcome.items)
        done = f"{found} item" + ("" if found == 1 else "s") if leading_word(text) == "SELECT" else "ok"
        rows.append({"#": str(number), "statement": _short(text), "outcome": done})
    session.show(render_items(rows, "table", ["#", "statement", "outcome"]))
    failed = sum(isinstance(outcome, DynamoDBError) for outcome in outcomes)
    session.notice(f"batch: {len(statements)} statements, {failed} failed" + SEPARATOR
                   + capacity_text(ConsumedCapacity.of(tables)), "warning" if failed else "status")
    return not failed


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"
