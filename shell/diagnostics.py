"""Errors as people read them: a header with kind and position, the line, a caret.

::

    script.sql:13: syntax error at 1:15: Statement wasn't well formed, can't be processed: Unexpected keyword
      SELECT * FROM WHERE x = 1
                    ^^^^^

Positions are the statement's own (as in DynamoDB's ``at L:C:N`` suffixes);
in scripts the header starts with the source and the line the statement
starts on. Errors without a position read ``ConditionalCheckFailedException:
The conditional request failed``. The messages are DynamoDB's, verbatim;
the shell's own (``ShellError``) are printed as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from partiql.engine.errors import DynamoDBError
from partiql.engine.storage import StorageError
from partiql.errors import SYNTAX_PREFIX, EndpointUnreachable, ScanRefused


class ShellError(Exception):
    """A problem of the shell's own (a bad meta-command, an unreadable file): reported as it is."""


@dataclass(frozen=True)
class Where:
    """Where a statement came from: a source name (a file, ``-e``, ``<stdin>``) and its first line."""

    source: str
    line: int

    def prefix(self) -> str:
        return f"{self.source}:{self.line}: "


def kind(error: Exception) -> str:
    """``syntax error``, DynamoDB's exception name, or ``internal error`` for a bug of ours."""
    if isinstance(error, DynamoDBError):
        return "syntax error" if error.message.startswith(SYNTAX_PREFIX) else error.code
    if isinstance(error, StorageError):  # the database file's state (read-only, closed, a full disk)
        return "storage error"
    if isinstance(error, EndpointUnreachable):  # the network, not a bug: the session goes on
        return "network error"
    return "internal error"


# The library's refusal names its own attribute (scan_policy); the shell's names its command.
SCAN_REFUSED = ("full table scans are refused in this session (.scan deny): {}. Pin the partition key with an "
                "equality in WHERE, or .scan warn (ask first) / .scan allow")


def message(error: Exception) -> str:
    if isinstance(error, (StorageError, EndpointUnreachable)):
        return str(error)
    if isinstance(error, ScanRefused):
        return SCAN_REFUSED.format(error.access_path)
    if isinstance(error, DynamoDBError):
        return error.message
    return f"{type(error).__name__}: {error}"


# An over-long statement line shows this many characters around the error, a message this many.
LINE_WINDOW = 100
MESSAGE_KEPT = 400
ELLIPSIS = "…"


def caret_lines(statement: str, line: int, column: int, length: int | None) -> list:
    """The statement's ``line`` and a caret as wide as the token at ``column`` (1-based); a line
    longer than ``LINE_WINDOW`` is cut to the window around the token, an ellipsis where it was cut."""
    lines = statement.splitlines() or [""]
    text = lines[min(line, len(lines)) - 1]
    width = max(1, min(length or 1, len(text) - column + 1))
    if len(text) > LINE_WINDOW:
        start = max(0, min(column - 1 - LINE_WINDOW // 2, len(text) - LINE_WINDOW))
        end = start + LINE_WINDOW
        head, tail = (ELLIPSIS if start else ""), (ELLIPSIS if end < len(text) else "")
        column -= start - len(head)
        text = head + text[start:end] + tail
        width = min(width, len(text) - column + 1)
    lead = "".join(c if c == "\t" else " " for c in text[:column - 1])
    return [text, lead + "^" * width]


def elided(text: str, kept: int = MESSAGE_KEPT) -> str:
    """``text``, its middle elided past ``kept`` characters (DynamoDB quotes a whole over-long
    statement in its message; the shell shows its start and end, and how much it left out)."""
    if len(text) <= kept:
        return text
    left = kept * 2 // 3
    right = kept - left
    return f"{text[:left]} {ELLIPSIS} ({len(text) - kept:,} characters) {ELLIPSIS} {text[-right:]}"


def error_fragments(error: Exception, statement: str, where: Where | None = None) -> list:
    """``(class, text)`` fragments describing ``error`` raised by ``statement``."""
    head = where.prefix() if where else ""
    if isinstance(error, ShellError):
        return [("error", f"{head}{error}")]
    line, column = getattr(error, "line", None), getattr(error, "column", None)
    if line is None or column is None:
        return [("error", f"{head}{kind(error)}"), ("", f": {elided(message(error))}")]
    text, caret = caret_lines(statement, line, column, getattr(error, "length", None))
    return [("error", f"{head}{kind(error)} at {line}:{column}"), ("", f": {elided(message(error))}\n  {text}\n"),
            ("caret", f"  {caret}")]


def local_only(session, command: str) -> None:
    """ShellError for a command that reads the local engine, when the shell runs on an endpoint."""
    if session.db.remote:
        raise ShellError(f"{command} works on a local database; this shell runs on {session.db.where}")
