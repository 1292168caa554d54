"""The fast acceptance predicate of a request shape (see ``acceptor``).

The envelope's two passes (``type_pass.check_types``, ``envelope.validate``)
interpret the shape data; this compiles a shape once into a predicate that
holds only for requests those passes would leave unchanged and accept.
"""

from __future__ import annotations

import functools
import math
import re

from .envelope import java_length
from .types import is_text


def acceptor(shape: dict):
    """A predicate, compiled once from a Structure ``shape``, that holds only for
    requests both passes would leave unchanged and find no fault in.

    why: nearly every request is well-formed, and interpreting the shape data
    for each one dominated the cost of a point operation. The predicate is
    conservative — any null, unknown member, coercible string or nested
    structure makes it False — and a False only means "run the two passes",
    which then normalise the request or word DynamoDB's error exactly.
    A present nested structure is always refused: the passes' deep copy is
    what keeps later steps from writing into the caller's dicts.
    """
    members = {name: _accept_member(member) for name, member in shape["members"].items()}
    required = frozenset(name for name, member in shape["members"].items() if member.get("required"))

    def accept(value) -> bool:
        if type(value) is not dict or not value.keys() >= required:
            return False
        for name, element in value.items():
            check = members.get(name)
            if check is None or element is None or not check(element):
                return False
        return True
    return accept


def _accept_member(shape: dict):
    return _ACCEPTORS[shape["type"]](shape)


def _refuse(value) -> bool:
    return False


def _length_bounds(shape: dict) -> tuple[int, float]:
    return shape.get("min_len", 0), shape.get("max_len", math.inf)


def _accept_string(shape: dict):
    regex = re.compile(shape["pattern"]) if "pattern" in shape else None
    enum = frozenset(shape["enum"]) if "enum" in shape else None
    low, high = _length_bounds(shape)

    def accept_text(value: str) -> bool:
        if (enum is not None and value not in enum) or (regex is not None and regex.fullmatch(value) is None):
            return False
        if value.isascii():
            length = len(value)
        elif is_text(value):
            length = java_length(value)
        else:
            return False  # the type pass words the lone surrogate
        return low <= length <= high
    if regex is not None:  # why cached: patterned strings are names (tables, indexes), few and repeated
        accept_text = functools.lru_cache(maxsize=1024)(accept_text)
    return lambda value: type(value) is str and accept_text(value)


def _accept_number(shape: dict):
    types = (int, float) if shape["type"] == "Double" else (int,)
    low, high = shape.get("min", -math.inf), shape.get("max", math.inf)
    # (an int is finite: isfinite would convert it to a float, which overflows past 1e308)
    return lambda value: (type(value) in types and (type(value) is int or math.isfinite(value))
                          and low <= value <= high)


def _accept_sized(kinds: tuple, elements):
    def compile_(shape: dict):
        low, high = _length_bounds(shape)
        check = elements(shape)

        def accept(value) -> bool:
            return type(value) in kinds and low <= len(value) <= high and check(value)
        return accept
    return compile_


def _list_elements(shape: dict):
    element = _accept_member(shape["member"])
    return lambda value: all(item is not None and element(item) for item in value)


def _map_entries(shape: dict):
    key, element = _accept_member(shape["key"]), _accept_member(shape["value"])
    return lambda value: all(key(name) and item is not None and element(item) for name, item in value.items())


MAX_VALUE_DEPTH = 32  # a deeper wire value goes to the passes (which word DynamoDB's nesting error)


def _accept_structure(shape: dict):
    """A wire attribute value (``{"S": "x"}``) the type pass would keep as it is; any other structure is
    refused (see ``acceptor``). why a value may pass: its well-formedness is a later phase, and the engine
    converts it into values of its own (``from_wire``): nothing later writes into the caller's dicts."""
    return _attribute_value if shape.get("name") == "AttributeValue" else _refuse


def _text(value) -> bool:
    return type(value) is str and is_text(value)


def _attribute_value(value, depth: int = 0) -> bool:
    """A wire attribute value of text, numbers as text, booleans, sets of them, maps and lists (binary goes
    to the type pass, which decodes its base64)."""
    if type(value) is not dict or depth > MAX_VALUE_DEPTH:
        return False
    for name, element in value.items():
        check = _VALUE_MEMBERS.get(name)
        if check is None or not check(element, depth):
            return False
    return True


_VALUE_MEMBERS = {
    "S": lambda element, depth: _text(element),
    "N": lambda element, depth: _text(element),
    "NULL": lambda element, depth: type(element) is bool,
    "BOOL": lambda element, depth: type(element) is bool,
    "SS": lambda element, depth: type(element) is list and all(_text(e) for e in element),
    "NS": lambda element, depth: type(element) is list and all(_text(e) for e in element),
    "M": lambda element, depth: type(element) is dict and all(
        _text(k) and _attribute_value(v, depth + 1) for k, v in element.items()),
    "L": lambda element, depth: type(element) is list and all(_attribute_value(e, depth + 1) for e in element),
}

_ACCEPTORS = {
    "String": _accept_string, "Integer": _accept_number, "Long": _accept_number, "Double": _accept_number,
    # why: the type pass coerces boolean strings; only true booleans pass unchanged
    "Boolean": lambda shape: lambda value: type(value) is bool,
    # why: in-process blobs are bytes; base64 text goes through the type pass
    "Blob": _accept_sized((bytes, bytearray), lambda shape: lambda value: True),
    "List": _accept_sized((list,), _list_elements),
    "Map": _accept_sized((dict,), _map_entries),
    "Structure": _accept_structure,
    "Value": lambda shape: lambda value: True,
}
