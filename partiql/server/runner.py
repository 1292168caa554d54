"""Serving a database over HTTP: uvicorn + httptools (+ uvloop), one worker, the bare ``App``.

``Server(connection, host, port)`` binds its socket when created (port 0:
the OS picks one, ``server.port`` tells which). ``run()`` serves in the
calling (main) thread until SIGINT/SIGTERM, then drains the open
connections, stops the TTL sweep and closes the database. ``start()`` /
``stop()`` serve from a background thread, for tests and embedding::

    with Server(partiql.connect(), port=0) as server:
        boto3.client("dynamodb", endpoint_url=server.url, ...)

uvicorn, httptools and uvloop are imported here only, when a server runs:
``import partiql`` and ``partiql -e`` never load them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import signal
import socket
import threading

from .asgi import App
from .handler import Handler
from .protocol import REQUEST_SECONDS, protocol_class
from .sigv4 import ShapeChecker, Verifier
from .ttl import DEFAULT_INTERVAL, Sweeper

log = logging.getLogger("partiql.serve")
BACKLOG = 1024
DRAIN_SECONDS = 5.0  # how long a stopping server waits for open requests before closing their connections


class Server:
    """One database served on one socket."""

    OPEN_BIND_WARNING = ("warning: listening on {host}, not a loopback address: anyone who can reach it "
                         "can read and write every table (use --credentials to require signed requests)")

    def __init__(self, connection, host: str = "127.0.0.1", port: int = 8000, *,
                 credentials: tuple[str, str] | None = None, unsigned: bool = False,
                 ttl_interval: float = DEFAULT_INTERVAL, drain: float = DRAIN_SECONDS,
                 request_seconds: float = REQUEST_SECONDS):
        self.connection = connection
        self.socket = _bind(host, port)
        self.host, self.port = host, self.socket.getsockname()[1]
        # (a signature's shape is checked unless ``unsigned``; with credentials, the signature itself)
        verifier = Verifier(*credentials) if credentials else None if unsigned else ShapeChecker()
        self.handler = Handler(connection, verifier=verifier, address=f"{_url_host(host)}:{self.port}",
                               file_writes=credentials is not None or not self.open_bind)
        self.app = App(self.handler, region=connection.engine.region)
        self.sweeper = Sweeper(connection.engine, ttl_interval)
        self.drain = drain
        self.request_seconds = request_seconds  # (a request not whole that long after its first byte: 408)
        self._uvicorn = None
        self._loop = None
        self._thread = None
        self._started = threading.Event()

    @property
    def url(self) -> str:
        """``http://HOST:PORT``: the endpoint URL clients use."""
        return f"http://{_url_host(self.host)}:{self.port}"

    @property
    def local_url(self) -> str:
        """The URL a client on this machine uses (a wildcard address is reached on loopback)."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else _url_host(self.host)
        return f"http://{host}:{self.port}"

    @property
    def open_bind(self) -> bool:
        """Whether the address is reachable beyond this machine (not loopback)."""
        try:
            return not ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return self.host != "localhost"

    # ------------------------------------------------------------- serving
    async def serve(self) -> None:
        """Serve until ``should_exit``; then drain connections and stop the sweep."""
        import uvicorn  # noqa: PLC0415 - the server stack loads only when serving

        # (a stuck client cannot hold shutdown: the drain is bounded, and a second signal ends it at once)
        # (uvicorn's own bound, a backstop: ``_exit`` closes what is left when the drain is over)
        config = uvicorn.Config(self.app, http=protocol_class(self.request_seconds), loop="none", lifespan="off", proxy_headers=False,
                                log_level="warning", access_log=False, timeout_graceful_shutdown=self.drain + 2)
        self._loop = asyncio.get_running_loop()
        self._uvicorn = _uvicorn_server(config)
        self.sweeper.start()
        storage = self.connection.engine.storage
        storage.announce(self.local_url)  # a later `partiql FILE` connects through this server
        try:
            await self._uvicorn.serve(sockets=[self.socket])
        finally:
            self._close_connections()
            storage.announce(None)
            self.sweeper.stop()
            self.socket.close()

    def run(self, ready=None) -> None:
        """Serve in this thread until SIGINT or SIGTERM; the database is closed on the way out.

        ``ready()`` is called once the signals are caught (announce the server then).
        """
        try:
            with asyncio.Runner(loop_factory=_loop_factory()) as runner:
                runner.run(self._serve_with_signals(ready))
        finally:
            self.connection.close()

    async def _serve_with_signals(self, ready) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self._exit)
        if ready is not None:
            ready()
        await self.serve()

    def _exit(self) -> None:
        """The first signal drains (``drain`` seconds at most); a second one stops at once."""
        if self._uvicorn is None:
            return
        if self._uvicorn.should_exit:
            self._uvicorn.force_exit = True
            self._loop.call_soon_threadsafe(self._close_connections)
            return
        self._uvicorn.should_exit = True
        self._loop.call_soon_threadsafe(self._loop.call_later, self.drain, self._close_connections)

    def _close_connections(self) -> None:
        """Close what the drain left open (requests a stuck client never finished)."""
        if self._uvicorn is None:
            return
        left = list(self._uvicorn.server_state.connections)
        for connection in left:
            connection.transport.close()
        if left:
            log.warning("closed %d connection(s) whose requests were not done after the %g s drain", len(left),
                        self.drain)

    def start(self) -> "Server":
        """Serve from a daemon thread; returns once requests are being accepted."""
        self._thread = threading.Thread(target=self._thread_main, name=f"partiql-serve:{self.port}", daemon=True)
        self._thread.start()
        self._started.wait()
        return self

    def _thread_main(self) -> None:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(self._serve_and_signal())

    async def _serve_and_signal(self) -> None:
        asyncio.get_running_loop().call_soon(self._started.set)
        await self.serve()

    def stop(self) -> None:
        """Stop a ``start()``ed server: drain, then return (the database stays open); again: nothing."""
        if self._thread is None:
            return
        self._exit()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


def _uvicorn_server(config):
    """A uvicorn.Server without its signal capture.

    why: uvicorn re-raises a captured signal after shutting down, which kills
    the process before the database is closed; ``run`` installs its own handlers.
    """
    import uvicorn  # noqa: PLC0415

    class _Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):
            yield

    return _Server(config)


def _bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket (the backlog open before the address is announced)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _loop_factory():
    """uvloop's event loop where it is installed (it has no Windows wheels), else asyncio's."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:
        return None
    return uvloop.new_event_loop
