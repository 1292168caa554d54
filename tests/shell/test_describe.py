"""``.describe`` as a modeller reads it (issue #13 point 8): sizes people read, and a flag on a table or
index whose largest partition-key value holds a large share of the items."""

from __future__ import annotations

import pytest

import partiql
from partiql.shell.explain import human_bytes, spread_lines

from .conftest import connected

STATUSES = ["NEW", "PAID", "SHIPPED", "DONE"]


@pytest.mark.parametrize("size, text", [
    (0, "0 B"), (812, "812 B"), (1023, "1,023 B"), (1024, "1.0 KB"), (14_540, "14.2 KB"),
    (3_250_586, "3.1 MB"), (5 * 1024 ** 3, "5.0 GB"), (2048 * 1024 ** 3, "2,048.0 GB"),
])
def test_sizes_are_human_readable(size, text):
    assert human_bytes(size) == text


@pytest.mark.parametrize("spread, lines", [
    ({"ByStatus": (4, 100_000, "SHIPPED", 25_000)},
     ["ByStatus: 4 partition-key values for 100,000 items; the largest ('SHIPPED') holds 25% -- skewed: one "
      "partition takes 25% of its reads and writes"]),
    ({None: (100_000, 100_000, "u1", 1)},
     ["table: 100,000 partition-key values for 100,000 items; the largest ('u1') holds 0%"]),
    ({None: (2, 3, "Acme", 2)},  # a large share of a handful of items is no skew yet
     ["table: 2 partition-key values for 3 items; the largest ('Acme') holds 67%"]),
    ({"Empty": (0, 0, None, 0)}, []),
])
def test_spread_lines_flag_a_skewed_key(spread, lines):
    assert spread_lines(spread) == lines


def test_describe_shows_the_spread_of_a_low_cardinality_index(make_session):
    db = connected(["CREATE TABLE Orders PRIMARY KEY (pk STRING HASH, sk NUMBER RANGE) "
                    "GSI (ByStatus ON (Status STRING HASH) PROJECTING ALL)"])
    for i in range(200):
        db.execute(f"INSERT INTO Orders VALUE {{'pk': 'c{i % 50}', 'sk': {i}, 'Status': '{STATUSES[i % 4]}'}}")
    db.execute("INSERT INTO Orders VALUE {'pk': 'c7', 'sk': 1000}")  # no Status
    db.execute("INSERT INTO Orders VALUE {'pk': 'c7', 'sk': 1001, 'Status': 'DONE'}")  # c7 holds 6, DONE 51: the most
    assert db.key_spread("Orders") == {None: (50, 202, "c7", 6), "ByStatus": (4, 201, "DONE", 51)}
    session, streams = make_session(db)
    assert session.run_script(".describe Orders")
    out = streams.out.getvalue()
    assert ("  ByStatus: 4 partition-key values for 201 items; the largest ('DONE') holds 25% -- skewed: one "
            "partition takes 25% of its reads and writes") in out.splitlines()
    assert "  table: 50 partition-key values for 202 items; the largest ('c7') holds 3%" in out.splitlines()


def test_describe_names_the_hash_attributes_of_a_multi_attribute_index(make_session):
    db = connected(["CREATE TABLE Tenants PRIMARY KEY (id STRING HASH) GSI (ByTenantRegion ON "
                    "(TenantId STRING HASH, Region STRING HASH, Status STRING RANGE) PROJECTING ALL)"])
    for i in range(6):
        db.execute(f"INSERT INTO Tenants VALUE {{'id': 'o{i}', 'TenantId': 't{min(i, 1)}', 'Region': 'eu', "
                   "'Status': 's'}")
    assert db.key_spread("Tenants")["ByTenantRegion"] == (2, 6, {"TenantId": "t1", "Region": "eu"}, 5)
    session, streams = make_session(db)
    assert session.run_script(".describe Tenants")
    out = streams.out.getvalue()
    assert "GSI  ByTenantRegion  TenantId S HASH, Region S HASH, Status S RANGE" in out
    assert ("  ByTenantRegion: 2 partition-key values for 6 items; the largest ({'TenantId': 't1', 'Region': "
            "'eu'}) holds 83%") in out.splitlines()


def test_explain_of_a_multi_attribute_index_says_why_and_shows_the_query(make_session):
    db = connected(["CREATE TABLE Tenants PRIMARY KEY (id STRING HASH) GSI (ByTenantRegion ON "
                    "(TenantId STRING HASH, Region STRING HASH, Status STRING RANGE) PROJECTING ALL)"])
    session, streams = make_session(db)
    assert session.run_script("EXPLAIN SELECT id FROM \"Tenants\".\"ByTenantRegion\" WHERE TenantId = 't1' "
                              "AND Region = 'eu' AND begins_with(Status, 'op') AND memo <> 'x' ORDER BY Status DESC")
    lines = streams.out.getvalue().splitlines()
    assert lines[:3] == ["Query on Tenants.ByTenantRegion", "full table scan: no",
                         "refused by DynamoDB's PartiQL: PartiQL statements cannot be executed on tables with "
                         "multi-attribute HASH keys or multi-attribute RANGE keys. The API serves the same read:"]
    request = db.explain("SELECT id FROM \"Tenants\".\"ByTenantRegion\" WHERE TenantId = 't1' AND Region = 'eu' "
                         "AND begins_with(Status, 'op') AND memo <> 'x' ORDER BY Status DESC").requests[0]
    assert request["KeyConditionExpression"] == "#n0 = :v0 AND #n1 = :v1 AND begins_with(#n2, :v2)"
    assert (request["FilterExpression"], request["ScanIndexForward"]) == ("#n3 <> :v3", False)
    db.execute("INSERT INTO Tenants VALUE {'id': 'o1', 'TenantId': 't1', 'Region': 'eu', 'Status': 'open'}")
    served = partiql.client(db).query(**request)  # (the Query it shows runs, through the API)
    assert served["Items"] == [{"id": {"S": "o1"}}]
