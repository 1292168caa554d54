"""Phase 2 of a request (item-api §1.1): the JSON types of its members against its shape.

``check_types`` raises DynamoDB's SerializationException texts (Coral's Java
class and token names) and returns a normalised copy: unknown and null
members dropped, boolean strings coerced, decimals in integral members
truncated. It looks only at what is present, and values nested past
``limits.MAX_VALUE_DEPTH`` are DynamoDB's nesting error.
"""

from __future__ import annotations

import math
from decimal import Decimal

from . import limits
from .errors import SerializationException, ValidationException
from .types import NESTING, attribute_name, checked_text
from .wire_values import decode_base64

_JAVA_CLASS = {"String": "java.lang.String", "Integer": "java.lang.Integer",
               "Long": "java.lang.Long", "Double": "java.lang.Double",
               "Boolean": "java.lang.Boolean", "Blob": "java.nio.ByteBuffer",
               "Value": "com.amazonaws.dynamodb.v20120810.AttributeValue"}
_MODEL_NS = "com.amazonaws.dynamodb.v20120810"
_BOOLEAN_WORDS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def _token(value) -> str:
    """The JSON token class Coral names in its conversion errors."""
    if isinstance(value, bool):
        return "TRUE_VALUE" if value else "FALSE_VALUE"
    if isinstance(value, int):
        return "NUMBER_VALUE"
    if isinstance(value, Decimal) and value.is_finite() and value.as_tuple().exponent >= 0:
        return "NUMBER_VALUE"
    if isinstance(value, (float, Decimal)):
        return "DECIMAL_VALUE"  # json's 1.0 is a decimal token although integral
    return "STRING_VALUE"


def _java_type(shape: dict) -> str:
    kind = shape["type"]
    if kind == "Structure":
        return f"{_MODEL_NS}.{shape.get('name', 'Structure')}"
    if kind == "List":
        return f"java.util.List<{_java_type(shape['member'])}>"
    if kind == "Map":
        return f"java.util.Map<java.lang.String, {_java_type(shape['value'])}>"
    return _JAVA_CLASS[kind]


def _not_scalar(value, java_name: str) -> None:
    """Objects and arrays where a scalar is expected."""
    if isinstance(value, dict):
        raise SerializationException("Start of structure or map found where not expected")
    if isinstance(value, (list, tuple)):
        raise SerializationException(f"Unrecognized collection type class {java_name}")


def _as_string(value, shape):
    _not_scalar(value, _JAVA_CLASS["String"])
    if not isinstance(value, str):
        raise SerializationException(f"{_token(value)} cannot be converted to String")
    return checked_text(value)


def _as_number(value, shape):
    kind = shape["type"]
    _not_scalar(value, _JAVA_CLASS[kind])
    if isinstance(value, (bool, str)) or not isinstance(value, (int, float, Decimal)) \
            or (not isinstance(value, int) and not math.isfinite(value)):
        raise SerializationException(f"{_token(value)} cannot be converted to {kind}")
    if kind == "Double" or isinstance(value, int):
        return value
    # INF: integral members truncate a decimal (dynalite's floor; Coral's
    # "TruncatingBigNumber").
    return math.floor(value)


def _as_boolean(value, shape):
    _not_scalar(value, _JAVA_CLASS["Boolean"])
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in _BOOLEAN_WORDS:
        # why: AWS coerces these strings (dynalite's note, item-api §1.1)
        return _BOOLEAN_WORDS[value.lower()]
    # INF: the modern "<TOKEN> cannot be converted to <Type>" form for the rest.
    raise SerializationException(f"{_token(value)} cannot be converted to Boolean")


def _as_blob(value, shape):
    if isinstance(value, (bytes, bytearray, memoryview)):
        return value  # in-process callers pass bytes
    _not_scalar(value, _JAVA_CLASS["Blob"])
    if not isinstance(value, str):
        raise SerializationException(f"{_token(value)} cannot be converted to ByteBuffer")
    decode_base64(value)  # (its words for text that is not canonical base64; the value converter decodes it)
    return value


def _container_scalar(value, shape) -> None:
    """Scalars where a list, map or structure is expected."""
    if isinstance(value, (bool, int, float, Decimal, str, bytes)):
        raise SerializationException(shape.get("scalar_error", "Unexpected field type"))


def _as_list(value, shape, depth):
    _container_scalar(value, shape)
    if isinstance(value, dict):
        raise SerializationException("Start of structure or map found where not expected")
    return [_typed(element, shape["member"], depth) for element in value]


def _as_map(value, shape, depth):
    _container_scalar(value, shape)
    if not isinstance(value, dict):
        raise SerializationException(f"Unrecognized collection type {_java_type(shape)}")
    # (a JSON object's keys are strings: a library caller's may not be)
    return {attribute_name(key, "Map keys"): _typed(element, shape["value"], depth) for key, element in value.items()}


def _as_structure(value, shape, depth=0):
    _container_scalar(value, shape)
    if not isinstance(value, dict):
        raise SerializationException(f"Unrecognized collection type class {_java_type(shape)}")
    # why: unknown members are ignored and a JSON null is an absent member (§1.1).
    # The loop runs over what is present, not over the shape: an AttributeValue
    # has ten members and holds one.
    members = shape["members"]
    typed = {}
    for name, member in value.items():
        member_shape = members.get(name)
        if member_shape is not None:
            if member is not None:
                typed[name] = _typed(member, member_shape, depth)
            elif member_shape.get("nullable"):  # (an attribute value None is NULL, present: A3)
                typed[name] = None
    return typed


_TYPE_PASS = {
    "String": _as_string, "Integer": _as_number, "Long": _as_number, "Double": _as_number,
    "Boolean": _as_boolean, "Blob": _as_blob, "Value": lambda value, shape: value,
}
_CONTAINER_PASS = {"List": _as_list, "Map": _as_map, "Structure": _as_structure}
# INF: two shape levels per level of an attribute value on the wire ({"M": {name: ...}}), and a
# request's own levels: past this, the value is nested deeper than ``limits.MAX_VALUE_DEPTH``.
MAX_SHAPE_DEPTH = 2 * limits.MAX_VALUE_DEPTH + 8


# The Python types a JSON token becomes (a tuple is a list to a Python caller, as to boto3), and bytes
# (a Blob member in process).
_JSON_KINDS = (dict, list, tuple, str, int, float, bool, Decimal, bytes)


def _typed(value, shape, depth):
    if value is None:
        return None
    kind = shape["type"]
    if kind != "Value" and not isinstance(value, _JSON_KINDS):  # (a Value is the engine's own already)
        raise TypeError(f"Unsupported type {type(value).__name__!r} for value {value!r}")  # (a library caller's)
    container = _CONTAINER_PASS.get(kind)
    if container is None:
        return _TYPE_PASS[kind](value, shape)
    if depth >= MAX_SHAPE_DEPTH:
        raise ValidationException(NESTING)
    return container(value, shape, depth + 1)


def check_types(request, shape: dict) -> dict:
    """Phase 2: JSON types of ``request`` against a Structure shape.

    Raises SerializationException with DynamoDB's text; returns a normalised
    copy (unknown/null members dropped, boolean strings coerced, decimals in
    integral members truncated).
    """
    if not isinstance(request, dict):
        # INF: a body that is not an object is a SerializationException without
        # a message, like a body that is not JSON (§1.1).
        raise SerializationException()
    return _as_structure(request, shape)
