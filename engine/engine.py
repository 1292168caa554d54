"""The engine: a catalog of tables and DynamoDB's operations on model objects.

This is the typed core both front ends share. The DynamoDB-shaped request
layer (``engine.requests``) parses expression text and request members into
the calls below; the PartiQL executor calls them directly with the plans'
model objects. Every operation holds the engine lock for its whole
duration, so each is atomic and a transaction is isolated.
"""

from __future__ import annotations

import threading

from . import limits
from .actions import CONDITION_FAILED, NOT_FOUND, WriteAction, WriteResult, collections_of
from .capacity import Consumed, read_units, write_units
from .clock import Epoch, resolve_clock
from .errors import (ConditionalCheckFailedException, ResourceInUseException, ResourceNotFoundException,
                     ValidationException)
from .expressions.evaluate import matches
from .expressions.update import apply_update, updated_size
from .expressions.update_size import too_large as update_too_large
from .keys import key_from_item
from .placement import key_hash, segment_range
from .partition import TOP, Record
from .schema import IndexSpec, TableSpec
from .storage import MemoryStorage, Storage
from .table import BULK_PUTS, UPDATE_TOO_LARGE, Mutation, Page, Table
from .streams import Streams
from .throughput import Draw, Throughput
from .throughput.draws import ScanTally, read_resource, table_draws, write_draws
from .throughput.metrics import READ, WRITE
from .transactions import Transactions, _Idempotent
from .types import item_size, prefix_end



