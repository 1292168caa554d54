"""PutItem, GetItem, UpdateItem, DeleteItem (item-api §5.7–§5.10).

Each operation reports problems in DynamoDB's order (item-api §2.1): the
request shape and its table-free members (``shapes.check``), expression
parameters and expressions, the table, the key against the schema, then
the write itself.
"""

from __future__ import annotations

from ..engine import Engine, WriteAction
from ..errors import ValidationException
from ..expressions.parser import reparse, update_program
from ..expressions.update import updated_values
from ..keys import key_from_item, key_from_request
from ..types import copy_value
from . import legacy, shapes
from .common import (Expressions, check_key_paths, prefixed, projection_paths, return_capacity,
                     return_collection_metrics, shaper, table_name)


def _expressions(operation: str, request: dict, members: tuple) -> dict:
    """Parse a write's expressions, reporting errors with the operation's prefix.

    why a shape's second request checks less: every check but those its values decide (the checks of the
    substitutes) depends only on the shape — the texts, the names, the values' placeholders — so a shape
    that passed them once passes them again (issue 34 point 2: they were a sixth of an UpdateItem)."""
    if _EXPRESSION_MEMBERS.isdisjoint(request):  # a plain write: nothing to parse or check
        return dict.fromkeys(members)
    shape = _shape(request, members)
    if shape in _PASSED:
        names, values = request.get("ExpressionAttributeNames"), request.get("ExpressionAttributeValues")
        try:
            return {member: None if text is None else reparse(_PARSERS[member], text, names, values, member)
                    for member, text in zip(members, shape[1])}
        except ValidationException as error:
            raise prefixed(operation, error) from None
    parsed = _parsed(operation, request, members)
    if shape is not None:
        if len(_PASSED) >= SHAPES_KEPT:
            _PASSED.clear()
        _PASSED.add(shape)
    return parsed


def _shape(request: dict, members: tuple) -> tuple | None:
    """What a write's expressions' checks depend on, but for its values; None with legacy members (their
    own rules)."""
    if any(member in request for member in legacy.WRITE_MEMBERS):
        return None
    names, values = request.get("ExpressionAttributeNames"), request.get("ExpressionAttributeValues")
    return (members, tuple(request.get(member) for member in members),
            None if names is None else tuple(names.items()), None if values is None else tuple(values))


def _parsed(operation: str, request: dict, members: tuple) -> dict:
    """Every check of a write's expressions, in DynamoDB's order, and their models."""
    try:
        expressions = Expressions(request, members)
        parsed = {member: getattr(expressions, _PARSERS[member])(request.get(member))
                  for member in members}
        expressions.finish()
        if "Expected" in request:
            parsed["ConditionExpression"] = legacy.expected(request)
    except ValidationException as error:
        raise prefixed(operation, error) from None
    if "AttributeUpdates" in request:  # (its errors are bare: recorded-2026-11 A3)
        parsed["UpdateExpression"] = legacy.attribute_updates(request)
    return parsed


_PARSERS = {"ConditionExpression": "condition", "UpdateExpression": "update",
            "ProjectionExpression": "projection"}
_PASSED: set = set()  # shapes whose every check but their values' passed
SHAPES_KEPT = 4096
_EXPRESSION_MEMBERS = frozenset((*_PARSERS, "ExpressionAttributeNames", "ExpressionAttributeValues",
                                 *legacy.WRITE_MEMBERS))


def _return_old_on_failure(request: dict) -> bool:
    return request.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD"


def _write(engine: Engine, action: WriteAction, request: dict):
    return engine.write(action, metrics=request.get("ReturnItemCollectionMetrics") == "SIZE")


def _respond(request: dict, result, attributes: dict | None) -> dict:
    response = {"Attributes": attributes} if attributes else {}
    return_collection_metrics(response, result.collection)
    return return_capacity(response, result.consumed, request)


def _all_old(request: dict, result) -> dict | None:
    if request.get("ReturnValues") == "ALL_OLD" and result.old is not None:
        return copy_value(result.old)
    return None


