"""Request shapes of the item operations, as envelope data (item-api §2.1–§2.2, §5.7–§5.16).

Each operation's input is declared once with the builders of
``engine.envelope``, in the member order of the server-side shape (it
orders the items of a multi-error envelope). ``check(operation, request)``
runs DynamoDB's phases 2 and 4 on it — JSON types (SerializationException),
then every constraint violation in one ``N validation errors detected: …``
— and then the operation's table-free member checks (phase 5: attribute
names, item size, ReturnValues, batch totals…), first failure wins.

The shapes are built twice from one description: ``SHAPES`` for requests
whose attribute values are engine values (the Python API, ``Engine.call``)
and ``WIRE_SHAPES`` for wire JSON (``{"N": "1"}``), whose values the type
pass checks too (``engine.requests.wire``).
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from contextvars import ContextVar

from .. import limits
from ..acceptance import acceptor
from ..envelope import (ATTRIBUTE_ACTION, ATTRIBUTE_VALUE, COMPARISON_OPERATOR, CONDITIONAL_OPERATOR,
                        ENGINE_ATTRIBUTE_VALUE, ENGINE_VALUE, NAME_PATTERN, RETURN_CONSUMED_CAPACITY,
                        RETURN_ITEM_COLLECTION_METRICS, RETURN_VALUES,
                        RETURN_VALUES_ON_CONDITION_CHECK_FAILURE, SELECT, boolean, integer,
                        list_of, map_of, string, structure, validate, violations)
from ..errors import SerializationException, ValidationException
from ..expressions.model import Path
from ..type_pass import check_types
from .check_order import ORDERS
from .control import resolve_table_name
from ..types import NESTING, item_size, nesting_problem, utf8_len
from .payload import check_transaction

INVALID = "One or more parameter values were invalid: "
ITEM_TOO_LARGE = "Item size has exceeded the maximum allowed size"
INVALID_RETURN_VALUES = "Return values set to invalid value"
DELETE_RETURN_VALUES = "1 validation error detected: ReturnValues can only be ALL_OLD or NONE"  # (B4: enveloped)
# INF: item-api §5.0 pins only "Empty attribute name" (LOCAL ErrorFactory
# EMPTY_ATTRIBUTE_NAME); the too-large text is LOCAL's.
EMPTY_ATTRIBUTE_NAME = "Empty attribute name"
ATTRIBUTE_NAME_TOO_LARGE = "Attribute name is too large, must be less than 65536 bytes"
TOO_MANY_BATCH_GETS = "Too many items requested for the BatchGetItem call"
# INF: the spec gives no text for > 25 writes spread over several tables; worded like BatchGetItem's.
TOO_MANY_BATCH_WRITES = "Too many items requested for the BatchWriteItem call"

ITEM_SIZE = "\0ItemSize"  # where _put_item leaves the size it computed (not a DynamoDB member)
TABLE_NAME = string(required=True, pattern=NAME_PATTERN, min_len=3, max_len=255)
_TABLE_KEY = string(pattern=NAME_PATTERN, min_len=3, max_len=255)  # RequestItems map keys
_INDEX_NAME = string(pattern=NAME_PATTERN, min_len=3, max_len=255)
_TOKEN = string(min_len=1, max_len=36)


def _item_shapes(value: dict, item: dict) -> dict[str, dict]:
    """Every item operation's input shape, over attribute values of shape ``value``
    and items / keys of shape ``item``."""
    attributes = map_of(string(), value)
    required_map = dict(item, required=True)
    names = map_of(string(), string())
    condition = structure({
        "AttributeValueList": list_of(value),
        "ComparisonOperator": string(required=True, enum=COMPARISON_OPERATOR),
    }, name="Condition")
    conditions = map_of(string(), condition)
    expected = map_of(string(), structure({
        "Value": value, "Exists": boolean(),
        "ComparisonOperator": string(enum=COMPARISON_OPERATOR),
        "AttributeValueList": list_of(value),
    }, name="ExpectedAttributeValue"))
    attribute_updates = map_of(string(), structure({
        "Value": value, "Action": string(enum=ATTRIBUTE_ACTION),
    }, name="AttributeValueUpdate"))
    attribute_names = list_of(string(), min_len=1)
    capacity = string(enum=RETURN_CONSUMED_CAPACITY)
    metrics = string(enum=RETURN_ITEM_COLLECTION_METRICS)
    on_failure = string(enum=RETURN_VALUES_ON_CONDITION_CHECK_FAILURE)
    expression_members = {"ExpressionAttributeNames": names, "ExpressionAttributeValues": attributes}

    def write(members: dict, name: str) -> dict:
        return structure({
            "ReturnConsumedCapacity": capacity, "TableName": TABLE_NAME, **members,
            "ConditionalOperator": string(enum=CONDITIONAL_OPERATOR), "Expected": expected,
            "ReturnValues": string(enum=RETURN_VALUES), "ReturnItemCollectionMetrics": metrics,
            "ReturnValuesOnConditionCheckFailure": on_failure,
            "ConditionExpression": string(), **expression_members,
        }, name=name)

    def read(members: dict, name: str) -> dict:
        return structure({
            "ReturnConsumedCapacity": capacity, "TableName": TABLE_NAME, "IndexName": _INDEX_NAME,
            "Select": string(enum=SELECT), "AttributesToGet": attribute_names,
            "Limit": integer(min=1), "ConsistentRead": boolean(), **members,
            "ConditionalOperator": string(enum=CONDITIONAL_OPERATOR), "ExclusiveStartKey": attributes,
            "ProjectionExpression": string(), "FilterExpression": string(), **expression_members,
        }, name=name)

    def transact_action(members: dict, name: str, **required) -> dict:
        shape = {"TableName": TABLE_NAME, **members, "ConditionExpression": string(),
                 **expression_members, "ReturnValuesOnConditionCheckFailure": on_failure}
        shape.update((member, string(required=True)) for member in required)
        return structure(shape, name=name)

    keys_and_attributes = structure({
        "Keys": list_of(attributes, required=True, min_len=1, max_len=limits.BATCH_GET_MAX_KEYS),
        "AttributesToGet": attribute_names, "ConsistentRead": boolean(),
        "ProjectionExpression": string(), "ExpressionAttributeNames": names,
    }, name="KeysAndAttributes")
    # why (recorded-2026-11 B6): an echoed RequestItems prints these as Java's toString does,
    # ``WriteRequest(putRequest=PutRequest(item={pk=`` (what follows was not recorded: ours)
    write_request = structure({
        "PutRequest": structure({"Item": required_map}, name="PutRequest", to_string="class"),
        "DeleteRequest": structure({"Key": required_map}, name="DeleteRequest", to_string="class"),
    }, name="WriteRequest", to_string="class")
    transact_items = dict(required=True, min_len=1, max_len=limits.TRANSACT_MAX_ITEMS)
    return {
        "PutItem": write({"Item": required_map}, "PutItemInput"),
        "UpdateItem": write({"Key": required_map, "AttributeUpdates": attribute_updates,
                             "UpdateExpression": string()}, "UpdateItemInput"),
        "DeleteItem": write({"Key": required_map}, "DeleteItemInput"),
        "GetItem": structure({
            "ReturnConsumedCapacity": capacity, "TableName": TABLE_NAME, "Key": required_map,
            "AttributesToGet": attribute_names, "ConsistentRead": boolean(),
            "ProjectionExpression": string(), "ExpressionAttributeNames": names,
        }, name="GetItemInput"),
        "Query": read({"KeyConditions": conditions, "QueryFilter": conditions,
                       "ScanIndexForward": boolean(), "KeyConditionExpression": string()}, "QueryInput"),
        "Scan": read({"ScanFilter": conditions, "Segment": integer(min=0, max=999_999),
                      "TotalSegments": integer(min=1, max=1_000_000)}, "ScanInput"),
        "BatchGetItem": structure({
            "RequestItems": map_of(_TABLE_KEY, keys_and_attributes, required=True, min_len=1, max_len=100),
            "ReturnConsumedCapacity": capacity,
        }, name="BatchGetItemInput"),
        "BatchWriteItem": structure({
            "RequestItems": map_of(_TABLE_KEY, list_of(write_request, min_len=1,
                                                       max_len=limits.BATCH_WRITE_MAX_REQUESTS),
                                   required=True, min_len=1, max_len=limits.BATCH_WRITE_MAX_REQUESTS),
            "ReturnConsumedCapacity": capacity, "ReturnItemCollectionMetrics": metrics,
        }, name="BatchWriteItemInput"),
        "TransactGetItems": structure({
            "TransactItems": list_of(structure({"Get": structure({
                "Key": required_map, "TableName": TABLE_NAME, "ProjectionExpression": string(),
                "ExpressionAttributeNames": names,
            }, required=True, name="Get")}, name="TransactGetItem"), **transact_items),
            "ReturnConsumedCapacity": capacity,
        }, name="TransactGetItemsInput"),
        "TransactWriteItems": structure({
            "TransactItems": list_of(structure({
                "ConditionCheck": transact_action({"Key": required_map}, "ConditionCheck",
                                                  ConditionExpression=True),
                "Put": transact_action({"Item": required_map}, "Put"),
                "Delete": transact_action({"Key": required_map}, "Delete"),
                "Update": transact_action({"Key": required_map}, "Update", UpdateExpression=True),
            }, name="TransactWriteItem"), **transact_items),
            "ReturnConsumedCapacity": capacity, "ReturnItemCollectionMetrics": metrics,
            "ClientRequestToken": _TOKEN,
        }, name="TransactWriteItemsInput"),
    }


# why: an engine-valued Item or Key has nothing the envelope could refuse (its
# names and values are checked in phase 5), so it is taken whole: PutItem and
# GetItem stay cheap.
def _in_check_order(shapes: dict) -> dict:
    """Each operation's shape with the members ``check_order`` puts first moved ahead (envelope item order)."""
    ordered = {}
    for operation, shape in shapes.items():
        first = ORDERS[operation].envelope
        members = {name: shape["members"][name] for name in first if name in shape["members"]}
        members.update(shape["members"])
        ordered[operation] = dict(shape, members=members)
    return ordered


