"""The status line printed after every statement: what DynamoDB did and what it charged.

``3 items (120 scanned) · SCAN of Music · 15.5 RCU (table 12, ByYear 3.5) · 4.2 ms``
— the result's message (DDL: ``Table T created``), the item count (reads,
and writes that return items), the access path (a full Scan in the ``scan``
colour), consumed capacity split by index when an index was touched, and the
elapsed time when the timer is on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from partiql.result import Result

SEPARATOR = " · "
_WORD = re.compile(r"[A-Za-z]+")
# Statements that change nothing: the shell's catalog still holds after them, a read-only agent server runs them.
READ_ONLY = ("SELECT", "EXPLAIN", "DESCRIBE", "SHOW")


@dataclass
class Run:
    """One statement as the shell ran it: the result of all its pages put together."""

    statement: str
    result: Result
    elapsed: float
    pages: int = 1
    cancelled: bool = False
    more: bool = False  # a page read with .limit, and DynamoDB has more: .next reads on

    @property
    def verb(self) -> str:
        return leading_word(self.statement)


def leading_word(statement: str) -> str:
    """The statement's first word in capitals (statements from the splitter start with it)."""
    match = _WORD.match(statement)
    return match.group().upper() if match else ""


def units(value: float) -> str:
    """Capacity units without a needless ``.0``: 1, 0.5, 12.5, 1234567.5."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def duration(seconds: float) -> str:
    """``0.8 ms``, ``42 ms``, ``1.25 s``."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    millis = seconds * 1000
    return f"{millis:.1f} ms" if millis < 10 else f"{millis:.0f} ms"


def capacity_text(capacity) -> str:
    """``0.5 RCU``, ``2 WCU``, ``1 RCU + 2 WCU``, with ``(table x, Index y)`` when indexes were charged."""
    parts = [f"{units(n)} {unit}" for n, unit in ((capacity.read_units, "RCU"),
                                                  (capacity.write_units, "WCU")) if n]
    text = " + ".join(parts) or "0 RCU"
    if capacity.indexes:
        arms = [f"table {units(capacity.table)}"]
        arms += [f"{name} {units(n)}" for name, n in capacity.indexes.items()]
        text += f" ({', '.join(arms)})"
    return text


def _count(run: Run) -> str | None:
    """``3 items (120 scanned)`` for reads and for writes that returned items."""
    result = run.result
    if run.verb not in ("SELECT", "SHOW") and not (result.items and run.verb != "DESCRIBE"):
        return None
    count = len(result.items)
    text = f"{count} item" + ("" if count == 1 else "s")
    if result.scanned_count > count:
        text += f" ({result.scanned_count} scanned)"
    return text


def status_fragments(run: Run, timer: bool, where: str | None = None) -> list:
    """The status line as ``(class, text)`` fragments (classes are ``[colors]`` keys); ``where`` names a
    remote endpoint the statement ran on."""
    result = run.result
    pieces = [("remote", where)] if where else []
    if result.message:
        pieces.append(("status", result.message))
    if run.cancelled:
        pieces.append(("warning", f"cancelled after {run.pages} page" + ("" if run.pages == 1 else "s")))
    count = _count(run)
    if count:
        pieces.append(("status", count))
    if result.plan is not None:
        pieces.append(("scan" if result.plan.full_table_scan else "status", result.plan.access_path))
    if result.consumed_capacity.total:
        pieces.append(("capacity", capacity_text(result.consumed_capacity)))
    if run.more:
        pieces.append(("status", "more: .next"))
    if timer:
        pieces.append(("status", duration(run.elapsed)))
    fragments = []
    for piece in pieces:
        if fragments:
            fragments.append(("status", SEPARATOR))
        fragments.append(piece)
    return fragments
