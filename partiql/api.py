"""The library: ``connect()``, ``Connection`` and how statements run.

A ``Connection`` owns an engine, caches parsed and planned statements by
text (and catalog version), and runs statements with DynamoDB's
ExecuteStatement, BatchExecuteStatement and ExecuteTransaction semantics.
Parameters are Python values (str, int/Decimal, bytes, bool, None, list,
dict, set); results carry Python values too.
"""

from __future__ import annotations

import functools
from typing import Iterator, Sequence

from partiql.engine import Engine
from partiql.engine.errors import (CancellationReason, DynamoDBError, TransactionCanceledException,
                                   ValidationException)
from partiql.engine.types import from_python

from . import ast
from .executor import Executor
from .parser import parse, parse_dml
from .planner import (ExistsTemplate, ExplainTemplate, InsertTemplate, SelectTemplate, TableTemplate,
                      WriteTemplate, plan)
from .result import ConsumedCapacity, PlanSummary, Result
from .statements import StatementRunner

SCAN_POLICIES = ("allow", "warn", "deny")


class ScanRefused(ValidationException):
    """The connection's scan policy is "deny" and the statement would be a full Scan."""


def connect(path: str | None = None, **options) -> "Connection":
    """Open a database: in memory (``path`` None) or a durable file."""
    if path is not None:
        raise ValueError(f"cannot open {path!r}: file databases are not supported yet; "
                         "use partiql.connect() for an in-memory database")
    return Connection(Engine(options.get("limits")))


class Connection:
    """A database you run PartiQL statements against."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self._scan_policy = "allow"
        self.runner = StatementRunner(engine, self)

    # ------------------------------------------------------------ settings
    @property
    def scan_policy(self) -> str:
        """"allow" (default), "warn" (attach a warning) or "deny" (refuse full Scans)."""
        return self._scan_policy

    @scan_policy.setter
    def scan_policy(self, policy: str) -> None:
        if policy not in SCAN_POLICIES:
            raise ValueError(f"scan_policy must be one of {', '.join(SCAN_POLICIES)}, not {policy!r}")
        self._scan_policy = policy

    # --------------------------------------------------------- statements
    def execute(self, statement: str, parameters: Sequence | None = None, *, limit: int | None = None,
                next_token: str | None = None, consistent_read: bool = False) -> Result:
        """Run one statement (PartiQL, DDL, SHOW TABLES, DESCRIBE or EXPLAIN)."""
        params = _python_params(parameters)
        return self.runner.execute(statement, params, limit=limit, next_token=next_token,
                                   consistent=consistent_read, shell=True)

    def pages(self, statement: str, parameters: Sequence | None = None, *, limit: int | None = None,
              consistent_read: bool = False) -> Iterator[Result]:
        """Every page of a statement, following NextToken until the end."""
        token = None
        while True:
            result = self.execute(statement, parameters, limit=limit, next_token=token,
                                  consistent_read=consistent_read)
            yield result
            token = result.next_token
            if token is None:
                return

    def execute_batch(self, statements) -> list:
        """BatchExecuteStatement: a Result or a DynamoDBError per statement, in order."""
        return self.runner.batch([_statement(s) for s in statements])

    def execute_transaction(self, statements, client_request_token: str | None = None) -> list[Result]:
        """ExecuteTransaction: every statement's Result, or TransactionCanceledException."""
        return self.runner.transaction([_statement(s) for s in statements], client_request_token)

    def explain(self, statement: str, parameters: Sequence | None = None) -> PlanSummary:
        """The DynamoDB calls a statement lowers to, without running it."""
        text = statement.strip()
        if not text.upper().startswith("EXPLAIN"):
            text = "EXPLAIN " + text
        return self.runner.execute(text, _python_params(parameters), shell=True).plan

    # ------------------------------------------------------------- catalog
    def table_names(self) -> list[str]:
        return self.engine.table_names()

    def describe(self, table: str) -> dict:
        """DynamoDB's TableDescription, with the table's partitions."""
        return self.engine.describe_table(TableName=table)["Table"]

    def attribute_names(self, table: str, sample: int = 200) -> list[str]:
        """Key attributes first, then attribute names seen in a sample of items."""
        with self.engine.lock:
            found = self.engine.table(table)
            names = list(found.spec.key.names)
            for index in found.spec.indexes:
                names += [n for n in index.key.names if n not in names]
            for count, (_, _, _, record) in enumerate(found.store.scan(None)):
                if count >= sample:
                    break
                names += [n for n in record.item if n not in names]
        return names

    def close(self) -> None:
        """Release the database (a no-op in memory)."""


def _python_params(parameters) -> list:
    if parameters is None:
        return []
    return [from_python(value) for value in parameters]


def _statement(entry) -> tuple[str, list]:
    if isinstance(entry, str):
        return entry, []
    text, parameters = entry
    return text, _python_params(parameters)
