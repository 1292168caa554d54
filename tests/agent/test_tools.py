"""Every tool of ``partiql mcp``, called through the MCP SDK's client over stdio, against a reference: the
same statements run by the library on a database built the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

import partiql
from partiql.agent.desk import TOOLS  # (the desk registers them)
from partiql.arguments import exact
from partiql.engine.wire_values import item_to_wire

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ORDERS = ("CREATE TABLE Orders PRIMARY KEY (customer STRING HASH, placed NUMBER RANGE) "
          "GSI (ByStatus ON (status STRING HASH, placed NUMBER RANGE) PROJECTING ALL)")
ITEMS = [{"customer": f"c{i % 5}", "placed": i, "status": ("new", "shipped", "lost")[i % 3], "total": i * 7 + 0.5,
          "tags": ["gift"] if i % 4 == 0 else []} for i in range(30)]


@pytest.fixture(scope="module")
def shop(agent):
    """Orders, created and loaded through the tools; the same database built by the library (the reference)."""
    agent.ok("create_table", {"statement": ORDERS})
    text, data = agent.ok("import_items", {"table": "Orders", "items": ITEMS})
    assert data["imported"] == len(ITEMS), text
    reference = partiql.connect()
    reference.execute(ORDERS)
    from boto3.dynamodb.types import TypeSerializer

    client, serialize = partiql.client(reference), TypeSerializer().serialize  # (another way in than the tool's)
    for item in ITEMS:
        client.put_item(TableName="Orders", Item={name: serialize(value)
                                                  for name, value in exact(item).items()})
    yield reference
    reference.close()


def test_every_tool_is_listed_with_a_closed_schema_and_honest_annotations(agent):
    listed = agent.tools()
    assert list(listed) == list(TOOLS) == ["list_tables", "describe_table", "schema", "explain", "execute",
                                           "search_vectors", "create_table", "import_items", "heat", "simulate",
                                           "compare_designs"]
    for name, tool in listed.items():
        assert tool.description and tool.input_schema["additionalProperties"] is False, name
        writes = name in ("execute", "create_table", "import_items")
        assert tool.annotations.read_only_hint is not writes, name
        assert tool.annotations.destructive_hint is (name == "execute"), name
        assert tool.annotations.open_world_hint is False, name  # a local database: nothing outside is reached


def test_the_resources_are_the_pages_an_agent_needs(agent):
    uris = [resource.uri for resource in agent.resources()]
    assert [str(uri) for uri in uris] == ["partiql://dialect", "partiql://capacity", "partiql://modelling"]
    assert "3,000 RCU and 1,000 WCU a second" in agent.read("partiql://capacity")
    dialect = agent.read("partiql://dialect")
    assert "CREATE TABLE [IF NOT EXISTS] name" in dialect and "full Scan" in dialect and "${" not in dialect
    assert "Shard it" in agent.read("partiql://modelling")


def test_the_dialect_pages_workload_runs(agent):
    from partiql.agent.resources import EXAMPLE_WORKLOAD

    text, data = agent.ok("simulate", {"workload": EXAMPLE_WORKLOAD, "duration": 3})
    assert data["patterns"][0]["served"] == data["patterns"][0]["requested"] > 0, text


def test_list_and_describe_the_tables(agent, shop):
    text, data = agent.ok("list_tables", {})
    assert [table["name"] for table in data["tables"]] == ["Orders"] and data["tables"][0]["items"] == 30
    assert "ByStatus (GSI)" in text
    text, data = agent.ok("describe_table", {"table": "Orders"})
    assert data["table"]["ItemCount"] == 30 and "Partitions" not in data["table"]
    assert sum(p["items"] for p in data["partitions"]) == 30
    assert {spread["index"]: spread["values"] for spread in data["key_spread"]} == {None: 5, "ByStatus": 3}
    assert "Partitions:" in text and "GSI  ByStatus" in text


@pytest.mark.parametrize("shape", ["ddl", "json", "workbench"])
def test_schema_recreates_the_table(agent, shop, shape):
    text, data = agent.ok("schema", {"table": "Orders", "format": shape})
    again = partiql.connect()
    if shape == "ddl":
        again.execute(data["statements"][0])
    elif shape == "json":
        again.control("CreateTable", data["create_table_requests"][0])
    else:
        assert data["model"]["DataModel"][0]["TableName"] == "Orders"
        return
    made, expected = again.describe("Orders"), shop.describe("Orders")
    assert made["KeySchema"] == expected["KeySchema"]
    assert made["BillingModeSummary"]["BillingMode"] == expected["BillingModeSummary"]["BillingMode"]
    assert [i["KeySchema"] for i in made["GlobalSecondaryIndexes"]] == \
        [i["KeySchema"] for i in expected["GlobalSecondaryIndexes"]]


# (statement, parameters, limit) read through the tool and through the library
READS = [
    ("SELECT * FROM Orders WHERE customer = ? AND placed = ?", ["c1", 6], None),
    ("SELECT * FROM Orders WHERE customer = ? AND placed = ?", ["c1", 7], None),       # nothing there
    ("SELECT * FROM Orders WHERE customer = ?", ["c2"], None),
    ("SELECT * FROM Orders WHERE customer = ? ORDER BY placed DESC", ["c3"], None),
    ("SELECT placed, total FROM Orders WHERE customer = 'c0' AND placed BETWEEN 5 AND 20", None, None),
    ('SELECT * FROM "Orders"."ByStatus" WHERE status = ? AND placed > ?', ["lost", 10], None),
    ("SELECT * FROM Orders WHERE customer IN ['c1', 'c4'] AND placed < 12", None, None),
    ("SELECT * FROM Orders WHERE customer = ? AND contains(tags, 'gift')", ["c0"], 2),
]


@pytest.mark.parametrize("statement, parameters, limit", READS)
def test_execute_answers_what_the_library_answers(agent, shop, statement, parameters, limit):
    arguments = {"statement": statement, **({"parameters": parameters} if parameters else {}),
                 **({"limit": limit} if limit else {})}
    text, data = agent.ok("execute", arguments)
    expected = shop.execute(statement, parameters, limit=limit)
    assert data["items"] == [item_to_wire(item) for item in expected.items]
    assert data["count"] == len(expected.items) and data["access_path"] == expected.plan.access_path
    assert data["consumed_capacity"]["total"] == expected.consumed_capacity.total
    assert (data["next_token"] is None) == (expected.next_token is None)
    assert expected.plan.access_path in text.splitlines()[-1]


def test_pages_follow_next_token_to_the_same_items(agent, shop):
    statement, seen, token = "SELECT * FROM Orders WHERE customer = 'c2'", [], None
    for _ in range(10):
        _, data = agent.ok("execute", {"statement": statement, "limit": 2, **({"next_token": token} if token else {})})
        seen += data["items"]
        token = data["next_token"]
        if token is None:
            break
    assert seen == [item_to_wire(item) for item in shop.execute(statement).items]


def test_max_items_bounds_what_a_result_shows_and_says_so(agent, shop):
    text, data = agent.ok("execute", {"statement": "SELECT * FROM Orders WHERE customer = 'c2'", "max_items": 2})
    assert data["count"] == 6 and data["shown"] == 2 and len(data["items"]) == 2
    assert "… 4 more items not shown (max_items 2" in text and text.count('"customer"') == 2


def test_a_scan_is_refused_under_deny_naming_the_index_that_would_serve_it(agent, shop):
    text = agent.error("execute", {"statement": "SELECT * FROM Orders WHERE status = 'lost'"})
    assert "full table Scan refused: SCAN of Orders" in text and "scan policy is deny" in text
    assert 'hint: Orders.ByStatus is keyed on status: FROM "Orders"."ByStatus" would be a Query' in text


def test_explain_names_the_index_hint_and_runs_nothing(agent, shop):
    text, data = agent.ok("explain", {"statement": "SELECT * FROM Orders WHERE status = ?", "parameters": ["new"]})
    assert data["full_table_scan"] is True and data["access_path"] == "SCAN of Orders"
    assert data["hints"] == ['Orders.ByStatus is keyed on status: FROM "Orders"."ByStatus" would be a Query']
    assert data["requests"][0]["FilterExpression"] == "#n0 = :v0" and "hint: Orders.ByStatus" in text
    _, data = agent.ok("explain", {"statement": "DELETE FROM Orders WHERE customer = 'c0' AND placed = 0"})
    assert data["kind"] == "DeleteItem" and data["capacity_estimate"]
    _, rows = agent.ok("execute", {"statement": "SELECT * FROM Orders WHERE customer = 'c0' AND placed = 0"})
    assert rows["count"] == 1  # explained, not run


def test_a_batch_answers_each_statement_and_a_transaction_all_or_none(agent, shop):
    text, data = agent.ok("execute", {"statements": [
        {"statement": "SELECT * FROM Orders WHERE customer = ? AND placed = ?", "parameters": ["c1", 1]},
        {"statement": "SELECT * FROM Orders WHERE customer = 'c9' AND placed = 1"},
        {"statement": "SELECT * FROM Nowhere WHERE customer = 'c1' AND placed = 1"}]})
    counts = [entry.get("count") for entry in data["batch"]]
    assert counts == [1, 0, None] and data["batch"][2]["error"]["code"] == "ResourceNotFoundException"
    text = agent.error("execute", {"transaction": True, "statements": [
        {"statement": "INSERT INTO Orders VALUE {'customer': 'c7', 'placed': 1}"},
        {"statement": "INSERT INTO Orders VALUE {'customer': 'c1', 'placed': 1}"}]})  # exists: cancels both
    assert "TransactionCanceledException" in text and "statement 2: DuplicateItem" in text
    assert agent.ok("execute", {"statement": "SELECT * FROM Orders WHERE customer = 'c7'"})[1]["count"] == 0
    _, data = agent.ok("execute", {"transaction": True, "statements": [
        {"statement": "INSERT INTO Orders VALUE {'customer': 'c8', 'placed': 1}"},
        {"statement": "UPDATE Orders SET total = 1 WHERE customer = 'c1' AND placed = 1"}]})
    assert [entry["access_path"] for entry in data["transaction"]] == ["PutItem on Orders", "UpdateItem on Orders"]
    _, data = agent.ok("execute", {"statement": "SELECT total FROM Orders WHERE customer IN ['c1', 'c8'] "
                                                "AND placed = 1"})
    assert data["items"] == [{"total": {"N": "1"}}, {}]  # the update ran; c8 has no total
    agent.ok("execute", {"statement": "DELETE FROM Orders WHERE customer = 'c8' AND placed = 1"})
    agent.ok("execute", {"statement": "UPDATE Orders SET total = 7.5 WHERE customer = 'c1' AND placed = 1"})


def test_import_a_file_names_its_bad_rows(agent, shop, tmp_path):
    agent.ok("create_table", {"statement": "CREATE TABLE Notes PRIMARY KEY (id NUMBER HASH)"})
    rows = tmp_path / "notes.jsonl"
    rows.write_text('{"id": 1, "text": "a"}\n{"text": "no key"}\n{"id": 3}\n')
    text = agent.error("import_items", {"table": "Notes", "path": str(rows)})
    assert "line 2" in text and agent.ok("execute", {"statement": "SELECT * FROM Notes WHERE id = 1"})[1]["count"] == 0
    text, data = agent.ok("import_items", {"table": "Notes", "path": str(rows), "continue_on_error": True})
    assert data["imported"] == 2 and data["errors"][0]["line"] == 2
    _, data = agent.ok("import_items", {"table": "Notes", "dynamodb_json": True,
                                        "items": [{"id": {"N": "9"}, "tags": {"SS": ["a", "b"]}}]})
    _, rows = agent.ok("execute", {"statement": "SELECT tags FROM Notes WHERE id = 9"})
    assert rows["items"] == [{"tags": {"SS": ["a", "b"]}}]


def test_heat_shows_the_key_that_took_the_traffic(agent, shop):
    for placed in range(20):
        agent.ok("execute", {"statement": "UPDATE Orders SET total = total + 1 WHERE customer = 'c4' AND placed = ?",
                             "parameters": [placed * 5 + 4]}) if placed * 5 + 4 < 30 else None
    text, data = agent.ok("heat", {"table": "Orders", "seconds": 300})
    assert data["TopConsumed"][0][0] == {"S": "c4"} and "top keys by consumed units" in text
    assert agent.error("heat", {"table": "Orders", "index": "ByNothing"}).startswith("heat: ")


def test_simulate_reports_the_hot_key_throttled(agent):
    text, data = agent.ok("simulate", {"workload": (EXAMPLES / "hot-key.toml").read_text(), "duration": 5})
    pattern = data["patterns"][0]
    assert pattern["throttled"] > 0 and "TableWriteKeyRangeThroughputExceeded" in pattern["reasons"]
    assert f"{pattern['throttled']:,} throttled" in text and data["verdict"] in text
    assert agent.ok("simulate", {"path": str(EXAMPLES / "hot-key.toml"), "duration": 5})[1]["patterns"] == \
        data["patterns"]


def test_compare_designs_shows_sharding_serves_the_votes(agent):
    votes = (EXAMPLES / "votes.toml").read_text()
    shards = {"format": "{}#{}", "args": [{"choice": ["CandidateA", "CandidateB"], "weights": [9, 1]},
                                          {"uniform": 10}]}
    text, data = agent.ok("compare_designs", {"workload": votes, "duration": 5, "designs": [
        {"name": "one key"},
        {"name": "sharded", "pattern": [{"name": "vote", "params": [shards, {"sequence": "voter#{}"}]}]}]})
    rows = {row["design"]: row for row in data["comparison"]}
    assert rows["one key"]["throttled"] > 0 == rows["sharded"]["throttled"] and "designs compared" in text
    assert rows["one key"]["requested"] == rows["sharded"]["requested"]
    text = agent.error("compare_designs", {"workload": votes, "designs": [{"name": "a"}, {"name": "a"}]})
    assert "two designs are named 'a'" in text
    text = agent.error("compare_designs", {"workload": votes, "designs": [
        {"name": "a"}, {"name": "b", "pattern": [{"name": "nope", "rate": 5}]}]})
    assert "designs[1].pattern[0]: no pattern is named 'nope' (vote)" in text


def test_search_vectors_answers_the_nearest_and_previews_the_cost(agent):
    agent.ok("create_table", {"statement": "CREATE TABLE Shelf PRIMARY KEY (sku STRING HASH) BILLING MODE ON DEMAND "
                                           "VECTOR INDEX (Near ON v DIMENSIONS 3 COSINE HASH aisle STRING "
                                           "PROJECTING ALL)"})
    agent.ok("import_items", {"table": "Shelf", "items": [{"sku": s, "aisle": "a1", "v": v} for s, v in (
        ("s1", [1, 0, 0]), ("s2", [0.6, 0.8, 0]), ("s3", [0, 1, 0]))]})
    text, data = agent.ok("search_vectors", {"table": "Shelf", "index": "Near", "vector": [1, 0.1, 0], "top": 2,
                                             "where": {"aisle": "a1"}})
    assert [result["sku"] for result in data["results"]] == ["s1", "s2"] and "2 results" in text
    assert data["results"][0]["score"] < data["results"][1]["score"]
    _, data = agent.ok("search_vectors", {"table": "Shelf", "index": "Near", "like": "s3", "where": {"aisle": "a1"},
                                          "top": 1})
    assert [result["sku"] for result in data["results"]] == ["s3"]
    text, data = agent.ok("search_vectors", {"table": "Shelf", "index": "Near", "vector": [1, 0, 0],
                                             "where": {"aisle": "a1"}, "explain": True})
    assert data["entries"] == 3 and data["bytes"] == 1024 and "scores the 3 entries of aisle = 'a1'" in text
    assert "SearchConditionExpression must be provided" in agent.error(
        "search_vectors", {"table": "Shelf", "index": "Near", "vector": [1, 0, 0]})


# (tool, arguments, words the error must hold)
MISTAKES = [
    ("execute", {"statement": 5}, "argument 'statement': 5 is not of type 'string'"),
    ("execute", {"statement": "SELECT 1", "bogus": True}, "'bogus' was unexpected"),
    ("execute", {}, "give statement (one), or statements"),
    ("execute", {"statement": "SELEC * FROM Orders"}, "did you mean SELECT?"),
    ("execute", {"statement": "SELECT * FROM Order WHERE customer = 'c1'"}, "Orders"),
    ("execute", {"statement": "SELECT * FROM Orders WHERE customer = 'c1'", "limit": 0}, "less than the minimum of 1"),
    ("execute", {"statements": [{"statement": "SELECT 1"}], "limit": 3}, "limit goes with one statement"),
    ("execute", {"statements": [{"statement": "SELECT * FROM Orders WHERE customer = 'c1' AND placed = 1"}] * 26},
     "Value at 'statements' failed to satisfy constraint: Member must have length less than or equal to 25"),
    ("describe_table", {}, "'table' is a required argument"),
    ("describe_table", {"table": "Nowhere"}, "ResourceNotFoundException"),
    ("schema", {"format": "yaml"}, "'yaml' is not one of ['ddl', 'json', 'workbench']"),
    ("import_items", {"table": "Orders"}, "give items (inline) or path (a file)"),
    ("import_items", {"table": "Orders", "path": "/nonexistent/rows.jsonl"}, "No such file"),
    ("create_table", {"statement": "DROP TABLE Orders"}, "must be a CREATE TABLE"),
    ("simulate", {"workload": "duration = 'long'"}, "the workload given"),
    ("simulate", {}, "give workload (TOML text) or path"),
    ("heat", {"table": "Orders", "seconds": 0}, "less than the minimum of 1"),
    ("explian", {}, "did you mean explain?"),
]


@pytest.mark.parametrize("tool, arguments, words", MISTAKES)
def test_a_mistake_is_answered_with_words_to_act_on(agent, shop, tool, arguments, words):
    text = agent.error(tool, arguments)
    assert words in text and "internal error" not in text and "Traceback" not in text
