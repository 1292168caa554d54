"""DynamoDB's exceptions, named and worded as DynamoDB names and words them.

Every error the engine raises is one of these classes. Each carries the wire
``__type`` namespace, the HTTP status and the JSON key its message travels
under, so the boundaries (the boto3-shaped client, a wire server) convert
them once without a lookup table of their own.
"""

from __future__ import annotations

SERVICE_NS = "com.amazonaws.dynamodb.v20120810"
VALIDATE_NS = "com.amazon.coral.validate"
CORAL_NS = "com.amazon.coral.service"


class DynamoDBError(Exception):
    """Base of every DynamoDB exception: ``code`` is DynamoDB's error name."""

    namespace = SERVICE_NS
    http_status = 400
    message_key = "message"
    # What a failed write still consumed (a false condition; spec §6.3), never
    # reported with the error itself, only in a batch's totals (§6.5).
    consumed = None

    def __init__(self, message: str = "", **extra):
        super().__init__(message)
        self.message = message
        self.extra = extra

    @property
    def code(self) -> str:
        return type(self).__name__

    @property
    def wire_type(self) -> str:
        return f"{self.namespace}#{self.code}"

    def body(self) -> dict:
        """The JSON error body DynamoDB sends (extra members included).

        Attribute values (``Item``) stay engine values: each boundary converts
        them once (``requests.wire.error_to_wire``), so this module depends on
        nothing.
        """
        body = {"__type": self.wire_type}
        if self.message or self.message_key == "message":
            body[self.message_key] = self.message
        body.update(self.members())
        return body

    def members(self) -> dict:
        """Members the error carries beside its message (``Item``, ``CancellationReasons``)."""
        return {}

    def __str__(self) -> str:
        return f"{self.code}: {self.message}" if self.message else self.code


class ValidationException(DynamoDBError):
    namespace = VALIDATE_NS


class SerializationException(DynamoDBError):
    namespace = CORAL_NS
    message_key = "Message"


class ResourceNotFoundException(DynamoDBError):
    pass


class ResourceInUseException(DynamoDBError):
    pass


class LimitExceededException(DynamoDBError):
    pass


class ConditionalCheckFailedException(DynamoDBError):
    """A false condition; ``item`` is the current item when ALL_OLD was asked for."""

    def __init__(self, message: str = "The conditional request failed", item: dict | None = None):
        super().__init__(message)
        self.item = item

    def members(self) -> dict:
        return {} if self.item is None else {"Item": self.item}


class DuplicateItemException(DynamoDBError):
    def __init__(self, message: str = "Duplicate primary key exists in table"):
        super().__init__(message)


class CancellationReason:
    """One entry of ``CancellationReasons``: a code, a message, maybe an item."""

    __slots__ = ("code", "message", "item")

    def __init__(self, code: str = "None", message: str | None = None, item: dict | None = None):
        self.code = code
        self.message = message
        self.item = item

    def __repr__(self) -> str:
        return f"CancellationReason({self.code!r}, {self.message!r})"

    def as_dict(self) -> dict:
        """The reason as DynamoDB's JSON carries it (the item in engine values)."""
        out = {"Code": self.code}
        if self.message is not None:
            out["Message"] = self.message
        if self.item is not None:
            out["Item"] = self.item
        return out

    def __eq__(self, other) -> bool:
        return isinstance(other, CancellationReason) and (self.code, self.message, self.item) == (
            other.code, other.message, other.item)


class TransactionCanceledException(DynamoDBError):
    message_key = "Message"

    def __init__(self, reasons: list[CancellationReason]):
        codes = ", ".join(r.code for r in reasons)
        super().__init__(
            f"Transaction cancelled, please refer cancellation reasons for specific reasons [{codes}]")
        self.reasons = reasons

    def members(self) -> dict:
        return {"CancellationReasons": [reason.as_dict() for reason in self.reasons]}


class TransactionConflictException(DynamoDBError):
    pass


