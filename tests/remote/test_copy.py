"""``partiql copy`` (issue #18 point 5): definitions (keys, indexes, billing, stream, TTL) and items between a
file, ``partiql serve`` and moto; a round trip file → server → file gives the same tables and items."""

from __future__ import annotations

import pytest

import partiql
from partiql.shell import cli

SETUP = [
    "CREATE TABLE Orders PRIMARY KEY (pk STRING HASH, sk NUMBER RANGE) BILLING MODE PROVISIONED (5 RCU, 7 WCU) "
    "GSI (ByState ON (st STRING HASH) PROJECTING INCLUDE (total) PROVISIONED (2 RCU, 3 WCU)) "
    "LSI (BySku ON (pk HASH, sku STRING RANGE) PROJECTING KEYS ONLY) STREAM NEW_AND_OLD_IMAGES",
    "CREATE TABLE Plain PRIMARY KEY (id BINARY HASH)",
]
SHAPE = ("KeySchema", "AttributeDefinitions", "BillingModeSummary", "StreamSpecification")


def shape(db, table: str) -> dict:
    found = db.describe(table)
    out = {member: found.get(member) for member in SHAPE}
    out["AttributeDefinitions"] = sorted(out["AttributeDefinitions"], key=lambda d: d["AttributeName"])
    out["BillingModeSummary"] = (out["BillingModeSummary"] or {}).get("BillingMode")
    out["throughput"] = {k: v for k, v in found["ProvisionedThroughput"].items() if k.endswith("Units")}
    for member in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        out[member] = [(i["IndexName"], i["KeySchema"], i["Projection"]) for i in found.get(member) or []]
    out["ttl"] = db.control("DescribeTimeToLive", {"TableName": table})["TimeToLiveDescription"]
    return out


def everything(db, table: str) -> list:
    db.scan_policy = "allow"
    return sorted((item for page in db.pages(f"SELECT * FROM {table}") for item in page.items), key=repr)


def test_a_round_trip_file_to_server_to_file_keeps_tables_and_items(tmp_path, served, capsys):
    source = tmp_path / "source.db"
    with partiql.connect(source) as db:
        for statement in SETUP:
            db.execute(statement)
        db.control("UpdateTimeToLive", {"TableName": "Orders",
                                        "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "exp"}})
        for n in range(60):
            db.execute("INSERT INTO Orders VALUE {'pk': ?, 'sk': ?, 'st': ?, 'sku': ?, 'total': ?, 'tags': ?}",
                       [f"p{n % 6}", n, f"s{n % 3}", f"k{n}", n * 10, {"a", f"t{n}"}])
            db.execute("INSERT INTO Plain VALUE {'id': ?, 'n': ?}", [bytes([n]), n])
    back = tmp_path / "back.db"
    assert cli.main(["copy", str(source), served.url, "Orders", "Plain", "--items"]) == 0
    assert cli.main(["copy", served.url, str(back), "Orders", "Plain", "--items"]) == 0
    assert "copied Orders: definition and 60 items" in capsys.readouterr().err
    with partiql.connect(source) as before, partiql.connect(back) as after:
        for table in ("Orders", "Plain"):
            assert shape(after, table) == shape(before, table)
            assert everything(after, table) == everything(before, table)


def test_a_sample_and_the_definitions_alone(tmp_path, served):
    with served.connect() as db:
        db.execute("CREATE TABLE Sampled PRIMARY KEY (pk STRING HASH)")
        for n in range(40):
            db.execute(f"INSERT INTO Sampled VALUE {{'pk': 'k{n}'}}")
    assert cli.main(["copy", served.url, str(tmp_path / "s.db"), "Sampled", "--sample", "15"]) == 0
    assert cli.main(["copy", served.url, str(tmp_path / "d.db"), "Sampled", "--definitions-only"]) == 0
    assert cli.main(["copy", served.url, str(tmp_path / "all.db"), "Sampled"]) == 0  # (items by default)
    with partiql.connect(tmp_path / "s.db") as sampled, partiql.connect(tmp_path / "d.db") as defined:
        assert len(everything(sampled, "Sampled")) == 15
        assert everything(defined, "Sampled") == [] and defined.table_names() == ["Sampled"]
    with partiql.connect(tmp_path / "all.db") as whole:
        assert len(everything(whole, "Sampled")) == 40


def test_into_an_existing_table_of_the_same_key_only(tmp_path, served, capsys):
    with served.connect() as db:
        db.execute("CREATE TABLE Filled PRIMARY KEY (pk STRING HASH)")
        db.execute("INSERT INTO Filled VALUE {'pk': 'from-source'}")
    target = tmp_path / "t.db"
    with partiql.connect(target) as db:
        db.execute("CREATE TABLE Filled PRIMARY KEY (pk STRING HASH)")
        db.execute("INSERT INTO Filled VALUE {'pk': 'already-there'}")
        db.execute("CREATE TABLE Other PRIMARY KEY (id NUMBER HASH)")
    assert cli.main(["copy", served.url, str(target), "Filled"]) == 1
    assert "fill them with --into-existing" in capsys.readouterr().err
    assert cli.main(["copy", served.url, str(target), "Filled", "--into-existing"]) == 0
    with partiql.connect(target) as db:
        assert sorted(item["pk"] for item in everything(db, "Filled")) == ["already-there", "from-source"]
    with served.connect() as db:
        db.execute("CREATE TABLE Other PRIMARY KEY (id STRING HASH)")
    assert cli.main(["copy", served.url, str(target), "Other", "--into-existing"]) == 1
    assert ("cannot copy Other into the existing table: its key is (id N HASH), the source's (id S HASH)"
            in capsys.readouterr().err)


def test_copy_from_moto_and_the_refusals(tmp_path, moto, capsys):
    with moto.connect() as db:
        db.execute("CREATE TABLE FromMoto PRIMARY KEY (pk STRING HASH)")
        db.execute("INSERT INTO FromMoto VALUE {'pk': 'a', 'v': 'x'}")
    target = tmp_path / "m.db"
    assert cli.main(["copy", moto.url, str(target), "FromMoto"]) == 0
    with partiql.connect(target) as db:
        assert everything(db, "FromMoto") == [{"pk": "a", "v": "x"}]
    assert cli.main(["copy", moto.url, str(target), "FromMoto"]) == 1
    assert "Table already exists at the destination: FromMoto" in capsys.readouterr().err
    assert cli.main(["copy", moto.url, str(target), "--sample", "0"]) == 1
    assert cli.main(["copy", moto.url, str(target), "NoSuchTable"]) == 1
    assert "NoSuchTable" in capsys.readouterr().err


@pytest.mark.parametrize("place, kind", [("x.db", "file"), ("http://127.0.0.1:1", "endpoint")])
def test_places_are_files_or_endpoints(tmp_path, place, kind):
    from partiql.shell.copy import open_place
    db = open_place(str(tmp_path / place) if kind == "file" else place, None)
    try:
        assert db.remote == (kind == "endpoint")
    finally:
        db.close()
