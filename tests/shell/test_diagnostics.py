"""Errors: a header with kind and position, the statement line, a caret as wide as the token."""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.errors import ConditionalCheckFailedException
from partiql.errors import StatementError
from partiql.shell.diagnostics import Where, caret_lines, error_fragments


def rendered(error, statement="", where=None):
    return "".join(text for _, text in error_fragments(error, statement, where))


def raised(statement):
    db = partiql.connect()
    db.execute("CREATE TABLE Music (Artist S) PRIMARY KEY (Artist HASH)")
    with pytest.raises(Exception) as caught:
        db.execute(statement)
    return caught.value


@pytest.mark.parametrize("statement, expected", [
    ("SELECT * FROM WHERE x = 1",
     "syntax error at 1:15: Statement wasn't well formed, can't be processed: Unexpected keyword\n"
     "  SELECT * FROM WHERE x = 1\n"
     "                ^^^^^"),
    ("SELECT *\nFROM Music\nWHERE Artist = = 'a'",
     "syntax error at 3:16: Statement wasn't well formed, can't be processed: Unexpected operator\n"
     "  WHERE Artist = = 'a'\n"
     "                 ^"),
    ("SELECT * FROM Music WHERE",
     "syntax error at 1:26: Statement wasn't well formed, can't be processed: Unexpected term\n"
     "  SELECT * FROM Music WHERE\n"
     "                           ^"),
])
def test_syntax_errors_from_the_parser(statement, expected):
    assert rendered(raised(statement), statement) == expected


def test_an_engine_error_has_its_name_and_message():
    assert rendered(ConditionalCheckFailedException()) == (
        "ConditionalCheckFailedException: The conditional request failed")


def test_scripts_name_the_source_and_line():
    error = StatementError("Unexpected path component at 1:8:3", line=1, column=8, length=3)
    assert rendered(error, "SELECT a.b FROM T", Where("load.sql", 12)).splitlines()[0] == (
        "load.sql:12: ValidationException at 1:8: Unexpected path component at 1:8:3")
    assert rendered(ConditionalCheckFailedException(), "", Where("-e", 1)) == (
        "-e:1: ConditionalCheckFailedException: The conditional request failed")


def test_our_bugs_are_reported_not_raised():
    assert rendered(KeyError("x")) == "internal error: KeyError: 'x'"


@pytest.mark.parametrize("statement, line, column, length, expected", [
    ("abc def", 1, 5, 3, ["abc def", "    ^^^"]),
    ("abc def", 1, 5, 99, ["abc def", "    ^^^"]),   # clipped to the line
    ("abc", 1, 4, 1, ["abc", "   ^"]),              # the end of input
    ("\tab cd", 1, 5, None, ["\tab cd", "\t   ^"]),  # tabs kept so the caret lines up
    ("a\nbb", 2, 2, 1, ["bb", " ^"]),
])
def test_caret_lines(statement, line, column, length, expected):
    assert caret_lines(statement, line, column, length) == expected
