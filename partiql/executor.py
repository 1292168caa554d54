"""Run plan templates against the engine: binding, pages, NextToken, capacity.

``Executor`` turns a template plus parameter values into engine calls. It
owns pagination (``Limit`` counts evaluated items across decomposed reads,
1 MB pages, a ``NextToken`` that resumes only the same statement with the
same parameters) and sums the capacity of every call it makes.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
import os
import time

from partiql.engine.engine import Engine, WriteAction, per_table
from partiql.engine.errors import (ConditionalCheckFailedException, DuplicateItemException, DynamoDBError,
                                   ValidationException)
from partiql.engine.expressions import model as m
from partiql.engine.expressions.evaluate import compile_condition, matches
from partiql.engine.expressions.paths import resolve
from partiql.engine.expressions.update import updated_values
from partiql.engine.keys import check_key_sizes, check_not_empty
from partiql.engine.partition import shaper as _shaper
from partiql.engine.types import MISSING, copy_value, nesting_problem, values_equal
from partiql.engine.wire_values import from_wire, to_wire

from . import plan as p
from .access import check_key_types, check_key_value, interval, reads
from .conditions import Param, bind, check_param_types
from .planner import ExistsTemplate, InsertTemplate, SelectTemplate, WriteTemplate
from .result import ConsumedCapacity, PlanSummary, Result

TOKEN_LIFETIME = 3600
PARAMETER_TOO_DEEP = ("Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
                      "beyond supported limit")


def _consumed(units: list) -> ConsumedCapacity:
    return ConsumedCapacity.of(units if len(units) == 1 else per_table(units))


# ------------------------------------------------------------------ NextToken
# A token is base64(JSON body) "." HMAC: the body records the statement and
# parameters' fingerprint, the sub-read to resume and its exclusive start key.
# The MAC makes tokens opaque like DynamoDB's: any edited token is invalid.

_TOKEN_SECRET = os.urandom(16)
MAX_TOKEN_LENGTH = 32768


def _fingerprint(statement: str, params) -> str:
    text = json.dumps([statement, [to_wire(v) for v in params]], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _mac(payload: bytes) -> str:
    return hmac.new(_TOKEN_SECRET, payload, hashlib.sha256).hexdigest()[:24]


def make_token(statement: str, params, read: int, last_key: dict | None) -> str:
    """A NextToken resuming ``statement`` with ``params`` at sub-read ``read`` after ``last_key``."""
    body = {"f": _fingerprint(statement, params), "r": read, "t": int(time.time()),
            "k": None if last_key is None else {k: to_wire(v) for k, v in last_key.items()}}
    payload = json.dumps(body, sort_keys=True).encode()
    return f"{base64.urlsafe_b64encode(payload).decode()}.{_mac(payload)}"


def read_token(token: str, statement: str, params) -> tuple[int, dict | None]:
    """(read index, exclusive start key) of a NextToken; DynamoDB's errors otherwise."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        bound = f"less than or equal to {MAX_TOKEN_LENGTH}" if token else "greater than or equal to 1"
        raise ValidationException("1 validation error detected: Value at 'nextToken' failed to satisfy "
                                  f"constraint: Member must have length {bound}")
    try:
        encoded, mac = token.split(".")
        payload = base64.b64decode(encoded.encode(), altchars=b"-_", validate=True)
        if not hmac.compare_digest(mac, _mac(payload)):
            raise ValueError("forged")
        body = json.loads(payload)
        fingerprint, read, issued, key = body["f"], int(body["r"]), body["t"], body["k"]
        key = None if key is None else {k: from_wire(v) for k, v in key.items()}
    except (ValueError, KeyError, TypeError, DynamoDBError):
        raise ValidationException("Invalid NextToken") from None
    if fingerprint != _fingerprint(statement, params):
        raise ValidationException("NextToken does not match request")
    if time.time() - issued > TOKEN_LIFETIME:
        raise ValidationException("Given NextToken has already expired")
    return read, key


# ---------------------------------------------------------------- projection

@functools.lru_cache(maxsize=1024)
def _key_test(function: str, hash_name: str) -> m.Call:
    """``attribute_exists(pk)`` / ``attribute_not_exists(pk)``, one node per key name.

    why one node: compiled conditions are cached by node, so a statement's
    writes compile their key test once instead of once per write.
    """
    return m.Call(function, (m.Path((hash_name,)),))


