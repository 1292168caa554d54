"""Vector bytes metered per index and second (vector-search.md §6.5) and the per-HASH-value limits (§7): a second
above 10 MB of writes or 1 GB of search into one HASH value is a warning naming the index and the value, and the
requests are served. On a virtual clock."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.clock import VirtualClock

from .conftest import search_vector, table, vec, vector_index

BLOB = "x" * 100_000


@pytest.fixture
def metered():
    clock = VirtualClock(500.0)
    db = partiql.connect(clock=clock, throughput="report")
    client = partiql.client(db)
    client.create_table(**table("Meter", [vector_index("vix", schema=[("tenant", "HASH")])], {"tenant": "S"}))
    yield db, client, clock
    db.close()


def _put(client, n: int, tenant: str) -> float:
    answer = client.put_item(TableName="Meter", Item={"pk": {"S": f"{tenant}-{n}"}, "tenant": {"S": tenant},
                                                      "blob": {"S": BLOB}, "embedding": vec(1, n, 0)},
                             ReturnConsumedCapacity="INDEXES")
    return answer["ConsumedCapacity"]["VectorIndexes"]["vix"]["VectorWriteRequestBytes"]


def _warnings(db) -> list:
    return [w for w in db.engine.throughput.warnings if "vector index" in w]


def test_a_second_of_writes_past_10_mb_into_one_hash_value_warns_and_is_served(metered):
    db, client, clock = metered
    charged = [_put(client, n, "hot") for n in range(110)]
    assert sum(charged) > 10 * 1024 ** 2 and client.describe_table(TableName="Meter")["Table"]["ItemCount"] == 110
    (warning,) = _warnings(db)
    assert warning.startswith("Meter: vector index vix for the HASH value 'hot': writes put ")
    assert "above DynamoDB's 10 MB a second per HASH value (no throttle is published: served)" in warning
    clock.advance(1)
    for n in range(50):
        _put(client, n, "cool")
    assert len(_warnings(db)) == 1  # (another second, another value, under the limit)
    seconds = db.vector_metrics("Meter", "vix", last=2)
    assert [second[2] for second in seconds] == [sum(charged), seconds[1][2]] and seconds[1][2] > 0


def test_a_second_of_searches_past_1_gb_warns(metered):
    db, client, clock = metered
    for n in range(100):
        _put(client, n, "hot")
    clock.advance(1)
    searched = 0.0
    while searched <= 1024 ** 3:
        answer = client.search_vectors(TableName="Meter", IndexName="vix", SearchVector=search_vector(1, 1, 0), TopK=1,
                                       SearchConditionExpression="tenant = :t",
                                       ExpressionAttributeValues={":t": {"S": "hot"}},
                                       ReturnConsumedCapacity="TOTAL")
        searched += answer["ConsumedCapacity"]["VectorSearchRequestBytes"]
    assert any("searches examined" in w and "1,024 MB a second" in w for w in _warnings(db))
    assert db.vector_metrics("Meter", "vix", last=1)[0][1] == searched


def test_nothing_is_warned_with_throughput_off():
    db = partiql.connect(clock=VirtualClock(0.0), throughput="off")
    client = partiql.client(db)
    client.create_table(**table("Meter", [vector_index("vix")]))
    for n in range(110):
        client.put_item(TableName="Meter", Item={"pk": {"S": f"k{n}"}, "blob": {"S": BLOB}, "embedding": vec(1, n, 0)})
    assert _warnings(db) == [] and db.vector_metrics("Meter", "vix", last=1)[0][2] > 10 * 1024 ** 2
    with pytest.raises(ValueError, match="Meter has no vector index nope"):
        db.vector_metrics("Meter", "nope")
