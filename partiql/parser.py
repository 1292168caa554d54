"""PartiQL text -> syntax tree (``partiql.ast``), with DynamoDB's syntax errors.

``parse`` reads DynamoDB's dialect plus the shell's extensions (DDL,
EXPLAIN); ``parse_dml`` reads only what ExecuteStatement accepts. Both use
one Lark LALR parser, built lazily from ``grammar/partiql.lark`` with the
tree builder (``tree_builder``) plugged in as Lark's inline transformer (no
parse tree is built), and cache results by text. A lighter loop of ours
(``lalr_loop``) runs Lark's tables; Lark parses again only what the loop
refuses, to report the error (``syntax_errors``).
"""

from __future__ import annotations

import functools
import threading
from importlib import resources

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from partiql.engine.types import checked_text

from . import ast
from .lalr_loop import GiveUp, LalrLoop
from .syntax_errors import syntax_error
from .tree_builder import PostLex, TreeBuilder, keyword_token, number_token

_PARSE_CACHE_SIZE = 1024


# ---------------------------------------------------------------- entry points

_lock = threading.Lock()


def grammar_text() -> str:
    """The text of ``grammar/partiql.lark`` (package ``partiql.grammar``)."""
    return resources.files("partiql.grammar").joinpath("partiql.lark").read_text(encoding="utf-8")


_machinery: tuple | None = None


def _build() -> tuple:
    """Lark, the tree builder its callbacks feed, and the fast loop over that same Lark: built once.

    why: built by two threads at once, each thread would hold its own
    builder while the cache kept the other's, and the ``?`` counter reset in
    ``_parse`` would miss the builder actually numbering parameters (every
    parameterised statement then failed with IndexError, for good). One
    lock, one build, one builder.
    """
    global _machinery
    if _machinery is None:
        with _lock:
            if _machinery is None:
                builder = TreeBuilder()
                parser = Lark(grammar_text(), parser="lalr", lexer="contextual",
                              start=["statement", "dml_statement"], transformer=builder, cache=True,
                              maybe_placeholders=True, postlex=PostLex(),
                              lexer_callbacks={"IDENT": keyword_token, "NUMBER": number_token})
                _machinery = (parser, builder, _new_loop(parser))
    return _machinery


def lark_parser() -> tuple[Lark, TreeBuilder]:
    """The Lark parser and its tree builder."""
    return _build()[:2]


def fast_loop() -> LalrLoop | None:
    """The fast loop over ``lark_parser()``'s tables, or None when Lark's internals moved."""
    return _build()[2]


def _new_loop(parser: Lark) -> LalrLoop | None:
    """The fast loop, or None when this Lark's internals are not the ones it reads.

    why: it reads Lark's parse table, callbacks and contextual lexers, which
    are not Lark's public API; a Lark that moved them still parses, through
    Lark's own loop (a test pins that the installed Lark keeps the fast one).
    """
    try:
        return LalrLoop(parser)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


@functools.lru_cache(maxsize=_PARSE_CACHE_SIZE)
def _parse(text: str, start: str) -> ast.Statement:
    checked_text(text)  # why: a lone surrogate is no statement (and a cached text was checked once)
    parser, builder = lark_parser()
    loop = fast_loop()
    with _lock:  # why: `?` numbering lives on the shared tree builder
        builder.parameters = 0
        if loop is not None:
            try:
                return loop.parse(text, start)
            except GiveUp:
                builder.parameters = 0  # why: Lark parses the text again, to raise its error
        try:
            return parser.parse(text, start=start)
        except (UnexpectedToken, UnexpectedCharacters) as error:
            raise syntax_error(error, text) from None


def parse(text: str) -> ast.Statement:
    """Parse one statement of DynamoDB's dialect or of the shell's extensions.

    Raises ``StatementError`` (a ValidationException) with DynamoDB's
    ``Statement wasn't well formed, can't be processed: ...`` message.
    """
    return _parse(text, "statement")


def parse_dml(text: str) -> ast.Statement:
    """Parse one statement as ExecuteStatement does: DynamoDB's dialect only.

    INF: CREATE/DROP/ALTER/DESCRIBE/SHOW/EXPLAIN fail here exactly like any
    unknown leading word (`Expected data manipulation`).
    """
    return _parse(text, "dml_statement")
