"""split_statements() and is_complete(): the shell's view of a script or a buffer."""

import pytest

from partiql.splitter import is_complete, open_quote, split_statements

SPLITS = [
    ("", []),
    ("  \n ; ;; -- only a comment\n/* and another */", []),
    ("SELECT * FROM t", [("SELECT * FROM t", 1)]),
    ("SELECT * FROM t;", [("SELECT * FROM t", 1)]),
    ("SELECT 1; SELECT 2;", [("SELECT 1", 1), ("SELECT 2", 1)]),
    ("SELECT ';' FROM t; SELECT 2", [("SELECT ';' FROM t", 1), ("SELECT 2", 1)]),
    ("SELECT 'it''s;' FROM t;x", [("SELECT 'it''s;' FROM t", 1), ("x", 1)]),
    ('SELECT * FROM "a;b" WHERE "x""y;" = 1;', [('SELECT * FROM "a;b" WHERE "x""y;" = 1', 1)]),
    ("SELECT 1 -- a; b\n FROM t; SELECT 2", [("SELECT 1 -- a; b\n FROM t", 1), ("SELECT 2", 2)]),
    ("SELECT 1 /* a;\n b */ FROM t;\n\n  SELECT 2", [("SELECT 1 /* a;\n b */ FROM t", 1), ("SELECT 2", 4)]),
    ("-- header\n/* c */ SELECT 1;", [("SELECT 1", 2)]),
    (".tables\nSELECT 1;\n\\help x\n  .quit", [(".tables", 1), ("SELECT 1", 2), ("\\help x", 3), (".quit", 4)]),
    ("SELECT a.b FROM t;", [("SELECT a.b FROM t", 1)]),
    ("SELECT 1 - 2 / 3 FROM t", [("SELECT 1 - 2 / 3 FROM t", 1)]),
    ("SELECT 'unterminated; SELECT 2", [("SELECT 'unterminated; SELECT 2", 1)]),
    ("SELECT 1 /* unterminated; SELECT 2", [("SELECT 1 /* unterminated; SELECT 2", 1)]),
]


@pytest.mark.parametrize("script, statements", SPLITS)
def test_split_statements(script, statements):
    assert split_statements(script) == statements


COMPLETE = [
    ("SELECT 1;", True),
    ("SELECT 1;  \n", True),
    ("SELECT 1; -- trailing comment", True),
    ("SELECT 1; /* done */", True),
    ("SELECT 1; /* open", False),
    ("SELECT 1", False),
    ("", False),
    ("   ", False),
    ("SELECT ';'", False),
    ("SELECT ';", False),
    ('SELECT "a;"', False),
    ("SELECT 1 -- ;", False),
    ("SELECT 1 /* ; */", False),
    ("SELECT 1; SELECT 2", False),
    ("SELECT 1; SELECT 2;", True),
    (".tables", True),
    ("  \\help", True),
    ("SELECT 1\n.tables", False),
]


@pytest.mark.parametrize("buffer, complete", COMPLETE)
def test_is_complete(buffer, complete):
    assert is_complete(buffer) is complete


@pytest.mark.parametrize("script, pieces", [
    ("quit\nSELECT * FROM T;", [("quit", 1), ("SELECT * FROM T", 2)]),
    ("help;\nEXIT ;", [("help;", 1), ("EXIT ;", 2)]),
    ("SELECT quit FROM T;", [("SELECT quit FROM T", 1)]),  # a word inside a statement stays a word
])
def test_bare_help_quit_exit_are_lines_of_their_own(script, pieces):
    assert split_statements(script) == pieces


@pytest.mark.parametrize("buffer, complete", [("quit", True), ("exit;", True), ("help", True), ("quitter", False)])
def test_bare_words_complete_a_buffer(buffer, complete):
    assert is_complete(buffer) is complete


@pytest.mark.parametrize("text, inside", [
    ("SELECT 1", None),
    ("SELECT * FROM T WHERE a = 'it''s", "'"),
    ("SELECT 'a' ", None),
    ("x = ''", None),
    ("'abc''", "'"),                  # an escaped quote keeps the string open
    ('SELECT "ab', '"'),
    ('SELECT "a""b"', None),
    ("SELECT /* x", "/*"),
    ("SELECT /* x */", None),
    ("SELECT 1 -- it's", None),       # a quote in a line comment opens nothing
    ("SELECT '-- not a comment", "'"),
])
def test_open_quote(text, inside):
    assert open_quote(text) == inside
