"""Source spans of tokens and AST nodes, and the token helpers both tree builders share (``tree_builder`` for
the statements, ``ddl_builder`` for the DDL extensions)."""

from __future__ import annotations

from typing import Any

from lark import Token

from . import ast


def span_of(x: Any) -> ast.Span:
    if isinstance(x, Token):
        return ast.Span(x.line, x.column, x.end_pos - x.start_pos, x.start_pos, x.end_pos)
    return x.span


def over(first: Any, *rest: Any) -> ast.Span:
    """The span from ``first`` to the last non-None of ``rest`` (or ``first`` alone)."""
    last = first
    for item in reversed(rest):
        if item is not None:
            last = item
            break
    if last is first:
        return span_of(first)
    # why: one new Span per node, not one per end
    end = last.end_pos if isinstance(last, Token) else last.span.end
    if isinstance(first, Token):
        return ast.Span(first.line, first.column, end - first.start_pos, first.start_pos, end)
    return first.span.to(end)


def unquote(tok: Token) -> str:
    """The name an IDENT/QIDENT/STRING token denotes (`""` and `''` escape a quote)."""
    if tok.type == "IDENT":
        return str(tok)
    quote = tok[0]
    return tok[1:-1].replace(quote * 2, quote)


def flag(tok: Any) -> bool:
    return tok is not None


# ---------------------------------------------------------------- lexer hooks
