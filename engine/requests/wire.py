"""The item operations over wire JSON (``{"N": "1"}``), in DynamoDB's phase order.

``wire_call(engine, operation, request)`` takes a request as DynamoDB's JSON
protocol carries it and returns the response in the same form. It checks
JSON types and the constraint envelope against the wire shapes (phases 2
and 4), then converts attribute values — whose well-formedness is phase 5
(item-api §2.4) — and runs the operation on engine values. A wire server
maps HTTP onto this; the tests use it to run the spec's cases verbatim.
"""

from __future__ import annotations

import json

from ..errors import ValidationException
from ..wire_values import DuplicateSetMembers, from_wire, to_wire
from . import OPERATIONS, shapes
from .common import converted_at_once, prefixed
from .convert import convert

START_KEY_PREFIX = "The provided starting key is invalid: "
# ExclusiveStartKey value errors carry the prefix except these (item-api §2.4, DL query.js).
_UNPREFIXED_START = ("Input collection", "One or more parameter values were invalid: Input collection",
                     "An number set", "One or more parameter values were invalid: An number set",
                     "The parameter cannot be converted", "Attempting to store more than",
                     "Number overflow", "Number underflow")


# Operations carrying attribute values that check their own members, in their own order, on engine values:
# SearchVectors (vector-search.md §5.5), whose errors are a strict deserialiser's, not the envelope's.
SELF_CHECKED = ("SearchVectors",)


def wire_call(engine, operation: str, request) -> dict:
    """Run ``operation`` on a wire-JSON request; the wire-JSON response."""
    if not carries_values(operation):
        return _without_library_members(OPERATIONS.call(engine, operation, request))
    if operation in SELF_CHECKED:
        request = _engine_values(operation, dict(request)) if isinstance(request, dict) else request
    else:
        request = shapes.check_envelope(operation, request, shapes.WIRE_SHAPES)
        request = _SPELLING.get(operation, _as_is)(request)
        request = _engine_values(operation, request)
    with converted_at_once(), shapes.enveloped(operation):
        response = OPERATIONS.call(engine, operation, request)
    return convert(response, to_wire)


# Members of a table description that are ours, for the library and the shell, and not DynamoDB's: never
# on the wire (recorded-2026-11 A12: ``Partitions``' hash ranges reach 2^64, which no JavaScript number or
# int64 holds, and DynamoDB has no such member).
LIBRARY_ONLY = ("Partitions",)


def _without_library_members(response):
    for member in ("Table", "TableDescription"):
        description = response.get(member) if isinstance(response, dict) else None
        if isinstance(description, dict) and any(name in description for name in LIBRARY_ONLY):
            response = dict(response, **{member: {name: value for name, value in description.items()
                                                  if name not in LIBRARY_ONLY}})
    return response


def carries_values(operation: str) -> bool:
    """Whether ``operation``'s requests and responses hold attribute values (the item operations).

    why: the others must not be walked by ``convert``: a tag's ``Value`` is
    text, not the legacy AttributeValueUpdate's attribute value.
    """
    return operation in shapes.WIRE_SHAPES or operation in SELF_CHECKED


def error_to_wire(error) -> dict:
    """A DynamoDB error's JSON body, its attribute values in wire JSON."""
    return convert(error.body(), to_wire)


def _engine_values(operation: str, request: dict) -> dict:
    start = request.pop("ExclusiveStartKey", None)
    try:
        converted = convert(request, from_wire)
    except DuplicateSetMembers as error:
        # why: BatchWriteItem keeps the older words (recorded-2026-11 B5)
        raise prefixed(operation, ValidationException(error.older if operation == "BatchWriteItem"
                                                      else error.message), values=True) from None
    except ValidationException as error:
        raise prefixed(operation, error, values=True) from None
    if start is not None:
        converted["ExclusiveStartKey"] = _start_key(start)
    return converted


def _start_key(start: dict) -> dict:
    try:
        return {name: from_wire(value) for name, value in start.items()}
    except ValidationException as error:
        if error.message.startswith(_UNPREFIXED_START):
            raise
        raise ValidationException(START_KEY_PREFIX + error.message) from None


def _as_is(request: dict) -> dict:
    return request


def _batch_get_spelling(request: dict) -> dict:
    """BatchGetItem: identically spelt keys are duplicates, differently spelt equal numbers are not.

    why: AWS rejects byte-identical keys (attribute order aside) but reads
    ``1000`` and ``1e3`` once (ALT test_batch_get_item_duplicate_number_key);
    the engine sees normalised values, so the spelling is judged here. A
    repeated spelling is kept, for the engine to report as a duplicate where
    DynamoDB does (after the tables are looked up).
    """
    for entry in request["RequestItems"].values():
        seen, spellings, kept = set(), set(), []
        for key in entry["Keys"]:
            spelling = json.dumps(key, sort_keys=True)
            try:
                identity = json.dumps({name: to_wire(from_wire(value)) for name, value in key.items()},
                                      sort_keys=True)
            except ValidationException:
                identity = spelling  # reported with the other value errors
            if spelling in spellings or identity not in seen:
                kept.append(key)
            spellings.add(spelling)
            seen.add(identity)
        entry["Keys"] = kept
    return request


_SPELLING = {"BatchGetItem": _batch_get_spelling}
