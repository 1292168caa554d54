"""ExecuteStatement's knobs in the shell (issue #13 point 3): Limit and the next page, ConsistentRead, ``?``.

``.limit N`` runs a SELECT as DynamoDB runs it with ``Limit=N``: one page of
at most N evaluated items, its NextToken kept for ``.next`` (the status line
says ``more: .next``); ``.limit off`` follows every page again. ``.consistent
on`` asks for strongly consistent reads (1 RCU per 4 KB, not 0.5).
``.param 'u102', 5`` binds values (PartiQL literals, in order) to the ``?`` of
the statements that follow; ``.param clear`` unbinds them. All of it lasts
for the session.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field

from partiql.literals import to_value
from partiql.parser import parse_dml

from .diagnostics import ShellError

# why: DynamoDB's PartiQL has no LIMIT clause; the shell points at its own knob.
LIMIT_HINT = "hint: DynamoDB's PartiQL has no LIMIT clause: .limit N sets DynamoDB's Limit, and .next reads on"


@dataclass
class Knobs:
    """The session's ExecuteStatement options, and the page ``.next`` would read."""

    limit: int | None = None
    consistent: bool = False
    params: list = field(default_factory=list)
    pending: tuple | None = None  # (statement, NextToken) of the last limited read that has more


def parse_limit(text: str) -> int | None:
    """``N`` (1 or more) or ``off``."""
    if text.lower() == "off":
        return None
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ShellError(f".limit takes a whole number of items from 1, or off, not {text!r}")
    return int(text)


def parse_params(text: str) -> list:
    """Values for ``?`` from comma-separated PartiQL literals: ``'u102', 5, [1, 2], {'a': true}``."""
    try:
        statement = parse_dml(f"INSERT INTO shell_parameters VALUE {{'p': [{text}]}}")
        return to_value(statement.value)["p"]
    except Exception as error:  # noqa: BLE001 - any failure is the user's text: say so, with what it was
        detail = _WRAPPER.sub("", getattr(error, "message", None) or str(error))  # (no name of our wrapper)
        quoted = _DOUBLE_QUOTED.search(text)
        hint = f"; strings take single quotes: '{quoted.group(1)}'" if quoted else ""
        raise ShellError(f".param takes PartiQL values separated by commas ('text', 5, [1, 2]): {detail}{hint}") \
            from None


# what parse_params' wrapper statement adds to an error: the wrapper's names and its positions
_WRAPPER = re.compile(r" under (?:key )?root\.p(?:\[\d+\])?| at \d+:\d+:\d+$")
_DOUBLE_QUOTED = re.compile(r'"([^"]*)"')
