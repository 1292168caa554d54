"""Issue 38 point 1: the local-only tools on a remote connection. ``changes`` reads the DynamoDB Streams API (checked
against a plain model of what each write records, on ``partiql serve`` and on moto's server); ``layout``,
``metrics`` and ``backup`` read partiql serve's extension API and equal what the served database answers
in-process; any other DynamoDB says in one line that it has none, and real DynamoDB is never asked."""

from __future__ import annotations

import random
from contextlib import contextmanager
from decimal import Decimal

import pytest

pytest.importorskip("boto3")

import partiql  # noqa: E402
from partiql.remote import RemoteConnection  # noqa: E402
from partiql.remote.extension import NotPartiqlServe  # noqa: E402
from partiql.server import Server  # noqa: E402
from partiql.engine.errors import DynamoDBError  # noqa: E402

CREATE = {"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
          "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                   {"AttributeName": "sk", "AttributeType": "N"}],
          "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}}


def _writes(seed: int, count: int = 40):
    """(statement, parameters, the record it should make or None) over a few keys, from a dict model."""
    rng, model, out = random.Random(seed), {}, []
    for step in range(count):
        key = (rng.choice("abc"), Decimal(rng.randrange(3)))
        old = model.get(key)
        kind = rng.choice(("put", "update", "delete"))
        if kind == "put" or old is None and kind == "update":
            new = {"pk": key[0], "sk": key[1], "n": Decimal(step)}
            out.append(("UPSERT", new, ("MODIFY" if old else "INSERT", old, new)))
            model[key] = new
        elif kind == "update":
            new = dict(old, n=Decimal(step))
            out.append(("UPDATE", new, ("MODIFY", old, new)))
            model[key] = new
        else:
            out.append(("DELETE", {"pk": key[0], "sk": key[1]}, None if old is None else ("REMOVE", old, None)))
            model.pop(key, None)
    return out


def _run(db, table: str, write) -> None:
    kind, item = write[0], write[1]
    if kind == "UPSERT":
        db.client.put_item(TableName=table, Item=_wire(item))
    elif kind == "UPDATE":
        db.client.update_item(TableName=table, Key=_wire({"pk": item["pk"], "sk": item["sk"]}),
                              UpdateExpression="SET n = :n", ExpressionAttributeValues={":n": {"N": str(item["n"])}})
    else:
        db.client.delete_item(TableName=table, Key=_wire(item))


def _wire(item: dict) -> dict:
    return {name: {"N": str(value)} if isinstance(value, Decimal) else {"S": value} for name, value in item.items()}


def _seen(records: list) -> list:
    return [(r["eventName"], r["dynamodb"].get("OldImage"), r["dynamodb"].get("NewImage")) for r in records]


@pytest.mark.parametrize("seed", [1, 2])
def test_changes_of_a_remote_table_are_what_each_write_records(endpoint, seed):
    db = endpoint.connect()
    table = f"Changes{seed}"
    db.client.create_table(TableName=table, BillingMode="PAY_PER_REQUEST", **CREATE)
    writes = _writes(seed)
    half = len(writes) // 2
    try:
        for write in writes[:half]:
            _run(db, table, write)
        with db.changes(table, start="LATEST") as later, db.changes(table) as everything:
            for write in writes[half:]:
                _run(db, table, write)
            expected = [w[2] for w in writes if w[2] is not None]
            got = []
            while len(got) < len(expected) and everything.wait_for(5):
                got += everything.poll()
            assert _seen(got) == expected
            assert _seen(later.poll() or (later.wait_for(5) and later.poll())) == \
                [w[2] for w in writes[half:] if w[2] is not None]
            sequences = [int(r["dynamodb"]["SequenceNumber"]) for r in got]
            assert sequences == sorted(sequences) and len(set(sequences)) == len(sequences)
            middle = got[len(got) // 2]["dynamodb"]["SequenceNumber"]
            with db.changes(table, start=middle) as since:
                assert _seen(since.poll() or (since.wait_for(5) and since.poll())) == expected[len(got) // 2:]
    finally:
        db.client.delete_table(TableName=table)
        db.close()


def test_changes_follow_a_split_into_the_children(served):
    db = served.connect()
    db.client.create_table(TableName="Splits", ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                           **CREATE)
    try:
        with db.changes("Splits") as feed:
            for n in range(20):
                db.client.put_item(TableName="Splits", Item=_wire({"pk": f"k{n}", "sk": Decimal(n)}))
            first = feed.poll()
            db.client.update_table(TableName="Splits", ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                                             "WriteCapacityUnits": 1500})
            for n in range(20, 40):
                db.client.put_item(TableName="Splits", Item=_wire({"pk": f"k{n}", "sk": Decimal(n)}))
            rest = []
            while len(first) + len(rest) < 40 and feed.wait_for(5):
                rest += feed.poll()
        assert len(feed.known) == 3  # the parent and its two children
        assert [r["dynamodb"]["Keys"]["pk"] for r in first + rest] == [f"k{n}" for n in range(20)] + sorted(
            (f"k{n}" for n in range(20, 40)), key=lambda pk: [int(r["dynamodb"]["SequenceNumber"])
                                                             for r in rest if r["dynamodb"]["Keys"]["pk"] == pk])
    finally:
        db.client.delete_table(TableName="Splits")
        db.close()


@contextmanager
def _plain_table(endpoint, name: str):
    """A connection to ``endpoint`` with a new table ``name`` without a stream; both gone after."""
    db = endpoint.connect()
    db.client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=CREATE["KeySchema"],
                           AttributeDefinitions=CREATE["AttributeDefinitions"])
    try:
        yield db
    finally:
        db.client.delete_table(TableName=name)
        db.close()


def test_a_table_without_a_stream_is_refused_in_the_local_words(endpoint):
    with _plain_table(endpoint, "NoStream") as db, \
            pytest.raises(DynamoDBError, match="Table NoStream has no stream enabled"):
        db.changes("NoStream")


@pytest.fixture
def served_db(tmp_path):
    db = partiql.connect(tmp_path / "shop.db", throughput="report")
    db.engine.create_table(TableName="Orders", BillingMode="PAY_PER_REQUEST", **CREATE)
    for n in range(30):
        db.execute("INSERT INTO Orders VALUE {'pk': ?, 'sk': ?}", [f"u{n % 4}", n])
    server = Server(db, port=0).start()
    yield db, tmp_path
    server.stop()
    db.close()


def test_a_served_file_answers_layout_metrics_and_backup_as_the_database_itself(served_db, monkeypatch):
    db, folder = served_db
    remote = partiql.connect(folder / "shop.db")
    try:
        assert isinstance(remote, RemoteConnection) and remote.served_file == str(folder / "shop.db")
        assert remote.layout("Orders") == db.layout("Orders")
        assert remote.layout("Orders")["partitions"] and remote.key_spread("Orders")[None][:2] == (4, 30)
        assert remote.metrics("Orders", last=10) == db.metrics("Orders", last=10)
        from partiql.shell.explain import render_description
        from partiql.shell.heat import render
        assert render_description(remote.describe("Orders"), remote.layout("Orders")) == \
            render_description(db.describe("Orders"), db.layout("Orders"))  # (.describe, either way)
        assert render(remote.metrics("Orders", last=40)) == render(db.metrics("Orders", last=40))  # (.heat)
        monkeypatch.chdir(folder)  # (a relative name is the shell's, made absolute before it is sent)
        remote.backup("copy.db")
        with partiql.connect(folder / "copy.db") as copy:
            assert len(copy.execute("SELECT * FROM Orders WHERE pk = 'u1'").items) == 8
        with pytest.raises(DynamoDBError, match="cannot back up to .*copy.db: the file exists"):
            remote.backup("copy.db")
        with pytest.raises(DynamoDBError, match="Orders has no global secondary index 'nope'"):
            remote.metrics("Orders", "nope")
        with pytest.raises(DynamoDBError, match="Requested resource not found"):
            remote.layout("Missing")
    finally:
        remote.close()


def test_any_other_dynamodb_says_it_keeps_none_of_it(moto):
    with _plain_table(moto, "Elsewhere") as db:
        assert db.layout("Elsewhere") == {"partitions": [], "key_spread": {}, "advice": []}
        with pytest.raises(NotPartiqlServe, match=f"^{moto.url} keeps no partition metrics"):
            db.metrics("Elsewhere")
        with pytest.raises(NotPartiqlServe, match=f"^{moto.url} has no database file to copy"):
            db.backup("x.db")
        assert db.extension.available is False  # (asked once)


def test_real_dynamodb_is_never_asked(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "x")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "y")
    db = RemoteConnection(region="eu-west-1")
    sent = []
    db.extension._session = lambda: sent.append(1)  # (would send)
    with pytest.raises(NotPartiqlServe, match="^dynamodb eu-west-1 keeps no partition metrics"):
        db.metrics("T")
    assert db.layout("T")["partitions"] == [] and sent == []
    db.close()


