"""What a tool answers: readable text and structured data, both bounded; and the one error a tool raises.

Results are capped (``capped``): an agent's context is small and a Scan's items are not. What was cut is
said in the text and under ``"cut"`` in the data, so the agent knows to narrow its question.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from decimal import Decimal

MAX_TEXT = 20_000        # characters of text a result carries at most
MAX_DATA = 100_000       # bytes of structured data (as JSON) a result carries at most


class ToolError(Exception):
    """A call the tool cannot answer: bad arguments, a refusal (read-only, the scan policy) or DynamoDB's error,
    worded for the agent to act on (with the hints when there are some)."""


@dataclass
class Answer:
    """A tool's result: ``text`` for reading, ``data`` (JSON-safe: ``plain``) for programs."""

    text: str
    data: dict = field(default_factory=dict)


def _number(value: Decimal):
    """A number as JSON holds it: an int when integral, a float when the float is exact, else its text."""
    if value == value.to_integral_value():
        return int(value)
    as_float = float(value)
    return as_float if Decimal(repr(as_float)) == value else str(value)


_PLAIN = {
    Decimal: _number,
    bytes: lambda value: base64.b64encode(value).decode("ascii"),
    bytearray: lambda value: base64.b64encode(bytes(value)).decode("ascii"),
    set: lambda value: sorted(plain(member) for member in value),
    frozenset: lambda value: sorted(plain(member) for member in value),
    tuple: lambda value: [plain(member) for member in value],
    list: lambda value: [plain(member) for member in value],
    dict: lambda value: {("null" if name is None else str(name)): plain(member) for name, member in value.items()},
}


def plain(value):
    """``value`` as JSON-safe data: numbers exact where JSON can hold them, binary as base64, sets as sorted
    lists, tuples as lists, map keys as text."""
    convert = _PLAIN.get(type(value))
    return value if convert is None else convert(value)


def capped(answer: Answer, max_text: int = MAX_TEXT, max_data: int = MAX_DATA) -> Answer:
    """``answer`` within the caps: the text cut with a line saying how much; the data's longest lists
    shortened (their head kept) until its JSON fits, each cut named under ``"cut"``."""
    text, data = answer.text, answer.data
    if len(text) > max_text:
        text = (text[:max_text].rsplit("\n", 1)[0]
                + f"\n… cut: {len(answer.text) - max_text:,} more characters (results are capped at "
                  f"{max_text:,}; narrow the question: a key condition, a projection, a Limit)")
    cuts = []
    while len(json.dumps(data, separators=(",", ":"))) > max_data:
        where = _longest_list(data)
        if where is None:
            data = {"cut": [f"the structured result was over {max_data:,} bytes and is left out; see the text"]}
            break
        holder, name, values = where
        kept = len(values) // 2
        holder[name] = values[:kept]
        cuts.append((name, kept, len(values)))
    if cuts:
        totals: dict = {}
        for name, kept, total in cuts:
            totals[name] = (kept, totals.get(name, (0, total))[1])
        data = dict(data, cut=[f"{name}: the first {kept:,} of {total:,} kept (results are capped at "
                                f"{max_data:,} bytes)" for name, (kept, total) in totals.items()])
    return Answer(text, data)


def _longest_list(data, depth: int = 0):
    """(holder, member name, the list) of the longest list in ``data`` (two levels deep), or None."""
    best = None
    for name, value in (data.items() if isinstance(data, dict) else ()):
        if isinstance(value, list) and len(value) > 1 and (best is None or len(value) > len(best[2])):
            best = (data, name, value)
        elif isinstance(value, dict) and depth < 1:
            found = _longest_list(value, depth + 1)
            if found is not None and (best is None or len(found[2]) > len(best[2])):
                best = found
    return best


def error_words(error, statement: str = "", scan: str = "deny") -> str:
    """DynamoDB's error as the shell words it (with its place in ``statement``), then partiql-ddb's hints; a
    Scan refused by the scan policy says who chose the policy."""
    from partiql.errors import ScanRefused
    from partiql.shell.diagnostics import error_fragments

    if isinstance(error, ScanRefused):  # (the shell's words name its .scan command: these name the server's option)
        text = (f"{error.code}: full table Scan refused: {error.access_path} reads every item, and this server's "
                f"scan policy is {scan} (chosen by whoever started partiql mcp: --scan warn or allow runs full "
                "Scans). Pin the partition key with an equality in WHERE, or read an index keyed on the attribute; "
                "explain shows what a statement reads without running it.")
    else:
        text = "".join(fragment for _, fragment in error_fragments(error, statement)).rstrip()
    for hint in getattr(error, "hints", ()) or ():
        text += f"\nhint: {hint}"
    return text
