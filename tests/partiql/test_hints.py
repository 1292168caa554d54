"""Hints for the classic mistakes (issue #13 point 4): beside DynamoDB's answer, never changing it.

Each row runs one statement through the library and asserts the hint it
must carry (``Result.warnings`` or ``error.hints``) and that the answer
itself is what the same statement gives without hints: the items, the
error type and message."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.errors import DynamoDBError

GAME = [
    "CREATE TABLE GameScores PRIMARY KEY (UserId STRING HASH, GameTitle STRING RANGE) "
    "GSI (GameTitleIndex ON (GameTitle HASH, TopScore NUMBER RANGE) PROJECTING ALL) "
    "GSI (ByCity ON (City STRING HASH) PROJECTING KEYS ONLY)",
    "INSERT INTO GameScores VALUE {'UserId': 'u101', 'GameTitle': 'Galaxy Invaders', 'TopScore': 5842}",
    "INSERT INTO GameScores VALUE {'UserId': 'u102', 'GameTitle': 'Meteor Blasters', 'TopScore': 1000}",
    "CREATE TABLE Thin PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (2 RCU, 3 WCU)",
]
INDEX_HINT = 'GameScores.GameTitleIndex is keyed on GameTitle: FROM "GameScores"."GameTitleIndex" would be a Query'


@pytest.fixture(scope="module")
def game():
    db = partiql.connect()
    for statement in GAME:
        db.execute(statement)
    return db


@pytest.mark.parametrize("statement, count, hint", [
    ('SELECT * FROM GameScores WHERE UserId = "u102"', 0,
     '"u102" is an attribute name; strings take single quotes: \'u102\''),
    ("SELECT * FROM GameScores WHERE userid = 'u102'", 0,
     "userid is not a key attribute: did you mean UserId, the partition key? With it this would be a Query, "
     "not a Scan (names are case-sensitive)"),
    ("SELECT * FROM GameScores WHERE UsrId = 'u102'", 0,
     "UsrId is not a key attribute: did you mean UserId, the partition key? With it this would be a Query, "
     "not a Scan"),
    ("SELECT * FROM GameScores WHERE GameTitle = 'Galaxy Invaders'", 1, INDEX_HINT),
    ("EXPLAIN SELECT * FROM GameScores WHERE GameTitle = 'Galaxy Invaders'", 0, INDEX_HINT),
    ("SELECT * FROM GameScores WHERE City = 'Oslo'", 0,
     'GameScores.ByCity is keyed on City: FROM "GameScores"."ByCity" would be a Query '
     "(it projects KEYS ONLY: select what it holds)"),
])
def test_a_result_carries_the_hint_beside_dynamodbs_items(game, statement, count, hint):
    result = game.execute(statement)
    assert hint in result.warnings
    assert result.count == count
    if not statement.startswith("EXPLAIN"):  # the items are exactly what the Scan returns without hints
        plain = game.runner.execute(statement, [], shell=True)
        assert result.items == plain.items and plain.warnings == []


@pytest.mark.parametrize("statement", [
    "SELECT * FROM GameScores WHERE UserId = 'u102'",                   # a Query: nothing to say
    "SELECT * FROM \"GameScores\".\"GameTitleIndex\" WHERE GameTitle = 'x'",
    "SELECT * FROM GameScores WHERE UserId = 'u1' AND \"TopScore\" > 5",  # a quoted name that exists
    "SELECT * FROM GameScores WHERE Score > 1",                         # a Scan on no index's key
])
def test_no_hint_where_there_is_no_mistake(game, statement):
    assert game.execute(statement).warnings == []


@pytest.mark.parametrize("statement, error, hint", [
    ("SELECT * FROM GameScore WHERE UserId = 'u1'", "ResourceNotFoundException",
     "there is no table GameScore: did you mean GameScores?"),
    ("SELECT * FROM Orders WHERE pk = 'u1'", "ResourceNotFoundException",
     "there is no table Orders; the tables are GameScores, Thin"),
    ('SELECT * FROM "GameScores"."GameTitleIdx" WHERE GameTitle = \'x\'', "ValidationException",
     "GameScores has no index GameTitleIdx: did you mean GameTitleIndex?"),
    ("SELECT * FORM GameScores", "ValidationException", "did you mean FROM? (FORM is not a keyword)"),
    ("SELEC * FROM GameScores", "ValidationException", "did you mean SELECT? (SELEC is not a keyword)"),
    ("SELECT * FROM GameScores WHER UserId = 'u1'", "ValidationException",
     "did you mean WHERE? (WHER is not a keyword)"),
    ("SELECT COUNT(*) FROM GameScores", "ValidationException",
     "DynamoDB's PartiQL has no aggregates (COUNT(…)): the status line, or Result.count, counts the items"),
    ("SELECT sum(TopScore) FROM GameScores", "ValidationException",
     "DynamoDB's PartiQL has no aggregates (SUM(…)): the status line, or Result.count, counts the items"),
    ("INSERT INTO GameScores VALUE {'UserId': \"u103\", 'GameTitle': 'x'}", "ValidationException",
     '"u103" is an attribute name; strings take single quotes: \'u103\''),
    # SQL habits (issue 38 point 3)
    ("SELECT * FROM GameScores g JOIN Players p ON g.UserId = p.UserId", "ValidationException",
     "no joins: keep related items under one partition key (one Query reads them), or query each table"),
    ("INSERT INTO GameScores VALUES ('u1', 'x')", "ValidationException",
     "INSERT takes one item as a tuple: INSERT INTO T VALUE {'pk': 'a', 'n': 1}"),
    ("CREATE TABLE Players (UserId VARCHAR(20) PRIMARY KEY, Name TEXT)", "ValidationException",
     "a table declares its key attributes only, typed STRING, NUMBER or BINARY: CREATE TABLE T PRIMARY KEY "
     "(pk STRING HASH, sk NUMBER RANGE)"),
    ("SELECT * FROM Order WHERE UserId = 'u1'", "ValidationException",
     'Order is a reserved word: quote it as a name, "Order"'),
    ("CREATE TABLE Music (Artist STRING, SongTitle STRING, Genre STRING) PRIMARY KEY (Artist HASH, SongTitle "
     "RANGE)", "ValidationException", "only key attributes are declared: Genre is no key of Music or its indexes "
     "(an item holds any attribute without one): leave it out"),
    # a string left open (issue 38 point 3): across a line end, or to the end
    ("SELECT * FROM GameScores WHERE UserId = 'u1;\nSELECT * FROM GameScores WHERE UserId = 'u2'", "ValidationException",
     "the string opened at 1:41 ('u1;…) runs on across a line end: a closing ' left out? (a ' inside a string is "
     "doubled: 'it''s')"),
    ("SELECT * FROM GameScores WHERE UserId = 'it's'", "ValidationException",
     "the string opened at 1:46 ('…) is never closed: a closing ' left out? (a ' inside a string is doubled: "
     "'it''s')"),
    # a provisioned table's GSI without throughput: the clause that gives it the table's
    ("CREATE TABLE Prov PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (5 RCU, 7 WCU) "
     "GSI (byX ON (x STRING HASH, y NUMBER RANGE) PROJECTING INCLUDE (a, b))", "ValidationException",
     "a provisioned table's GSI has throughput of its own: GSI (byX ON (x STRING HASH, y NUMBER RANGE) PROJECTING "
     "INCLUDE (a, b) PROVISIONED (5 RCU, 7 WCU)) gives it the table's, or make the table BILLING MODE ON DEMAND"),
    ("ALTER TABLE Thin CREATE GSI (byX ON (x STRING HASH) PROJECTING KEYS ONLY)", "ValidationException",
     "a provisioned table's GSI has throughput of its own: ALTER TABLE Thin CREATE GSI (byX ON (x STRING HASH) "
     "PROJECTING KEYS ONLY PROVISIONED (2 RCU, 3 WCU)) gives it the table's"),
    # ORDER BY a non-key: the index that sorts by it, or the LSI that would
    ("SELECT * FROM GameScores WHERE UserId = 'u101' ORDER BY TopScore", "ValidationException",
     'GameScores.GameTitleIndex sorts by TopScore: SELECT … FROM "GameScores"."GameTitleIndex" … ORDER BY TopScore'),
    ("SELECT * FROM GameScores WHERE UserId = 'u101' ORDER BY City", "ValidationException",
     "no index of GameScores sorts by City: an LSI keyed on (UserId, City) would (LSIs are made with the table), "
     "or a GSI"),
])
def test_an_error_keeps_dynamodbs_type_and_message_and_carries_the_hint(game, statement, error, hint):
    with pytest.raises(DynamoDBError) as raised:
        game.execute(statement)
    assert raised.value.code == error and hint in raised.value.hints
    with pytest.raises(DynamoDBError) as plain:  # what DynamoDB says is unchanged by the hints
        game.runner.execute(statement, [], shell=True)
    assert (plain.value.code, plain.value.message) == (raised.value.code, raised.value.message)


def test_a_refused_scan_names_the_index_that_would_query(game):
    game.scan_policy = "deny"
    try:
        with pytest.raises(DynamoDBError) as raised:
            game.execute("SELECT * FROM GameScores WHERE GameTitle = 'Galaxy Invaders'")
    finally:
        game.scan_policy = "allow"
    assert INDEX_HINT in raised.value.hints


def test_the_dynamodb_path_says_exactly_what_dynamodb_says(game):
    client = partiql.client(game)
    with pytest.raises(Exception) as raised:
        client.execute_statement(Statement="SELECT * FROM GameScore WHERE UserId = 'u1'")
    assert raised.value.response["Error"] == {"Code": "ResourceNotFoundException",
                                              "Message": "Requested resource not found"}


def test_a_table_or_key_name_near_a_keyword_is_not_taken_for_a_misspelling():
    db = partiql.connect()
    db.execute("CREATE TABLE Tbl PRIMARY KEY (Form STRING HASH)")
    for statement in ("SELECT * FROM Tbl WHERE = 1", "SELECT * FROM Tbl WHERE Form"):
        with pytest.raises(DynamoDBError) as raised:
            db.execute(statement + " =")
        assert raised.value.hints == []

