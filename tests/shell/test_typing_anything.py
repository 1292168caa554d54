"""Whatever is typed, highlighting and completion answer (an exception would end the REPL)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

import partiql
from partiql.shell.catalog import Catalog
from partiql.shell.lexer import tokens
from partiql.shell.suggest import suggest

PIECES = ["SELECT", "*", "FROM", "Music", '"Music"', ".", "ByYear", "WHERE", "Artist", "=", "'a", "'b'", "?",
          "1e999999999999", "1.5", "<<", ">>", "[", "]", "{", "}", "(", ")", ",", ";", "--", "/*", "*/", "\n",
          " ", "CREATE", "TABLE", "GSI", "ON", "HASH", "\\d", ".read", "#", "`", "IS", "NOT", "begins_with"]
CATALOG = None


def catalog():
    global CATALOG
    if CATALOG is None:
        db = partiql.connect()
        db.execute("CREATE TABLE Music (Artist S) PRIMARY KEY (Artist HASH) GSI (ByYear ON (Artist HASH) PROJECTING ALL)")
        CATALOG = Catalog(db)
    return CATALOG


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join) | st.text(max_size=30))
def test_tokens_cover_the_text_and_suggest_answers(text):
    found = list(tokens(text))
    assert "".join(value for _, _, value in found) == text
    assert all(a[0] + len(a[2]) == b[0] for a, b in zip(found, found[1:]))
    assert isinstance(suggest(text, catalog()), list)
