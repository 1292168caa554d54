"""Endpoints for the remote tests: ``partiql serve`` (with the server's own request log) and moto's server
(a second implementation of DynamoDB's API; its tests skip, saying why, when it cannot start)."""

from __future__ import annotations

import pytest

import partiql
from partiql.server import Server
from partiql.server.handler import Handler


class Endpoint:
    """A running endpoint: its URL, what it can do, and the operations it was sent (``sent``)."""

    def __init__(self, name: str, url: str, log: list, full: bool):
        self.name = name
        self.url = url
        self.log = log
        self.full = full  # False: moto, whose PartiQL covers plain INSERT / SELECT / DELETE only

    def connect(self, **options):
        db = partiql.connect(endpoint_url=self.url, region="us-east-1", **options)
        if not self.full:  # (moto keeps no log a test can read: count what this client sends)
            db.client.meta.events.register("before-send.dynamodb", self._record)
        return db

    def _record(self, request, **_):
        self.log.append(request.headers.get("X-Amz-Target", b"").decode().split(".")[-1])

    def sent(self, since: int = 0) -> list:
        return self.log[since:]


@pytest.fixture(scope="module")
def served():
    log: list = []
    original = Handler.handle

    def recording(self, target, headers, body):
        log.append((target or "").split(".")[-1])
        return original(self, target, headers, body)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Handler, "handle", recording)
        db = partiql.connect()
        with Server(db, port=0) as server:
            yield Endpoint("partiql serve", server.url, log, full=True)
        db.close()


@pytest.fixture(scope="module")
def moto():
    try:
        from moto.server import ThreadedMotoServer
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
    except Exception as error:  # noqa: BLE001 - any reason it cannot start is a reason to skip
        pytest.skip(f"moto's server cannot start here: {type(error).__name__}: {error}")
    host, port = server._server.server_address
    yield Endpoint("moto", f"http://{host}:{port}", [], full=False)
    server.stop()


@pytest.fixture(params=["served", "moto"])
def endpoint(request):
    return request.getfixturevalue(request.param)