@pytest.mark.parametrize("secret, answered", [("secret", True), ("wrong", False)])
def test_the_extension_is_signed_as_dynamodb_requests_are(monkeypatch, secret, answered):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "id")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret)
    with partiql.connect() as db:
        db.engine.create_table(TableName="Signed", BillingMode="PAY_PER_REQUEST", KeySchema=CREATE["KeySchema"],
                               AttributeDefinitions=CREATE["AttributeDefinitions"])
        with Server(db, port=0, credentials=("id", "secret")) as server:
            remote = RemoteConnection(endpoint_url=server.url, region="us-east-1")
            try:
                if answered:
                    assert remote.metrics("Signed", last=3).table == "Signed"
                else:
                    with pytest.raises(DynamoDBError, match="The request signature we calculated does not match"):
                        remote.metrics("Signed", last=3)
            finally:
                remote.close()


def test_a_refused_connection_to_a_loopback_endpoint_is_tried_once():
    """Nothing listens: botocore's five attempts with backoff only delayed the one-line answer (~15 s)."""
    import socket

    from partiql.errors import EndpointUnreachable
    with socket.socket() as probe:  # (a port nobody listens on)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = RemoteConnection(endpoint_url=f"http://127.0.0.1:{port}", region="us-east-1")
    sent = []
    for client in (db.client, db.streams_client()):
        client.meta.events.register("before-send", lambda **kwargs: sent.append(1))
    with pytest.raises(EndpointUnreachable, match=f"cannot reach http://127.0.0.1:{port} \\(connection refused\\)"):
        db.table_names()
    with pytest.raises(EndpointUnreachable):
        db.call("list_streams", None, via=db.streams_client())
    assert len(sent) == 2  # (one attempt each)
    db.close()
