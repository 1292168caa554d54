"""Key values: their canonical bytes and the validation of keys and items.

Where a key value is placed (its hash) is ``placement``'s.
"""

from __future__ import annotations

from decimal import Decimal

from . import limits
from .errors import ValidationException
from .schema import KeySchema
from .types import number_text, type_of, utf8_len

_KEY_CLASS = {"S": str, "N": Decimal, "B": bytes}

SCHEMA_MISMATCH = "The provided key element does not match the schema"


def key_bytes(value) -> bytes:
    """Canonical bytes of an S, N or B key value."""
    kind = type(value)
    if kind is str:
        return value.encode("utf-8", "surrogatepass")
    if kind is Decimal:
        return number_text(value).encode("ascii")
    return value


def key_value(value):
    """The attribute value of a value in a stored key: an N key read from a file is held as an int
    (see ``storage.codec.row_key_reader``), and is a Decimal again here."""
    return Decimal(value) if type(value) is int else value


def key_length(value) -> int:
    """Bytes a key value counts toward the 2048 / 1024-byte key limits (N is exempt)."""
    kind = type(value)
    if kind is str:
        return utf8_len(value)
    if kind is bytes:
        return len(value)
    return 0


def check_not_empty(name: str, value) -> None:
    """A key value of the right type (S, N or B) must not be an empty S or B."""
    if not value and type(value) is not Decimal:
        what = "string" if type(value) is str else "binary"
        raise ValidationException(
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            f"cannot contain an empty {what} value. Key: {name}")


# why: a key of at most this many characters is within both byte limits
# whatever its encoding (4 UTF-8 bytes per character at most).
_SURELY_SHORT = limits.MAX_RANGE_KEY_BYTES // 4


def check_key_sizes(schema: KeySchema, hash_value, range_value) -> None:
    """DynamoDB's key-size limits (the missing space in 'of2048' is DynamoDB's)."""
    if key_length(hash_value) > limits.MAX_HASH_KEY_BYTES:
        raise ValidationException("One or more parameter values were invalid: Size of hashkey has "
                                  "exceeded the maximum size limit of2048 bytes")
    if range_value is not None and key_length(range_value) > limits.MAX_RANGE_KEY_BYTES:
        raise ValidationException("One or more parameter values were invalid: Aggregated size of all "
                                  "range keys has exceeded the size limit of 1024 bytes")


def _long(value) -> bool:
    return type(value) is not Decimal and len(value) > _SURELY_SHORT


def _key_values(schema: KeySchema, values: list) -> tuple:
    """(hash, range) from a schema's checked key values, within the key-size limits."""
    hash_value = values[0]
    range_value = values[1] if len(values) > 1 else None
    if _long(hash_value) or (range_value is not None and _long(range_value)):
        check_key_sizes(schema, hash_value, range_value)
    return hash_value, range_value


def key_from_item(schema: KeySchema, item: dict) -> tuple:
    """The (hash, range) key of an item to be written, with PutItem's messages."""
    values, types = [], schema.types
    for name in schema.names:
        if name not in item:
            raise ValidationException(
                f"One or more parameter values were invalid: Missing the key {name} in the item")
        value = item[name]
        expected = types[name]
        if type(value) is not _KEY_CLASS[expected]:
            raise ValidationException(
                f"One or more parameter values were invalid: Type mismatch for key {name} "
                f"expected: {expected} actual: {type_of(value)}")
        check_not_empty(name, value)
        values.append(value)
    return _key_values(schema, values)


def key_from_request(schema: KeySchema, key) -> tuple:
    """The (hash, range) key named by a request's ``Key``, with GetItem's messages."""
    if not isinstance(key, dict) or len(key) != len(schema.names):
        raise ValidationException(SCHEMA_MISMATCH)
    values, types = [], schema.types
    for name in schema.names:
        if name not in key:
            raise ValidationException(SCHEMA_MISMATCH)
        value = key[name]
        if type(value) is not _KEY_CLASS[types[name]]:
            raise ValidationException(SCHEMA_MISMATCH)
        check_not_empty(name, value)
        values.append(value)
    return _key_values(schema, values)


def wrong_types_only(schema: KeySchema, key) -> bool:
    """Whether ``key`` names exactly the schema's attributes, one or more of them with a value of another
    type (what a transaction reports as an action's ValidationError, not as the request's)."""
    return (isinstance(key, dict) and len(key) == len(schema.names) and all(name in key for name in schema.names)
            and any(type(key[name]) is not _KEY_CLASS[schema.types[name]] for name in schema.names))


def key_dict(schema: KeySchema, hash_value, range_value) -> dict:
    """The key as an attribute map."""
    if schema.range_name is None:
        return {schema.hash_name: hash_value}
    return {schema.hash_name: hash_value, schema.range_name: range_value}
