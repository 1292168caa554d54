"""Engine values ⇄ DynamoDB's wire JSON (``{"S": "x"}``, ``{"N": "1"}``, …), item-api §2.4.

``from_wire`` checks what only the wire can get wrong (JSON types, one type
tag, base64, number text, empty sets); the rest of a value's rules are the
engine's.
"""

from __future__ import annotations

import base64
import json
from decimal import Decimal

from .errors import SerializationException, ValidationException
from .limits import MAX_NESTING_DEPTH, NUMBER_MAX_DIGITS
from .types import check_depth, checked_text, number_text, parse_number, type_of

def _wire_string(value, what="String"):
    if type(value) is str:
        return checked_text(value)
    if isinstance(value, bool):
        raise SerializationException(f"TRUE_VALUE cannot be converted to {what}" if value
                                     else f"FALSE_VALUE cannot be converted to {what}")
    if isinstance(value, int):
        raise SerializationException(f"NUMBER_VALUE cannot be converted to {what}")
    if isinstance(value, float):
        raise SerializationException(f"DECIMAL_VALUE cannot be converted to {what}")
    if isinstance(value, dict):
        raise SerializationException("Start of structure or map found where not expected")
    if isinstance(value, list):
        raise SerializationException("Unrecognized collection type class java.lang.String")
    if value is None:
        return None
    return value


def _wire_blob(text) -> bytes:
    return decode_base64(_wire_string(text))


def decode_base64(text: str) -> bytes:
    """The bytes of a B value's base64 text, which must be canonical: its length a multiple of 4, and the
    bits its last character carries past the data zero (``"+/+="`` is refused: recorded-2026-11 C3, as
    DynamoDB's decoder refuses it, in its words)."""
    if len(text) % 4:
        raise SerializationException(
            f"Base64 encoded length is expected a multiple of 4 bytes but found: {len(text)}")
    try:
        data = base64.b64decode(text, validate=True)
    except ValueError:
        data = None
    if data is None or base64.b64encode(data).decode("ascii") != text:
        raise SerializationException("Invalid last non-pad Base64 character dectected")  # (sic)
    return data


def _wire_list(value) -> list:
    if not isinstance(value, list):
        raise SerializationException("Unexpected field type")
    return value


def _wire_set(kind: str, members: list, convert) -> frozenset:
    members = _wire_list(members)
    if not members:
        name = {"SS": "An string set  may not be empty", "NS": "An number set  may not be empty",
                "BS": "Binary sets should not be empty"}[kind]
        raise ValidationException(f"One or more parameter values were invalid: {name}")
    values = [convert(member) for member in members]
    result = frozenset(values)
    if len(result) != len(values):
        raise DuplicateSetMembers(kind, members)
    return result


class DuplicateSetMembers(ValidationException):
    """A set given a member twice, in DynamoDB's words (recorded-2026-11 B5: an SS's members quoted and
    sorted by their bytes; an NS's sentence gained its prefix and a full stop), and in the older words
    BatchWriteItem still answers with (``older``)."""

    def __init__(self, kind: str, members: list):
        rendered = ", ".join(str(member) for member in members)
        self.older = {
            "SS": f"{_INVALID}Input collection [{rendered}] contains duplicates.",
            "BS": f"{_INVALID}Input collection [{rendered}]of type BS contains duplicates.",
            "NS": "Input collection contains duplicates",
        }[kind]
        quoted = ", ".join(json.dumps(member, ensure_ascii=False)
                           for member in sorted(members, key=lambda text: text.encode("utf-8", "surrogatepass")))
        super().__init__({
            "SS": f"{_INVALID}Input collection [{quoted}] contains duplicates.",
            "BS": self.older,  # (no newer recording)
            "NS": f"{_INVALID}Input collection contains duplicates.",
        }[kind])


_INVALID = "One or more parameter values were invalid: "


def _wire_null(flag) -> None:
    if flag is not True:
        raise ValidationException(
            "One or more parameter values were invalid: Null attribute value types must have the value of true")
    return None


def _wire_bool(flag) -> bool:
    if isinstance(flag, str) and flag.lower() in ("true", "false"):
        return flag.lower() == "true"
    if not isinstance(flag, bool):
        raise SerializationException("Unexpected value type in payload")
    return flag


