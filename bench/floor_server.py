"""Zero-work reference servers for bench/server.py: what one GetItem round trip costs before any database work.

    python bench/floor_server.py stack    # partiql serve's own ASGI app and uvicorn set-up, its
                                          # handler replaced by a fixed GetItem answer
    python bench/floor_server.py client   # httptools + uvloop and nothing else: what the benchmark's
                                          # client and this machine's loopback allow at all

Each prints ``listening on http://127.0.0.1:PORT`` and serves until terminated.
"""

from __future__ import annotations

import asyncio
import socket
import sys

import _support  # noqa: F401 - keeps bench/ off sys.path (must precede the partiql import)

ANSWER = b'{"Item":{"pk":{"S":"p0"},"sk":{"N":"1"},"v":{"S":"' + b"x" * 40 + b'"}}}'


def stack() -> None:
    import partiql
    from partiql.server.handler import JSON_1_0, answer
    from partiql.server.runner import Server

    server = Server(partiql.connect(), "127.0.0.1", 0)
    headers = [(name, str(len(ANSWER)) if name == "content-length" else value)
               for name, value in answer(200, None, JSON_1_0)[1]]
    server.handler.handle = lambda target, request_headers, body: (200, headers, ANSWER)
    server.run(ready=lambda: print(f"listening on {server.url}", flush=True))


def client() -> None:
    import httptools
    import uvloop

    response = (b"HTTP/1.1 200 OK\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: "
                + str(len(ANSWER)).encode() + b"\r\n\r\n" + ANSWER)

    class Protocol(asyncio.Protocol):
        def connection_made(self, transport):
            self.transport, self.parser = transport, httptools.HttpRequestParser(self)
            transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def data_received(self, data):
            self.parser.feed_data(data)

        def on_message_complete(self):
            self.transport.write(response)

    async def serve():
        server = await asyncio.get_running_loop().create_server(Protocol, "127.0.0.1", 0)
        print(f"listening on http://127.0.0.1:{server.sockets[0].getsockname()[1]}", flush=True)
        await server.serve_forever()

    uvloop.run(serve())


if __name__ == "__main__":
    {"stack": stack, "client": client}[sys.argv[1]]()
