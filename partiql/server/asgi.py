"""The bare ASGI callable: HTTP in, ``Handler.handle`` in the middle, HTTP out (no framework).

It calls the engine synchronously in the event loop (the loop serialises
the engine: no executor, one worker), answers a body over 16 MB with 413
before reading it (item-api §1.1), and sends the status, headers and body
as one response. ``GET /`` is the health check DynamoDB answers; another
method, path or content type is dynalite's 404.
"""

from __future__ import annotations

from .handler import accepts_content_type

MAX_BODY_BYTES = 16 * 1024 * 1024
NOT_FOUND_BODY = b"<UnknownOperationException/>\n"


class App:
    """``App(handler, region)``: the ASGI 3 application of one server."""

    def __init__(self, handler, region: str = "us-east-1", max_body: int = MAX_BODY_BYTES):
        self.handler = handler
        self.max_body = max_body
        self.health = f"healthy: dynamodb.{region}.amazonaws.com ".encode()  # sic: trailing space

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return  # lifespan and websockets: nothing to do
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        if scope["method"] == "GET" and scope["path"] == "/":
            return await _send(send, 200, [("content-type", "text/plain")], self.health)
        if scope["method"] != "POST" or scope["path"] != "/" or not accepts_content_type(headers):
            return await _send(send, 404, [("content-type", "text/xml")], NOT_FOUND_BODY)
        body = await self._body(headers, receive)
        if body is None:
            return await _send(send, 413, [("connection", "close")], b"")
        status, out_headers, out_body = self.handler.handle(headers.get("x-amz-target"), headers, body)
        await _send(send, status, out_headers, out_body)

    async def _body(self, headers: dict, receive) -> bytes | None:
        """The request body, or None when it is (or would be) over the limit."""
        declared = headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > self.max_body:
            return None  # refused before a byte of it is read
        chunks, size = [], 0
        while True:
            message = await receive()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


async def _send(send, status: int, headers: list, body: bytes) -> None:
    if not any(name == "content-length" for name, _ in headers):
        headers = [*headers, ("content-length", str(len(body)))]
    await send({"type": "http.response.start", "status": status,
                "headers": [(name.encode(), value.encode()) for name, value in headers]})
    await send({"type": "http.response.body", "body": body})
