"""Every meta-command that reads and writes nothing outside the session (the file and stream ones are left
out), given any argument, inside or outside an open BEGIN block: a clear error or a result, never an
internal error or an exception out of the session (issue 38: .queue and .refresh took new input)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

import partiql
from partiql.shell import commands

from .conftest import _make_session

# (files, a follow loop, leaving the session: exercised by their own tests)
LEFT_OUT = {".backup", ".export", ".import", ".once", ".output", ".read", ".tail", ".exit", ".quit", "\\q"}
WORDS = sorted(set(commands.COMMANDS) - LEFT_OUT)
ARGUMENTS = st.one_of(st.text(max_size=20), st.sampled_from(["", "drop 1", "drop 0", "drop x", "Tab", "Tabb",
                                                            "'u1', 5", '"u1"', "off", "on", "clear", "99999999999"]))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(WORDS), ARGUMENTS, st.booleans())
def test_a_meta_command_with_any_argument_is_answered_clearly(word, argument, in_block):
    db = partiql.connect()
    db.execute("CREATE TABLE Tab PRIMARY KEY (pk STRING HASH)")
    session, streams = _make_session(db)
    if in_block:
        session.run_script("BEGIN; INSERT INTO Tab VALUE {'pk': 'a'};")
    session.run_one(f"{word} {argument}".strip())
    said = streams.out.getvalue() + streams.err.getvalue()
    assert "internal error" not in said and "Traceback" not in said
    db.close()
