"""Highlighting from the grammar's tokens, with the offending token marked."""

from __future__ import annotations

import pytest
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Text

from partiql.shell.lexer import PartiQLLexer, style_rules, tokens

K, N, F, Q, P, S, NUM, OP, PU, C, E = (Keyword, Name, Name.Function, Name.Variable, Name.Variable.Magic,
                                       String.Single, Number, Operator, Punctuation, Comment, Error)

CASES = [
    ("SELECT a, \"b\" FROM Music WHERE begins_with(a, 'x''y') AND n > ? -- c",
     [(K, "SELECT"), (N, "a"), (PU, ","), (Q, '"b"'), (K, "FROM"), (N, "Music"), (K, "WHERE"),
      (F, "begins_with"), (PU, "("), (N, "a"), (PU, ","), (S, "'x''y'"), (PU, ")"), (K, "AND"), (N, "n"),
      (OP, ">"), (P, "?"), (C, "-- c")]),
    # `table` is a name after FROM, a keyword after CREATE
    ("SELECT * FROM table", [(K, "SELECT"), (OP, "*"), (K, "FROM"), (N, "table")]),
    ("CREATE TABLE t (a S) PRIMARY KEY (a HASH)",
     [(K, "CREATE"), (K, "TABLE"), (N, "t"), (PU, "("), (N, "a"), (Keyword.Type, "S"), (PU, ")"),
      (K, "PRIMARY"), (K, "KEY"), (PU, "("), (N, "a"), (K, "HASH"), (PU, ")")]),
    # the token the parser refuses is marked, and the rest is still coloured
    ("SELECT * FROM WHERE x = 1.5e3", [(K, "SELECT"), (OP, "*"), (K, "FROM"), (E, "WHERE"), (N, "x"),
                                        (OP, "="), (NUM, "1.5e3")]),
    ("SELECT # FROM t", [(K, "SELECT"), (E, "#"), (K, "FROM"), (N, "t")]),
    ("SELECT * FROM t )", [(K, "SELECT"), (OP, "*"), (K, "FROM"), (N, "t"), (E, ")")]),
    # ... but not a word still being typed at the end of the buffer
    ("CREATE TAB", [(K, "CREATE"), (N, "TAB")]),
    ("CREATE TAB ", [(K, "CREATE"), (E, "TAB")]),
    # an unterminated string or comment is being typed, not an error
    ("SELECT * FROM t WHERE a = 'ab", [(K, "SELECT"), (OP, "*"), (K, "FROM"), (N, "t"), (K, "WHERE"),
                                       (N, "a"), (OP, "="), (S, "'ab")]),
    ("SELECT 1; select /* open", [(K, "SELECT"), (NUM, "1"), (PU, ";"), (K, "select"), (C, "/* open")]),
    (".read x.sql", [(Keyword.Pseudo, ".read"), (Text, " x.sql")]),
    ("SELECT 1;\n.format csv\nSHOW", [(K, "SELECT"), (NUM, "1"), (PU, ";"), (Keyword.Pseudo, ".format"),
                                     (Text, " csv"), (K, "SHOW")]),
    ("UPDATE T SET l = list_append(l, [1]) WHERE k = <<'a'>>",
     [(K, "UPDATE"), (N, "T"), (K, "SET"), (N, "l"), (OP, "="), (F, "list_append"), (PU, "("), (N, "l"),
      (PU, ","), (PU, "["), (NUM, "1"), (PU, "]"), (PU, ")"), (K, "WHERE"), (N, "k"), (OP, "="),
      (OP, "<<"), (S, "'a'"), (OP, ">>")]),
]


@pytest.mark.parametrize("text, expected", CASES)
def test_tokens(text, expected):
    found = list(tokens(text))
    assert "".join(value for _, _, value in found) == text
    assert all(a[0] + len(a[2]) == b[0] for a, b in zip(found, found[1:]))
    assert [(kind, value) for _, kind, value in found if value.strip()] == expected


def test_the_pygments_lexer_and_styles():
    lexer = PartiQLLexer()
    assert [value for _, _, value in lexer.get_tokens_unprocessed("SELECT 1")] == ["SELECT", " ", "1"]
    rules = style_rules({"keyword": "ansiblue", "invalid": "bg:ansired"})
    assert rules["pygments.keyword"] == "ansiblue" and rules["pygments.error"] == "bg:ansired"
