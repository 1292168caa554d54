"""``.schema T`` (issue #13 point 8): the statement that recreates a table, and with ``--format json``
DynamoDB's CreateTable request; both recreate the same table (checked by running them)."""

from __future__ import annotations

import json

import pytest

import partiql
from partiql.schema import create_statement

from .conftest import connected

TABLES = [
    "CREATE TABLE Music PRIMARY KEY (Artist STRING HASH, SongTitle STRING RANGE)",
    "CREATE TABLE Orders PRIMARY KEY (pk STRING HASH, \"range\" NUMBER RANGE) "
    "GSI (ByTotal ON (Status STRING HASH, Total NUMBER RANGE) PROJECTING INCLUDE (Ship, \"value\")) "
    "LSI (ByDate ON (pk HASH, Placed STRING RANGE) PROJECTING KEYS ONLY)",
    "CREATE TABLE Prov PRIMARY KEY (id BINARY HASH) BILLING MODE PROVISIONED (5 RCU, 7 WCU) "
    "GSI (Gone ON (a STRING HASH) PROJECTING ALL PROVISIONED (1 RCU, 2 WCU))",
    'CREATE TABLE "select-me" PRIMARY KEY ("user id" STRING HASH)',
    'CREATE TABLE Feed PRIMARY KEY ("stream" STRING HASH) STREAM NEW_AND_OLD_IMAGES',
    "CREATE TABLE Tenants PRIMARY KEY (id STRING HASH) GSI (ByTenantRegion ON (TenantId STRING HASH, "
    "Region STRING HASH, Status STRING RANGE, CreatedAt NUMBER RANGE) PROJECTING ALL) "
    "GSI (ByShard ON (Region HASH, Shard NUMBER HASH) PROJECTING KEYS ONLY)",
]
FIELDS = ("TableName", "KeySchema", "AttributeDefinitions", "BillingModeSummary", "ProvisionedThroughput",
          "StreamSpecification")


def _shape(description: dict) -> dict:
    """What recreating a table must reproduce."""
    shape = {field: description.get(field) for field in FIELDS}
    shape["BillingModeSummary"] = (description.get("BillingModeSummary") or {}).get("BillingMode")
    shape["AttributeDefinitions"] = sorted(shape["AttributeDefinitions"], key=lambda d: d["AttributeName"])
    if shape["ProvisionedThroughput"]:
        shape["ProvisionedThroughput"] = {k: v for k, v in shape["ProvisionedThroughput"].items()
                                          if k.endswith("CapacityUnits")}
    for member in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        shape[member] = [(i["IndexName"], i["KeySchema"], i["Projection"],
                          {k: v for k, v in (i.get("ProvisionedThroughput") or {}).items() if k.endswith("Units")})
                         for i in description.get(member) or []]
    return shape


@pytest.mark.parametrize("ddl", TABLES, ids=["music", "orders", "provisioned", "quoted", "stream", "multi-attribute"])
def test_the_schema_recreates_the_table(make_session, ddl):
    original = connected([ddl])
    name = original.table_names()[0]
    session, streams = make_session(original)
    assert session.run_script(f'.schema "{name}"\n.schema "{name}" --format json')
    statement, request = streams.out.getvalue().split("\n{", 1)
    again = connected([statement.strip()])
    assert _shape(again.describe(name)) == _shape(original.describe(name))
    client_db = partiql.connect()
    partiql.client(client_db).create_table(**json.loads("{" + request))
    assert _shape(client_db.describe(name)) == _shape(original.describe(name))


def test_what_the_ddl_cannot_say_is_a_comment_and_in_the_request(make_session):
    db = connected([TABLES[0]])
    partiql.client(db).update_table(TableName="Music", DeletionProtectionEnabled=True)
    text = create_statement(db.describe("Music"))
    assert text.splitlines()[-1] == "-- and deletion protection (UpdateTable DeletionProtectionEnabled)"
    session, streams = make_session(db)
    assert session.run_script(".schema Music --format json")
    assert json.loads(streams.out.getvalue())["DeletionProtectionEnabled"] is True


def test_schema_of_every_table_and_its_mistakes(make_session):
    session, streams = make_session(connected(TABLES[:2]))
    assert session.run_script(".schema")
    assert streams.out.getvalue().count("CREATE TABLE") == 2
    assert session.run_script(".schema Music --format yaml") is False
    assert ".schema takes a table name and --format json" in streams.err.getvalue()