class Engine(Transactions):
    """A local DynamoDB: tables, items, indexes, capacity; thread-safe."""

    def __init__(self, limits_: limits.Limits | None = None, region: str = "us-east-1",
                 account: str = "123456789012", storage: Storage | None = None, clock=None,
                 throughput: str = "report", adaptive_capacity: bool = True):
        self.limits = limits_ or limits.Limits()
        self.clock = resolve_clock(clock)  # seconds; a VirtualClock in tests (engine.clock)
        # Partition throughput (spec throughput.md): "off", "report" or "enforce".
        self.throughput = Throughput(self, throughput, adaptive_capacity)
        self.epoch = Epoch(self.clock)  # epoch seconds on that clock
        self.realism = None  # realism.Realism: production behaviours switched on (None: off, the default)
        self.region = region
        self.account = account
        self.tables: dict[str, Table] = {}
        self.version = 0  # bumped by every catalog change; plan caches key on it
        self.lock = threading.RLock()
        self._tokens: dict[str, _Idempotent] = {}
        # Every write reaches the storage before memory (see engine.storage); a
        # file storage rebuilds its tables here.
        self.storage = storage if storage is not None else MemoryStorage()
        # DynamoDB Streams: records of what commits (engine.streams); a file keeps them too
        self.streams = Streams(self, durable=self.storage.durable)
        self.storage.load(self)
        for table in self.tables.values():  # a stream enabled in the file runs on, its records with it
            self.streams.sync(table)
        self.streams.saved()  # (what loading found is what the file holds)

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
            table.vectors.attach(self.clock, self.throughput)
            self.version += 1
            return table

    def remove_table(self, name: str) -> Table:
        with self.lock:
            table = self.tables.get(name)
            if table is None:
                raise ResourceNotFoundException(f"Requested resource not found: Table: {name} not found")
            self.storage.check_writable()
            self.streams.sync(table, deleted=True)  # its stream closes and stays readable for a day
            self.storage.drop_table(name)
            del self.tables[name]
            self.version += 1
            return table

    def table_names(self) -> list[str]:
        with self.lock:
            return sorted(self.tables, key=lambda n: n.encode("utf-8"))

    # ------------------------------------------------------------ point reads
    def get(self, table_name: str, key: tuple, consistent: bool = False, transactional: bool = False,
            emit=Record.alias) -> tuple:
        """GetItem: the stored record as ``emit`` makes it under the lock — by default a snapshot (hand
        out ``record.copy()``); a response item (``shaper``) saves the snapshot — or None; and the capacity."""
        with self.lock:
            table = self.table(table_name)
            located = table.locate(*key)
            partition, record = table.find(located)
            consumed = self._read_units(table, record, consistent, transactional)
            throughput = self.throughput
            if throughput.on:  # a GetItem reads the table alone: its arm holds every unit
                throughput.take_key(table, None, READ, partition, located, consumed.table.read, True)
            return (None if record is None else emit(record)), consumed

    @staticmethod
    def _read_units(table: Table, record: Record | None, consistent: bool, transactional: bool) -> Consumed:
        consumed = Consumed(table.name, transactional)
        size = record.size if record is not None else 1  # a miss still costs (spec §6.2)
        consumed.table.read = 2 * read_units(size, True) if transactional else read_units(size, consistent)
        return consumed

    # ------------------------------------------------------------- admission
    def _admit_write(self, draws: list) -> None:
        """Admit and charge one write (its table and each GSI it touches), or refuse it."""
        if len(draws) == 1:
            draw = draws[0]
            self.throughput.take(draw.resource, draw.direction, draw.h, draw.units, draw.pk, draw.sk)
        else:
            self.throughput.admit(draws)

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
            if self.realism is not None:  # (an ongoing transaction holds the item: TransactionConflictException)
                self.realism.writing(self, action.kind, table.name, located)
            partition, old = table.find(located)
            if old is not None:
                old = old.alias()  # (the write overwrites the stored record in place)
            self._check_statement_size(table, action, old)
            try:
                self._check_condition(action, old)
            except ConditionalCheckFailedException as error:
                error.consumed = _failed_write_units(table, action, old)
                if self.throughput.on:  # a failed write is charged, so it is admitted first: a throttle wins
                    h, pk, sort = located
                    state = self.throughput.state(table)
                    self._admit_write(table_draws(state, error.consumed, h, pk, sort[0] if sort else None))
                raise
            mutation = self._mutation(table, action, located, old, transactional=False)
            throughput = self.throughput
            if throughput.on:  # one prepared write: fast for a write that touches no index
                if mutation.changes:
                    self._admit_write(write_draws(throughput.state(table), mutation))
                else:
                    throughput.take_key(table, None, WRITE, partition, located, mutation.consumed.table.write)
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
        if self.realism is not None and self.realism.consistency is not None:  # (issue 33: what each write replaced)
            self.realism.consistency.record(mutations, self.clock())
        # why the test: a write to a database without streams pays one lookup
        changes = self.streams.prepare(mutations) if self.streams.by_arn else None
        self.storage.persist(mutations, changes)  # the changes' records in the same transaction
        if len(mutations) >= BULK_PUTS and all(mutation.table is mutations[0].table for mutation in mutations):
            mutations[0].table.commit_all(mutations)  # (an import)
        else:
            for mutation in mutations:
                mutation.table.commit(mutation)
        if changes:  # (None, or [] when nothing changed)
            self.streams.publish(changes)

    @staticmethod
    def _action_key(table: Table, action: WriteAction) -> tuple:
        if action.key_problem is not None:
            raise ValidationException(action.key_problem)
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
        # (an update's result is sized from the old item's size and what it touched; its values' nesting was
        # checked as each was written: apply_update)
        size = None if old is None or new is None or action.update is None else updated_size(
            action.update, old.item, old.size, new)
        return table.prepare(located, old, new, transactional=transactional, too_large=UPDATE_TOO_LARGE,
                             update=action.update, size=size)

    @staticmethod
    def _updated(table: Table, action: WriteAction, located: tuple, old: dict | None) -> dict | None:
        if old is None and not action.upsert:
            return None
        base = old if old is not None else table.key_of(located[1], located[2])
        new = (apply_update(action.update, base, exists=old is not None, program=action.program)
               if action.update is not None
               else dict(base))
        if old is None and _only_removals(action.update):
            return None  # REMOVE/DELETE on a missing item creates nothing (item-api §3.10)
        return new

    @staticmethod
    def _check_statement_size(table: Table, action: WriteAction, old: Record | None) -> None:
        """An update's statement-sized 400 KB gate, which DynamoDB checks before the condition (A9)."""
        if action.update is not None and update_too_large(action.update, None if old is None else old.item,
                                                         table.spec.key.names, None if old is None else old.size):
            raise ValidationException(UPDATE_TOO_LARGE)

    @staticmethod
    def _check_condition(action: WriteAction, old: Record | None) -> None:
        if action.condition is None:
            return
        if not matches(action.condition, old.item if old is not None else {}):
            # the caller's copy: it reaches single writes, transactions' reasons and PartiQL alike
            item = old.copy() if (action.return_old_on_failure and old is not None) else None
            raise ConditionalCheckFailedException(CONDITION_FAILED, item=item)

    # ---------------------------------------------------------------- batches
    def batch_write(self, actions: list[WriteAction], metrics: list | None = None,
                    unprocessed: list | None = None) -> list[Consumed]:
        """BatchWriteItem: validated as a whole, then every put/delete applied.

        Entries are admitted one by one (spec throughput.md §5): the positions
        of those throttled go to ``unprocessed``; when none could be served the
        first throttle is raised.
        """
        with self.lock:
            for action in actions:
                self.table(action.table)
            self._check_distinct(actions, "Provided list of item keys contains duplicates")
            mutations, refusals, held = [], [], []
            for position, action in enumerate(actions):
                table = self.tables[action.table]
                located = table.locate(*self._action_key(table, action))
                if self.realism is not None and self.realism.holds(self, "BatchWriteItem", table.name, located):
                    held.append(position)  # (handed back: an ongoing transaction holds the item)
                    continue
                mutation = self._mutation(table, action, located, table.lookup(located), False)
                refusal = (self.throughput.verdict(write_draws(self.throughput.state(table), mutation))
                           if self.throughput.on else None)
                if refusal is None or not self.throughput.enforcing:  # report mode serves it, uncharged
                    mutations.append(mutation)
                else:
                    refusals.append((position, refusal))
            if refusals and not mutations:
                raise refusals[0][1].error()
            if unprocessed is not None:
                unprocessed.extend(sorted(held + [position for position, _ in refusals]))
            self.apply(mutations)
            collections_of(metrics, mutations)
            return [mutation.consumed for mutation in mutations]

    # ------------------------------------------------------------ query / scan
    def query_page(self, table_name: str, index_name: str | None, hash_value, sort_condition=None, *,
              prefix: tuple = (), forward: bool = True, start_key: dict | None = None, limit: int | None = None,
              consistent: bool = False, matches_fn=None, reach_back: bool = False,
              max_bytes: int | None = None, emit=None) -> Page:
        """One page of a Query; ``sort_condition`` is (op, value[, value2]) on the first RANGE attribute not in
        ``prefix``, the values a multi-attribute index's first RANGE attributes equal; ``emit`` as in
        ``read_page``."""
        with self.lock:
            table = self.table(table_name)
            index = self._index(table, index_name)
            store, space, key = table.source(index)
            h = key_hash(hash_value)
            entries = self._key_range(table, index, store, space, h, hash_value, sort_condition, prefix,
                                      forward, start_key)
            page = table.read_page(index, entries, limit=limit, consistent=consistent,
                                   matches=matches_fn, reach_back=reach_back, max_bytes=max_bytes, emit=emit)
            if self.throughput.on:
                self.throughput.take_key(table, index, READ, store.partition_for(h), (h, hash_value, None),
                                         page.consumed.read_units, True)
            return page

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
            start = after[0] if after is not None else lo
            # (counted: read partition by partition, so that each is charged its bytes' share)
            tally = ScanTally(store.scan_groups(space, after, lo, hi)) if self.throughput.on else None
            entries = store.scan(space, after, lo, hi) if tally is None else None
            page = table.read_page(index, entries, limit=limit, consistent=consistent, matches=matches_fn,
                                   reach_back=reach_back, max_bytes=max_bytes, emit=emit, tally=tally)
            if tally is not None:
                self._take_scan(table, index, start, tally, page)
            return page

    def _take_scan(self, table: Table, index, start: int, tally, page: Page) -> None:
        """Admit a Scan page on the partition where it started; charge each partition its bytes' share."""
        resource = read_resource(self.throughput.state(table), index)
        if self.throughput.take(resource, READ, start, 0.0, reading=True):  # the admission alone
            self.throughput.charge(tally.draws(Draw(resource, READ, start, 0.0), page.consumed.read_units))

    @staticmethod
    def _index(table: Table, index_name: str | None) -> IndexSpec | None:
        if index_name is None:
            return None
        index = table.spec.index(index_name)
        if index is None:
            raise ValidationException(f"The table does not have the specified index: {index_name}")
        return index

    @staticmethod
    def _key_range(table, index, store, space, h, hash_value, condition, prefix, forward, start_key):
        if not store.grouped[space]:  # a hash-only table holds one item per key
            return iter(()) if start_key else store.collection(space, h, hash_value)
        low, high = _bounds(condition, prefix)
        if start_key:
            _, _, at = table.position(index, start_key)
            if forward:
                low = (at, False)
            else:
                high = (at, False)
        entries = store.collection(space, h, hash_value, low, high, reverse=not forward)
        if condition and condition[0] == "BEGINS_WITH":
            return _prefixed(entries, table.source(index)[2].range_names[len(prefix)], condition[1])
        return entries



