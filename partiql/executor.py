"""Run plan templates against the engine: binding, pages, NextToken, capacity.

``Executor`` turns a template plus parameter values into engine calls. It
owns pagination (``Limit`` counts evaluated items across decomposed reads,
1 MB pages, a ``NextToken`` that resumes only the same statement with the
same parameters) and sums the capacity of every call it makes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time

from partiql.engine.capacity import Consumed
from partiql.engine.engine import Engine, WriteAction, per_table
from partiql.engine.errors import (ConditionalCheckFailedException, DuplicateItemException,
                                   ValidationException)
from partiql.engine.expressions import model as m
from partiql.engine.expressions.evaluate import compile_condition, matches, resolve
from partiql.engine.expressions.update import updated_values
from partiql.engine.keys import check_key_sizes
from partiql.engine.types import MISSING, copy_item, copy_value, from_wire, to_wire, type_of

from . import plan as p
from .access import check_key_types, reads
from .conditions import Param, bind, check_param_types
from .literals import item_value
from .planner import (ExistsTemplate, ExplainTemplate, InsertTemplate, SelectTemplate, TableTemplate,
                      WriteTemplate)
from .result import ConsumedCapacity, PlanSummary, Result

TOKEN_LIFETIME = 3600
MAX_PAGE_READS = 50


def _consumed(units: list) -> ConsumedCapacity:
    return ConsumedCapacity.of(per_table(units))


# ------------------------------------------------------------------ NextToken

def _fingerprint(statement: str, params) -> str:
    text = json.dumps([statement, [to_wire(v) for v in params]], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def make_token(statement: str, params, read: int, last_key: dict | None) -> str:
    body = {"f": _fingerprint(statement, params), "r": read, "t": int(time.time()),
            "k": None if last_key is None else {k: to_wire(v) for k, v in last_key.items()}}
    return base64.urlsafe_b64encode(json.dumps(body).encode()).decode()


def read_token(token: str, statement: str, params) -> tuple[int, dict | None]:
    """(read index, exclusive start key) of a NextToken; DynamoDB's errors otherwise."""
    if len(token) > 32768:
        raise ValidationException("1 validation error detected: Value at 'nextToken' failed to satisfy "
                                  "constraint: Member must have length less than or equal to 32768")
    try:
        body = json.loads(base64.urlsafe_b64decode(token.encode()))
        fingerprint, read, issued, key = body["f"], int(body["r"]), body["t"], body["k"]
        key = None if key is None else {k: from_wire(v) for k, v in key.items()}
    except (ValueError, KeyError, TypeError):
        raise ValidationException("Invalid NextToken") from None
    if fingerprint != _fingerprint(statement, params):
        raise ValidationException("NextToken does not match request")
    if time.time() - issued > TOKEN_LIFETIME:
        raise ValidationException("Given NextToken has already expired")
    return read, key


# ---------------------------------------------------------------- projection

def project(item: dict, projection) -> dict:
    """PartiQL's projection: each path under its flattened name; {} when none exists."""
    if projection is None:
        return copy_item(item)
    out = {}
    for name, path in projection:
        value = resolve(item, path)
        if value is not MISSING:
            out[name] = copy_value(value)
    return out


