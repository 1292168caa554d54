"""What crosses the boundary with a remote DynamoDB, converted once: attribute values and errors.

botocore hands binary values over as ``bytes`` (it does the base64 itself),
where the engine's wire form (``partiql.engine.wire_values``) carries base64
text: ``to_botocore`` / ``from_botocore`` bridge the two, so values are
checked by the same code as every other wire value. ``error_from`` turns a
botocore ``ClientError`` into the DynamoDB exception of the same name
(``partiql.engine.errors``), message and members included, so a remote
error reads as a local one; ``unreachable`` words a network failure in one line.
"""

from __future__ import annotations

import base64
from urllib.parse import urlparse

from partiql.engine import errors
from partiql.engine.wire_values import from_wire, to_wire


def _blobs(value, convert):
    """``value`` (a wire attribute value) with its B / BS members passed through ``convert``."""
    (tag, member), = value.items()
    if tag == "B":
        return {"B": convert(member)}
    if tag == "BS":
        return {"BS": [convert(m) for m in member]}
    if tag == "M":
        return {"M": {name: _blobs(v, convert) for name, v in member.items()}}
    if tag == "L":
        return {"L": [_blobs(v, convert) for v in member]}
    return value


def to_botocore(value) -> dict:
    """An engine value as botocore's attribute value (binary as bytes)."""
    return _blobs(to_wire(value), base64.b64decode)


def from_botocore(value: dict):
    """botocore's attribute value as an engine value (checked as any wire value)."""
    return from_wire(_blobs(value, lambda data: base64.b64encode(data).decode("ascii")))


def item_from_botocore(item: dict) -> dict:
    return {name: from_botocore(value) for name, value in item.items()}


_CLASSES: dict = {}
_REASONS = {reason: code for code, reason in errors.REASON_CODES.items()}


def error_class(code: str) -> type:
    """The exception class DynamoDB names ``code`` (a batch's or a cancellation's code too: ``DuplicateItem``
    is DuplicateItemException); one is made for a name the engine does not know."""
    code = _REASONS.get(code, code)
    found = errors.error_class(code)
    if found is not errors.DynamoDBError or code == "DynamoDBError":
        return found
    if code not in _CLASSES:
        _CLASSES[code] = type(code, (errors.DynamoDBError,), {})
    return _CLASSES[code]


def error_of(code: str, message: str, item: dict | None = None) -> errors.DynamoDBError:
    """An exception of class ``code`` with ``message`` (and a failed condition's ALL_OLD ``item``),
    whatever its constructor takes."""
    cls = error_class(code)
    error = cls.__new__(cls)
    errors.DynamoDBError.__init__(error, message)
    if item is not None:
        error.item = item
    return error


def error_from(client_error) -> errors.DynamoDBError:
    """The DynamoDB exception a botocore ``ClientError`` reports."""
    body = client_error.response.get("Error", {})
    code, message = body.get("Code", "InternalServerError"), body.get("Message", "")
    if not code.isidentifier():  # an HTTP status (a server that answered a page, not DynamoDB's JSON)
        code, message = "InternalServerError", f"HTTP {code} from the endpoint"
    cls = error_class(code)
    if cls is errors.TransactionCanceledException:
        reasons = [errors.CancellationReason(r.get("Code", "None"), r.get("Message"),
                                             item_from_botocore(r["Item"]) if "Item" in r else None)
                   for r in client_error.response.get("CancellationReasons", [])]
        error = cls(reasons)
        error.message = message or error.message
        return error
    if issubclass(cls, errors._Throttled):
        reasons = client_error.response.get("ThrottlingReasons") or client_error.response.get("throttlingReasons")
        return cls(message, [(r.get("reason"), r.get("resource")) for r in reasons or ()])
    item = client_error.response.get("Item")  # a failed condition's ALL_OLD
    return error_of(code, message, None if item is None else item_from_botocore(item))


def unreachable(where: str, endpoint_url: str | None, error: Exception) -> str:
    """``cannot reach http://127.0.0.1:8766 (connection refused): is partiql serve still running?``"""
    text = f"{error} {getattr(error, 'kwargs', {}).get('error', '')}".lower()  # (botocore keeps the cause)
    cause = next((cause for words, cause in _CAUSES if any(word in text for word in words)), "no answer")
    hint = "is partiql serve still running?" if loopback(endpoint_url) else "check the network and the endpoint"
    return f"cannot reach {where} ({cause}): {hint}"


_CAUSES = ((("refused",), "connection refused"), (("timed out", "timeout"), "timed out"),
           (("reset", "closed", "aborted"), "connection reset"))


def loopback(endpoint_url: str | None) -> bool:
    """Whether ``endpoint_url`` is on this machine (``partiql serve``, DynamoDB Local)."""
    host = urlparse(endpoint_url or "").hostname or ""
    return host in ("localhost", "::1") or host.startswith("127.")


def refused_at_once(client, endpoint_url: str | None):
    """``client``, which no longer retries a refused connection to a loopback endpoint: nothing listens there,
    and botocore's five attempts with backoff kept the shell silent ~15 s before saying so. Throttles and
    dropped connections are still retried."""
    if loopback(endpoint_url):
        client.meta.events.register_first(f"needs-retry.{client.meta.service_model.endpoint_prefix}",
                                          _refused_is_final)
    return client


def _refused_is_final(caught_exception=None, **_):
    from botocore.exceptions import EndpointConnectionError
    if isinstance(caught_exception, EndpointConnectionError):
        raise caught_exception  # (a handler's exception ends the retries: botocore has no "do not retry" answer)
