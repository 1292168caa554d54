"""The conformance runner: a case is a fixture and steps; a step is one call and what it must give.

A row of a case table reads like the spec's line for it::

    case("C-001", "F-H", "SELECT * FROM HHH WHERE pk = 'a'", items=[HA], path="GetItem", capacity=0.5)

``case`` builds a one-step case from keyword expectations; several ``step``
values make a multi-step case sharing one database (pagination, a write
then a read). Every step that expects an error (or a cancelled transaction)
must also leave every table and index exactly as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

import pytest

from partiql.engine.engine import per_table
from partiql.engine.errors import DynamoDBError, TransactionCanceledException
from partiql.engine.types import from_python
from partiql.engine.wire_values import from_wire, to_wire
from partiql.result import ConsumedCapacity

from .fixtures import build, put

RESUME = "resume"  # token=RESUME: pass the previous step's NextToken


@dataclass(frozen=True)
class Step:
    """One call (statement, batch or transaction) and its expectations (None = not checked)."""

    statement: str | None = None
    params: list | None = None  # Python values
    wire_params: list | None = None  # DynamoDB JSON values, converted inside the call
    limit: int | None = None
    consistent: bool = False
    token: str | None = None  # a NextToken, or RESUME
    batch: list | None = None  # statements: str | (str, params) | (str, params, options)
    transaction: list | None = None
    client_token: str | None = None
    # expectations
    items: list | None = None  # in this order
    unordered: list | None = None  # as a multiset
    error: tuple | None = None  # (exception class, exact message)
    cancelled: list | None = None  # [(code, message), …] of TransactionCanceledException
    responses: list | None = None  # batch / transaction: one expectation per statement
    path: str | None = None  # plan kind: GetItem, Query, Scan, PutItem, …
    reads: int | None = None  # number of DynamoDB requests the plan lowered to
    index: str | None = None
    capacity: float | None = None  # total units
    consumed: tuple | None = None  # (mode, DynamoDB ConsumedCapacity): a dict, or a list for batches
    next_token: bool | None = None  # whether a NextToken comes back
    state: list = field(default_factory=list)  # [(table, key tuple, item or None)] afterwards
    check: Callable | None = None  # extra check(result, db)


@dataclass(frozen=True)
class Case:
    id: str
    fixture: tuple
    steps: tuple
    seed: tuple = ()  # (table, item) pairs stored before the first step
    setup: tuple = ()  # statements run (and required to succeed) before the first step
    xfail: str | None = None
    skip: str | None = None


def step(statement: str | None = None, **expect) -> Step:
    return Step(statement, **expect)


def case(id: str, fixture, statement: str | None = None, *steps: Step, seed=(), setup=(), xfail=None,
         skip=None, **expect) -> Case:
    """A case row: one step from ``statement`` + keyword expectations, or explicit ``steps``."""
    fixtures = (fixture,) if isinstance(fixture, str) else tuple(fixture)
    if statement is not None or expect:
        steps = (Step(statement, **expect), *steps)
    return Case(id, fixtures, tuple(steps), tuple(seed), tuple(setup), xfail, skip)


def params(cases: list[Case]) -> list:
    """pytest parameters for a case table, with ids, skips and strict xfails."""
    out = []
    for c in cases:
        marks = []
        if c.skip:
            marks.append(pytest.mark.skip(reason=c.skip))
        if c.xfail:
            marks.append(pytest.mark.xfail(reason=c.xfail, strict=True))
        out.append(pytest.param(c, id=c.id, marks=marks))
    return out


# ------------------------------------------------------------------ comparison

def wire(item: dict) -> dict:
    """An item as DynamoDB JSON (sets sorted): exact, type-aware comparison."""
    return {name: to_wire(value) for name, value in item.items()}


def expected_wire(item: dict) -> dict:
    return wire(from_python(item))


def _key(item: dict) -> str:
    return json.dumps(item, sort_keys=True)


def same(actual, expected) -> None:
    """assert actual == expected, showing both (this module is not assertion-rewritten)."""
    assert actual == expected, f"\n  got:      {actual!r}\n  expected: {expected!r}"


def assert_items(actual: list, ordered: list | None, unordered: list | None) -> None:
    got = [wire(item) for item in actual]
    if ordered is not None:
        same(got, [expected_wire(item) for item in ordered])
    if unordered is not None:
        same(sorted(got, key=_key), sorted((expected_wire(i) for i in unordered), key=_key))


def _reason(reason, width: int) -> tuple:
    """(code, message[, item]) of a CancellationReason; the item only when the row names one."""
    row = (reason.code, reason.message)
    return row + (None if reason.item is None else wire(reason.item),) if width > 2 else row


def _reason_row(row) -> tuple:
    return tuple(row[:2]) + ((expected_wire(row[2]),) if len(row) > 2 else ())


def snapshot(db) -> dict:
    """Every table's items and every index's entries, as comparable text."""
    out = {}
    for name, table in db.engine.tables.items():
        for index in (None, *table.spec.indexes):
            store, space, _ = table.source(index)
            label = "" if index is None else index.name
            out[(name, label)] = sorted(_key(wire(record.item)) for record in store.scan(space))
    return out


def total_consumed(results) -> ConsumedCapacity:
    """The ConsumedCapacity of a batch or transaction: per table, over every result."""
    units = [u for r in results if not isinstance(r, DynamoDBError) for u in r.consumed_capacity.tables]
    return ConsumedCapacity.of(per_table(units))


# ------------------------------------------------------------------ running

def _call(db, s: Step, previous):
    if s.batch is not None:
        return db.execute_batch(s.batch)
    if s.transaction is not None:
        return db.execute_transaction(s.transaction, s.client_token)
    parameters = s.params
    if s.wire_params is not None:
        parameters = [from_wire(v) for v in s.wire_params]  # engine values are valid Python values
    token = previous.next_token if s.token == RESUME else s.token
    return db.execute(s.statement, parameters, limit=s.limit, next_token=token, consistent_read=s.consistent)


def _expect_error(s: Step) -> bool:
    return s.error is not None or s.cancelled is not None


def run_step(db, s: Step, previous):
    before = snapshot(db) if _expect_error(s) else None
    if _expect_error(s):
        kind = s.error[0] if s.error else TransactionCanceledException
        with pytest.raises(kind) as caught:
            _call(db, s, previous)
        error = caught.value
        if s.error:
            same((error.code, error.message), (s.error[0].__name__, s.error[1]))
        if s.cancelled is not None:
            same(len(error.reasons), len(s.cancelled))
            same([_reason(r, len(x)) for r, x in zip(error.reasons, s.cancelled)],
                 [_reason_row(x) for x in s.cancelled])
            codes = ", ".join(row[0] for row in s.cancelled)
            assert error.message == ("Transaction cancelled, please refer cancellation reasons for "
                                     f"specific reasons [{codes}]")
        assert snapshot(db) == before, "a failing statement changed the database"
        _check_state(db, s)
        return previous
    result = _call(db, s, previous)
    if s.batch is not None or s.transaction is not None:
        _check_multi(s, result)
    else:
        _check_result(s, result)
    _check_state(db, s)
    if s.check is not None:
        s.check(result, db)
    return result


def _check_result(s: Step, result) -> None:
    assert_items(result.items, s.items, s.unordered)
    assert result.count == len(result.items)
    if s.next_token is not None:
        assert (result.next_token is not None) == s.next_token
    plan = result.plan
    if s.path is not None:
        same(plan.kind, s.path)
        assert plan.full_table_scan == (s.path == "Scan")
    if s.reads is not None:
        same(len(plan.requests), s.reads)
    if s.index is not None:
        assert plan.index == s.index
    _check_capacity(s, result.consumed_capacity, single=True)


def _check_capacity(s: Step, consumed: ConsumedCapacity, single: bool) -> None:
    if s.capacity is not None:
        same(consumed.total, s.capacity)
        shape = consumed.to_api("TOTAL") if single else consumed.to_api_list("TOTAL")
        totals = [shape] if single else shape
        assert sum(entry["CapacityUnits"] for entry in totals) == s.capacity
    if s.consumed is not None:
        mode, expected = s.consumed
        same(consumed.to_api(mode) if single else consumed.to_api_list(mode), expected)


def _check_multi(s: Step, results: list) -> None:
    if s.responses is not None:
        assert len(results) == len(s.responses)
        for got, want in zip(results, s.responses):
            want.check(got)
    _check_capacity(s, total_consumed(results), single=False)


def _check_state(db, s: Step) -> None:
    for table, key, item in s.state:
        stored, _ = db.engine.get(table, tuple(from_python(k) for k in key) + (None,) * (2 - len(key)))
        if item is None:
            assert stored is None
        else:
            assert stored is not None and wire(stored.item) == expected_wire(item)


def run_case(c: Case) -> None:
    db = build(*c.fixture)
    for table, item in c.seed:
        put(db, table, item)
    for entry in c.setup:  # a statement, or (statement, parameters)
        text, parameters = (entry, None) if isinstance(entry, str) else entry
        db.execute(text, parameters)
    previous = None
    for s in c.steps:
        previous = run_step(db, s, previous)


# ------------------------------------------------------------ batch slots

@dataclass(frozen=True)
class Ok:
    """A batch slot or transaction statement that succeeded with these items (ordered)."""

    items: list = field(default_factory=list)
    table: str | None = None

    def check(self, got) -> None:
        assert not isinstance(got, DynamoDBError), got
        assert_items(got.items, self.items, None)
        if self.table is not None:
            assert got.plan.table == self.table


@dataclass(frozen=True)
class Err:
    """A batch slot that failed: DynamoDB's code, message and TableName (None: absent)."""

    code: str
    message: str
    table: str | None = None

    def check(self, got) -> None:
        from partiql.engine.errors import reason_code
        assert isinstance(got, DynamoDBError), got
        same((reason_code(got), got.message), (self.code, self.message))
        assert getattr(got, "table_name", None) == self.table
        assert getattr(got, "item", None) is None


def at(statement: str, token: str, occurrence: int = 1, length: int | None = None) -> str:
    """DynamoDB's ` at L:C:N` suffix for the ``occurrence``-th ``token`` of a one-line statement."""
    position = -1
    for _ in range(occurrence):
        position = statement.index(token, position + 1)
    return f" at 1:{position + 1}:{len(token) if length is None else length}"
