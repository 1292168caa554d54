"""A request's size as the JSON body a client sends: DynamoDB limits transactions and
PartiQL batches by it.

DynamoDB checks a transaction's request payload against 4 MB (item-api §5.15:
the request's size, not the size of the items it touches) and a
BatchExecuteStatement's against 16 MB (spec §7). An in-process
request has no body, so this measures the one an SDK would send: the request
as compact wire JSON, in UTF-8.
"""

from __future__ import annotations

import json

from .. import limits
from ..errors import ValidationException
from ..wire_values import to_wire
from .convert import convert

TRANSACTION_TOO_LARGE = "Transaction payload size cannot exceed 4MB. Payload Size: {}"
BATCH_STATEMENT_TOO_LARGE = "BatchExecuteStatement payload size cannot exceed 16MB. Payload Size: {}"

# why: a request's wire JSON is at most a few times its Python repr (type tags
# around short values, several UTF-8 bytes for a character repr shows as one),
# so below limit / _REPR_FACTOR characters of repr no request reaches the limit
# and the exact measure, which converts the whole request, is skipped.
_REPR_FACTOR = 20


def payload_bytes(request: dict) -> int:
    """Bytes of ``request`` (engine values) as compact wire JSON."""
    text = json.dumps(convert(request, to_wire), separators=(",", ":"), ensure_ascii=False)
    return len(text.encode("utf-8", "surrogatepass"))


def oversized(request: dict, limit: int) -> int | None:
    """The request's payload size when it exceeds ``limit`` bytes, else None."""
    if len(repr(request)) * _REPR_FACTOR <= limit:
        return None
    size = payload_bytes(request)
    return size if size > limit else None


def check_transaction(request: dict) -> None:
    """A transaction's request (TransactWriteItems, ExecuteTransaction) is at most 4 MB."""
    _check(request, limits.TRANSACT_MAX_PAYLOAD, TRANSACTION_TOO_LARGE)


def check_batch_statement(request: dict) -> None:
    """A BatchExecuteStatement request is at most 16 MB."""
    _check(request, limits.BATCH_STATEMENT_MAX_PAYLOAD, BATCH_STATEMENT_TOO_LARGE)


def _check(request: dict, limit: int, message: str) -> None:
    size = oversized(request, limit)
    if size is not None:
        raise ValidationException(message.format(size))