SHAPES = _in_check_order(_item_shapes(ENGINE_ATTRIBUTE_VALUE, ENGINE_VALUE))
WIRE_SHAPES = _in_check_order(_item_shapes(ATTRIBUTE_VALUE, map_of(string(), ATTRIBUTE_VALUE)))
TRANSACT_WRITE_KINDS = ("ConditionCheck", "Put", "Delete", "Update")


# ----------------------------------------------------------- table names (ARNs)

def _resolve_top(request: dict) -> None:
    if isinstance(request.get("TableName"), str):
        request["TableName"] = resolve_table_name(request["TableName"])


def _resolve_request_items(request: dict) -> None:
    items = request.get("RequestItems")
    if isinstance(items, dict):
        request["RequestItems"] = {resolve_table_name(name): entry for name, entry in items.items()}


def _resolve_transact_items(request: dict) -> None:
    for entry in request.get("TransactItems") or ():
        for body in (entry or {}).values():
            if isinstance(body, dict):
                _resolve_top(body)


# A table ARN names its table (TableName is a TableArn, 1..1024, in the model);
# the envelope then checks the name inside it (item-api §2.2).
_RESOLVERS = {"BatchGetItem": _resolve_request_items, "BatchWriteItem": _resolve_request_items,
              "TransactGetItems": _resolve_transact_items, "TransactWriteItems": _resolve_transact_items}


