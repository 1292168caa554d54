"""Pieces every DynamoDB-shaped operation shares: expressions, keys, capacity.

Requests arrive as dicts with DynamoDB's member names and engine values.
Problems are reported in DynamoDB's order (item-api §2.1): request shape,
then expression parameters and expressions (before the table is looked up),
then the table, then schema-dependent checks, then execution.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from operator import attrgetter

from ..errors import ValidationException
from ..expressions.model import paths_in
from ..expressions.projection import project
from ..expressions.parser import (ExpressionContext, parse_condition, parse_key_condition,
                                  parse_projection, parse_update)
from ..partition import shaper as partition_shaper
from .shapes import attributes_to_get

ENVELOPE_PREFIX = "1 validation error detected: "

PREFIXED_OPERATIONS = frozenset({"PutItem", "UpdateItem", "DeleteItem"})
# why (recorded-2026-11 B4, DynamoDB 2026-09/10): in PutItem, UpdateItem and DeleteItem every error of the
# request's expressions, their parameters and Expected carries the envelope (item-api §2.3 listed the cases
# seen before), and so do the errors of a value's form — a number DynamoDB cannot read, an empty or
# duplicated set — but not of its range (A8: Number overflow is bare) nor AttributeUpdates' (A3); a
# duplicated NS is answered without it, in words of its own (B5).
_ENVELOPED_VALUE_ERRORS = ("The parameter cannot be converted to a numeric value",
                           "One or more parameter values were invalid: An string set  may not be empty",
                           "One or more parameter values were invalid: An number set  may not be empty",
                           "One or more parameter values were invalid: Binary sets should not be empty",
                           "One or more parameter values were invalid: Input collection [")
# why (B4): there the parameter is named alone, without the "<members> is null" tail other operations give
_WRITE_WORDS = {"ExpressionAttributeValues can only be specified when using expressions: ":
                "ExpressionAttributeValues can only be specified when using expressions"}


def prefixed(operation: str, error: ValidationException, values: bool = False) -> ValidationException:
    """An error of a request's expressions (or, ``values``, of its attribute values) as ``operation`` words
    it (the envelope, B4)."""
    message = error.message
    if (operation not in PREFIXED_OPERATIONS or message.startswith(ENVELOPE_PREFIX)
            or (values and not message.startswith(_ENVELOPED_VALUE_ERRORS))):
        return error
    for start, words in _WRITE_WORDS.items():
        if message.startswith(start):
            message = words
    return ValidationException(ENVELOPE_PREFIX + message)


KEY_PATH = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: {}: {}"


_EXPRESSION_TEXTS = ("KeyConditionExpression", "FilterExpression", "ConditionExpression", "UpdateExpression",
                     "ProjectionExpression")


def check_key_paths(spec, request: dict, *parsed) -> None:
    """No expression reaches inside a key attribute (item-api §3.9): ``pk.x`` and ``pk[0]``
    are refused for the table's keys (``Key:``), then for its indexes' (``IndexKey:``).

    ``parsed`` are the parsed expressions of ``request`` (conditions, update, projection
    paths), checked once the table is known. INF: with several such paths, a table key is
    reported before an index key, and each in schema order.
    """
    if not any(parsed):  # the common request: no expression at all
        return
    for member in _EXPRESSION_TEXTS:  # why: a nested path needs "." or "[" in its text; most have none
        text = request.get(member)
        if text and ("." in text or "[" in text):
            break
    else:
        return
    nested = [path.name for path in paths_in(*parsed) if len(path.elements) > 1]
    for kind, key in (("Key", spec.key), *(("IndexKey", index.key) for index in spec.indexes)):
        for name in key.names:
            if name in nested:
                raise ValidationException(KEY_PATH.format(kind, name))


class Expressions:
    """The parsed expressions of one request, sharing one name/value context."""

    def __init__(self, request: dict, members: tuple[str, ...]):
        names = request.get("ExpressionAttributeNames")
        values = request.get("ExpressionAttributeValues")
        present = [member for member in members if request.get(member) is not None]
        self._check_parameters(request, names, values, members, present)
        self.context = ExpressionContext(names, values)
        self.context.check_keys()  # empty maps, then malformed placeholder keys (§3.5 steps 4-5)

    @staticmethod
    def _check_parameters(request, names, values, members, present) -> None:
        if names is not None and not present:
            raise ValidationException("ExpressionAttributeNames can only be specified when using expressions")
        value_members = [m for m in members if m not in ("ProjectionExpression",)]
        if values is not None and not any(request.get(m) is not None for m in value_members):
            nulls = " and ".join(value_members)
            verb = "are" if len(value_members) > 1 else "is"
            raise ValidationException(
                f"ExpressionAttributeValues can only be specified when using expressions: {nulls} {verb} null")

    def condition(self, text, param: str = "ConditionExpression"):
        return None if text is None else parse_condition(text, self.context, param)

    def key_condition(self, text):
        # Structural key-condition errors come after the unused-placeholder checks (§2.1).
        return None if text is None else parse_key_condition(text, self.context, defer=True)

    def update(self, text):
        return None if text is None else parse_update(text, self.context)

    def projection(self, text):
        return None if text is None else parse_projection(text, self.context)

    def finish(self) -> None:
        """Report names or values that no expression used."""
        self.context.check_unused()


_PROJECTION_MEMBERS = frozenset(("ProjectionExpression", "ExpressionAttributeNames",
                                 "ExpressionAttributeValues", "AttributesToGet"))


def projection_paths(request: dict):
    """The paths a read returns: ProjectionExpression, else legacy AttributesToGet, else None (all)."""
    if _PROJECTION_MEMBERS.isdisjoint(request):  # the common point read: nothing to parse
        return None
    expressions = Expressions(request, ("ProjectionExpression",))
    paths = expressions.projection(request.get("ProjectionExpression"))
    expressions.finish()
    return paths if paths is not None else attributes_to_get(request)


# why: a stored item dict is never changed once built (engine/partition.py ``Record``), so a caller
# that converts a response at once and keeps nothing of it (the wire layer: to wire JSON, which
# shares nothing) may take the stored items themselves instead of copies: a Query of 100 small
# items spends a tenth of its time over the wire copying them. Per thread and task (a ContextVar).
_CONVERTED_AT_ONCE: ContextVar[bool] = ContextVar("converted_at_once", default=False)
_STORED_ITEM = attrgetter("item")


@contextmanager
def converted_at_once():
    """Within the block, responses' whole items are the stored ones (read-only), not copies."""
    token = _CONVERTED_AT_ONCE.set(True)
    try:
        yield
    finally:
        _CONVERTED_AT_ONCE.reset(token)


