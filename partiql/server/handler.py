"""The wire protocol without sockets: ``handle(target, headers, body) -> (status, headers, body)``.

DynamoDB's JSON 1.0 protocol (item-api §1): the ``X-Amz-Target`` header
``<API version>.<Operation>`` picks the operation, the body is its JSON
request, the answer is JSON with ``x-amzn-RequestId`` and ``x-amz-crc32``
(botocore retries on a mismatch). Errors are converted here, once:
DynamoDB's exceptions become their ``{"__type", "message"}`` body through
``error_to_wire`` (so any member an error carries — ``Item``,
``CancellationReasons``, ``ThrottlingReasons`` — passes through); a
database file that cannot take a write (``StorageError``: a full disk, a
file deleted while served) is a 500 InternalServerError whose message names
the cause; any other exception is a bug, answered as a 500 InternalServerError.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import zlib

from partiql.engine.errors import (DynamoDBError, InternalServerError, SerializationException,
                                   UnknownOperationException)
from partiql.engine.requests.wire import error_to_wire
from partiql.engine.storage.errors import StorageError

from .targets import DESCRIBE_ENDPOINTS, TARGETS

JSON_1_0 = "application/x-amz-json-1.0"
JSON_1_1 = "application/x-amz-json-1.1"
# why: dynalite also takes plain JSON; AWS takes both JSON protocol versions.
CONTENT_TYPES = (JSON_1_0, JSON_1_1, "application/json")
ENDPOINT_CACHE_MINUTES = 1440  # item-api §5.20

log = logging.getLogger("partiql.server")


class Handler:
    """Answers DynamoDB wire requests against one open database (a ``Connection``).

    ``verifier`` (``sigv4.ShapeChecker`` or ``sigv4.Verifier``) checks signatures when given; ``address``
    is what DescribeEndpoints reports (``host:port``); ``file_writes`` whether the extension's
    CreateBackupFile may write a file (not for a server anyone on the network may call).
    """

    def __init__(self, connection, *, verifier=None, address: str = "localhost:8000", file_writes: bool = True):
        self.connection = connection
        self.verifier = verifier
        self.address = address
        self.file_writes = file_writes

    def handle(self, target: str | None, headers: dict, body: bytes) -> tuple[int, list, bytes]:
        """One ``POST /``: ``headers`` maps lower-case names to text; the response's parts."""
        content_type = _content_type(headers)
        try:
            response = self._dispatch(target, headers, body)
        except DynamoDBError as error:
            return answer(error.http_status, error_to_wire(error), content_type)
        except StorageError as error:  # (the environment, not a bug: no traceback, the cause in the answer)
            log.warning("%s answered 500: %s", target, error, extra={"subject": str(error)})
            return answer(500, error_to_wire(InternalServerError(str(error))), content_type)
        except Exception:  # noqa: BLE001 - the one place a bug becomes a 500 instead of a dead server
            log.exception("internal error answering %s", target)
            error = InternalServerError("Internal server error")
            return answer(500, error_to_wire(error), content_type)
        return answer(200, response, content_type)

    def _dispatch(self, target, headers: dict, body: bytes):
        prefix, _, operation = (target or "").partition(".")
        api = TARGETS.get(prefix)
        if api is None or (operation not in api.operations and operation != DESCRIBE_ENDPOINTS):
            raise UnknownOperationException()
        if self.verifier is not None:
            self.verifier.verify(headers, body)
        request = _decode(body)
        if operation == DESCRIBE_ENDPOINTS:
            return {"Endpoints": [{"Address": self.address, "CachePeriodInMinutes": ENDPOINT_CACHE_MINUTES}]}
        return api.call(self, operation, request)


def answer(status: int, response, content_type: str) -> tuple[int, list, bytes]:
    """(status, headers, body) of an answer: ``response`` as JSON, with a request id and the CRC-32 of the body.
    An operation with an empty output answers an empty body, not {} (item-api §1.2): ``response`` None."""
    body = b"" if response is None else _encode(response).encode()
    headers = [("content-type", content_type), ("content-length", str(len(body))),
               ("x-amzn-requestid", request_id()), ("x-amz-crc32", str(zlib.crc32(body)))]
    return status, headers, body


# One encoder for every answer (json.dumps builds one per call when given separators); an answer is a tree of
# dicts, lists and text the handler just built, never circular.
_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def _content_type(headers: dict) -> str:
    """The response's content type: the JSON version the request used (1.0 by default)."""
    return JSON_1_1 if headers.get("content-type", "").startswith(JSON_1_1) else JSON_1_0


def accepts_content_type(headers: dict) -> bool:
    """A JSON-protocol content type (others are answered 404, item-api §1.1)."""
    value = headers.get("content-type", "").split(";")[0].strip().lower()
    return value in CONTENT_TYPES


def _decode(body: bytes):
    """The JSON request; malformed JSON (or no body) is a SerializationException without a message."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise SerializationException() from None


_REQUEST_PREFIX = os.urandom(20).hex().upper()  # 40 characters, fresh each process
_REQUEST_NUMBERS = itertools.count()


def request_id() -> str:
    """A request id shaped like AWS's: 52 upper-case hexadecimal characters, unique per process."""
    return f"{_REQUEST_PREFIX}{next(_REQUEST_NUMBERS) & 0xFFFFFFFFFFFF:012X}"
