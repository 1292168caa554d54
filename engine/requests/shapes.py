"""Request shapes of the item operations (to be replaced by envelope-driven shapes)."""

from __future__ import annotations

from ..errors import ValidationException
from ..expressions.model import Path

_REQUIRED = {
    "PutItem": ("TableName", "Item"), "GetItem": ("TableName", "Key"),
    "UpdateItem": ("TableName", "Key"), "DeleteItem": ("TableName", "Key"),
    "Query": ("TableName",), "Scan": ("TableName",),
    "BatchGetItem": ("RequestItems",), "BatchWriteItem": ("RequestItems",),
    "TransactGetItems": ("TransactItems",), "TransactWriteItems": ("TransactItems",),
}


def check(operation: str, request: dict) -> None:
    missing = [m for m in _REQUIRED[operation] if request.get(m) is None]
    if missing:
        items = "; ".join(f"Value null at '{m[0].lower()}{m[1:]}' failed to satisfy constraint: "
                          "Member must not be null" for m in missing)
        count = len(missing)
        raise ValidationException(f"{count} validation error{'s' if count > 1 else ''} detected: {items}")


def attributes_to_get(request: dict):
    names = request.get("AttributesToGet")
    if names is None:
        return None
    if len(set(names)) != len(names):
        duplicate = next(n for n in names if names.count(n) > 1)
        raise ValidationException(
            f"One or more parameter values were invalid: Duplicate value in attribute name: {duplicate}")
    return tuple(Path((name,)) for name in names)
