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
from ..throughput.admission import MESSAGES
from .conflicts import EXCEPTION_MESSAGE, REASON_MESSAGE

@dataclass(frozen=True)
class Place:
    """Where an injected error lands (a throttle's message and reason name its table or index)."""

    arn: str | None       # the table's ARN
    index: str | None
    reading: bool         # a read (the reason's Read), else a write
    reason: str | None    # the rule's reason, else the error's own


def _throttle(cls, mode: str, what: str):
    """A throttle's builder: DynamoDB's message for the table or index and its mode, one ThrottlingReasons entry
    (throughput.md §5)."""
    def build(place: Place):
        side = "Index" if place.index else "Table"
        reason = place.reason or f"{side}{'Read' if place.reading else 'Write'}{what}"
        resource = None if place.arn is None else place.arn + (f"/index/{place.index}" if place.index else "")
        return cls(MESSAGES[mode, side], [(reason, resource)] if resource else [])
    return build


# error name -> the exception it raises at a Place, as DynamoDB answers it
ERRORS = {
    "InternalServerError": lambda place: InternalServerError("Internal server error"),
    "ThrottlingException": _throttle(ThrottlingException, "on_demand", "KeyRangeThroughputExceeded"),
    "ProvisionedThroughputExceededException": _throttle(ProvisionedThroughputExceededException, "provisioned",
                                                        "ProvisionedThroughputExceeded"),
    "TransactionConflictException": lambda place: TransactionConflictException(EXCEPTION_MESSAGE),
    "TransactionConflict": lambda place: TransactionCanceledException([CancellationReason("TransactionConflict",
                                                                                          REASON_MESSAGE)]),
}
THROTTLES = ("ThrottlingException", "ProvisionedThroughputExceededException")
# the reasons a throttle may name (throughput.md §5)
REASONS = tuple(f"{side}{direction}{what}" for side in ("Table", "Index") for direction in ("Read", "Write")
                for what in ("ProvisionedThroughputExceeded", "KeyRangeThroughputExceeded",
                             "MaxOnDemandThroughputExceeded"))
READS = frozenset({"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"})
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
    reason: str | None = None          # a throttle's ThrottlingReasons reason (else the error's own)
    fired: int = 0                     # requests it injected into

    def matches(self, operation: str, tables: list, request: dict) -> bool:
        if self.operations and operation not in self.operations:
            return False
        if self.table is not None and self.table not in tables:
            return False
        if self.index is not None and request.get("IndexName") != self.index:
            return False
        if self.key and not (self._holds(request.get("Key") or request.get("Item") or {}) if operation not in BATCHES
                             else any(self.chooses(table, entry) for table, entry in batch_entries(request))):
            return False
        return self.count is None or self.fired < self.count

    def chooses(self, table: str, entry) -> bool:
        """Whether a batch's ``entry`` (of ``table``) is one this rule hands back (its table, its key)."""
        return (self.table is None or plain(table) == self.table) and self._holds(entry_key(entry))

    def _holds(self, attributes: dict) -> bool:
        return all(attributes.get(name) == value for name, value in self.key.items())

    def describe(self) -> str:
        """The rule as the shell's ``.faults`` shows it."""
        what = (f"{self.error} ({self.reason})" if self.reason else self.error) or (f"{self.unprocessed:.0%} of a batch's entries unprocessed" if self.unprocessed
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


def batch_entries(request: dict):
    """A batch's (table, entry) pairs: a BatchGetItem's keys, a BatchWriteItem's put and delete requests."""
    for table, entries in (request.get("RequestItems") or {}).items():
        listed = entries.get("Keys", []) if isinstance(entries, dict) else entries
        for entry in listed if isinstance(listed, list) else []:
            yield table, entry


def entry_key(entry) -> dict:
    """The attributes a batch entry names: a BatchGetItem key, a put's item, a delete's key."""
    if not isinstance(entry, dict):
        return {}
    for kind, member in (("PutRequest", "Item"), ("DeleteRequest", "Key")):
        if isinstance(entry.get(kind), dict):
            return entry[kind].get(member) or {}
    return entry
