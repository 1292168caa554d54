"""BatchGetItem, BatchWriteItem, TransactGetItems, TransactWriteItems (item-api §5.13–§5.16)."""

from __future__ import annotations

import json

from .. import limits
from ..engine import Engine, WriteAction, per_table
from ..errors import THROTTLES, CancellationReason, TransactionCanceledException, ValidationException
from ..keys import SCHEMA_MISMATCH, key_from_item, key_from_request, wrong_types_only
from ..wire_values import to_wire
from . import shapes
from .common import (Expressions, check_key_paths, collection_metrics, projection_paths, return_capacities, shaped,
                     shaper, table_name)
from .items import check_key_not_updated, program_of

DUPLICATE_KEYS = "Provided list of item keys contains duplicates"


# ------------------------------------------------------------------ BatchGetItem

def batch_get_item(engine: Engine, request: dict) -> dict:
    """BatchGetItem: every key of every table; missing items are simply absent (item-api §5.13).

    Every table's expressions are checked before any table is looked up.
    """
    request = shapes.check("BatchGetItem", request)
    entries = request["RequestItems"]
    paths = {name: projection_paths(entry) for name, entry in entries.items()}
    plans = [_batch_get_keys(engine, name, entry, paths[name]) for name, entry in entries.items()]
    responses, consumed, unprocessed, throttles = {}, [], {}, []
    budget = _SizeBudget()
    with engine.lock:  # INF: one instant for the whole batch
        for (table, keys, consistent), entry in zip(plans, entries.values()):
            found = responses.setdefault(table.name, [])
            shape = shaper(paths[table.name])
            for key, asked in zip(keys, entry["Keys"]):
                if not budget.admits(table, key):  # (the key comes back unprocessed, as a throttled one)
                    unprocessed.setdefault(table.name, {**entry, "Keys": []})["Keys"].append(asked)
                    continue
                try:
                    item, units = engine.get(table.name, key, consistent, emit=shape)
                except THROTTLES as error:  # spec throughput.md §5: the key comes back unprocessed
                    throttles.append(error)
                    unprocessed.setdefault(table.name, {**entry, "Keys": []})["Keys"].append(asked)
                    continue
                consumed.append(units)
                if item is not None:
                    found.append(item)
    if throttles and not consumed:  # nothing could be served: the request fails
        raise throttles[0]
    response = {"Responses": responses, "UnprocessedKeys": unprocessed}
    return return_capacities(response, per_table(consumed), request)


class _SizeBudget:
    """What a BatchGetItem may still read: 16 MB in all, 1 MB from any one partition (item sizes, in request
    order; ``limits``). why a model: DynamoDB does not publish how it picks the keys it leaves; it answers part
    and lists the rest (recorded-2026-11 A10), which is what an application's retry loop must meet."""

    def __init__(self):
        self.total, self.partitions = 0, {}

    def admits(self, table, key: tuple) -> bool:
        """Whether the item at ``key`` fits; if so it is counted (a missing item costs nothing)."""
        partition, record = table.find(table.locate(*key))
        size = 0 if record is None else record.size
        place = (table.name, id(partition))
        held = self.partitions.get(place, 0)
        if size and (held + size > limits.BATCH_GET_PARTITION_BYTES
                     or self.total + size > limits.BATCH_GET_RESPONSE_BYTES):
            return False
        self.partitions[place] = held + size
        self.total += size
        return True


def _batch_get_keys(engine: Engine, name: str, entry: dict, paths):
    table = engine.table(name)
    check_key_paths(table.spec, entry, paths)
    keys, seen = [], set()
    for key in entry["Keys"]:
        located = key_from_request(table.spec.key, key)
        # INF: values here are already normalised, so equal keys are duplicates;
        # the wire boundary lets differently spelt numbers through once (item-api §5.13).
        identity = table.locate(*located)
        if identity in seen:
            raise ValidationException(DUPLICATE_KEYS)
        seen.add(identity)
        keys.append(located)
    return table, keys, bool(entry.get("ConsistentRead"))


# ---------------------------------------------------------------- BatchWriteItem

def batch_write_item(engine: Engine, request: dict) -> dict:
    """BatchWriteItem: puts and deletes, validated as a whole, then all applied (item-api §5.14)."""
    request = shapes.check("BatchWriteItem", request)
    actions = []
    for name, writes in request["RequestItems"].items():
        table = engine.table(name)
        for write in writes:
            actions.append(_batch_write_action(table, write))
    metrics = [] if request.get("ReturnItemCollectionMetrics") == "SIZE" else None
    refused: list = []
    consumed = engine.batch_write(actions, metrics, refused)
    response = _with_metrics({"UnprocessedItems": _unprocessed_writes(request["RequestItems"], refused)}, metrics)
    return return_capacities(response, per_table(consumed), request)


def _unprocessed_writes(request_items: dict, refused: list) -> dict:
    """The throttled entries (positions over every table's writes, in order), as the request spelt them."""
    unprocessed, refused, position = {}, set(refused), 0
    for name, writes in request_items.items():
        for write in writes:
            if position in refused:
                unprocessed.setdefault(name, []).append(write)
            position += 1
    return unprocessed


def _with_metrics(response: dict, metrics: list | None) -> dict:
    """ItemCollectionMetrics of batches and transactions: table → one entry per written item."""
    if metrics is not None:
        by_table = {}
        for name, collection in metrics:
            by_table.setdefault(name, []).append(collection_metrics(collection))
        response["ItemCollectionMetrics"] = by_table
    return response


