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


def test_an_over_long_message_is_elided_in_the_middle():
    from partiql.engine.errors import ValidationException
    statement = "SELECT * FROM T WHERE " + " AND ".join(f"a{i} = {i}" for i in range(2000))
    text = rendered(ValidationException(f"1 validation error detected: Value '{statement}' at 'statement' "
                                        "failed to satisfy constraint: Member must have length less than or "
                                        "equal to 8192"))
    assert len(text) < 500
    assert text.startswith("ValidationException: 1 validation error detected: Value 'SELECT * FROM T WHERE a0 = 0")
    assert text.endswith("Member must have length less than or equal to 8192")
    assert " … (" in text and " characters) … " in text


def test_our_bugs_are_reported_not_raised():
    assert rendered(KeyError("x")) == "internal error: KeyError: 'x'"


@pytest.mark.parametrize("statement, line, column, length, expected", [
    ("abc def", 1, 5, 3, ["abc def", "    ^^^"]),
    ("abc def", 1, 5, 99, ["abc def", "    ^^^"]),   # clipped to the line
    ("abc", 1, 4, 1, ["abc", "   ^"]),              # the end of input
    ("\tab cd", 1, 5, None, ["\tab cd", "\t   ^"]),  # tabs kept so the caret lines up
    ("a\nbb", 2, 2, 1, ["bb", " ^"]),
    # an over-long line: the window of 100 characters around the token, cut ends marked
    ("x" * 300 + " BAD " + "y" * 300, 1, 302, 3, ["…" + "x" * 49 + " BAD " + "y" * 46 + "…", " " * 51 + "^^^"]),
    ("BAD " + "y" * 300, 1, 1, 3, ["BAD " + "y" * 96 + "…", "^^^"]),
    ("x" * 300 + " BAD", 1, 302, 3, ["…" + "x" * 96 + " BAD", " " * 98 + "^^^"]),
])
def test_caret_lines(statement, line, column, length, expected):
    assert caret_lines(statement, line, column, length) == expected
