"""The bare ASGI callable: HTTP in, ``Handler.handle`` in the middle, HTTP out (no framework).

It calls the engine synchronously in the event loop (the loop serialises
the engine: no executor, one worker), answers a body over 16 MB with 413
before reading it (item-api §1.1), and sends the status, headers and body
as one response (with realism on, after awaiting what the request takes:
``engine.realism.waits``). ``GET /`` is the health check DynamoDB answers; another
method, path or content type is dynalite's 404; a POST without a body is a
SerializationException, as DynamoDB answers it. Every answer carries a
request id and the CRC-32 of its body (recorded-2026-11 C3).

CORS, as DynamoDB answers it (C1), so that the AWS SDK for JavaScript in a
browser can use the server: a preflight (``OPTIONS`` with an ``Origin``) is
answered 200 with the requested method and headers allowed for two days, and
every answer to a request with an ``Origin`` allows any origin and exposes
the request id and the CRC.
"""

from __future__ import annotations

import asyncio
import zlib

from partiql.engine.errors import SerializationException
from partiql.engine.requests.wire import error_to_wire

from .handler import JSON_1_0, accepts_content_type, answer, request_id
from .sigv4 import PRESIGNED

MAX_BODY_BYTES = 16 * 1024 * 1024
NOT_FOUND_BODY = b"<UnknownOperationException/>\n"


class App:
    """``App(handler, region)``: the ASGI 3 application of one server."""

    def __init__(self, handler, region: str = "us-east-1", max_body: int = MAX_BODY_BYTES):
        self.handler = handler
        self.waits = None  # realism's waits (engine.realism.waits) when the engine has realism on
        if getattr(handler.connection.engine, "realism", None) is not None:
            from partiql.engine.realism import waits
            self.waits = waits
        self.max_body = max_body
        self.health = f"healthy: dynamodb.{region}.amazonaws.com ".encode()  # sic: trailing space

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return  # lifespan and websockets: nothing to do
        headers = _headers(scope["headers"])
        query = scope.get("query_string", b"").decode("latin-1")
        if "X-Amz-Signature=" in query:  # (authentication presigned in the query string: see ``sigv4``)
            headers[PRESIGNED] = query
        cors = _cors(headers)
        method, path = scope["method"], scope["path"]
        if method == "OPTIONS" and "origin" in headers:
            return await _send(send, 200, _preflight(headers), b"", cors)
        if method == "GET" and path == "/":
            return await _send(send, 200, [("content-type", "text/plain")], self.health, cors)
        if method == "POST" and path == "/" and _without_body(headers):
            return await _send(send, *answer(400, error_to_wire(SerializationException()), JSON_1_0), cors)
        if method != "POST" or path != "/" or not accepts_content_type(headers):
            return await _send(send, 404, [("content-type", "text/xml")], NOT_FOUND_BODY, cors)
        body = await self._body(headers, receive)
        if body is GONE:
            return  # the client went away (or the server closed it) before its request was whole: nothing runs
        if body is None:
            return await _send(send, 413, [("connection", "close")], b"", cors)
        if self.waits is None:
            status, out_headers, out_body = self.handler.handle(headers.get("x-amz-target"), headers, body)
        else:  # (realism: what the request takes — a transaction's time, a latency — is awaited, not slept)
            self.waits.defer()
            status, out_headers, out_body = self.handler.handle(headers.get("x-amz-target"), headers, body)
            delay = self.waits.take()
            if delay:
                await asyncio.sleep(delay)
        await _send(send, status, out_headers, out_body, cors)

    async def _body(self, headers: dict, receive):
        """The request body; None when it is (or would be) over the limit; ``GONE`` when the connection
        closed first."""
        declared = headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > self.max_body:
            return None  # refused before a byte of it is read
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return GONE
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


GONE = object()  # ``App._body``'s answer when the connection closed before the body was whole


# What a browser may read of an answer, and how long it may keep a preflight's answer (two days: DynamoDB's).
EXPOSED = "x-amzn-RequestId,x-amz-crc32"
PREFLIGHT_MAX_AGE = "172800"


def _headers(raw) -> dict:
    """The request's headers by lower-case name; a repeated one's values joined with ", " (RFC 9110 §5.3), so
    that two Authorization or X-Amz-Target headers are refused as what they then are, not one taken at
    random."""
    headers = {}
    for name, value in raw:
        key, text = name.decode("latin-1").lower(), value.decode("latin-1")
        headers[key] = f"{headers[key]}, {text}" if key in headers else text
    return headers


def _cors(headers: dict) -> list:
    """The CORS headers of every answer to a request with an ``Origin``."""
    if "origin" not in headers:
        return []
    return [("access-control-allow-origin", "*"), ("access-control-expose-headers", EXPOSED)]


def _preflight(headers: dict) -> list:
    """A preflight's answer: the method and headers the browser asks for, allowed (echoed, as DynamoDB does)."""
    allowed = [("access-control-max-age", PREFLIGHT_MAX_AGE)]
    for asked, allow in (("access-control-request-method", "access-control-allow-methods"),
                         ("access-control-request-headers", "access-control-allow-headers")):
        if asked in headers:
            allowed.append((allow, headers[asked]))
    return allowed


def _without_body(headers: dict) -> bool:
    """A POST that declares no body at all (no length, or 0, and not chunked)."""
    return headers.get("content-length", "0") == "0" and "transfer-encoding" not in headers


async def _send(send, status: int, headers: list, body: bytes, cors: list = ()) -> None:
    names = {name for name, _ in headers}
    extra = [] if "content-length" in names else [("content-length", str(len(body)))]
    if "x-amzn-requestid" not in names:  # (the handler's answers have both)
        extra += [("x-amzn-requestid", request_id()), ("x-amz-crc32", str(zlib.crc32(body)))]
    await send({"type": "http.response.start", "status": status,
                "headers": [(name.encode(), value.encode()) for name, value in [*headers, *extra, *cors]]})
    await send({"type": "http.response.body", "body": body})
