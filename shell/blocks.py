"""Transactions and batches in the shell (issue #13 point 2), as psql users write them.

``BEGIN [TRANSACTION];`` (or ``BEGIN BATCH;``) opens a block: the statements
that follow are queued, not run, until ``COMMIT;`` sends them as one
ExecuteTransaction (or BatchExecuteStatement); ``ROLLBACK;`` drops them.
What comes back: each statement's outcome, a transaction's cancellation
reasons as a table (statement, code, message), and the capacity consumed.
Meta-commands run as usual inside a block.
"""

from __future__ import annotations

import re
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
.queue [drop N]                            show the queue, or drop statement N

Each statement is planned as it is queued (an error or a hint at once, and it is
not queued); the prompt reads partiql*> while a block is open. A COMMIT that
fails writes nothing and keeps the queue: COMMIT again, or ROLLBACK. A
transaction holds up to 100 statements,
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
        committed = commit(session, block)
        if committed is None:  # nothing was written: the queue stays for another COMMIT or a ROLLBACK
            session.block = block
            session.notice(f"nothing was written; the {len(block.statements)} statements stay queued: COMMIT "
                           "again, .queue shows them, ROLLBACK drops them", "warning")
            return False
        return committed
    if block is None:
        return None
    if len(block.statements) >= LIMITS[block.kind]:
        raise ShellError(f"a {block.kind} holds at most {LIMITS[block.kind]} statements (DynamoDB's limit)")
    if not _planned(session, text):
        return False
    block.statements.append(text)
    session.notice(f"queued ({len(block.statements)})")
    return True


def _planned(session, text: str) -> bool:
    """Plan a statement as it is queued: its error and hints now, not at COMMIT (then it is not queued)."""
    parameters = session.knobs.params if session.knobs.params and "?" in text else None
    try:
        session.db.explain(text, parameters)
    except Exception as error:  # noqa: BLE001 - reported as run_statement reports, the session goes on
        session.error(error, text)
        session.notice("not queued: fix it and enter it again", "warning")
        session.show_hints(getattr(error, "hints", ()))
        return False
    return True


def commit(session, block: Block) -> bool | None:
    """Send the block; True when done, False when a batch ran with failures, None when nothing was written."""
    if not block.statements:
        session.notice(f"{block.kind}: nothing to commit")
        return True
    if block.kind == "batch":
        return _batch(session, block.statements)
    return _transaction(session, block.statements)


def _transaction(session, statements: list) -> bool | None:
    try:
        results = session.db.execute_transaction(statements)
    except TransactionCanceledException as error:
        rows = [{"#": str(n), "statement": _short(text), "code": reason.code, "message": reason.message or ""}
                for n, (text, reason) in enumerate(zip(statements, error.reasons), 1) if reason.code != "None"]
        session.error(error)
        session.show(render_items(rows, "table", ["#", "statement", "code", "message"]))
        return None
    except Exception as error:  # noqa: BLE001 - DynamoDB's refusal, the network: reported, the queue kept
        session.error(error)
        _name_the_statement(session, error, statements)
        return None
    items = [item for result in results for item in result.items]
    if items:
        session.show(render_items(items, session.settings.format, []))
    capacity = ConsumedCapacity.of([units for result in results for units in result.consumed_capacity.tables])
    for result in results:
        for warning in result.warnings:
            session.notice(f"warning: {warning}", "warning")
    session.notice(f"transaction committed: {len(statements)} statements" + SEPARATOR + capacity_text(capacity))
    return True


def _batch(session, statements: list) -> bool | None:
    try:
        outcomes = session.db.execute_batch(statements)
    except Exception as error:  # noqa: BLE001 - as a transaction's: nothing ran, the queue is kept
        session.error(error)
        return None
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


_POSITION = re.compile(r"TransactStatements\[(\d+)\]")


def _name_the_statement(session, error: Exception, statements: list) -> None:
    """DynamoDB numbers a transaction's statements from 0 (``TransactStatements[0]``); the queue from 1."""
    found = _POSITION.search(getattr(error, "message", ""))
    if found and int(found.group(1)) < len(statements):
        number = int(found.group(1)) + 1
        session.notice(f"{found.group(0)} is queued statement {number}: {_short(statements[number - 1])}",
                       "warning")


def show_queue(session, argument: str) -> None:
    """``.queue``: the open block's statements, numbered; ``.queue drop N`` drops statement N."""
    block = session.block
    if block is None:
        raise ShellError("no transaction or batch is open (BEGIN opens one)")
    words = argument.split()
    if words:
        if len(words) != 2 or words[0] != "drop" or not words[1].isdigit() \
                or not 1 <= int(words[1]) <= len(block.statements):
            raise ShellError(f".queue drop N takes a queued statement's number (1 to {len(block.statements)})")
        dropped = block.statements.pop(int(words[1]) - 1)
        session.notice(f"dropped {words[1]}: {_short(dropped)} ({len(block.statements)} queued)")
        return
    rows = [{"#": str(n), "statement": _short(text)} for n, text in enumerate(block.statements, 1)]
    session.show(render_items(rows, "table", ["#", "statement"]))
    session.notice(f"{block.kind}: {len(block.statements)} queued")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"