def put_item(engine: Engine, request: dict) -> dict:
    """PutItem: replace the whole item (item-api §5.7)."""
    request = shapes.check("PutItem", request)
    parsed = _expressions("PutItem", request, ("ConditionExpression",))
    table = engine.table(table_name(request))
    check_key_paths(table.spec, request, parsed["ConditionExpression"])
    item = request["Item"]
    key = key_from_item(table.spec.key, item)
    result = _write(engine, WriteAction("Put", table.name, key=key, item=item, size=request[shapes.ITEM_SIZE],
                                        condition=parsed["ConditionExpression"],
                                        return_old_on_failure=_return_old_on_failure(request)), request)
    return _respond(request, result, _all_old(request, result))


def get_item(engine: Engine, request: dict) -> dict:
    """GetItem: the item, projected, or ``{}`` (item-api §5.8)."""
    request = shapes.check("GetItem", request)
    paths = projection_paths(request)
    table = engine.table(table_name(request))
    check_key_paths(table.spec, request, paths)
    key = key_from_request(table.spec.key, request["Key"])
    item, consumed = engine.get(table.name, key, bool(request.get("ConsistentRead")), emit=shaper(paths))
    response = {} if item is None else {"Item": item}
    return return_capacity(response, consumed, request)


def program_of(request: dict):
    """A request's UpdateExpression as its shape's steps and its values (``expressions.slots``; None for the
    legacy AttributeUpdates, compiled as a model)."""
    text = request.get("UpdateExpression")
    if text is None:
        return None
    return update_program(text, request.get("ExpressionAttributeNames"), request.get("ExpressionAttributeValues"))


def check_key_not_updated(update, key_names) -> None:
    """An update may not touch a key attribute, even below it (item-api §3.10)."""
    if update is None:
        return
    for action in update.actions:
        if action.path.elements[0] in key_names:
            raise ValidationException(
                "One or more parameter values were invalid: Cannot update attribute "
                f"{action.path.elements[0]}. This attribute is part of the key")


def update_item(engine: Engine, request: dict) -> dict:
    """UpdateItem: an upsert through the update expression (item-api §5.9)."""
    request = shapes.check("UpdateItem", request)
    parsed = _expressions("UpdateItem", request, ("UpdateExpression", "ConditionExpression"))
    table = engine.table(table_name(request))
    key = key_from_request(table.spec.key, request["Key"])
    update = parsed["UpdateExpression"]
    check_key_not_updated(update, table.spec.key.names)
    check_key_paths(table.spec, request, update, parsed["ConditionExpression"])
    action = WriteAction("Update", table.name, key=key, update=update, condition=parsed["ConditionExpression"],
                         return_old_on_failure=_return_old_on_failure(request), program=program_of(request))
    try:
        result = _write(engine, action, request)
    except ValidationException as error:
        if "AttributeUpdates" in request:
            raise legacy.legacy_update_error(error) from None
        raise
    return _respond(request, result, _update_return_values(request.get("ReturnValues") or "NONE", update, result))


def _update_return_values(mode: str, update, result) -> dict | None:
    if mode == "ALL_OLD":
        return copy_value(result.old) if result.old is not None else None
    if mode == "ALL_NEW":
        return copy_value(result.new) if result.new is not None else None
    if mode in ("UPDATED_OLD", "UPDATED_NEW") and update is not None:
        return updated_values(update, result.old or {}, result.new or {}, mode[len("UPDATED_"):])
    return None


def delete_item(engine: Engine, request: dict) -> dict:
    """DeleteItem: a missing item is a successful no-op (item-api §5.10)."""
    request = shapes.check("DeleteItem", request)
    parsed = _expressions("DeleteItem", request, ("ConditionExpression",))
    table = engine.table(table_name(request))
    check_key_paths(table.spec, request, parsed["ConditionExpression"])
    key = key_from_request(table.spec.key, request["Key"])
    result = _write(engine, WriteAction("Delete", table.name, key=key,
                                        condition=parsed["ConditionExpression"],
                                        return_old_on_failure=_return_old_on_failure(request)), request)
    return _respond(request, result, _all_old(request, result))


OPERATIONS = {"PutItem": put_item, "GetItem": get_item, "UpdateItem": update_item,
              "DeleteItem": delete_item}
