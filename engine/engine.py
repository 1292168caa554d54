"""The engine: a catalog of tables and DynamoDB's operations on model objects.

This is the typed core both front ends share. The DynamoDB-shaped request
layer (``engine.requests``) parses expression text and request members into
the calls below; the PartiQL executor calls them directly with the plans'
model objects. Every operation holds the engine lock for its whole
duration, so each is atomic and a transaction is isolated.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from . import limits
from .capacity import Consumed, read_units, write_units
from .clock import Epoch, resolve_clock
from .errors import (CancellationReason, ConditionalCheckFailedException, DynamoDBError,
                     IdempotentParameterMismatchException, ResourceInUseException,
                     ResourceNotFoundException, TransactionCanceledException, ValidationException,
                     reason_code)
from .expressions.evaluate import matches
from .expressions.update import apply_update
from .keys import key_from_item, key_hash
from .partition import TOP, Record
from .schema import IndexSpec, TableSpec
from .storage import MemoryStorage, Storage
from .table import UPDATE_TOO_LARGE, Mutation, Page, Table
from .types import item_size

NOT_FOUND = "Requested resource not found"
CONDITION_FAILED = "The conditional request failed"




@dataclass(slots=True)
class WriteResult:
    """What a single-item write did."""

    old: dict | None
    new: dict | None
    consumed: Consumed
    collection: tuple | None = None  # (key attributes, bytes) of the item collection, when asked


@dataclass(slots=True)
class WriteAction:
    """One write of a transaction or batch, on model objects.

    ``kind`` is 'Put', 'Update', 'Delete' or 'ConditionCheck'; ``key`` is
    (hash, range) for all but Put, whose key comes from ``item``.
    """

    kind: str
    table: str
    key: tuple | None = None
    item: dict | None = None
    update: object = None
    condition: object = None
    return_old_on_failure: bool = False
    # How a failed condition is reported (PartiQL INSERT reports DuplicateItem).
    failure: tuple = ("ConditionalCheckFailed", CONDITION_FAILED)
    upsert: bool = True  # Update creates a missing item (False: PartiQL UPDATE never does)
    size: int | None = None  # Put: item_size(item) when the caller has computed it already


@dataclass
class _Idempotent:
    fingerprint: object
    at: float
    result: object


class Engine:
    """A local DynamoDB: tables, items, indexes, capacity; thread-safe."""

    def __init__(self, limits_: limits.Limits | None = None, region: str = "us-east-1",
                 account: str = "123456789012", storage: Storage | None = None, clock=None):
        self.limits = limits_ or limits.Limits()
        self.clock = resolve_clock(clock)  # seconds; a VirtualClock in tests (engine.clock)
        self.epoch = Epoch(self.clock)  # epoch seconds on that clock
        self.region = region
        self.account = account
        self.tables: dict[str, Table] = {}
        self.version = 0  # bumped by every catalog change; plan caches key on it
        self.lock = threading.RLock()
        self._tokens: dict[str, _Idempotent] = {}
        # Every write reaches the storage before memory (see engine.storage); a
        # file storage rebuilds its tables here.
        self.storage = storage if storage is not None else MemoryStorage()
        self.storage.load(self)

    # ---------------------------------------------------------------- tables
    def table(self, name: str) -> Table:
        """The table named ``name``; ResourceNotFoundException when absent."""
        table = self.tables.get(name)
        if table is None:
            raise ResourceNotFoundException(NOT_FOUND)
        return table

    def add_table(self, spec: TableSpec) -> Table:
        with self.lock:
            if spec.name in self.tables:
                raise ResourceInUseException(f"Table already exists: {spec.name}")
            table = self.tables[spec.name] = Table(spec, self.limits)
            self.version += 1
            return table

    def remove_table(self, name: str) -> Table:
        with self.lock:
            table = self.tables.get(name)
            if table is None:
                raise ResourceNotFoundException(f"Requested resource not found: Table: {name} not found")
            self.storage.drop_table(name)
            del self.tables[name]
            self.version += 1
            return table

    def table_names(self) -> list[str]:
        with self.lock:
            return sorted(self.tables, key=lambda n: n.encode("utf-8"))

    # ------------------------------------------------------------ point reads
    def get(self, table_name: str, key: tuple, consistent: bool = False,
            transactional: bool = False) -> tuple[Record | None, Consumed]:
        """GetItem: a snapshot of the stored record (hand out ``record.copy()``) or None, and the capacity."""
        with self.lock:
            table = self.table(table_name)
            record = table.get(*key)
            consumed = Consumed(table.name, transactional)
            size = record.size if record is not None else 1  # a miss still costs (spec §6.2)
            consumed.table.read = 2 * read_units(size, True) if transactional else read_units(size, consistent)
            return record, consumed

    # ----------------------------------------------------------------- writes
    def write(self, action: WriteAction, metrics: bool = False) -> WriteResult:
        """PutItem / UpdateItem / DeleteItem: check the condition, then write.

        The condition is evaluated against the stored item before the update
        is computed, so a false condition wins over update errors (item-api §2.1).
        With ``metrics`` the result carries the item collection's size (tables
        with LSIs only: ReturnItemCollectionMetrics=SIZE).
        """
        with self.lock:
            table = self.table(action.table)
            located = table.locate(*self._action_key(table, action))
            old = table.lookup(located)
            try:
                self._check_condition(action, old)
            except ConditionalCheckFailedException as error:
                error.consumed = _failed_write_units(table, action, old)
                raise
            mutation = self._mutation(table, action, located, old, transactional=False)
            if action.kind != "ConditionCheck":
                self.apply([mutation])
            new = mutation.new.item if mutation.new is not None else None
            return WriteResult(old.item if old is not None else None, new, mutation.consumed,
                               table.collection(mutation.pk) if metrics else None)

    def apply(self, mutations: list[Mutation]) -> None:
        """Make prepared mutations durable, all or none, then apply them in memory.

        The one place writes become visible: the storage first (a failure
        there leaves memory untouched), so nothing acknowledged is lost. The
        caller holds the lock from ``prepare`` to here.
        """
        self.storage.persist(mutations)
        for mutation in mutations:
            mutation.table.commit(mutation)

    @staticmethod
    def _action_key(table: Table, action: WriteAction) -> tuple:
        if action.key is None and action.kind == "Put":  # a Put's key comes from its item
            return key_from_item(table.spec.key, action.item)
        return action.key

    def _mutation(self, table: Table, action: WriteAction, located: tuple, old: Record | None,
                  transactional: bool) -> Mutation:
        if action.kind == "Put":
            return table.prepare(located, old, action.item, transactional=transactional, size=action.size)
        if action.kind == "Delete":
            return table.prepare(located, old, None, transactional=transactional)
        if action.kind == "ConditionCheck":
            mutation = Mutation(table, *located, old, old)
            mutation.consumed = Consumed(table.name, transactional)
            units = read_units(old.size if old is not None else 1, True)
            mutation.consumed.table.read = 2 * units if transactional else units
            return mutation
        new = self._updated(table, action, located, old.item if old is not None else None)
        return table.prepare(located, old, new, transactional=transactional, too_large=UPDATE_TOO_LARGE,
                             update=action.update)

    @staticmethod
    def _updated(table: Table, action: WriteAction, located: tuple, old: dict | None) -> dict | None:
        if old is None and not action.upsert:
            return None
        base = old if old is not None else table.key_of(located[1], located[2])
        new = (apply_update(action.update, base, exists=old is not None) if action.update is not None
               else dict(base))
        if old is None and _only_removals(action.update):
            return None  # REMOVE/DELETE on a missing item creates nothing (item-api §3.10)
        return new

    @staticmethod
    def _check_condition(action: WriteAction, old: Record | None) -> None:
        if action.condition is None:
            return
        if not matches(action.condition, old.item if old is not None else {}):
            # the caller's copy: it reaches single writes, transactions' reasons and PartiQL alike
            item = old.copy() if (action.return_old_on_failure and old is not None) else None
            raise ConditionalCheckFailedException(CONDITION_FAILED, item=item)

    # ------------------------------------------------------------ transactions
    def transact_write(self, actions: list[WriteAction], token: str | None = None,
                       fingerprint=None, metrics: list | None = None) -> list[Consumed]:
        """TransactWriteItems: every condition, then every write, or nothing.

        Returns each action's capacity (``per_table`` sums them as DynamoDB reports).

        All conditions are evaluated (no short-circuit); when an action hits a
        validation problem only the first such action is reported (item-api §5.15).
        """
        with self.lock:
            replay = self._replay(token, fingerprint)
            if replay is not None:
                return replay
            self._check_distinct(actions, "Transaction request cannot include multiple operations on one item")
            outcomes = [self._prepare_transactional(action) for action in actions]
            reasons = [reason for _, reason in outcomes]
            invalid = [i for i, reason in enumerate(reasons) if reason.code == "ValidationError"]
            if invalid:
                reasons = [reason if i == invalid[0] else CancellationReason()
                           for i, reason in enumerate(reasons)]
            if any(reason.code != "None" for reason in reasons):
                raise TransactionCanceledException(reasons)
            writes = [mutation for action, (mutation, _) in zip(actions, outcomes)
                      if action.kind != "ConditionCheck"]
            self.apply(writes)
            _collections(metrics, writes)
            consumed = [mutation.consumed for mutation, _ in outcomes]
            self._remember(token, fingerprint, consumed)
            return consumed

    def _prepare_transactional(self, action: WriteAction) -> tuple[Mutation | None, CancellationReason]:
        table = self.tables.get(action.table)
        if table is None:
            return None, CancellationReason("ResourceNotFound", NOT_FOUND)
        try:
            located = table.locate(*self._action_key(table, action))
            old = table.lookup(located)
        except ValidationException as error:
            return None, CancellationReason("ValidationError", error.message)
        try:
            self._check_condition(action, old)
        except ConditionalCheckFailedException as error:
            code, message = action.failure
            return None, CancellationReason(code, message, error.item)
        try:
            return self._mutation(table, action, located, old, transactional=True), CancellationReason()
        except ValidationException as error:
            return None, CancellationReason("ValidationError", error.message)
        except DynamoDBError as error:
            return None, CancellationReason(reason_code(error), error.message)

    def transact_get(self, reads: list[tuple[str, tuple]]) -> tuple[list[Record | None], list[Consumed]]:
        """TransactGetItems: every record read at one instant; 2 × R(b) each."""
        with self.lock:
            self._check_distinct([WriteAction("Get", t, k) for t, k in reads],
                                 "Transaction request cannot include multiple operations on one item")
            records, consumed = [], []
            for table_name, key in reads:
                record, units = self.get(table_name, key, transactional=True)
                records.append(record)
                consumed.append(units)
            return records, consumed

    def _check_distinct(self, actions, message: str) -> None:
        seen = set()
        for action in actions:
            table = self.tables.get(action.table)
            if table is None:
                continue
            key = self._action_key(table, action)
            located = (action.table, *table.locate(*key)[1:])
            if located in seen:
                raise ValidationException(message)
            seen.add(located)

    def _replay(self, token, fingerprint):
        if token is None:
            return None
        now = self.epoch()
        self._tokens = {t: e for t, e in self._tokens.items()
                        if now - e.at < limits.IDEMPOTENCY_WINDOW_SECONDS}
        entry = self._tokens.get(token)
        if entry is None:
            return None
        if entry.fingerprint != fingerprint:
            raise IdempotentParameterMismatchException()
        return entry.result

    def _remember(self, token, fingerprint, result) -> None:
        if token is not None:
            self._tokens[token] = _Idempotent(fingerprint, self.epoch(), result)

    # ---------------------------------------------------------------- batches
    def batch_write(self, actions: list[WriteAction], metrics: list | None = None) -> list[Consumed]:
        """BatchWriteItem: validated as a whole, then every put/delete applied."""
        with self.lock:
            for action in actions:
                self.table(action.table)
            self._check_distinct(actions, "Provided list of item keys contains duplicates")
            mutations = []
            for action in actions:
                table = self.tables[action.table]
                located = table.locate(*self._action_key(table, action))
                mutations.append(self._mutation(table, action, located, table.lookup(located), False))
            self.apply(mutations)
            _collections(metrics, mutations)
            return [mutation.consumed for mutation in mutations]

    # ------------------------------------------------------------ query / scan
    def query_page(self, table_name: str, index_name: str | None, hash_value, sort_condition=None, *,
              forward: bool = True, start_key: dict | None = None, limit: int | None = None,
              consistent: bool = False, matches_fn=None, reach_back: bool = False,
              max_bytes: int | None = None, emit=None) -> Page:
        """One page of a Query; ``sort_condition`` is (op, value[, value2]); ``emit`` as in ``read_page``."""
        with self.lock:
            table = self.table(table_name)
            index = self._index(table, index_name)
            store, space, key = table.source(index)
            entries = self._key_range(table, index, store, space, hash_value, sort_condition,
                                      forward, start_key)
            return table.read_page(index, entries, limit=limit, consistent=consistent,
                                   matches=matches_fn, reach_back=reach_back, max_bytes=max_bytes, emit=emit)

    def scan_page(self, table_name: str, index_name: str | None = None, *, start_key: dict | None = None,
             limit: int | None = None, consistent: bool = False, matches_fn=None,
             segment: int = 0, total_segments: int = 1, reach_back: bool = False,
             max_bytes: int | None = None, emit=None) -> Page:
        """One page of a Scan (of a segment of the hash space, for parallel scans)."""
        with self.lock:
            table = self.table(table_name)
            index = self._index(table, index_name)
            store, space, _ = table.source(index)
            lo, hi = segment_range(segment, total_segments)
            after = table.position(index, start_key) if start_key else None
            entries = store.scan(space, after, lo, hi)
            return table.read_page(index, entries, limit=limit, consistent=consistent,
                                   matches=matches_fn, reach_back=reach_back, max_bytes=max_bytes, emit=emit)

    @staticmethod
    def _index(table: Table, index_name: str | None) -> IndexSpec | None:
        if index_name is None:
            return None
        index = table.spec.index(index_name)
        if index is None:
            raise ValidationException(f"The table does not have the specified index: {index_name}")
        return index

    @staticmethod
    def _key_range(table, index, store, space, hash_value, condition, forward, start_key):
        h = key_hash(hash_value)
        if not store.grouped[space]:  # a hash-only table holds one item per key
            return iter(()) if start_key else store.collection(space, h, hash_value)
        low, high = _bounds(condition)
        if start_key:
            _, _, at = table.position(index, start_key)
            if forward:
                low = (at, False)
            else:
                high = (at, False)
        entries = store.collection(space, h, hash_value, low, high, reverse=not forward)
        if condition and condition[0] == "BEGINS_WITH":
            return _prefixed(entries, table.source(index)[2].range_name, condition[1])
        return entries


def _bounds(condition) -> tuple:
    """(low, high) bounds over sort tuples for a sort-key condition; each is
    (sort bound, inclusive) or None when open. ``(v,)`` sorts before every
    ``(v, …)`` and ``(v, TOP)`` after them, so one value bounds a whole run."""
    if condition is None:
        return None, None
    op, value = condition[0], condition[1]
    return {
        "=": lambda: (((value,), True), ((value, TOP), True)),
        "<": lambda: (None, ((value,), False)),
        "<=": lambda: (None, ((value, TOP), True)),
        ">": lambda: (((value, TOP), False), None),
        ">=": lambda: (((value,), True), None),
        "BETWEEN": lambda: (((value,), True), ((condition[2], TOP), True)),
        "BEGINS_WITH": lambda: (((value,), True), None),
    }[op]()


def _prefixed(records, sort_name: str, prefix):
    """Records while their sort key begins with ``prefix`` (they are sorted, so stop at the first miss)."""
    for record in records:
        if not record.item[sort_name].startswith(prefix):
            return
        yield record


def segment_range(segment: int, total: int) -> tuple[int, int]:
    """The hash range [lo, hi) a parallel-scan segment covers."""
    step = limits.HASH_SPACE // total
    lo = segment * step
    return lo, (limits.HASH_SPACE if segment == total - 1 else lo + step)


def _collections(metrics: list | None, mutations) -> None:
    """Append (table name, collection) for each written item of a table with LSIs."""
    if metrics is None:
        return
    for mutation in mutations:
        collection = mutation.table.collection(mutation.pk)
        if collection is not None:
            metrics.append((mutation.table.name, collection))


def _only_removals(update) -> bool:
    from .expressions.model import Delete, Remove
    return update is not None and all(isinstance(a, (Remove, Delete)) for a in update.actions)


def _failed_write_units(table: Table, action: WriteAction, old: Record | None) -> Consumed:
    """What a write whose condition failed consumes (spec §6.3): 1 unit when no item
    exists; otherwise the larger of the existing item and a Put's new item.

    INF: DG sizes a failed write on "the new item image", DX measured a failed
    INSERT over a 3 KB row at 3 units: the larger of the two satisfies both. An
    update's new image is never computed once its condition fails, so the
    existing item sizes it.
    """
    consumed = Consumed(table.name)
    size = 0 if old is None else old.size
    if old is not None and action.kind == "Put":
        size = max(size, item_size(action.item) if action.size is None else action.size)
    consumed.table.write = write_units(size)  # W(0) is the one unit of an absent item
    return consumed


def per_table(consumed: list) -> list[Consumed]:
    """Sum capacity per table, tables in order of first appearance."""
    merged: dict[str, Consumed] = {}
    for units in consumed:
        if units is None:
            continue
        into = merged.get(units.table_name)
        if into is None:
            into = merged[units.table_name] = Consumed(units.table_name, units.transactional)
        into.merge(units)
    return list(merged.values())