# --------------------------------------------------- phase 5: table-free members

_CONTAINERS = (dict, list)
_SURELY_SHORT_NAME = limits.MAX_ATTRIBUTE_NAME_BYTES // 4  # characters that fit whatever the encoding


def check_attribute_name(name) -> None:
    """An attribute name is 1..65535 bytes (item-api §1.4, §5.0)."""
    if not name:
        raise ValidationException(EMPTY_ATTRIBUTE_NAME)
    if len(name) > _SURELY_SHORT_NAME and utf8_len(name) > limits.MAX_ATTRIBUTE_NAME_BYTES:
        raise ValidationException(ATTRIBUTE_NAME_TOO_LARGE)


def check_item(item) -> int:
    """Attribute names of an item to write, then its size (item-api §2.1 step 5); the size."""
    if not isinstance(item, dict):
        raise SerializationException("Unexpected field type")  # a map was expected
    for name, value in item.items():
        if not name or len(name) > _SURELY_SHORT_NAME:
            check_attribute_name(name)
        # why here, before the table is looked up: a too-deep item for an absent table is the nesting
        # error, not ResourceNotFoundException (recorded-2026-11 B3)
        if type(value) in _CONTAINERS and nesting_problem(value):
            raise ValidationException(NESTING)
    size = item_size(item)
    if size > limits.MAX_ITEM_BYTES:
        raise ValidationException(ITEM_TOO_LARGE)
    return size


def _put_item(request: dict) -> None:
    request[ITEM_SIZE] = check_item(request["Item"])


def _none_or_all_old(message: str):
    """PutItem and DeleteItem accept only NONE and ALL_OLD of the five ReturnValues (item-api §5.7);
    ``message`` is the operation's refusal."""
    def check(request: dict) -> None:
        if request.get("ReturnValues", "NONE") not in ("NONE", "ALL_OLD"):
            raise ValidationException(message)
    return check


def _expression_names(request: dict) -> None:
    names = request.get("ExpressionAttributeNames")
    if names:
        for name in names.values():
            check_attribute_name(name)


def _attributes_to_get(request: dict) -> None:
    names = request.get("AttributesToGet")
    if names is not None:
        for name in names:
            check_attribute_name(name)
        attributes_to_get(request)


