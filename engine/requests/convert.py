"""Walk a request or response and convert the attribute values in it.

DynamoDB's JSON carries attribute values under a known set of member names
(``Item``, ``Key``, ``ExpressionAttributeValues``, ``Items``, …). One walker,
keyed by those names, converts them in both directions: Python values ⇄
engine values at the library boundary, wire JSON ⇄ engine values at the
client / wire boundary.
"""

from __future__ import annotations

# member name -> shape of its content: 'value' (one value), 'map' (attribute name -> value),
# 'maps' (a list of attribute maps), 'values' (a list of values),
# 'table_maps' (table name -> list of attribute maps).
VALUE_MEMBERS = {
    "Item": "map", "Key": "map", "ExclusiveStartKey": "map", "LastEvaluatedKey": "map",
    "ExpressionAttributeValues": "map", "Attributes": "map", "ItemCollectionKey": "map",
    "Keys": "maps", "Items": "maps", "Parameters": "values",
    # legacy conditions and updates (item-api §4)
    "Value": "value", "AttributeValueList": "values",
}


def convert(message, value_fn, map_fn=None):
    """A copy of ``message`` whose attribute values went through ``value_fn``."""
    if isinstance(message, dict):
        return {name: _member(name, content, value_fn) for name, content in message.items()}
    if isinstance(message, list):
        return [convert(element, value_fn) for element in message]
    return message


def _member(name: str, content, value_fn):
    shape = VALUE_MEMBERS.get(name)
    if shape is None or content is None:
        if name == "Responses" and isinstance(content, dict):  # BatchGetItem: table -> items
            return {table: [_map(item, value_fn) for item in items] for table, items in content.items()}
        return convert(content, value_fn)
    if shape == "map":
        return _map(content, value_fn)
    if shape == "value":
        return value_fn(content)
    if shape == "maps":
        return [_map(item, value_fn) for item in content] if isinstance(content, list) else content
    return [value_fn(value) for value in content] if isinstance(content, list) else content


def _map(content, value_fn):
    if not isinstance(content, dict):
        return content
    return {name: value_fn(value) for name, value in content.items()}
