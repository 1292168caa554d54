"""Vector indexes through the boto3-shaped client (wire JSON in and out; the installed botocore predates
SearchVectors, so boto3 itself cannot send it: ``tests/vectors/test_wire.py`` sends it as raw JSON)."""

from __future__ import annotations

import pytest

import partiql


def vec(*numbers) -> dict:
    """A vector attribute value: a list of numbers."""
    return {"L": [{"N": str(n)} for n in numbers]}


def search_vector(*numbers) -> list:
    """SearchVector: a bare list of numbers (not wrapped in L)."""
    return [{"N": str(n)} for n in numbers]


def vector_index(name: str, attribute: str = "embedding", dimensions: int = 3, distance: str = "COSINE",
                 projection: dict | None = None, schema: list | None = None) -> dict:
    out = {"IndexName": name, "VectorAttribute": {"AttributeName": attribute}, "Dimensions": dimensions,
           "DistanceFunction": distance, "Projection": projection or {"ProjectionType": "ALL"}}
    if schema is not None:
        out["SearchSchema"] = [{"AttributeName": n, "SearchSchemaElementType": t} for n, t in schema]
    return out


def table(name: str, indexes: list, definitions: dict | None = None, **more) -> dict:
    """A CreateTable request: key ``pk`` (S), on demand, ``definitions`` (name -> type) declared too."""
    defined = {"pk": "S", **(definitions or {})}
    return {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t} for n, t in defined.items()],
            "VectorIndexes": indexes, **more}


@pytest.fixture
def client():
    db = partiql.connect()
    yield partiql.client(db)
    db.close()


def error_of(call) -> tuple:
    """(code, message) of the error ``call()`` raises."""
    try:
        call()
    except Exception as error:  # noqa: BLE001 - botocore-shaped ClientError
        return error.response["Error"]["Code"], error.response["Error"]["Message"]
    raise AssertionError("no error")


# Fixture VE (vector-search.md §12): plain (embedding, 3, COSINE, ALL) and schema (+ tenant HASH, category FILTER)
VE = table("VEtable", [vector_index("plain"),
                       vector_index("schema", schema=[("tenant", "HASH"), ("category", "INLINE_FILTER")])],
           {"tenant": "S", "category": "S"})


@pytest.fixture
def ve(client):
    client.create_table(**VE)
    return client