def _batch_get(request: dict) -> None:
    entries = request["RequestItems"].values()
    if sum(len(entry["Keys"]) for entry in entries) > limits.BATCH_GET_MAX_KEYS:
        raise ValidationException(TOO_MANY_BATCH_GETS)
    # why across the tables: the rule is the request's, not a table's (recorded-2026-11 A7: a
    # ProjectionExpression on one table and AttributesToGet on another is a ValidationException; its
    # words are item-api §3.5's for one request, INF)
    _GET_MIXING({member: True for entry in entries for member in entry})
    for entry in entries:
        _attributes_to_get(entry)
        _expression_names(entry)


def _batch_write(request: dict) -> None:
    writes = request["RequestItems"].values()
    if sum(len(table_writes) for table_writes in writes) > limits.BATCH_WRITE_MAX_REQUESTS:
        raise ValidationException(TOO_MANY_BATCH_WRITES)


def _transact_write(request: dict) -> None:
    check_transaction(request)


def transact_action_rules(entry: dict) -> str:
    """The table-free rules of one TransactWriteItems action (its kind, its item, its names); the kind.

    why one action at a time: DynamoDB checks the actions in request order, each whole (these rules, its
    expressions, its table) before the next (recorded-2026-11 B3); ``batches.transact_write_items``."""
    kinds = [kind for kind in TRANSACT_WRITE_KINDS if kind in entry]
    if not kinds:
        raise ValidationException(
            "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request")
    if len(kinds) > 1:
        raise ValidationException("TransactItems can only contain one of Check, Put, Update or Delete")
    body = entry[kinds[0]]
    if kinds[0] == "Put":
        check_item(body["Item"])
    _expression_names(body)
    return kinds[0]


def _transact_get(request: dict) -> None:
    for entry in request["TransactItems"]:
        _expression_names(entry["Get"])


def _mixing(legacy: tuple, expressions: tuple):
    """Legacy and expression parameters may not be mixed (item-api §3.5 step 1, §4)."""

    members = frozenset(legacy)

    def check(request: dict) -> None:
        if members.isdisjoint(request):  # the usual request: no legacy member at all
            return
        used = [member for member in expressions if member in request]
        # why: a Query may pair legacy KeyConditions with expression filters and
        # projections as long as no KeyConditionExpression is given.
        old = [member for member in legacy
               if member in request and (member != "KeyConditions" or "KeyConditionExpression" in request)]
        if used and old:
            raise ValidationException(
                "Can not use both expression and non-expression parameters in the same request: "
                f"Non-expression parameters: {{{', '.join(old)}}} Expression parameters: {{{', '.join(used)}}}")
    return check


_GET_MIXING = _mixing(("AttributesToGet",), ("ProjectionExpression",))
_CONDITIONAL_MIXING = _mixing(("Expected", "ConditionalOperator"), ("ConditionExpression",))


# The table-free rules (phase 5) by the names ``check_order.ORDERS`` lists them under.
RULES = {
    "conditional_mixing": _CONDITIONAL_MIXING,
    "get_mixing": _GET_MIXING,
    "update_mixing": _mixing(("AttributeUpdates", "Expected", "ConditionalOperator"),
                             ("UpdateExpression", "ConditionExpression")),
    "query_mixing": _mixing(("AttributesToGet", "QueryFilter", "ConditionalOperator", "KeyConditions"),
                            ("ProjectionExpression", "FilterExpression", "KeyConditionExpression")),
    "scan_mixing": _mixing(("AttributesToGet", "ScanFilter", "ConditionalOperator"),
                           ("ProjectionExpression", "FilterExpression")),
    "item": _put_item,
    "put_return_values": _none_or_all_old(INVALID_RETURN_VALUES),
    # why: DeleteItem words it so (recorded-2026-11 B4; PutItem's answer was not recorded: §5.7's kept)
    "delete_return_values": _none_or_all_old(DELETE_RETURN_VALUES),
    "attributes_to_get": _attributes_to_get,
    "expression_names": _expression_names,
    "batch_get": _batch_get,
    "batch_write": _batch_write,
    "transact_get": _transact_get,
    "transact_write": _transact_write,
}
MEMBER_CHECKS = {operation: tuple(RULES[name] for name in order.rules) for operation, order in ORDERS.items()}


# ----------------------------------------------------------------- entry points

