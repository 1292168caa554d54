"""Walk a request or response and convert the attribute values in it.

DynamoDB's JSON carries attribute values under a known set of member names
(``Item``, ``Key``, ``ExpressionAttributeValues``, ``Items``, …). One walker,
keyed by those names, converts them in both directions: Python values ⇄
engine values at the library boundary, wire JSON ⇄ engine values at the
client / wire boundary.
"""

from __future__ import annotations

from ..types import attribute_name
from ..wire_values import to_wire

def _map(content, value_fn):
    """An attribute map (attribute name -> value); names are checked, unless they leave the engine for
    the wire (``to_wire``: every stored name passed that check when it was written)."""
    if not isinstance(content, dict):
        return content
    if value_fn is to_wire:
        return {name: value_fn(value) for name, value in content.items()}
    return {(name if type(name) is str and name.isascii() else attribute_name(name)): value_fn(value)
            for name, value in content.items()}


def _maps(content, value_fn):
    """A list of attribute maps."""
    return [_map(item, value_fn) for item in content] if isinstance(content, list) else content


def _values(content, value_fn):
    """A list of values."""
    return [value_fn(value) for value in content] if isinstance(content, list) else content


def _table_maps(content, value_fn):
    """BatchGetItem's Responses: table name -> list of attribute maps."""
    if not isinstance(content, dict):
        return convert(content, value_fn)
    return {table: _maps(items, value_fn) for table, items in content.items()}


# member name -> converter of its content
VALUE_MEMBERS = {
    "Item": _map, "Key": _map, "ExclusiveStartKey": _map, "LastEvaluatedKey": _map,
    "ExpressionAttributeValues": _map, "Attributes": _map, "ItemCollectionKey": _map,
    "Keys": _maps, "Items": _maps, "Parameters": _values, "Responses": _table_maps, "SearchVector": _values,
    # legacy conditions and updates (item-api §4)
    "Value": lambda content, value_fn: value_fn(content), "AttributeValueList": _values,
}
_WALKED = (dict, list)


def convert(message, value_fn):
    """A copy of ``message`` whose attribute values went through ``value_fn``."""
    if isinstance(message, dict):
        out = {}
        for name, content in message.items():  # (a loop, not a call per member: every request comes here)
            converter = VALUE_MEMBERS.get(name)
            if content is None:
                out[name] = None
            elif converter is not None:
                out[name] = converter(content, value_fn)
            else:
                out[name] = convert(content, value_fn) if isinstance(content, _WALKED) else content
        return out
    if isinstance(message, list):
        return [convert(element, value_fn) for element in message]
    return message
