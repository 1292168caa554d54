"""The grammar's parser, one token at a time: what highlighting and completion ask of it.

``feed`` runs the statement parser (``partiql.parser``: the same Lark LALR
parser and contextual lexer as ``parse``) over a text without requiring it
to be complete, and reports the tokens it took, where it stopped, the token
it refused, and the parser state from which ``accepts()`` tells which
terminals may come next.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from partiql import parser
from partiql.errors import StatementError
from partiql.keywords import GRAMMAR_WORDS

START = "statement"


@functools.cache
def lark():
    """The statement parser's Lark instance (built once, from its cache)."""
    return parser.lark_parser()[0]


@functools.cache
def keywords() -> frozenset:
    """Terminals that are words: the reserved words the grammar uses, and the words only
    our extensions use (``TABLE``, ``HASH``, ..., defined as ``/word\\b/i``)."""
    contextual = {t.name for t in lark().terminals if re.fullmatch(r"[a-z]+\\b", t.pattern.value)}
    return frozenset({word.upper() for word in GRAMMAR_WORDS} | contextual)


@dataclass
class Fed:
    """What the parser made of a text: ``tokens`` taken before ``stop``; ``bad`` is the
    start of the token it refused (None if none); ``state`` continues after ``tokens``."""

    tokens: list
    stop: int
    bad: int | None = None
    state: object = None

    def accepts(self) -> set:
        """Terminal names that may come next (empty after an error)."""
        return self.state.accepts() if self.state is not None else set()


def _offset(text: str, line: int, column: int) -> int:
    """The index of 1-based ``line``:``column`` in ``text``."""
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start + column - 1


def feed(text: str) -> Fed:
    """Feed ``text`` to the parser as far as it goes (end of input is not fed)."""
    tokens = []
    state = lark().parse_interactive(text, start=START)
    try:
        for token in state.iter_parse():
            tokens.append(token)
        return Fed(tokens, len(text), state=state)
    except UnexpectedToken as error:
        bad = error.token.start_pos
    except UnexpectedCharacters as error:
        return Fed(tokens, error.pos_in_stream)
    except StatementError as error:  # why: tree-building checks that carry a position
        if error.line is None:
            return Fed(tokens, tokens[-1].end_pos if tokens else 0)
        bad = _offset(text, error.line, error.column)
    return Fed([t for t in tokens if t.start_pos < bad], bad, bad)
