"""``Realism``: what is switched on for one engine, its seeded generator, and the log of what it injected."""

from __future__ import annotations

import logging
import random
from collections import Counter, deque
from dataclasses import dataclass

from ..errors import CancellationReason, TransactionCanceledException, TransactionConflictException
from ..requests.descriptions import list_tables_page
from . import waits
from .conflicts import EXCEPTION_MESSAGE, REASON_MESSAGE
from .consistency import key_of
from .faults import ERRORS, READS, Place, Rule, plain, table_names

STALE_READS = frozenset({"GetItem", "Query", "Scan", "BatchGetItem"})  # (TransactGetItems: always consistent)
KEPT = 1000  # injections the log keeps (the count goes on)

LOG = logging.getLogger("partiql.realism")


@dataclass(frozen=True)
class Injected:
    """One injected fault: when (the engine's clock), into which operation and table, what."""

    at: float
    operation: str
    table: str | None
    fault: str


class Realism:
    """Production behaviours for one engine (``faults``: ``Rule`` s), drawn from ``random.Random(seed)``."""

    def __init__(self, faults: list | None = None, seed: int = 0, source: str = "<realism>", lifecycle=None,
                 consistency=None, conflicts=None):
        self.rules = list(faults or [])
        self.lifecycle = lifecycle  # lifecycle.Lifecycle: tables and indexes CREATING on the clock, or None
        self.consistency = consistency  # consistency.Consistency: stale reads and GSI lag, or None
        self.conflicts = conflicts  # conflicts.Conflicts: transactions that hold their items a while, or None
        self.seed, self.source = seed, source
        self.rng = random.Random(seed)
        self.injected: deque = deque(maxlen=KEPT)  # the last injections (a server runs for weeks)
        self.total = 0  # every injection, counted
        self.kinds: Counter = Counter()  # every injection, counted by kind
        self.level = logging.WARNING  # what each injection is logged at (a simulation's thousands: DEBUG)

    def call(self, engine, operation: str, request: dict, handler):
        """Run ``handler(engine, request)`` with the faults that match: an error raised before it runs, or a
        batch's share of entries handed back unprocessed after."""
        tables = table_names(operation, request)
        if self.lifecycle is not None:
            answer = self.lifecycle.before(engine.clock(), operation, request, tables)
            if answer is not None:
                return answer
            if operation == "ListTables" and self.lifecycle.deleting:  # (DELETING tables are listed until gone)
                return list_tables_page(self.lifecycle.listed(engine.table_names(), engine.clock()), request)
        rule = self._fire(engine, operation, tables, request, operation in READS)
        if rule is not None and rule.unprocessed:
            return self._unprocessed(engine, operation, request, handler, rule)
        response = handler(engine, request)
        if self.lifecycle is not None:
            self.lifecycle.after(engine, engine.clock(), operation, request, response)
        if self.consistency is not None and operation in STALE_READS:
            self._stale(engine, operation, request, response)
        return response

    def _stale(self, engine, operation: str, request: dict, response: dict) -> None:
        """A read's answer as a lagging replica (or index) gives it, when it may lag (eventually consistent, no
        projection)."""
        if operation == "BatchGetItem":  # (each table's keys read as that table's entry says)
            for table, entry in request["RequestItems"].items():
                if table in response.get("Responses", {}):
                    one = {"TableName": table, **{k: v for k, v in entry.items() if k != "Keys"}}
                    found = {"Items": response["Responses"][table]}
                    self._swap(engine, operation, one, found, entry["Keys"])
                    response["Responses"][table] = found["Items"]
        else:
            self._swap(engine, operation, request, response, [request["Key"]] if "Key" in request else None)

    def _swap(self, engine, operation: str, request: dict, response: dict, keys: list | None) -> None:
        """One table's read (its request and its response's Item or Items) as a lagging replica answers it;
        ``keys``, a point read's keys: one deleted a moment ago may be found again."""
        index = request.get("IndexName")
        if (request.get("ConsistentRead") and index is None) or request.get("ProjectionExpression") \
                or request.get("AttributesToGet") or request.get("Select") == "COUNT":
            return
        many = "Items" in response
        found = response.get("Items") if many else [response["Item"]] if "Item" in response else []
        name = plain(request["TableName"])
        items, swapped = self._lagging(engine, operation, name, found, index)
        if keys is not None and len(found) < len(keys):
            items, swapped = self._deleted(engine, operation, name, keys, found, items, swapped)
        if not swapped:
            return
        if many:
            response["Items"], response["Count"] = items, len(items)
        elif items:
            response["Item"] = items[0]
        else:
            del response["Item"]

    def _deleted(self, engine, operation: str, name: str, keys: list, found: list, items: list,
                 swapped: int) -> tuple:
        """A point read's keys it did not find, as a lagging replica may still hold them (deleted just now)."""
        table = engine.table(name)
        there = {key_of(table.spec.key, item) for item in found}
        again = [self.consistency.missing(table, key, engine.clock(), self.rng) for key in keys
                 if key_of(table.spec.key, key) not in there]
        again = [item for item in again if item is not None]
        if again:
            self._log(engine, operation, [name], f"{len(again)} deleted item{'' if len(again) == 1 else 's'} "
                      "served", "stale read")
        return items + again, swapped + len(again)

    def statement_items(self, engine, table: str, index: str | None, items: list, consistent: bool) -> tuple:
        """A PartiQL SELECT's items as a lagging replica (or index) gives them, and how many were earlier
        versions (the caller warns of them)."""
        if self.consistency is None or (consistent and index is None):
            return items, 0
        return self._lagging(engine, "ExecuteStatement", table, items, index)

    def _lagging(self, engine, operation: str, table: str, items: list, index: str | None) -> tuple:
        """``items`` a read of ``table`` (or its ``index``) returned, as a lagging replica answers them, and how
        many are earlier versions (logged)."""
        items, swapped = self.consistency.items(engine.table(table), items, engine.clock(), self.rng, index)
        if swapped:
            self._log(engine, operation, [table], f"{swapped} stale item{'' if swapped == 1 else 's'}", "stale read")
        return items, swapped

    def statement(self, engine, operation: str, table: str | None, index: str | None = None,
                  reading: bool = False) -> None:
        """A PartiQL request (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction) on ``table`` (and
        ``index``): the lifecycle's answer, or the error of the first rule that fires (``unprocessed`` has no
        meaning there)."""
        request = {} if table is None else {"TableName": table, "IndexName": index}
        tables = [table] if table else []
        if self.lifecycle is not None:
            self.lifecycle.before(engine.clock(), operation, request, tables)
        self._fire(engine, operation, tables, request, reading)  # (an unprocessed rule names batches only)

    def _fire(self, engine, operation: str, tables: list, request: dict, reading: bool) -> Rule | None:
        """The first rule that matches the request and is drawn: its error raised (and logged), its latency
        waited, or the rule itself (one that hands back a batch's entries); None when none fires."""
        for rule in self.rules:
            if rule.matches(operation, tables, request) and self.rng.random() < rule.share:
                rule.fired += 1
                if rule.error is not None:
                    self._log(engine, operation, tables, rule.error)
                    arn = f"arn:aws:dynamodb:{engine.region}:{engine.account}:table/{tables[0]}" if tables else None
                    raise ERRORS[rule.error](Place(arn, request.get("IndexName"), reading, rule.reason))
                if rule.latency:
                    self._log(engine, operation, tables, f"{rule.latency * 1000:g} ms of latency", "latency")
                    self.wait(engine, rule.latency)
                return rule
        return None

    # ------------------------------------------------------ transaction conflicts (the engine asks)
    def writing(self, engine, kind: str, table: str, located: tuple) -> None:
        """A single write (``kind``: Put, Update, Delete) of an item: TransactionConflictException while an
        ongoing transaction holds it."""
        if self.holds(engine, f"{kind}Item", table, located):
            raise TransactionConflictException(EXCEPTION_MESSAGE)

    def holds(self, engine, operation: str, table: str, located: tuple) -> bool:
        """Whether an ongoing transaction holds the item (the request meets a conflict: logged)."""
        if self.conflicts is None or not self.conflicts.ongoing(table, located, engine.clock()):
            return False
        self._log(engine, operation, [table], "TransactionConflict (an ongoing transaction holds the item)",
                  "TransactionConflict")
        return True

    @staticmethod
    def conflict_reason() -> CancellationReason:
        """A transaction's cancellation reason for an item another transaction holds."""
        return CancellationReason("TransactionConflict", REASON_MESSAGE)

    def transact_reads(self, engine, tables: list, keys: list) -> None:
        """A TransactGetItems: cancelled (TransactionConflict at each held item's place) when an ongoing
        transaction holds any of its items."""
        if self.conflicts is None:
            return
        held = [self.holds(engine, "TransactGetItems", table.name, table.locate(*key))
                for table, key in zip(tables, keys)]
        if any(held):
            raise TransactionCanceledException([self.conflict_reason() if one else CancellationReason()
                                                for one in held])

    def transacted(self, engine, mutations: list) -> float:
        """A transaction that ran: its items held for its duration; the seconds its caller waits."""
        return 0.0 if self.conflicts is None else self.conflicts.hold(mutations, engine.clock())

    @staticmethod
    def wait(engine, seconds: float) -> None:
        """Let ``seconds`` pass for the request running now (``waits``: a sleep, a server's await, or none on a
        virtual clock)."""
        waits.wait(engine, seconds)

    def _unprocessed(self, engine, operation: str, request: dict, handler, rule: Rule) -> dict:
        """Hand back a share of the batch entries the rule chooses (at least one a table), run the rest."""
        member = "Keys" if operation == "BatchGetItem" else None
        kept, held = {}, {}
        for table, entries in request["RequestItems"].items():
            listed = entries[member] if member else entries
            chosen = [rule.chooses(table, entry) for entry in listed]
            back = [one and self.rng.random() < rule.unprocessed for one in chosen]
            if any(chosen) and not any(back):
                back[self.rng.choice([n for n, one in enumerate(chosen) if one])] = True
            run = [entry for entry, skip in zip(listed, back) if not skip]
            off = [entry for entry, skip in zip(listed, back) if skip]
            if run:
                kept[table] = dict(entries, Keys=run) if member else run
            if off:
                held[table] = dict(entries, Keys=off) if member else off
        response = handler(engine, dict(request, RequestItems=kept)) if kept else {}
        if operation == "BatchGetItem":
            response.setdefault("Responses", {})
        response["UnprocessedKeys" if member else "UnprocessedItems"] = held
        self._log(engine, operation, list(held), f"{sum(len(v['Keys'] if member else v) for v in held.values())} "
                  "entries unprocessed", "unprocessed entries")
        return response

    def _log(self, engine, operation: str, tables: list, fault: str, kind: str | None = None) -> None:
        """Log one injection (``kind``: what it counts as, by default the fault itself)."""
        entry = Injected(engine.clock(), operation, tables[0] if tables else None, fault)
        self.injected.append(entry)
        self.total += 1
        self.kinds[kind or fault] += 1
        LOG.log(self.level, "realism: injected %s into %s%s", fault, operation,
                f" on {entry.table}" if entry.table else "")

    def explain(self, kind: str, table: str, index: str | None, consistent: bool) -> list:
        """What this realism may do to a statement lowered to ``kind`` on ``table`` (``index``): a line each
        (EXPLAIN's; it runs nothing, so it says what may happen, not what did)."""
        lines = []
        reading = kind in ("GetItem", "Query", "Scan")
        if reading and self.consistency is not None:
            lines.append(self._explain_read(index, consistent))
        if kind in ("PutItem", "UpdateItem", "DeleteItem") and self.conflicts is not None and self.conflicts.duration:
            lines.append(f"TransactionConflictException while a transaction holds the item (transactions hold "
                         f"their items {_span(self.conflicts.duration)})")
        request = {"TableName": table, "IndexName": index}
        lines += [f"fault: {rule.describe()}" for rule in self.rules
                  if rule.matches("ExecuteStatement", [table], request)]
        return lines

    def _explain_read(self, index: str | None, consistent: bool) -> str:
        figures = self.consistency
        if index is not None:
            lag = figures.index_lag.get(index, figures.gsi_lag)
            return (f"the index lags its table {_span(lag)}: a write of the last {_span(lag)} is not seen yet"
                    if lag else "the index sees its table's writes at once")
        if consistent:
            return "a strongly consistent read: never stale"
        return (f"eventually consistent: an item written in the last {_span(figures.window)} is read as it was "
                f"before with a chance of {figures.stale:g} (ConsistentRead: never)")

    def describe(self) -> list:
        """What is switched on, a line each (the shell's ``.faults``): each rule, then the lifecycle, consistency
        and transaction figures with what they did."""
        lines = [rule.describe() for rule in self.rules]
        life, lag, held = self.lifecycle, self.consistency, self.conflicts
        if life is not None:
            lines.append(f"lifecycle: tables CREATING {_span(life.create)}, DELETING {_span(life.delete)}; new GSIs "
                         f"CREATING {_span(life.index)} + their items at {life.backfill:,g} a second; TTL changes "
                         f"{_span(life.ttl)}, expired items deleted up to {_span(life.ttl_lag)} late")
        if lag is not None:
            lags = "".join(f", {name} {_span(seconds)}" for name, seconds in lag.index_lag.items())
            lines.append(f"consistency: a write's previous version read for {_span(lag.window)} with a chance of "
                         f"{lag.stale:g}; GSIs {_span(lag.gsi_lag)} behind{lags}; {lag.served:,} items served stale")
        if held is not None:
            lines.append(f"transactions: hold their items {_span(held.duration)}; {held.met:,} requests met one")
        return lines


def _span(seconds: float) -> str:
    return f"{seconds:g} s" if seconds >= 1 or not seconds else f"{seconds * 1000:g} ms"