def project(item: dict, projection) -> dict:
    """PartiQL's projection: each path under its flattened name; {} when none exists."""
    out = {}
    for name, path in projection:
        value = resolve(item, path)
        if value is not MISSING:
            out[name] = copy_value(value)
    return out


def shaper(projection):
    """stored record -> a result item: a copy of the whole item (``SELECT *``, projection None)
    or its projection. Reads pass it to the engine, which shapes each item as it is read."""
    return _shaper(project, projection)


def projected_paths(template: SelectTemplate) -> tuple | None:
    """The paths a SELECT projects (None: ``*``), as its DynamoDB requests name them."""
    return None if template.projection is None else tuple(path for _, path in template.projection)


def point_estimate(reads: int) -> str:
    """EXPLAIN's capacity estimate of ``reads`` point reads."""
    return f"{reads} point read(s): R(item size) each, 0.5 RCU per item up to 4 KB (eventual)"


MULTI_HASH_ORDER = ("Must have hash key in ORDER BY clause when more than one hash key condition specified in "
                    "WHERE clause.")


def _bound(condition, params):
    return None if condition is None else bind(condition, params)


def _check_late(template: SelectTemplate, key_reads: list) -> None:
    """The planner's deferred refusals, and ORDER BY over several partition values."""
    if template.deferred:
        raise ValidationException(template.deferred[0])
    if template.order and template.key.hash_name not in dict(template.order):
        values = []
        for read in key_reads:
            if not any(values_equal(read.hash_value, seen) for seen in values):
                values.append(read.hash_value)
        if len(values) > 1:
            raise ValidationException(MULTI_HASH_ORDER)


def ordered_reads(template: SelectTemplate, key_reads: list) -> list:
    """Decomposed reads in result order (A5).

    Without ORDER BY: as the statement names them. With it: by partition
    value, then by sort-key range, each in its own direction; the ranges of
    one partition are disjoint (else OVERLAP), so their lower bounds order them.
    """
    if not template.order or len(key_reads) < 2:
        return key_reads
    order = dict(template.order)
    by_sort = sorted(key_reads, key=_range_start, reverse=order.get(template.key.range_name, False))
    return sorted(by_sort, key=lambda read: read.hash_value, reverse=order.get(template.key.hash_name, False))


def _range_start(read) -> tuple:
    low, inclusive = interval(read.sort)[:2]
    return (0,) if low is None else (1, low, not inclusive)  # `> v` starts after `= v`


