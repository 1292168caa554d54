"""Lark's parse errors -> ``StatementError`` with DynamoDB's wording and position.

This module is the one place where Lark's exceptions become ``StatementError``.
"""

from __future__ import annotations

from typing import Any

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from .errors import StatementError
from .keywords import TOKEN_TYPES

# ---------------------------------------------------------------- syntax errors

_OPERATORS = frozenset("""EQ NE LT LE GT GE PLUS MINUS STAR SLASH PERCENT CONCAT
                          AND OR NOT IS IN LIKE BETWEEN""".split())
_INFIX = _OPERATORS - {"NOT"}
_KEYWORDS = frozenset(set(TOKEN_TYPES.values()) - _OPERATORS) | frozenset(
    """TABLE TABLES SHOW EXPLAIN IF HASH RANGE BILLING MODE PROVISIONED DEMAND GSI LSI
       PROJECTING KEYS INCLUDE RCU WCU DDL_TYPE""".split())
_NAMES = frozenset({"IDENT", "QIDENT"})
_ENDS = frozenset({"$END", "SEMI"})


def _expected(state) -> set[str]:
    return {t for t in state.parse_conf.states[state.position] if t.isupper()}


def _previous(state) -> Any:
    return state.value_stack[-1] if state.value_stack else None


def _is_token(value: Any, types: frozenset[str]) -> bool:
    return isinstance(value, Token) and value.type in types


def _by_token(token: Token, previous: Any) -> str:
    """What DynamoDB says about a token it cannot use where a term or clause was due."""
    if token.type in _ENDS:
        if _is_token(previous, _INFIX):
            return "Missing right-hand side expression of infix operator"
        return "Unexpected term"
    if token.type in _OPERATORS:
        return "Unexpected operator"
    if token.type in _KEYWORDS:
        return "Unexpected keyword"
    return "Unexpected term"


def _detail(error: UnexpectedToken) -> str:
    """The detail DynamoDB's parser gives (spec §8.2), from the parser state and the token."""
    state = error.state
    expected = _expected(state)
    previous = _previous(state)
    if len(state.state_stack) == 1:
        # INF: a first token that starts no statement -- including our extensions'
        # words under parse_dml -- fails like any unknown leading word.
        return "Expected data manipulation"
    if _is_token(previous, frozenset({"DOT"})):
        return "Invalid path dot component"
    if "TYPENAME" in expected:
        return "Expected type name"
    if "$END" in expected:
        return "Unexpected token after expression"
    if expected <= _NAMES:
        # spec: `DELETE FROM` with no table. INF: every place that only takes a
        # name (INSERT INTO, UPDATE, SET/REMOVE targets, aliases, DDL names).
        return "Expected identifier for simple path"
    return _by_token(error.token, previous)


def _end_position(text: str) -> tuple[int, int]:
    line = text.count("\n") + 1
    return line, len(text) - (text.rfind("\n") + 1) + 1


def syntax_error(error: Exception, text: str) -> StatementError:
    """Lark's exception -> DynamoDB's `Statement wasn't well formed` error."""
    if isinstance(error, UnexpectedCharacters):
        # `#`, unterminated quotes and comments: DynamoDB says nothing after the
        # colon. INF: so for any other character no token starts with (`@`, `$`).
        return StatementError.syntax("", error.line, error.column, 1)
    token = error.token
    if token.type == "$END":  # Lark places it on the last token; we point past the text
        line, column = _end_position(text)
        return StatementError.syntax(_detail(error), line, column, 1)
    return StatementError.syntax(_detail(error), token.line, token.column, len(token) or 1)
