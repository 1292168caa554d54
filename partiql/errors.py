"""The front end's one error type: a ValidationException that knows where it happened.

DynamoDB words syntax errors as ``Statement wasn't well formed, can't be
processed: <detail>`` and many translation errors as ``<text> at L:C:N``
(1-based line and column, length in characters). ``StatementError`` carries
the position separately too, so a shell can draw a caret under the token.
"""

from __future__ import annotations

from typing import Optional

from partiql.engine.errors import ValidationException

from .ast import Span

SYNTAX_PREFIX = "Statement wasn't well formed, can't be processed: "


class StatementError(ValidationException):
    """A ValidationException about the statement text.

    ``detail`` is the message without prefix or position suffix; ``line``,
    ``column`` and ``length`` locate the offending token (None when unknown).
    """

    def __init__(self, message: str, *, detail: Optional[str] = None, line: Optional[int] = None,
                 column: Optional[int] = None, length: Optional[int] = None):
        super().__init__(message)
        self.detail = message if detail is None else detail
        self.line = line
        self.column = column
        self.length = length

    @property
    def code(self) -> str:
        """DynamoDB's error name: a statement error is a plain ValidationException on the wire."""
        return "ValidationException"

    @classmethod
    def syntax(cls, detail: str, line: Optional[int] = None, column: Optional[int] = None,
               length: Optional[int] = None) -> "StatementError":
        """``Statement wasn't well formed, can't be processed: <detail>``."""
        return cls(SYNTAX_PREFIX + detail, detail=detail, line=line, column=column, length=length)

    @classmethod
    def at(cls, text: str, span: Span) -> "StatementError":
        """``<text> at L:C:N`` for the token at ``span``."""
        return cls(text + position_suffix(span), detail=text, line=span.line, column=span.column,
                   length=span.length)

    @classmethod
    def near(cls, text: str, span: Optional[Span]) -> "StatementError":
        """``<text>`` (no suffix) that still records where it applies, for carets."""
        if span is None:
            return cls(text)
        return cls(text, line=span.line, column=span.column, length=span.length)


class ScanRefused(ValidationException):
    """The connection's scan policy is "deny" and the statement would be a full Scan
    (``access_path``: what it would have read, ``SCAN of T``)."""

    def __init__(self, message: str, access_path: str = ""):
        super().__init__(message)
        self.access_path = access_path

    @property
    def code(self) -> str:
        """A ValidationException on the wire, as an IAM-style refusal would be."""
        return "ValidationException"


def position_suffix(span: Span) -> str:
    """DynamoDB's source-position suffix: `` at line:column:length``."""
    return f" at {span.line}:{span.column}:{span.length}"


class EndpointUnreachable(ConnectionError):
    """A remote connection's endpoint did not answer (refused, timed out, reset): nothing was done there
    that the caller knows of; the message names the endpoint and the cause."""
