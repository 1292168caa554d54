"""uvicorn's httptools protocol, sending each response in one write.

why: uvicorn writes a response's head and its body in two ``transport.write``
calls, two sends; on a socket without TCP_NODELAY the second waits for the
client's delayed ACK (~40 ms a request), and even with it every response
costs an extra system call and packet. ``OneSend`` holds a response head
until its body follows in the same loop iteration and writes both at once
(a head with no body, as for HEAD, is flushed at the end of the iteration).
"""

from __future__ import annotations

_HEAD_END = b"\r\n\r\n"


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


def protocol_class():
    """uvicorn's HttpToolsProtocol over ``OneSend`` (uvicorn is imported only here, when serving)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class OneSendProtocol(HttpToolsProtocol):
        def connection_made(self, transport) -> None:
            super().connection_made(OneSend(transport, self.loop))

    return OneSendProtocol