def _bounds(condition, prefix: tuple = ()) -> tuple:
    """(low, high) bounds over sort tuples for a sort-key condition after the equal values ``prefix`` (a
    multi-attribute index's first RANGE attributes); each is (sort bound, inclusive) or None when open.
    ``(v,)`` sorts before every ``(v, …)`` and ``(v, TOP)`` after them, so one value bounds a whole run."""
    if condition is None:  # (a prefix always comes with a condition on the attribute after it)
        return None, None
    op, value = condition[0], condition[1]
    low, high = {
        "=": lambda: (((value,), True), ((value, TOP), True)),
        "<": lambda: (None, ((value,), False)),
        "<=": lambda: (None, ((value, TOP), True)),
        ">": lambda: (((value, TOP), False), None),
        ">=": lambda: (((value,), True), None),
        "BETWEEN": lambda: (((value,), True), ((condition[2], TOP), True)),
        "BEGINS_WITH": lambda: (((value,), True), _below(prefix_end(value))),
    }[op]()
    if not prefix:
        return low, high
    return ((prefix + low[0], low[1]) if low else (prefix, True),
            (prefix + high[0], high[1]) if high else (prefix + (TOP,), True))


def _below(end) -> tuple | None:
    """The high bound below ``end``, the successor of a ``begins_with`` prefix (None: unbounded). why a
    bound, not only a filter: a Query read backwards starts at the high end, and must start at the last
    key with the prefix, not stop at the collection's last key (recorded-2026-11 A1)."""
    return None if end is None else ((end,), False)


def _prefixed(records, sort_name: str, prefix):
    """Records while their sort key begins with ``prefix`` (they are sorted, so stop at the first miss)."""
    for record in records:
        if not record.item[sort_name].startswith(prefix):
            return
        yield record


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