@functools.lru_cache(maxsize=2048)
def _pruned(operation: str, wire: bool, present: frozenset) -> dict:
    """``operation``'s shape reduced to the members a request has, and the required ones.

    why: absent optional members cannot violate anything, nor can a TableName
    already found valid; walking only the others keeps the envelope off the
    profile of point operations. The member order (the envelope's item
    order) is kept.
    """
    shape = (WIRE_SHAPES if wire else SHAPES)[operation]
    members = {name: member for name, member in shape["members"].items()
               if name in present or member.get("required")}
    if _VALID_NAME in present:
        del members["TableName"]
    return dict(shape, members=members)


_VALID_NAME = "\0ValidTableName"  # marks, in the set of present members, a TableName known valid


@functools.lru_cache(maxsize=4096)
def _valid_table_name(name) -> bool:
    return not violations({"TableName": name}, _TABLE_NAME_ONLY)


_TABLE_NAME_ONLY = structure({"TableName": TABLE_NAME})


def _present(request: dict) -> frozenset:
    name = request.get("TableName")
    if isinstance(name, str) and _valid_table_name(name):
        return frozenset((*request, _VALID_NAME))
    return frozenset(request)


@functools.cache
def _accepts(operation: str, wire: bool = False):
    """The fast predicate of ``operation``'s in-process (or wire) shape (``acceptance.acceptor``)."""
    return acceptor((WIRE_SHAPES if wire else SHAPES)[operation])


def check_envelope(operation: str, request, shapes: dict = SHAPES) -> dict:
    """Phases 2 and 4 of ``operation``: JSON types, then the constraint envelope.

    Returns the normalised request: unknown and null members dropped, boolean
    strings coerced (``type_pass.check_types``), table ARNs resolved to names.
    A request the fast predicate accepts is returned as a shallow copy (a
    table ARN fails TableName's pattern, so there is nothing to resolve).
    """
    if (shapes is SHAPES or shapes is WIRE_SHAPES) and _accepts(operation, shapes is WIRE_SHAPES)(request):
        return dict(request)
    return interpreted_envelope(operation, request, shapes)


def interpreted_envelope(operation: str, request, shapes: dict = SHAPES) -> dict:
    """``check_envelope`` by interpreting the shape data: every request, every error."""
    wire = shapes is WIRE_SHAPES
    if not isinstance(request, dict):
        return check_types(request, shapes[operation])  # raises
    checked = check_types(request, _pruned(operation, wire, frozenset(request)))
    _RESOLVERS.get(operation, _resolve_top)(checked)
    if operation == "BatchWriteItem" and checked.get("RequestItems") == {}:
        # why (recorded-2026-11 B6): BatchWriteItem's answer moves back and forth between this sentence
        # and the newer envelope item (BatchGetItem's, since 2026-09): the sentence is kept
        raise ValidationException(f"The requestItems parameter is required for {operation}")
    shape = _pruned(operation, wire, _present(checked))
    if checked.get("TableName") == "":
        shape = dict(shape, members={**shape["members"], "TableName": _TABLE_ARN})
    order = ORDERS[operation]
    validate(checked, shape, order.style, order.styles, order.first_only)
    return checked

# why (corrections recorded against DynamoDB 2026-04, issue #14 point 5): TableName is
# a TableArn (1..1024) in the model, so an empty one gets that single length item;
# an empty RequestItems map gets BatchGetItem's / BatchWriteItem's own sentence.
_TABLE_ARN = string(required=True, min_len=1, max_len=1024)


_ENVELOPED: ContextVar = ContextVar("enveloped", default=None)


@contextmanager
def enveloped(operation: str):
    """Within the block, ``check(operation, …)`` leaves out phases 2 and 4: the wire envelope has run them.

    why: both shape tables come from one description (``_item_shapes``) and differ only in their values,
    which the wire shapes check more closely; a wire request converted to engine values passes the
    in-process envelope whenever it passed the wire one (``tests/requests/test_enveloped.py``), so checking
    it twice was only time.
    """
    token = _ENVELOPED.set(operation)
    try:
        yield
    finally:
        _ENVELOPED.reset(token)


def check(operation: str, request) -> dict:
    """Phases 2, 4 and the table-free member checks of ``operation``; the normalised request."""
    checked = request if _ENVELOPED.get() == operation else check_envelope(operation, request)
    for member_check in MEMBER_CHECKS[operation]:
        member_check(checked)
    return checked


def attributes_to_get(request: dict):
    """The legacy AttributesToGet as projection paths (None when absent; item-api §4.1)."""
    names = request.get("AttributesToGet")
    if names is None:
        return None
    seen = set()
    for name in names:
        if name in seen:
            raise ValidationException(f"{INVALID}Duplicate value in attribute name: {name}")
        seen.add(name)
    return tuple(Path((name,)) for name in names)
