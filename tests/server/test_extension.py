"""partiql-ddb's extension API on the handler (``partiql.extension``): its own target prefix, never DynamoDB's;
every malformed request a clear ValidationException; CreateBackupFile refused where anyone could call it."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

import partiql
from partiql import extension
from partiql.server.handler import Handler

from .conftest import HASH_RANGE

EXT = extension.PREFIX + "."
JSON_HEADERS = {"content-type": "application/x-amz-json-1.0"}


@pytest.fixture
def db(tmp_path):
    db = partiql.connect(tmp_path / "db.db")
    db.engine.create_table(TableName="Tab", **HASH_RANGE)
    yield db
    db.close()


def call(handler, target: str, request) -> tuple:
    status, _, out = handler.handle(target, JSON_HEADERS, json.dumps(request).encode())
    return status, json.loads(out)


@pytest.mark.parametrize("operation, request_, message", [
    ("DescribeTableLayout", {}, "TableName must be a non-empty string, not None"),
    ("DescribeTableLayout", {"TableName": 5}, "TableName must be a non-empty string, not 5"),
    ("DescribeTableLayout", [], "TableName must be a non-empty string, not None"),
    ("DescribeThroughputMetrics", {"TableName": "Tab", "Seconds": 0},
     "Seconds must be a whole number from 1 to 3600, not 0"),
    ("DescribeThroughputMetrics", {"TableName": "Tab", "Seconds": 3601},
     "Seconds must be a whole number from 1 to 3600, not 3601"),
    ("DescribeThroughputMetrics", {"TableName": "Tab", "Seconds": 1.5},
     "Seconds must be a whole number from 1 to 3600, not 1.5"),
    ("DescribeThroughputMetrics", {"TableName": "Tab", "Seconds": True},
     "Seconds must be a whole number from 1 to 3600, not True"),
    ("DescribeThroughputMetrics", {"TableName": "Tab", "IndexName": ""},
     "IndexName must be a non-empty string, not ''"),
    ("DescribeThroughputMetrics", {"TableName": "Tab", "IndexName": "byX"}, "Tab has no global secondary index 'byX'"),
    ("CreateBackupFile", {"Path": "relative.db"},
     "Path must be absolute (the server's working directory is not yours): relative.db"),
    ("CreateBackupFile", {"Path": "/no/such/dir/x.db"}, "cannot back up to /no/such/dir/x.db: no such directory"),
])
def test_a_malformed_request_is_a_clear_validation_error(db, operation, request_, message):
    status, body = call(Handler(db), EXT + operation, request_)
    assert (status, body) == (400, {"__type": "com.amazon.coral.validate#ValidationException",
                                    "message": message})


def test_an_unknown_table_is_dynamodbs_resource_not_found(db):
    status, body = call(Handler(db), EXT + "DescribeTableLayout", {"TableName": "Nope"})
    assert status == 400 and body["__type"].endswith("#ResourceNotFoundException")


@pytest.mark.parametrize("target", [EXT + "DescribeTable", EXT + "Nothing", "DynamoDB_20120810.DescribeTableLayout",
                                    "DynamoDBStreams_20120810.CreateBackupFile"])
def test_the_operations_live_under_their_own_prefix_only(db, target):
    status, body = call(Handler(db), target, {"TableName": "Tab"})
    assert (status, body) == (400, {"__type": "com.amazon.coral.service#UnknownOperationException"})


def test_a_backup_is_written_where_asked_and_refused_where_anyone_could_ask(db, tmp_path):
    dest = tmp_path / "copy.db"
    status, body = call(Handler(db, file_writes=False), EXT + "CreateBackupFile", {"Path": str(dest)})
    assert status == 400 and "this server listens beyond loopback without --credentials" in body["message"]
    assert not dest.exists()
    status, body = call(Handler(db), EXT + "CreateBackupFile", {"Path": str(dest)})
    assert (status, body) == (200, {"Path": str(dest), "SizeBytes": dest.stat().st_size})
    assert call(Handler(db), EXT + "CreateBackupFile", {"Path": str(dest)})[1]["message"] == \
        f"cannot back up to {dest}: the file exists (choose a new name)"


def test_an_in_memory_server_has_no_file_to_back_up(tmp_path):
    with partiql.connect() as memory:
        status, body = call(Handler(memory), EXT + "CreateBackupFile", {"Path": str(tmp_path / "x.db")})
    assert (status, body["message"]) == (400, "an in-memory database has no file to back up: connect to a database file, "
                                         "or export its tables")


@pytest.mark.parametrize("host, credentials, allowed", [
    ("127.0.0.1", None, True), ("0.0.0.0", None, False), ("0.0.0.0", ("id", "secret"), True)])
def test_the_server_decides_file_writes_by_its_address_and_credentials(db, host, credentials, allowed):
    from partiql.server import Server
    server = Server(db, host, 0, credentials=credentials)
    try:
        assert server.handler.file_writes is allowed
    finally:
        server.socket.close()


def test_metrics_and_spread_travel_exactly(db):
    """Keys of every type and hash ranges past 2^63 come back as they left (a JSON number would round them)."""
    for pk in ("text", "x" * 3):
        db.engine.put_item(TableName="Tab", Item={"pk": pk, "sk": 1})
    found = db.metrics("Tab", last=5)
    assert extension.metrics_from_wire(json.loads(json.dumps(extension.metrics_to_wire(found)))) == found
    assert any(p.hi > 2 ** 63 for p in found.partitions)
    spread = {None: (2, 2, "text", 1), "byB": (1, 1, b"\x00\xff", 1),
              "multi": (1, 1, {"a": "x", "b": Decimal(2)}, 1), "empty": (0, 0, None, 0)}
    assert extension.spread_from_wire(json.loads(json.dumps(extension.spread_to_wire(spread)))) == spread
    key = (("t", Decimal(1)), 3.0)
    found.top_consumed = [key, (b"\x01", 1.0)]
    assert extension.metrics_from_wire(json.loads(json.dumps(extension.metrics_to_wire(found)))).top_consumed == \
        found.top_consumed