class TransactionInProgressException(DynamoDBError):
    message_key = "Message"


class IdempotentParameterMismatchException(DynamoDBError):
    message_key = "Message"

    def __init__(self, message: str = ("Specified idempotent token was used with different "
                                       "request parameters within the idempotency window")):
        super().__init__(message)


class ItemCollectionSizeLimitExceededException(DynamoDBError):
    pass


class _Throttled(DynamoDBError):
    """A throttle (spec throughput.md §5): ``throttling_reasons`` lists (reason, resource ARN) pairs."""

    reasons_key = "ThrottlingReasons"

    def __init__(self, message: str = "", reasons: list | tuple = ()):
        super().__init__(message)
        self.throttling_reasons = [{"reason": reason, "resource": resource} for reason, resource in reasons]

    def members(self) -> dict:
        return {self.reasons_key: self.throttling_reasons} if self.throttling_reasons else {}


class ProvisionedThroughputExceededException(_Throttled):
    pass


class ThrottlingException(_Throttled):
    # why: DynamoDB's model spells this exception's member in lower camel case (spec §5)
    reasons_key = "throttlingReasons"


class RequestLimitExceeded(_Throttled):
    pass


# The throttles, as a many-item request catches them (spec throughput.md §5).
THROTTLES = (ProvisionedThroughputExceededException, ThrottlingException, RequestLimitExceeded)


class TrimmedDataAccessException(DynamoDBError):
    """A stream position older than the records kept (24 hours on the engine's clock)."""


class ExpiredIteratorException(DynamoDBError):
    """A shard iterator older than 15 minutes on the engine's clock (DynamoDB Streams)."""


class TableNotFoundException(DynamoDBError):
    """The backup operations' missing table (``Table not found: <name>``)."""


class AccessDeniedException(DynamoDBError):
    namespace = CORAL_NS
    message_key = "Message"


# The wire front door's errors (item-api §1.1): a bad target carries no message
# at all, hence the capitalised key (an empty ``Message`` is omitted).
class UnknownOperationException(DynamoDBError):
    namespace = CORAL_NS
    message_key = "Message"


class MissingAuthenticationTokenException(DynamoDBError):
    namespace = CORAL_NS


class IncompleteSignatureException(DynamoDBError):
    namespace = CORAL_NS


class InvalidSignatureException(DynamoDBError):
    namespace = CORAL_NS


class UnrecognizedClientException(DynamoDBError):
    namespace = CORAL_NS


class InternalServerError(DynamoDBError):
    http_status = 500


# How an exception is named in batch responses and cancellation reasons (BatchStatementError.Code,
# CancellationReason.Code): not always the exception name without "Exception".
REASON_CODES = {
    "ValidationException": "ValidationError", "ResourceNotFoundException": "ResourceNotFound",
    "ConditionalCheckFailedException": "ConditionalCheckFailed", "DuplicateItemException": "DuplicateItem",
    "ProvisionedThroughputExceededException": "ProvisionedThroughputExceeded",
    "TransactionConflictException": "TransactionConflict",
    "ItemCollectionSizeLimitExceededException": "ItemCollectionSizeLimitExceeded",
    "RequestLimitExceeded": "RequestLimitExceeded", "ThrottlingException": "ThrottlingError",
    "InternalServerError": "InternalServerError",
}


def reason_code(error: DynamoDBError) -> str:
    """The code naming ``error`` in a batch response or a cancellation reason."""
    return REASON_CODES.get(error.code, error.code)


def _registry() -> dict[str, type[DynamoDBError]]:
    found, todo = {}, [DynamoDBError]
    while todo:
        cls = todo.pop()
        found[cls.__name__] = cls
        todo.extend(cls.__subclasses__())
    return found


def error_class(code: str) -> type[DynamoDBError]:
    """The exception class for DynamoDB's error name ``code``."""
    return _registry().get(code, DynamoDBError)