class Executor:
    """Runs templates against one engine."""

    def __init__(self, engine: Engine):
        self.engine = engine

    # --------------------------------------------------------------- SELECT
    def select_ops(self, template: SelectTemplate, params, consistent: bool) -> tuple[list, bool]:
        """The bound DynamoDB calls of a SELECT, and whether it is a full scan."""
        if consistent and template.index is not None and template.index.is_global:
            raise ValidationException("Strongly consistent read is not supported on Global Secondary Indexes")
        check_param_types(template.where, params)
        check_key_types(template.where, template.key, params)
        projection = None if template.projection is None else tuple(path for _, path in template.projection)
        where = bind(template.where, params) if template.where is not None else None
        if template.analysis.scan:
            return [p.Scan(template.table, template.index_name, where, projection, consistent)], True
        key_reads, fallback = reads(template.analysis, template.key, params)
        key_reads = self._ordered(template, key_reads)
        ops = [self._key_op(template, read, where if fallback else read.residual, projection, consistent)
               for read in key_reads]
        return ops, False

    @staticmethod
    def _ordered(template: SelectTemplate, key_reads: list) -> list:
        order = dict(template.order)
        hash_desc = order.get(template.key.hash_name)
        if hash_desc is None or len(key_reads) < 2:
            return key_reads
        return sorted(key_reads, key=lambda read: read.hash_value, reverse=hash_desc)

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
                template, op, start_key if position == start_read else None, remaining)
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
            if remaining is not None and remaining <= 0 and position + 1 < len(ops):
                token = make_token(statement, params, position + 1, None)
                break
        projected = [project(item, template.projection) for item in items]
        summary = self.summary(template, ops, scan)
        return Result(projected, len(projected), scanned, token, _consumed(units), summary)

    def _run_read(self, template: SelectTemplate, op, start_key, limit):
        if isinstance(op, p.GetItem):
            key = tuple(op.key[name] for name in template.table_key.names)
            item, consumed = self.engine.get(op.table, key, op.consistent)
            if item is not None and op.filter is not None and not matches(op.filter, item):
                item = None
            return ([item] if item is not None else []), 1, None, consumed, 0
        fn = compile_condition(op.filter) if op.filter is not None else None
        if isinstance(op, p.Query):
            page = self.engine.query_page(op.table, op.index, op.hash_value, op.sort, forward=op.forward,
                                     start_key=start_key, limit=limit, consistent=op.consistent,
                                     matches_fn=fn, reach_back=template.reach_back)
        else:
            page = self.engine.scan_page(op.table, op.index, start_key=start_key, limit=limit,
                                    consistent=op.consistent, matches_fn=fn, reach_back=template.reach_back)
        return page.items, page.scanned, page.last_key, page.consumed, page.evaluated_bytes

    def summary(self, template, ops, scan: bool) -> PlanSummary:
        kind = type(ops[0]).__name__ if ops else "GetItem"
        return PlanSummary(kind, template.table, template.index_name, scan, [op.request() for op in ops],
                           self._estimate(template, ops, scan))

    def _estimate(self, template, ops, scan: bool) -> str:
        table = self.engine.tables.get(template.table)
        if scan and table is not None:
            from partiql.engine.capacity import read_units
            size = table.size_bytes if template.index is None else table.index_stats(template.index)[1]
            return (f"full scan: reads every item ({size:,} bytes now) — about "
                    f"{read_units(size):g} RCU eventually consistent, paged at 1 MB")
        if ops and isinstance(ops[0], p.GetItem):
            return f"{len(ops)} point read(s): R(item size) each, 0.5 RCU per item up to 4 KB (eventual)"
        return f"{len(ops)} Query(s): R(Σ evaluated item bytes) each, at least 0.5 RCU"

    # ---------------------------------------------------------------- writes
    def insert_action(self, template: InsertTemplate, params) -> WriteAction:
        item = item_value(template.item, params)
        key = template.key
        for name in key.names:
            if name not in item:
                raise ValidationException(
                    f"One or more parameter values were invalid: Missing the key {name} in the item")
            if type_of(item[name]) != key.types[name]:
                raise ValidationException(
                    f"Key attribute's data type should match its data type in table's schema: Key {name}")
        condition = m.Call("attribute_not_exists", (m.Path((key.hash_name,)),))
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
            if type_of(bound[0]) != template.key.types[name]:
                raise ValidationException(
                    f"Key attribute's data type should match its data type in table's schema: Key {name}")
            if type(bound[0]) in (str, bytes) and not bound[0]:
                raise ValidationException(
                    "One or more parameter values are not valid. The AttributeValue for a key attribute "
                    f"cannot contain an empty {'string' if type(bound[0]) is str else 'binary'} value. Key: {name}")
            values.append(bound[0])
        key = (values[0], values[1] if len(values) > 1 else None)
        check_key_sizes(template.key, *key)
        return key

    def write_action(self, template: WriteTemplate, params, return_old: bool = False) -> WriteAction:
        key = self.key_values(template, params)
        check_param_types(template.condition, params)
        rest = bind(template.condition, params) if template.condition is not None else None
        hash_path = m.Path((template.key.hash_name,))
        if template.kind == "Update":
            # UPDATE never upserts: the item must exist (spec §2.5).
            condition = m.conjunction((m.Call("attribute_exists", (hash_path,)), rest))
            return WriteAction("Update", template.table, key=key, update=bind(template.update, params),
                               condition=condition, return_old_on_failure=return_old, upsert=False)
        # DELETE checks its condition only when the item exists (spec §2.6).
        condition = None if rest is None else m.Or((m.Call("attribute_not_exists", (hash_path,)), rest))
        return WriteAction("Delete", template.table, key=key, condition=condition,
                           return_old_on_failure=return_old)

    def exists_action(self, template: ExistsTemplate, params) -> WriteAction:
        key = self.key_values(template, params)
        hash_path = m.Path((template.key.hash_name,))
        condition = m.conjunction((m.Call("attribute_exists", (hash_path,)), bind(template.condition, params)))
        return WriteAction("ConditionCheck", template.table, key=key, condition=condition)

    def write(self, template, params, return_old: bool = False) -> Result:
        action = (self.insert_action(template, params) if isinstance(template, InsertTemplate)
                  else self.write_action(template, params, return_old))
        try:
            result = self.engine.write(action)
        except ConditionalCheckFailedException:
            if isinstance(template, InsertTemplate):
                raise DuplicateItemException() from None
            raise
        items = self._returning(template, action, result)
        return Result(items, len(items), 0, None, _consumed([result.consumed]),
                      self.write_summary(template, action))

    @staticmethod
    def _returning(template, action, result) -> list:
        if isinstance(template, InsertTemplate) or template.returning is None:
            return []
        status, age = template.returning
        if status == "ALL":
            item = result.old if age == "OLD" else result.new
            return [copy_item(item)] if item is not None else []
        modified = updated_values(action.update, result.old or {}, result.new or {}, age)
        return [modified] if modified else []

    def write_summary(self, template, action: WriteAction) -> PlanSummary:
        op = self.write_op(template, action)
        return PlanSummary(type(op).__name__, template.table, None, False, [op.request()],
                           "W(larger of old and new item) per write, plus each index whose entry changes")

    @staticmethod
    def write_op(template, action: WriteAction):
        if action.kind == "Put":
            return p.PutItem(action.table, action.item, action.condition)
        key = dict(zip(template.key.names, action.key))
        returning = getattr(template, "returning", None)
        return_values = "NONE" if returning is None else f"{returning[0]}_{returning[1]}".replace(
            "MODIFIED", "UPDATED")
        if action.kind == "Update":
            return p.UpdateItem(action.table, key, action.update, action.condition, return_values)
        if action.kind == "Delete":
            return p.DeleteItem(action.table, key, action.condition, return_values)
        return p.ConditionCheck(action.table, key, action.condition)
