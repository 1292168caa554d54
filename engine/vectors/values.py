"""What a vector is (vector-search.md §4.1), what a write's vector and SearchSchema values must be (§4.2),
and the 32-bit float arithmetic of the index (§5.4 rules 4 and 8)."""

from __future__ import annotations

import struct
from array import array
from decimal import Decimal

from ..errors import ValidationException
from ..types import type_of
from . import messages as M

F32_MAX = 3.4028234663852886e38  # the largest 32-bit float: a score beyond it is reported as it (§5.4 rule 4)
_PACK = struct.Struct("<f")


_INFINITIES = (float("inf"), float("-inf"))


def f32_vector(values) -> array | None:
    """The list ``values`` as 32-bit floats; None when an element is not a number or is beyond the f32 range
    (a value too small for f32 becomes 0: model)."""
    for value in values:
        if type(value) is not Decimal:
            return None
    vector = array("f", map(float, values))
    # why the infinities: an array of "f" stores a float beyond the range as one (struct.pack would refuse it)
    if _INFINITIES[0] in vector or _INFINITIES[1] in vector:
        return None
    return vector


def f32_text(value: float) -> Decimal:
    """A stored float as the shortest decimal that names it at 32 bits (``1.0``, ``0.1``, ``1.6777216E+7``):
    what a result's vector holds (§5.4 rule 8)."""
    target = _PACK.pack(value)
    for digits in range(1, 10):
        text = f"{value:.{digits}g}"
        if _PACK.pack(float(text)) == target:
            return Decimal(text)
    return Decimal(repr(value))


def check_vector(index, value) -> None:
    """A write's value of ``index``'s vector attribute: a list of ``dimensions`` numbers within the f32
    range; the first problem, in DynamoDB's words (elements before the length: model)."""
    attribute, name = index.attribute, index.name
    if type(value) is not list:
        raise ValidationException(M.NOT_A_LIST.format(attribute=attribute, index=name))
    for position, element in enumerate(value):
        if type(element) is not Decimal:
            raise ValidationException(M.WRONG_ELEMENT.format(attribute=attribute, position=position,
                                                             actual=type_of(element), index=name))
        try:
            _PACK.pack(float(element))
        except OverflowError:
            raise ValidationException(M.OUT_OF_RANGE.format(attribute=attribute, position=position,
                                                            value=element, index=name)) from None
    if len(value) != index.dimensions:
        raise ValidationException(M.WRONG_SIZE.format(attribute=attribute, expected=index.dimensions,
                                                      actual=len(value), index=name))


def check_schema_value(index, name: str, expected: str, value, is_hash: bool, updating: bool = False) -> None:
    """A write's value of a SearchSchema attribute: the declared type; a HASH value not empty (§4.2; an
    UpdateExpression's empty value in the update's words)."""
    actual = type_of(value)
    if actual != expected:
        raise ValidationException(M.SCHEMA_TYPE.format(attribute=name, expected=expected, actual=actual,
                                                       index=index.name))
    if is_hash and type(value) in (str, bytes) and not value:
        kind = "string" if actual == "S" else "binary"
        if updating:
            raise ValidationException(M.UPDATE_EMPTY_HASH.format(kind=kind))
        raise ValidationException(M.SCHEMA_EMPTY.format(kind=kind, index=index.name, attribute=name))


def check_item(vectors: tuple, item: dict, updating: bool = False) -> None:
    """Every vector index's attributes an item holds, index by index in DescribeTable order, the vector first
    (§4.2 notes: model); ``updating``: the item an UpdateExpression made."""
    for index in vectors:
        if index.attribute in item:
            check_vector(index, item[index.attribute])
        if index.hash is not None and index.hash[0] in item:
            check_schema_value(index, *index.hash, item[index.hash[0]], True, updating)
        for name, expected in index.filters:
            if name in item:
                check_schema_value(index, name, expected, item[name], False)
