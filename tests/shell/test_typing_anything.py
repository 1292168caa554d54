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


ARGUMENTS = ["", "Music", '"Music"', "Nope", "-q", "--format", "json", "yaml", "x y z", "'", '"', "1", "-1", "on",
             "off", "warn", "deny", "clear", "ByYear", "\\", "..", "/", "%s", "{}", "💥", "Music ByYear extra"]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_meta_command_takes_any_argument_without_an_internal_error(data):
    import io
    import os
    import tempfile

    from partiql.shell import commands
    from partiql.shell.config import Settings
    from partiql.shell.session import Session

    names = sorted(c.name for c in commands.commands() if c.name not in (".read",))
    name = data.draw(st.sampled_from(names))
    argument = data.draw(st.lists(st.sampled_from(ARGUMENTS), max_size=3).map(" ".join) | st.text(max_size=12))
    db = partiql.connect()
    db.execute("CREATE TABLE Music (Artist S) PRIMARY KEY (Artist HASH) GSI (ByYear ON (Artist HASH) PROJECTING ALL)")
    out, err = io.StringIO(), io.StringIO()
    session = Session(db, Settings(timer=False), interactive=False, stdout=out, stderr=err)
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:  # .output, .export, .backup may write files: here only
        os.chdir(scratch)
        try:
            session.run_one(f"{name} {argument}".rstrip())
        finally:
            session.output.close()
            os.chdir(here)
    assert "internal error" not in err.getvalue() + out.getvalue(), (name, argument, err.getvalue())
