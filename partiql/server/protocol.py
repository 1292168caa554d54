"""uvicorn's httptools protocol, sending each response in one write, and guarded against stuck clients.

why: uvicorn writes a response's head and its body in two ``transport.write``
calls, two sends; on a socket without TCP_NODELAY the second waits for the
client's delayed ACK (~40 ms a request), and even with it every response
costs an extra system call and packet. ``OneSend`` holds a response head
until its body follows in the same loop iteration and writes both at once
(a head with no body, as for HEAD, is flushed at the end of the iteration).

why the guard (issue 38): httptools keeps a header section until it ends, and uvicorn waits for a request
for ever: an unterminated 100 MB header section grew the server by as much, and a client that trickles
(or stops halfway) held a connection open for good. A header section past ``MAX_HEAD_BYTES`` is answered
431 and the connection closed; a request not whole ``REQUEST_SECONDS`` after its first byte (or a new
connection silent that long) is answered 408 and closed. The figures are ours: DynamoDB publishes none
(its front end's limits are of the same order).
"""

from __future__ import annotations

import uuid

_HEAD_END = b"\r\n\r\n"
MAX_HEAD_BYTES = 64 * 1024
REQUEST_SECONDS = 30.0
_REASONS = {408: "Request Timeout", 431: "Request Header Fields Too Large"}


class OneSend:
    """A transport wrapper that joins a held response head to the next write."""

    __slots__ = ("_transport", "_loop", "_held", "_flush_handle")

    def __init__(self, transport, loop):
        self._transport = transport
        self._loop = loop
        self._held = None
        self._flush_handle = None

    def write(self, data: bytes) -> None:
        if self._held is not None:
            data = self._held + data
            self._held = None
            self._flush_handle.cancel()
        elif data.endswith(_HEAD_END) and data.startswith(b"HTTP/"):  # a response head: await its body
            self._held = data
            self._flush_handle = self._loop.call_soon(self.flush)
            return
        self._transport.write(data)

    def flush(self) -> None:
        if self._held is not None:
            held, self._held = self._held, None
            self._transport.write(held)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def __getattr__(self, name):
        return getattr(self._transport, name)


def refusal(status: int) -> bytes:
    """A whole response that closes the connection: 408 or 431, with a request id, no body."""
    return (f"HTTP/1.1 {status} {_REASONS[status]}\r\nx-amzn-RequestId: {uuid.uuid4()}\r\n"
            "content-length: 0\r\nconnection: close\r\n\r\n").encode()


def protocol_class(request_seconds: float = REQUEST_SECONDS, max_head_bytes: int = MAX_HEAD_BYTES):
    """uvicorn's HttpToolsProtocol over ``OneSend``, guarded (uvicorn is imported only here, when serving)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class GuardedProtocol(HttpToolsProtocol):
        def connection_made(self, transport) -> None:
            super().connection_made(OneSend(transport, self.loop))
            self._head_bytes, self._in_head, self._deadline = 0, True, None
            self._arm()

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self.loop.call_later(request_seconds, self._refuse, 408)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._in_head and self.parser is not None:
                self._head_bytes += len(data)
                if self._head_bytes > max_head_bytes:
                    self._refuse(431)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._head_bytes, self._in_head = 0, True
            self._arm()

        def on_headers_complete(self) -> None:
            self._in_head = False
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            super().on_message_complete()

        def connection_lost(self, exc) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            super().connection_lost(exc)

        def _refuse(self, status: int) -> None:
            """Answer ``status`` and close, unless a response is under way (it is the answer)."""
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(refusal(status))
            if self.cycle is not None:
                self.cycle.disconnected = True
                self.cycle.message_event.set()
            self.transport.close()

    return GuardedProtocol
