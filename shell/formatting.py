"""Items as text: table, vertical, json, jsonl, csv and ddb-json.

Items are schemaless, so every format works on the same columns: the key
attributes first (in key-schema order), then every other attribute in the
order it first appears. Each format is one function in ``FORMATS`` taking
``(items, columns, width)``; ``render_items`` applies the row limit and the
``N of M items shown`` footer around whichever one is chosen.
"""

from __future__ import annotations

import base64
import csv
import io
import json
from decimal import Decimal

from partiql.engine.types import number_text
from partiql.engine.wire_values import item_to_wire

from .printable import printable

FOOTER = "{shown} of {total} items shown (.last shows them all)"


# ---------------------------------------------------------------- values

def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _json_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


_JSON = {
    str: _json_string,
    Decimal: number_text,
    bool: lambda v: "true" if v else "false",
    type(None): lambda v: "null",
    bytes: lambda v: _json_string(_b64(v)),
    list: lambda v: "[" + ", ".join(to_json(m) for m in v) + "]",
    dict: lambda v: "{" + ", ".join(f"{_json_string(k)}: {to_json(m)}" for k, m in v.items()) + "}",
    frozenset: lambda v: to_json(sorted(v)),
    set: lambda v: to_json(sorted(v)),
}


def to_json(value) -> str:
    """A Python value as JSON text: numbers exact, binary as base64, sets as sorted arrays."""
    return _JSON[type(value)](value)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


_LITERAL = {
    str: _quote,
    Decimal: number_text,
    bool: lambda v: "true" if v else "false",
    type(None): lambda v: "NULL",
    bytes: lambda v: _quote(_b64(v)),
    list: lambda v: "[" + ", ".join(literal(m) for m in v) + "]",
    dict: lambda v: "{" + ", ".join(f"{_quote(k)}: {literal(m)}" for k, m in v.items()) + "}",
    frozenset: lambda v: "<<" + ", ".join(literal(m) for m in sorted(v)) + ">>",
    set: lambda v: "<<" + ", ".join(literal(m) for m in sorted(v)) + ">>",
}


def literal(value) -> str:
    """A Python value in PartiQL literal notation (`'s'`, `[1, 2]`, `{'k': 'v'}`, `<<'a'>>`)."""
    return _LITERAL[type(value)](value)


def cell(value) -> str:
    """A value as one table cell: scalars bare (strings unquoted), documents as literals."""
    if type(value) is str:
        return value
    if type(value) is bytes:
        return _b64(value)
    return literal(value)


# ---------------------------------------------------------------- columns

def columns(items: list, keys: list) -> list:
    """Key attributes present in any item (key-schema order), then the rest in first-seen order."""
    seen: dict = {}
    for item in items:
        seen.update(dict.fromkeys(item))
    return [k for k in keys if k in seen] + [name for name in seen if name not in keys]


def _is_number_column(items: list, name: str) -> bool:
    values = [item[name] for item in items if name in item]
    return bool(values) and all(type(v) is Decimal for v in values)


# ---------------------------------------------------------------- formats

def render_table(items: list, names: list, width: int) -> str:
    """A box-drawn table; falls back to vertical when a row is wider than ``width``."""
    from tabulate import tabulate  # why: ~30 ms to import, and only this format needs it

    if not names:
        return ""
    # (a display format: what a terminal would act on is shown escaped; see ``printable``)
    rows = [[printable(cell(item[n])) if n in item else "" for n in names] for item in items]
    align = ["right" if _is_number_column(items, n) else "left" for n in names]
    text = tabulate(rows, headers=[printable(n) for n in names], tablefmt="simple_outline",
                    disable_numparse=True, colalign=align)
    if width and max(len(line) for line in text.splitlines()) > width:
        return render_vertical(items, names, width)
    return text


def render_vertical(items: list, names: list, width: int) -> str:
    """One attribute a line under an ``-[ ITEM n ]-`` rule, each item's own attributes only."""
    shown = {n: printable(n) for n in names}
    label = max((len(n) for n in shown.values()), default=0)
    blocks = []
    for number, item in enumerate(items, 1):
        lines = [f"-[ ITEM {number} ]" + "-" * max(0, label - 6)]
        lines += [f"{shown[n].ljust(label)} | {printable(cell(item[n]))}" for n in names if n in item]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def render_json(items: list, names: list, width: int) -> str:
    """A JSON array, one item a line, attributes in column order."""
    if not items:
        return "[]"
    body = ",\n".join("  " + to_json(_ordered(item, names)) for item in items)
    return "[\n" + body + "\n]"


def render_jsonl(items: list, names: list, width: int) -> str:
    """One JSON object a line."""
    return "\n".join(to_json(_ordered(item, names)) for item in items)


def render_csv(items: list, names: list, width: int) -> str:
    """RFC 4180 CSV with a header row; documents as JSON, missing attributes empty."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if names:
        writer.writerow(names)
    for item in items:
        writer.writerow([_csv_cell(item[n]) if n in item else "" for n in names])
    return out.getvalue().rstrip("\n")


def render_ddb_json(items: list, names: list, width: int) -> str:
    """DynamoDB's typed JSON (``{"a": {"S": "x"}}``), one item a line."""
    return "\n".join(json.dumps(item_to_wire(_ordered(item, names)), ensure_ascii=False)
                     for item in items)


def _csv_cell(value) -> str:
    return to_json(value) if type(value) in (list, dict, set, frozenset) else cell(value)


def _ordered(item: dict, names: list) -> dict:
    return {n: item[n] for n in names if n in item}


FORMATS = {
    "table": render_table,
    "vertical": render_vertical,
    "json": render_json,
    "jsonl": render_jsonl,
    "csv": render_csv,
    "ddb-json": render_ddb_json,
}


def render_items(items: list, fmt: str, keys: list, width: int = 0, limit: int = 0) -> str:
    """``items`` in format ``fmt``; with ``limit`` > 0 only the first ``limit`` and a footer."""
    shown = items[:limit] if limit else items
    text = FORMATS[fmt](shown, columns(shown, keys), width)
    if len(shown) < len(items):
        text += "\n" + FOOTER.format(shown=len(shown), total=len(items))
    return text