def _batch_write_action(table, write: dict) -> WriteAction:
    put, delete = write.get("PutRequest"), write.get("DeleteRequest")
    if put is not None:
        shapes.check_item(put["Item"])
    if (put is None) == (delete is None):
        raise ValidationException("Supplied AttributeValue has more than one datatypes set, "
                                  "must contain exactly one of the supported datatypes")
    try:  # BatchWriteItem reports every key problem as a schema mismatch (item-api §2.6)
        if put is not None:
            key_from_item(table.spec.key, put["Item"])
            return WriteAction("Put", table.name, item=put["Item"])
        return WriteAction("Delete", table.name, key=key_from_request(table.spec.key, delete["Key"]))
    except ValidationException as error:
        if error.message.startswith(("One or more parameter values were invalid: Missing the key",
                                     "One or more parameter values were invalid: Type mismatch for key")):
            raise ValidationException(SCHEMA_MISMATCH) from None
        raise


# ------------------------------------------------------------ TransactGetItems

def transact_get_items(engine: Engine, request: dict) -> dict:
    """TransactGetItems: every item read at one instant (item-api §5.16)."""
    request = shapes.check("TransactGetItems", request)
    gets = [entry["Get"] for entry in request["TransactItems"]]
    projections = [projection_paths(get) for get in gets]
    reads, invalid = [], None
    for position, (get, paths) in enumerate(zip(gets, projections)):
        table = engine.table(table_name(get))
        check_key_paths(table.spec, get, paths)
        try:
            reads.append((table.name, key_from_request(table.spec.key, get["Key"])))
        except ValidationException as error:
            # why: DynamoDB (2026-04) cancels the transaction over an invalid Key, the first
            # one reported as ValidationError and the others as None, as TransactWriteItems does.
            invalid = invalid or (position, error.message)
    if invalid is not None:
        raise TransactionCanceledException([CancellationReason("ValidationError", invalid[1]) if i == invalid[0]
                                            else CancellationReason() for i in range(len(gets))])
    records, consumed = engine.transact_get(reads)
    responses = [{} if record is None else {"Item": shaped(record, paths)}
                 for record, paths in zip(records, projections)]
    return return_capacities({"Responses": responses}, per_table(consumed), request)


# ---------------------------------------------------------- TransactWriteItems

def transact_write_items(engine: Engine, request: dict) -> dict:
    """TransactWriteItems: all actions or none (item-api §5.15).

    The actions are checked one at a time, in request order (recorded-2026-11 B3): an action's rules, its
    expressions, its table and key, then the next action's. A missing table fails the whole request.
    """
    request = shapes.check("TransactWriteItems", request)
    actions = [_transact_action(engine, *_transact_expressions(entry)) for entry in request["TransactItems"]]
    token = request.get("ClientRequestToken")
    fingerprint = _fingerprint(request["TransactItems"]) if token is not None else None
    metrics = [] if request.get("ReturnItemCollectionMetrics") == "SIZE" else None
    consumed = engine.transact_write(actions, token, fingerprint, metrics)
    return return_capacities(_with_metrics({}, metrics), per_table(consumed), request)


_TRANSACT_MEMBERS = {"Put": ("ConditionExpression",), "Delete": ("ConditionExpression",),
                     "ConditionCheck": ("ConditionExpression",),
                     "Update": ("UpdateExpression", "ConditionExpression")}


def _transact_expressions(entry: dict) -> tuple:
    """(kind, body, update, condition) of one action, its rules checked and its expressions parsed."""
    kind = shapes.transact_action_rules(entry)
    body = entry[kind]
    try:
        expressions = Expressions(body, _TRANSACT_MEMBERS[kind])
        update = expressions.update(body.get("UpdateExpression"))
        condition = expressions.condition(body.get("ConditionExpression"))
        expressions.finish()
    except ValidationException as error:
        # why: a transaction names an expression's excess without its size (recorded-2026-11 B3)
        head, found, _ = error.message.partition(_SIZE_TAIL)
        if found:
            raise ValidationException(head + ";") from None
        raise
    return kind, body, update, condition


_SIZE_TAIL = "; expression size: "


def _transact_action(engine: Engine, kind: str, body: dict, update, condition) -> WriteAction:
    table = engine.table(table_name(body))
    action = WriteAction(kind, table.name, update=update, condition=condition,
                         return_old_on_failure=body.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD",
                         program=program_of(body) if kind == "Update" else None)
    if kind == "Put":
        action.item = body["Item"]
    else:
        try:
            action.key = key_from_request(table.spec.key, body["Key"])
        except ValidationException as error:
            # why: a key of the wrong types cancels the transaction with this action's ValidationError, as
            # a Put's item key does (recorded-2026-11 A5); a key naming other attributes fails the request
            if not wrong_types_only(table.spec.key, body["Key"]):
                raise
            action.key_problem = error.message
        check_key_not_updated(update, table.spec.key.names)
    check_key_paths(table.spec, body, update, condition)
    return action


def _fingerprint(items) -> str:
    return json.dumps(items, sort_keys=True, default=_wire_default)


def _wire_default(value):
    return to_wire(value)


OPERATIONS = {"BatchGetItem": batch_get_item, "BatchWriteItem": batch_write_item,
              "TransactGetItems": transact_get_items, "TransactWriteItems": transact_write_items}