class Executor:
    """Runs templates against one engine."""

    def __init__(self, engine: Engine):
        self.engine = engine

    @property
    def page_bytes(self) -> int:
        """Evaluated bytes that end a page (1 MB; engines built for tests may lower it)."""
        return self.engine.limits.page_bytes

    # --------------------------------------------------------------- SELECT
    def select_ops(self, template: SelectTemplate, params, consistent: bool) -> tuple[list, bool]:
        """The bound DynamoDB calls of a SELECT, and whether it is a full scan.

        Checks run in DynamoDB's order (spec §3.1, §8.3): parameter operand
        types, key types, decomposition count and overlap, ORDER BY, index
        projections, then ConsistentRead on a GSI.
        """
        check_param_types(template.ordered, params)
        check_key_types(template.analysis, template.key, params)
        key_reads, fallback = ([], False) if template.analysis.scan else reads(template.analysis, template.key,
                                                                             params)
        _check_late(template, key_reads)
        if consistent and template.index is not None and template.index.is_global:
            raise ValidationException("Strongly consistent read is not supported on Global Secondary Indexes")
        projection = projected_paths(template)
        if template.analysis.scan:
            return [p.Scan(template.table, template.index_name, _bound(template.where, params), projection,
                           consistent)], True
        where = _bound(template.where, params) if fallback else None
        ops = [self._key_op(template, read, where if fallback else read.residual, projection, consistent)
               for read in ordered_reads(template, key_reads)]
        return ops, False

    @staticmethod
    def _key_op(template: SelectTemplate, read, residual, projection, consistent):
        key = template.key
        sort_desc = dict(template.order).get(key.range_name, False) if key.range_name else False
        point = template.index is None and (key.range_name is None or (read.sort and read.sort[0] == "="))
        if point:
            values = {key.hash_name: read.hash_value}
            if key.range_name is not None:
                values[key.range_name] = read.sort[1]
            return p.GetItem(template.table, values, residual, projection, consistent)
        return p.Query(template.table, template.index_name, key.hash_name, read.hash_value,
                       key.range_name, read.sort, residual, projection, not sort_desc, consistent)

    def select(self, statement: str, template: SelectTemplate, params, *, limit=None, next_token=None,
               consistent=False) -> Result:
        ops, scan = self.select_ops(template, params, consistent)
        start_read, start_key = (0, None) if next_token is None else read_token(next_token, statement, params)
        items, units, scanned, evaluated_bytes = [], [], 0, 0
        remaining = limit
        token = None
        for position in range(start_read, len(ops)):
            op = ops[position]
            page_items, page_scanned, last_key, consumed, page_bytes = self._run_read(
                template, op, start_key if position == start_read else None, remaining, len(ops) > 1,
                self.page_bytes - evaluated_bytes)
            start_key = None
            items.extend(page_items)
            scanned += page_scanned
            units.append(consumed)
            evaluated_bytes += page_bytes
            if remaining is not None:
                remaining -= page_scanned
            if last_key is not None:
                token = make_token(statement, params, position, last_key)
                break
            more = position + 1 < len(ops)
            if more and ((remaining is not None and remaining <= 0) or evaluated_bytes >= self.page_bytes):
                token = make_token(statement, params, position + 1, None)
                break
        summary = self.summary(template, ops, scan)
        return Result(items, len(items), scanned, token, _consumed(units), summary)

    def _run_read(self, template: SelectTemplate, op, start_key, limit, sized: bool = False,
                  max_bytes: int | None = None):
        """One read: (result items, scanned, last key, capacity, evaluated bytes; a point read's only if ``sized``).

        ``max_bytes`` is what is left of the page's 1 MB after earlier decomposed reads.
        """
        shape = shaper(template.projection)
        if isinstance(op, p.GetItem):
            table_key = template.table_key
            key = (op.key[table_key.hash_name], op.key.get(table_key.range_name))
            record, consumed = self.engine.get(op.table, key, op.consistent)
            size = record.size if record is not None and sized else 0
            if record is not None and op.filter is not None and not matches(op.filter, record.item):
                record = None
            # INF: a point read counts as one evaluated item toward Limit, found or not.
            return ([shape(record)] if record is not None else []), 1, None, consumed, size
        fn = compile_condition(op.filter) if op.filter is not None else None
        if isinstance(op, p.Query):
            page = self.engine.query_page(op.table, op.index, op.hash_value, op.sort, forward=op.forward,
                                     start_key=start_key, limit=limit, consistent=op.consistent,
                                     matches_fn=fn, reach_back=template.reach_back, max_bytes=max_bytes,
                                     emit=shape)
        else:
            page = self.engine.scan_page(op.table, op.index, start_key=start_key, limit=limit,
                                    consistent=op.consistent, matches_fn=fn, reach_back=template.reach_back,
                                    max_bytes=max_bytes, emit=shape)
        return page.records, page.scanned, page.last_key, page.consumed, page.evaluated_bytes

    def summary(self, template, ops, scan: bool) -> PlanSummary:
        kind = type(ops[0]).__name__ if ops else "GetItem"
        return PlanSummary(kind, template.table, template.index_name, scan, tuple(ops),
                           self._estimate(template, ops, scan))

    def _estimate(self, template, ops, scan: bool) -> str:
        table = self.engine.tables.get(template.table)
        if scan and table is not None:
            from partiql.engine.capacity import read_units
            size = table.size_bytes if template.index is None else table.index_stats(template.index)[1]
            return (f"full scan: reads every item ({size:,} bytes now) — about "
                    f"{read_units(size):g} RCU eventually consistent, paged at 1 MB")
        if ops and isinstance(ops[0], p.GetItem):
            return point_estimate(len(ops))
        return f"{len(ops)} Query(s): R(Σ evaluated item bytes) each, at least 0.5 RCU"

    # ---------------------------------------------------------------- writes
    def insert_action(self, template: InsertTemplate, params) -> WriteAction:
        item = {name: params[value.index] if type(value) is Param else value for name, value in template.fields}
        if any(nesting_problem(item[name]) for name in template.parameter_names):
            raise ValidationException(PARAMETER_TOO_DEEP)
        key = template.key
        for name in key.names:
            if name not in item:
                raise ValidationException(
                    f"One or more parameter values were invalid: Missing the key {name} in the item")
            check_key_value(name, item[name], key.types[name])
        condition = _key_test("attribute_not_exists", key.hash_name)
        return WriteAction("Put", template.table, item=item, condition=condition,
                           failure=("DuplicateItem", "Duplicate primary key exists in table"))

    def key_values(self, template, params) -> tuple:
        values = []
        for name in template.key.names:
            operands = template.key_operands[name]
            bound = [params[o.index] if isinstance(o, Param) else o.value for o in operands]
            if any(value != bound[0] or type(value) is not type(bound[0]) for value in bound[1:]):
                raise ValidationException(f"Multiple conditions on same key {name}. Only single item "
                                          "Update/Insert/Delete are supported")
            check_key_value(name, bound[0], template.key.types[name])
            check_not_empty(name, bound[0])
            values.append(bound[0])
        key = (values[0], values[1] if len(values) > 1 else None)
        check_key_sizes(template.key, *key)
        return key

    def write_action(self, template: WriteTemplate, params, return_old: bool = False) -> WriteAction:
        key = self.key_values(template, params)
        check_param_types(template.ordered, params)
        rest = _bound(template.condition, params)
        hash_name = template.key.hash_name
        if template.kind == "Update":
            # UPDATE never upserts: the item must exist (spec §2.5).
            condition = m.conjunction((_key_test("attribute_exists", hash_name), rest))
            return WriteAction("Update", template.table, key=key, update=bind(template.update, params),
                               condition=condition, return_old_on_failure=return_old, upsert=False)
        # DELETE checks its condition only when the item exists (spec §2.6).
        condition = None if rest is None else m.Or((_key_test("attribute_not_exists", hash_name), rest))
        return WriteAction("Delete", template.table, key=key, condition=condition,
                           return_old_on_failure=return_old)

    def exists_action(self, template: ExistsTemplate, params) -> WriteAction:
        key = self.key_values(template, params)
        condition = m.conjunction((_key_test("attribute_exists", template.key.hash_name),
                                   bind(template.condition, params)))
        return WriteAction("ConditionCheck", template.table, key=key, condition=condition)

    def write(self, template, params, return_old: bool = False) -> Result:
        action = (self.insert_action(template, params) if isinstance(template, InsertTemplate)
                  else self.write_action(template, params, return_old))
        try:
            result = self.engine.write(action)
        except ConditionalCheckFailedException as error:
            if isinstance(template, InsertTemplate):
                duplicate = DuplicateItemException()
                duplicate.consumed = error.consumed
                raise duplicate from None
            raise
        items = self._returning(template, action, result)
        # ours, not DynamoDB's (its answer is the same either way): say when a DELETE found nothing
        message = "no item had this key: nothing deleted" if action.kind == "Delete" and result.old is None else None
        return Result(items, len(items), 0, None, _consumed([result.consumed]),
                      self.write_summary(template, action), message=message)

    @staticmethod
    def _returning(template, action, result) -> list:
        if isinstance(template, InsertTemplate) or template.returning is None:
            return []
        status, age = template.returning
        if status == "ALL":
            item = result.old if age == "OLD" else result.new
            return [copy_value(item)] if item is not None else []
        modified = updated_values(action.update, result.old or {}, result.new or {}, age)
        return [modified] if modified else []

    def write_summary(self, template, action: WriteAction) -> PlanSummary:
        op = self.write_op(template, action)
        return PlanSummary(type(op).__name__, template.table, None, False, (op,),
                           "W(larger of old and new item) per write, plus each index whose entry changes")

    @staticmethod
    def write_op(template, action: WriteAction):
        if action.kind == "Put":  # (a copy: the action's item is the one stored)
            return p.PutItem(action.table, copy_value(action.item), action.condition)
        key = dict(zip(template.key.names, action.key))
        returning = getattr(template, "returning", None)
        return_values = "NONE" if returning is None else f"{returning[0]}_{returning[1]}".replace(
            "MODIFIED", "UPDATED")
        if action.kind == "Update":
            return p.UpdateItem(action.table, key, action.update, action.condition, return_values)
        if action.kind == "Delete":
            return p.DeleteItem(action.table, key, action.condition, return_values)
        return p.ConditionCheck(action.table, key, action.condition)
