"""Scripted faults: which requests a rule matches, and the error it injects (the minidyn / LocalStack knobs, made
deterministic by the engine's seeded generator).

A rule matches by operation (one or a list; DynamoDB's names, ``ExecuteStatement`` for PartiQL), table,
index and key (equality on the request's ``Key`` or ``Item`` attributes), then fires for a ``share`` of
the matching requests (drawn from the seeded generator) or for the first ``count`` of them (or both: the
first ``count`` of those drawn). What it injects is one of ``ERRORS`` (DynamoDB's code, status and
message), ``unprocessed``: a share of a batch's entries handed back as UnprocessedItems / UnprocessedKeys, or
``latency``: seconds the answer takes longer (the request then runs).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import (CancellationReason, InternalServerError, ProvisionedThroughputExceededException,
                      ThrottlingException, TransactionCanceledException, TransactionConflictException)
from ..requests.common import table_name
from .conflicts import EXCEPTION_MESSAGE, REASON_MESSAGE

# error name -> (the exception it raises, its message), as DynamoDB answers them
ERRORS = {
    "InternalServerError": lambda table: InternalServerError("Internal server error"),
    "ThrottlingException": lambda table: ThrottlingException("Rate of requests exceeds the allowed throughput."),
    "ProvisionedThroughputExceededException": lambda table: ProvisionedThroughputExceededException(
        "The level of configured provisioned throughput for the table was exceeded. Consider increasing your "
        "provisioning level with the UpdateTable API."),
    "TransactionConflictException": lambda table: TransactionConflictException(EXCEPTION_MESSAGE),
    "TransactionConflict": lambda table: TransactionCanceledException([CancellationReason("TransactionConflict",
                                                                                          REASON_MESSAGE)]),
}
BATCHES = ("BatchWriteItem", "BatchGetItem")


@dataclass
class Rule:
    """One scripted fault: what it matches, how often it fires, what it injects."""

    error: str | None = None           # a name of ERRORS, or None with ``unprocessed``
    operations: tuple = ()             # () matches every operation
    table: str | None = None
    index: str | None = None
    key: dict = field(default_factory=dict)   # attribute -> engine value, all equal
    share: float = 1.0
    count: int | None = None           # fire for the first ``count`` drawn requests only
    unprocessed: float = 0.0           # a batch's entries handed back, as a share
    latency: float = 0.0               # s added before the answer (the request then runs)
    fired: int = 0                     # requests it injected into

    def matches(self, operation: str, tables: list, request: dict) -> bool:
        if self.operations and operation not in self.operations:
            return False
        if self.table is not None and self.table not in tables:
            return False
        if self.index is not None and request.get("IndexName") != self.index:
            return False
        if self.key:
            held = request.get("Key") or request.get("Item") or {}
            if any(held.get(name) != value for name, value in self.key.items()):
                return False
        return self.count is None or self.fired < self.count

    def describe(self) -> str:
        """The rule as the shell's ``.faults`` shows it."""
        what = self.error or (f"{self.unprocessed:.0%} of a batch's entries unprocessed" if self.unprocessed
                              else f"{self.latency * 1000:g} ms of latency")
        where = " ".join(part for part in (
            "/".join(self.operations) or "every operation", f"on {self.table}" if self.table else "",
            f"index {self.index}" if self.index else "",
            "where " + ", ".join(f"{k} = {v!r}" for k, v in self.key.items()) if self.key else "") if part)
        often = (f"{self.share:.0%} of them" if self.share < 1 else "every one") + (
            f", the first {self.count:,}" if self.count is not None else "")
        return f"{what}: {where}, {often} ({self.fired:,} injected)"


def table_names(operation: str, request: dict) -> list:
    """The tables a request touches (by name: a table's ARN names it too)."""
    if "TableName" in request:
        return [plain(request["TableName"])]
    if operation in BATCHES:
        return [plain(name) for name in request.get("RequestItems") or {}]
    return [plain(entry[kind]["TableName"]) for entry in request.get("TransactItems") or [] for kind in entry
            if isinstance(entry.get(kind), dict) and "TableName" in entry[kind]]


def plain(name):
    """A table's name as a request gives it: its name, or its ARN (item-api: TableName takes either)."""
    return table_name({"TableName": name})
