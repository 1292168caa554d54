"""Vector indexes in the shell (issue 36): the DDL, .describe, .schema's round trip, .search and its preview."""

from __future__ import annotations

import json

import pytest

import partiql
from partiql.schema import create_request, create_statement

from .conftest import connected

PRODUCTS = ("CREATE TABLE Products PRIMARY KEY (ProductId STRING HASH) BILLING MODE ON DEMAND "
            "VECTOR INDEX (ByEmbedding ON Embedding DIMENSIONS 3 COSINE HASH Category STRING FILTER Brand STRING "
            "PROJECTING INCLUDE (Title))")
ROWS = [f"INSERT INTO Products VALUE {{'ProductId': '{pk}', 'Category': 'c', 'Brand': '{brand}', 'Title': 't{pk}', "
        f"'Embedding': {vector}}}" for pk, brand, vector in (("a", "x", "[1, 0, 0]"), ("b", "y", "[0.5, 0.5, 0]"),
                                                             ("c", "x", "[0, 0, 1]"))]


@pytest.mark.parametrize("statement", [
    PRODUCTS,
    "CREATE TABLE Docs PRIMARY KEY (id NUMBER HASH, part STRING RANGE) BILLING MODE ON DEMAND "
    "VECTOR INDEX (ByText ON v DIMENSIONS 8 EUCLIDEAN PROJECTING KEYS ONLY) "
    'VECTOR INDEX ("index" ON v DIMENSIONS 8 DOT_PRODUCT FILTER lang STRING, year2 NUMBER PROJECTING ALL)',
])
def test_the_ddl_and_schema_round_trip(statement):
    made = connected([statement])
    description = made.describe(statement.split()[2])
    again = connected([create_statement(description).split(";")[0]])
    assert create_request(again.describe(description["TableName"])) == create_request(description)
    assert create_request(description)["VectorIndexes"] == [
        {member: index[member] for member in index if member in (
            "IndexName", "VectorAttribute", "Dimensions", "DistanceFunction", "Projection", "SearchSchema")}
        for index in description["VectorIndexes"]]


def test_alter_table_creates_and_drops_one():
    db = connected([PRODUCTS] + ROWS)
    db.execute("ALTER TABLE Products CREATE VECTOR INDEX (ByDistance ON Embedding DIMENSIONS 3 EUCLIDEAN "
               "HASH Brand STRING PROJECTING ALL)")
    assert [(i["IndexName"], i["ItemCount"]) for i in db.describe("Products")["VectorIndexes"]] == \
        [("ByEmbedding", 3), ("ByDistance", 3)]
    db.execute("ALTER TABLE Products DROP VECTOR INDEX ByDistance")
    assert [i["IndexName"] for i in db.describe("Products")["VectorIndexes"]] == ["ByEmbedding"]


def _run(make_session, lines, statements=(PRODUCTS, *ROWS), **settings):
    session, streams = make_session(connected(statements), **settings)
    for line in lines:
        session.run_one(line)
    return streams.out.getvalue(), streams.err.getvalue()


def test_describe_lists_the_vector_indexes(make_session):
    out, _ = _run(make_session, [".describe Products"])
    assert "Vector indexes:" in out
    assert "ByEmbedding  Embedding × 3  COSINE      Category HASH, Brand FILTER  INCLUDE (Title)        3" in out


def test_search_shows_scores_and_items_closest_first(make_session):
    out, err = _run(make_session, ['.search Products ByEmbedding [1, 0.1, 0] --where \'{"Category": "c"}\''],
                    format="jsonl")
    found = [json.loads(line) for line in out.strip().splitlines()]
    assert [item["ProductId"] for item in found] == ["a", "b", "c"]
    assert found[0]["score"] < found[1]["score"] < found[2]["score"] and "Embedding" not in found[0]
    assert "3 results · SearchVectors on Products.ByEmbedding · 1,024 bytes examined" in err


def test_search_like_an_item_with_a_filter_and_a_projection(make_session):
    out, err = _run(make_session, ['.search Products ByEmbedding --like \'"b"\' --where \'{"Category": "c", '
                                   '"Brand": "x"}\' --project ProductId --top 1'], format="jsonl")
    assert [json.loads(line) for line in out.strip().splitlines()] == [{"score": 0.29289321881345254,
                                                                         "ProductId": "a"}]
    assert "1 result ·" in err


def test_explain_previews_without_searching(make_session):
    out, _ = _run(make_session, ['.search Products ByEmbedding [1, 0, 0] --where \'{"Category": "c"}\' --explain'])
    assert "scores the 3 entries of Category = 'c', exactly" in out and '"SearchVector"' in out
    assert "cost: about 1,024 bytes examined" in out


@pytest.mark.parametrize("line, words", [
    (".search Products ByEmbedding", "give the query vector (numbers) or like (an item's key), one of the two"),
    (".search Products ByEmbedding [1, 0, 0]", "SearchConditionExpression must be provided when SearchSchema has "
                                               "a HASH key"),
    ('.search Products ByEmbedding [1, 0] --where \'{"Category": "c"}\'', "Input search vector dimension 2 does not "
                                                                           "match vector index dimension 3"),
    (".search Products ByEmbedding [1, 0", "the vector is not JSON"),
    ('.search Products ByEmbedding --like \'"zz"\' --where \'{"Category": "c"}\'', "no item of Products has the key"),
    (".search Products Nope [1, 0, 0]", "The table does not have the specified index: Nope"),
    (".search Products ByEmbedding [1, 0, 0] --top x", "argument --top: invalid int value"),
])
def test_mistakes_are_answered_in_words(make_session, line, words):
    _, err = _run(make_session, [line])
    assert words in err and "Traceback" not in err


def test_search_is_local_only(make_session):
    class Remote:
        remote, where, scan_policy = True, "http://example:8000", "allow"
    session, streams = make_session(partiql.connect())
    session.db = Remote()
    session.run_one(".search Products ByEmbedding [1, 0, 0]")
    assert ".search works on a local database" in streams.err.getvalue()


def test_index_timing_is_shown_and_set(make_session):
    _, err = _run(make_session, [".index_timing", ".index_timing realistic", ".index_timing", ".index_timing slow",
                                 ".index_timing instant"], statements=())
    assert err.splitlines() == ["index timing: instant", "index timing: realistic", "index timing: realistic",
                                "index_timing takes instant or realistic, not 'slow'", "index timing: instant"]


def test_a_workbench_model_says_it_cannot_hold_the_vector_indexes():
    from partiql.shell.model import export_model

    _, notes = export_model(connected([PRODUCTS]), ["Products"], 0, "catalogue")
    assert "Products: vector indexes not written (Workbench's format has no member for it)" in notes
