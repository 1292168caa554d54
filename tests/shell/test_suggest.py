"""Completion: what is offered at the cursor, and how fast on 500 tables."""

from __future__ import annotations

import time

import pytest

import partiql
from partiql.shell.catalog import Catalog
from partiql.shell.suggest import quote, suggest


@pytest.fixture(scope="module")
def catalog():
    db = partiql.connect()
    db.execute("CREATE TABLE Music (Artist S, SongTitle S, Released N) PRIMARY KEY (Artist HASH, SongTitle RANGE) "
               "GSI (ByYear ON (Released HASH) PROJECTING ALL)")
    db.execute('CREATE TABLE "my-table" (pk S) PRIMARY KEY (pk HASH)')
    db.execute("INSERT INTO Music VALUE {'Artist': 'Acme', 'SongTitle': 'Hi', 'Released': 2024, 'value': 1}")
    db.execute("INSERT INTO Music VALUE {'Artist': 'Zed', 'SongTitle': 'Ok', "
               "'Ship': {'City': 'Oslo', 'Zip': '0150', 'Geo': {'Lat': 59, 'Lon': 10}}}")
    return Catalog(db)


def offered(text, catalog):
    return [(s.text, s.replace, s.meta) for s in suggest(text, catalog)]


STATEMENT_START = ["ALTER", "CREATE", "DELETE", "DESCRIBE", "DROP", "EXISTS", "EXPLAIN", "FROM", "INSERT",
                   "SELECT", "SHOW", "UPDATE"]
# key attributes first, tagged with their role
ATTRIBUTES = [("Artist", 0, "partition key"), ("SongTitle", 0, "sort key"), ("Released", 0, "ByYear key"),
              ("Ship", 0, "attribute"), ('"value"', 0, "attribute")]  # (items seen in Scan order: Zed's first)
WHERE_FUNCTIONS = ["attribute_exists(", "attribute_not_exists(", "attribute_type(", "begins_with(", "contains(",
                   "size("]

CASES = [
    ("", [(w, 0, "keyword") for w in STATEMENT_START]),
    ("sel", [("select", 3, "keyword")]),
    ("SELECT 1; SEL", [("SELECT", 3, "keyword")]),
    # tables after FROM / INTO / UPDATE / DESCRIBE / TABLE, quoted when they must be
    ("SELECT * FROM ", [("Music", 0, "table"), ('"my-table"', 0, "table")]),
    ("SELECT * FROM my", [('"my-table"', 2, "table")]),
    ('SELECT * FROM "my', [('"my-table"', 3, "table")]),
    ("INSERT INTO Mu", [("Music", 2, "table")]),
    ("UPDATE mu", [("Music", 2, "table")]),
    ("DROP TABLE Mu", [("Music", 2, "table")]),
    ("CREATE TABLE M", []),
    # indexes after "Table".
    ('SELECT * FROM "Music".', [("ByYear", 0, "index")]),
    ("SELECT * FROM Music.B", [("ByYear", 1, "index")]),
    # keywords the grammar accepts next (and not the ones DynamoDB refuses, like LIMIT)
    ("SELECT * FROM Music ", [("ORDER", 0, "keyword"), ("WHERE", 0, "keyword")]),
    ("SELECT * FROM Music ORDER ", [("BY", 0, "keyword")]),
    ("CREATE TABLE x (a ", [("STRING", 0, "keyword"), ("NUMBER", 0, "keyword"), ("BINARY", 0, "keyword")]),
    # attributes of the statement's table, and functions in WHERE / SET
    ("SELECT * FROM Music WHERE Ar", [("Artist", 2, "partition key")]),
    ("DELETE FROM Music WHERE v", [('"value"', 1, "attribute")]),
    ("SELECT * FROM Music WHERE begins", [("begins_with(", 6, "function")]),
    ("UPDATE Music SET Released = Rel", [("Released", 3, "ByYear key")]),
    # only the functions the clause takes: updates on SET's right-hand side, none on its left
    ("UPDATE Music SET Tags = list", [("list_append(", 4, "function")]),
    ("UPDATE Music SET Tags = begins", []),
    ("UPDATE Music SET list", []),
    ("SELECT * FROM Music WHERE list", []),
    # the keys of a map after its name and a dot
    ("SELECT * FROM Music WHERE Ship.", [("City", 0, "map key"), ("Zip", 0, "map key"), ("Geo", 0, "map key")]),
    ("SELECT * FROM Music WHERE Ship.C", [("City", 1, "map key")]),
    ("SELECT * FROM Music WHERE Ship.Geo.", [("Lat", 0, "map key"), ("Lon", 0, "map key")]),
    ("SELECT * FROM Music WHERE Artist.", []),  # a string attribute has no keys
    # nothing inside a string
    ("SELECT * FROM Music WHERE a = 'Ac", []),
    # meta-commands and their arguments
    (".re", [(".refresh", 3, "command"), (".read", 3, "command")]),
    ("\\d", [("\\dt", 2, "command"), ("\\d", 2, "command")]),
    (".format js", [("json", 2, "value"), ("jsonl", 2, "value")]),
    (".describe M", [("Music", 1, "table"), ('"my-table"', 1, "table")]),
    (".scan d", [("deny", 1, "value")]),
    (".help .f", [(".format", 2, "command"), (".faults", 2, "command")]),
]


@pytest.mark.parametrize("text, expected", CASES)
def test_suggestions(text, expected, catalog):
    assert offered(text, catalog) == expected


def test_where_offers_attributes_functions_and_keywords(catalog):
    found = offered("SELECT * FROM Music WHERE ", catalog)
    assert found[:5] == ATTRIBUTES
    assert [text for text, _, meta in found if meta == "function"] == WHERE_FUNCTIONS
    assert ("NOT", 0, "keyword") in found


def test_file_paths_after_read(tmp_path, monkeypatch, catalog):
    (tmp_path / "load.sql").write_text("")
    (tmp_path / "lib").mkdir()
    (tmp_path / ".hidden").write_text("")
    monkeypatch.chdir(tmp_path)
    assert offered(".read l", catalog) == [("lib/", 1, "file"), ("load.sql", 1, "file")]
    assert offered(".read lib/", catalog) == []
    assert offered(".read .h", catalog) == [(".hidden", 2, "file")]


@pytest.mark.parametrize("name, spelled", [("Music", "Music"), ("my-table", '"my-table"'),
                                           ("value", '"value"'), ('say "hi"', '"say ""hi"""')])
def test_quote(name, spelled):
    assert quote(name) == spelled


def test_completion_on_500_tables_is_fast():
    db = partiql.connect()
    for number in range(500):
        db.execute(f"CREATE TABLE t{number:03} (pk S, sk N) PRIMARY KEY (pk HASH, sk RANGE)")
    catalog = Catalog(db)
    suggest("SELECT * FROM t", catalog)  # fill the cache as the first Tab would
    for text in ("SELECT * FROM t", "SELECT * FROM t123 WHERE ", "SELECT * FROM t12"):
        started = time.perf_counter()
        found = suggest(text, catalog)
        assert time.perf_counter() - started < 0.05 and found
