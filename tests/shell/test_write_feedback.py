"""What a write that changed nothing says (issue #13 point 8): a DELETE that matched no item, and the
capacity DynamoDB still charges a failed conditional write, with a hint for UPDATE and DELETE."""

from __future__ import annotations

import pytest

from .conftest import connected

SETUP = ["CREATE TABLE Tab (pk STRING) PRIMARY KEY (pk HASH)", "INSERT INTO Tab VALUE {'pk': 'a', 'n': 1}"]
HINT = ("hint: {verb} changes an existing item only: no item has this key, or the rest of its WHERE is false "
        "for it")


@pytest.fixture
def tab():
    return connected(SETUP)


def test_a_delete_that_matched_nothing_says_so(make_session, tab):
    session, streams = make_session(tab)
    assert session.run_script("DELETE FROM Tab WHERE pk = 'zzz';")
    assert streams.err.getvalue() == "no item had this key: nothing deleted · DeleteItem on Tab · 1 WCU\n"
    assert tab.execute("DELETE FROM Tab WHERE pk = 'a'").message is None  # one that deleted says nothing more


@pytest.mark.parametrize("statement, lines", [
    ("UPDATE Tab SET n = 2 WHERE pk = 'zzz';",
     ["ConditionalCheckFailedException: The conditional request failed", "charged: 1 WCU",
      HINT.format(verb="UPDATE")]),
    ("DELETE FROM Tab WHERE pk = 'a' AND n = 5;",
     ["ConditionalCheckFailedException: The conditional request failed", "charged: 1 WCU",
      HINT.format(verb="DELETE")]),
    ("INSERT INTO Tab VALUE {'pk': 'a'};",
     ["DuplicateItemException: Duplicate primary key exists in table", "charged: 1 WCU"]),
])
def test_a_failed_write_shows_what_it_was_charged(make_session, tab, statement, lines):
    session, streams = make_session(tab)
    assert session.run_script(statement) is False
    assert streams.err.getvalue().splitlines() == lines
