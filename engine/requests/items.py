"""PutItem, GetItem, UpdateItem, DeleteItem (item-api §5.7–§5.10)."""

from __future__ import annotations

from ..engine import Engine, WriteAction
from ..errors import ConditionalCheckFailedException, ValidationException
from ..expressions.projection import project
from ..expressions.update import updated_values
from ..keys import key_from_item, key_from_request
from ..types import copy_item
from . import shapes
from .common import Expressions, prefixed, return_capacity, table_name

INVALID_RETURN_VALUES = "Return values set to invalid value"


def _expressions(operation: str, request: dict, members: tuple) -> tuple[Expressions, dict]:
    """Parse a write's expressions, reporting errors with the operation's prefix."""
    try:
        expressions = Expressions(request, members)
        parsed = {member: getattr(expressions, _PARSERS[member])(request.get(member))
                  for member in members}
        expressions.finish()
    except ValidationException as error:
        raise prefixed(operation, error) from None
    return expressions, parsed


_PARSERS = {"ConditionExpression": "condition", "UpdateExpression": "update",
            "ProjectionExpression": "projection"}


def _return_old_on_failure(request: dict) -> bool:
    return request.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD"


def _write(engine: Engine, action: WriteAction):
    try:
        return engine.write(action)
    except ConditionalCheckFailedException as error:
        if error.item is not None:
            error.item = copy_item(error.item)
        raise


def put_item(engine: Engine, request: dict) -> dict:
    shapes.check("PutItem", request)
    if request.get("ReturnValues", "NONE") not in ("NONE", "ALL_OLD"):
        raise ValidationException(INVALID_RETURN_VALUES)
    _, parsed = _expressions("PutItem", request, ("ConditionExpression",))
    table = engine.table(table_name(request))
    item = request["Item"]
    key_from_item(table.spec.key, item)
    result = _write(engine, WriteAction("Put", table.name, item=item,
                                        condition=parsed["ConditionExpression"],
                                        return_old_on_failure=_return_old_on_failure(request)))
    response = {}
    if request.get("ReturnValues") == "ALL_OLD" and result.old is not None:
        response["Attributes"] = copy_item(result.old)
    return return_capacity(response, result.consumed, request)


def get_item(engine: Engine, request: dict) -> dict:
    shapes.check("GetItem", request)
    expressions = Expressions(request, ("ProjectionExpression",))
    paths = expressions.projection(request.get("ProjectionExpression"))
    expressions.finish()
    paths = paths if paths is not None else shapes.attributes_to_get(request)
    table = engine.table(table_name(request))
    key = key_from_request(table.spec.key, request["Key"])
    item, consumed = engine.get(table.name, key, bool(request.get("ConsistentRead")))
    response = {}
    if item is not None:
        response["Item"] = project(item, paths) if paths is not None else copy_item(item)
    return return_capacity(response, consumed, request)


def _check_key_not_updated(update, key_names) -> None:
    if update is None:
        return
    for action in update.actions:
        if action.path.elements[0] in key_names:
            raise ValidationException(
                "One or more parameter values were invalid: Cannot update attribute "
                f"{action.path.elements[0]}. This attribute is part of the key")


def update_item(engine: Engine, request: dict) -> dict:
    shapes.check("UpdateItem", request)
    _, parsed = _expressions("UpdateItem", request, ("UpdateExpression", "ConditionExpression"))
    table = engine.table(table_name(request))
    key = key_from_request(table.spec.key, request["Key"])
    update = parsed["UpdateExpression"]
    _check_key_not_updated(update, table.spec.key.names)
    result = _write(engine, WriteAction("Update", table.name, key=key, update=update,
                                        condition=parsed["ConditionExpression"],
                                        return_old_on_failure=_return_old_on_failure(request)))
    response = {}
    attributes = _update_return_values(request.get("ReturnValues") or "NONE", update, result)
    if attributes:
        response["Attributes"] = attributes
    return return_capacity(response, result.consumed, request)


def _update_return_values(mode: str, update, result) -> dict | None:
    if mode == "ALL_OLD":
        return copy_item(result.old) if result.old is not None else None
    if mode == "ALL_NEW":
        return copy_item(result.new) if result.new is not None else None
    if mode in ("UPDATED_OLD", "UPDATED_NEW") and update is not None:
        return updated_values(update, result.old or {}, result.new or {}, mode[len("UPDATED_"):])
    return None


def delete_item(engine: Engine, request: dict) -> dict:
    shapes.check("DeleteItem", request)
    if request.get("ReturnValues", "NONE") not in ("NONE", "ALL_OLD"):
        raise ValidationException(INVALID_RETURN_VALUES)
    _, parsed = _expressions("DeleteItem", request, ("ConditionExpression",))
    table = engine.table(table_name(request))
    key = key_from_request(table.spec.key, request["Key"])
    result = _write(engine, WriteAction("Delete", table.name, key=key,
                                        condition=parsed["ConditionExpression"],
                                        return_old_on_failure=_return_old_on_failure(request)))
    response = {}
    if request.get("ReturnValues") == "ALL_OLD" and result.old is not None:
        response["Attributes"] = copy_item(result.old)
    return return_capacity(response, result.consumed, request)


OPERATIONS = {"PutItem": put_item, "GetItem": get_item, "UpdateItem": update_item,
              "DeleteItem": delete_item}