def _wire_map(members, depth: int) -> dict:
    if not isinstance(members, dict):
        raise SerializationException("Unexpected value type in payload")
    check_depth(depth)
    return {checked_text(name): from_wire(member, depth + 1) for name, member in members.items()}


def _wire_nested_list(members, depth: int) -> list:
    members = _wire_list(members)
    check_depth(depth)
    return [from_wire(member, depth + 1) for member in members]


# type tag -> (wire content, depth) -> engine value
_FROM_WIRE = {
    "S": lambda v, depth: _wire_string(v),
    "N": lambda v, depth: parse_number(_wire_string(v)),
    "B": lambda v, depth: _wire_blob(v),
    "BOOL": lambda v, depth: _wire_bool(v),
    "NULL": lambda v, depth: _wire_null(v),
    "L": _wire_nested_list,
    "M": _wire_map,
    "SS": lambda v, depth: _wire_set("SS", v, _wire_string),
    "NS": lambda v, depth: _wire_set("NS", v, lambda m: parse_number(_wire_string(m))),
    "BS": lambda v, depth: _wire_set("BS", v, _wire_blob),
}


def wire_nesting_problem(attribute_value, depth: int = 1) -> bool:
    """``types.nesting_problem`` of a wire value, before any of it is converted: a map or list at depth 32
    or deeper (the value itself is depth 1)."""
    if type(attribute_value) is not dict:
        return False
    members, elements = attribute_value.get("M"), attribute_value.get("L")
    if type(members) is dict:
        children = list(members.values())
    elif type(elements) is list:
        children = elements
    else:
        return False
    return depth >= MAX_NESTING_DEPTH or any(wire_nesting_problem(child, depth + 1) for child in children)


def from_wire(attribute_value, depth: int = 1):
    """Convert a wire AttributeValue (``{"N": "1.5"}``) to an engine value.

    ``depth`` is the value's nesting level; containers deeper than
    ``limits.MAX_VALUE_DEPTH`` are DynamoDB's nesting error.
    """
    if type(attribute_value) is dict and len(attribute_value) == 1:  # the usual S or plain integer N
        for kind, content in attribute_value.items():  # (one member: the general path's result, sooner)
            if type(content) is str:
                if kind == "S":
                    return content if content.isascii() else checked_text(content)
                if (kind == "N" and content.isdigit() and content.isascii() and content[0] != "0"
                        and len(content) <= NUMBER_MAX_DIGITS):
                    return Decimal(content)  # (canonical: digits, no leading zero, within 38)
    if not isinstance(attribute_value, dict):
        raise SerializationException("Unexpected value type in payload")
    present = [key for key in attribute_value if key in _FROM_WIRE and attribute_value[key] is not None]
    if not present:
        raise ValidationException(
            "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")
    if len(present) > 1:
        raise ValidationException(
            "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
    kind = present[0]
    return _FROM_WIRE[kind](attribute_value[kind], depth)


def item_from_wire(item) -> dict:
    if not isinstance(item, dict):
        raise SerializationException("Unexpected value type in payload")
    return {(name if name.isascii() else checked_text(name)): from_wire(value) for name, value in item.items()}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def to_wire(value) -> dict:
    """Convert an engine value to a wire AttributeValue."""
    kind = type(value)
    if kind is str:
        return {"S": value}
    if kind is Decimal:
        return {"N": number_text(value)}
    if kind is bool:
        return {"BOOL": value}
    if value is None:
        return {"NULL": True}
    if kind is bytes:
        return {"B": _b64(value)}
    if kind is dict:
        return {"M": {name: to_wire(member) for name, member in value.items()}}
    if kind is list:
        return {"L": [to_wire(member) for member in value]}
    tag = type_of(value)
    if tag == "SS":
        return {"SS": sorted(value)}
    if tag == "NS":
        return {"NS": [number_text(n) for n in sorted(value)]}
    return {"BS": [_b64(b) for b in sorted(value)]}


def item_to_wire(item: dict) -> dict:
    return {name: to_wire(value) for name, value in item.items()}