def shaper(paths):
    """record -> a copy of its item for a response, projected to ``paths`` (None: whole); the
    stored item itself inside ``converted_at_once``."""
    if paths is None and _CONVERTED_AT_ONCE.get():
        return _STORED_ITEM
    return partition_shaper(project, paths)


def shaped(record, paths) -> dict:
    """One stored record's item for a response (see ``shaper``)."""
    return shaper(paths)(record)


def return_capacity(response: dict, consumed, request: dict) -> dict:
    """Add ConsumedCapacity in the shape ReturnConsumedCapacity asks for."""
    rendered = consumed.to_api(request.get("ReturnConsumedCapacity") or "NONE")
    if rendered is not None:
        response["ConsumedCapacity"] = rendered
    return response


def collection_metrics(collection) -> dict:
    """ItemCollectionMetrics of one item collection: (key attributes, bytes).

    INF: DynamoDB gives no formula for SizeEstimateRangeGB; the range is the
    whole gigabytes below the collection's size and the next one up.
    """
    key, size = collection
    lower = float(size // 2 ** 30)
    return {"ItemCollectionKey": dict(key), "SizeEstimateRangeGB": [lower, lower + 1.0]}


def return_collection_metrics(response: dict, collection) -> dict:
    """Single-item writes: ItemCollectionMetrics when asked for and the table has LSIs."""
    if collection is not None:
        response["ItemCollectionMetrics"] = collection_metrics(collection)
    return response


def return_capacities(response: dict, consumed: list, request: dict) -> dict:
    """ConsumedCapacity as a list, one entry per table (batches, transactions)."""
    mode = request.get("ReturnConsumedCapacity") or "NONE"
    rendered = [units.to_api(mode) for units in consumed]
    if mode in ("TOTAL", "INDEXES"):
        response["ConsumedCapacity"] = rendered
    return response


def table_name(request: dict) -> str:
    """The table a request names (a table ARN is accepted too)."""
    name = request.get("TableName")
    if isinstance(name, str) and name.startswith("arn:") and "/" in name:
        return name.rsplit("/", 1)[-1] if ":table/" in name else name
    return name
