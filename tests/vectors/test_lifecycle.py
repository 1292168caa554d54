"""``index_timing="realistic"``: vector indexes walk DynamoDB's phases on the engine's clock (vector-search.md §3,
§12 cases 36-40), on a virtual clock; "instant" (the default) makes them ACTIVE at once; the aws realism preset
walks them too."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.clock import VirtualClock

from .conftest import error_of, search_vector, table, vec, vector_index

CREATE = {"Create": vector_index("vix")}
ONLINE = "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"


@pytest.fixture
def timed():
    clock = VirtualClock(1000.0)
    db = partiql.connect(clock=clock, index_timing="realistic")
    client = partiql.client(db)
    client.create_table(TableName="VLtable", BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    for n in range(5):
        client.put_item(TableName="VLtable", Item={"pk": {"S": f"item-{n}"}, "embedding": vec(n, 1, 0)})
    yield client, clock
    db.close()


def _state(client) -> tuple:
    described = client.describe_table(TableName="VLtable")["Table"]
    return described["TableStatus"], [(i["IndexName"], i["IndexStatus"], i.get("Backfilling"))
                                      for i in described.get("VectorIndexes") or []]


def _search(client):
    return client.search_vectors(TableName="VLtable", IndexName="vix", SearchVector=search_vector(1, 1, 0), TopK=5)


def test_an_added_index_allocates_backfills_lags_then_answers(timed):
    client, clock = timed
    assert client.update_table(TableName="VLtable", VectorIndexUpdates=[CREATE])["TableDescription"][
        "TableStatus"] == "UPDATING"                                                                    # 36
    assert _state(client) == ("UPDATING", [("vix", "CREATING", False)])
    allocating = ("Attempt to change a resource which is still in use: Index creation is in resource allocation "
                  "phase. Retry deletion during backfilling phase or when the index is active. Table: VLtable "
                  "Index: vix")
    assert error_of(lambda: client.update_table(TableName="VLtable", VectorIndexUpdates=[
        {"Delete": {"IndexName": "vix"}}])) == ("ResourceInUseException", allocating)                  # 37
    assert error_of(lambda: client.update_table(TableName="VLtable", VectorIndexUpdates=[
        {"Create": vector_index("vix2")}])) == ("LimitExceededException", ONLINE)
    assert error_of(lambda: _search(client)) == ("ValidationException",
                                                 "The table does not have the specified index: vix")
    clock.advance(30)
    assert _state(client) == ("ACTIVE", [("vix", "CREATING", True)])                                  # 38
    assert error_of(lambda: client.delete_table(TableName="VLtable")) == (
        "ResourceInUseException", "Attempt to change a resource which is still in use: Cannot delete table while "
        "indexes are being created, updated, or deleted.")
    assert error_of(lambda: _search(client)) == ("ValidationException", "Cannot search backfilling vector index: vix")
    clock.advance(480)
    assert _state(client) == ("ACTIVE", [("vix", "ACTIVE", None)])                                    # 39
    assert error_of(lambda: _search(client)) == ("ValidationException",
                                                 "The table does not have the specified index: vix")
    clock.advance(5)
    assert len(_search(client)["SearchResults"]) == 5  # (every item, never a partial view)
    assert error_of(lambda: client.update_table(TableName="VLtable", VectorIndexUpdates=[
        {"Create": vector_index("vix2")}, {"Create": vector_index("vix3")}])) == ("LimitExceededException", ONLINE)


def test_a_delete_while_backfilling_cancels_and_a_deleted_index_is_deleting_a_while(timed):
    client, clock = timed
    client.update_table(TableName="VLtable", VectorIndexUpdates=[CREATE])
    clock.advance(31)
    client.update_table(TableName="VLtable", VectorIndexUpdates=[{"Delete": {"IndexName": "vix"}}])
    assert _state(client) == ("UPDATING", [("vix", "DELETING", None)])
    clock.advance(3)
    assert _state(client) == ("ACTIVE", [])
    client.update_table(TableName="VLtable", VectorIndexUpdates=[CREATE])  # (nothing left in progress)


def test_a_table_created_with_indexes_is_creating_with_them():
    clock = VirtualClock(0.0)
    client = partiql.client(partiql.connect(clock=clock, index_timing="realistic"))
    answer = client.create_table(**table("VLfresh", [vector_index("vix")]))["TableDescription"]
    assert answer["TableStatus"] == "CREATING" and answer["VectorIndexes"][0]["IndexStatus"] == "CREATING"
    described = client.describe_table(TableName="VLfresh")["Table"]                                  # 40
    assert (described["TableStatus"], described["VectorIndexes"][0]["IndexStatus"]) == ("CREATING", "CREATING")
    assert "Backfilling" not in described["VectorIndexes"][0] and described["VectorIndexes"][0]["ItemCount"] == 0
    assert error_of(lambda: client.search_vectors(TableName="VLfresh", IndexName="vix", SearchVector=search_vector(
        1, 0, 0), TopK=1)) == ("ResourceNotFoundException", "Requested resource not found")
    clock.advance(15)
    described = client.describe_table(TableName="VLfresh")["Table"]
    assert (described["TableStatus"], described["VectorIndexes"][0]["IndexStatus"]) == ("ACTIVE", "ACTIVE")
    assert client.search_vectors(TableName="VLfresh", IndexName="vix", SearchVector=search_vector(1, 0, 0),
                                 TopK=1)["SearchResults"] == []


def test_instant_is_the_default_and_the_aws_preset_walks_the_phases():
    client = partiql.client(partiql.connect(clock=VirtualClock(0.0)))
    client.create_table(**table("VLnow", [vector_index("vix")]))
    assert client.search_vectors(TableName="VLnow", IndexName="vix", SearchVector=search_vector(1, 0, 0),
                                 TopK=1)["SearchResults"] == []
    clock = VirtualClock(0.0)
    aws = partiql.client(partiql.connect(clock=clock, realism="aws"))
    aws.create_table(**table("VLaws", [vector_index("vix")]))
    clock.advance(16)
    aws.update_table(TableName="VLaws", VectorIndexUpdates=[{"Create": vector_index("more")}])
    assert [i["IndexStatus"] for i in aws.describe_table(TableName="VLaws")["Table"]["VectorIndexes"]] == \
        ["ACTIVE", "CREATING"]
    with pytest.raises(ValueError, match="index_timing takes instant or realistic, not 'slow'"):
        partiql.connect(index_timing="slow")


def test_the_shell_and_the_server_take_index_timing():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "partiql.shell", "--index-timing", "realistic", "-e",
                           "CREATE TABLE VLfresh PRIMARY KEY (pk STRING HASH) BILLING MODE ON DEMAND VECTOR INDEX "
                           "(vix ON e DIMENSIONS 2 COSINE PROJECTING ALL);", "-e", ".search VLfresh vix [1, 0]"],
                          capture_output=True, text=True, timeout=60)
    assert "ResourceNotFoundException: Requested resource not found" in done.stderr
    assert "VLfresh is there but not ACTIVE yet" in done.stderr
    from partiql.server.cli import build_parser

    assert build_parser().parse_args(["--index-timing", "realistic"]).index_timing == "realistic"


def test_gsis_and_vector_indexes_share_the_one_online_index_operation():
    """§2.4: a vector index Create while a GSI is being created, and a GSI Create while a vector index is, answer
    the LimitExceededException (both under the aws preset's lifecycle)."""
    clock = VirtualClock(0.0)
    client = partiql.client(partiql.connect(clock=clock, realism="aws"))
    client.create_table(**table("VLboth", [vector_index("vix")]))
    clock.advance(16)
    client.update_table(TableName="VLboth", AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
                        GlobalSecondaryIndexUpdates=[{"Create": {
                            "IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                            "Projection": {"ProjectionType": "ALL"}}}])
    assert error_of(lambda: client.update_table(TableName="VLboth", VectorIndexUpdates=[
        {"Create": vector_index("more")}])) == ("LimitExceededException", ONLINE)
    clock.advance(60)
    client.update_table(TableName="VLboth", VectorIndexUpdates=[{"Create": vector_index("more")}])
    assert error_of(lambda: client.update_table(TableName="VLboth", GlobalSecondaryIndexUpdates=[
        {"Delete": {"IndexName": "byg"}}])) == ("LimitExceededException", ONLINE)
