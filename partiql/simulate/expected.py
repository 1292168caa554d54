"""A pattern's ``expect``: what its statement must return for the seed data, checked once before the clock starts
(NoSQL Workbench's "validate access patterns", on our engine).

::

    [[pattern]]
    name = "orders of a customer"
    statement = "SELECT * FROM Orders WHERE CustomerId = ?"
    params = [{ item = "Orders.CustomerId" }]
    rate = 50
    expect = { params = ["c#1"], count = 2 }           # or items = [{ CustomerId = "c#1", OrderId = "o#1" }, …]

``params`` are the values of the check (default: the first values the
pattern's generators draw, as planning draws them); ``count`` the items of
every page; ``items`` the items themselves, in order. Only a SELECT may
expect: a write would change the seed data the run starts from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal

from partiql.engine.errors import DynamoDBError

from .errors import WorkloadError

MEMBERS = ("params", "count", "items")
SHOWN = 3  # items quoted in a failed expectation


@dataclass(frozen=True)
class Expect:
    """What a pattern must return: ``count`` items, or these ``items`` in this order (None: not said)."""

    params: list | None = None
    count: int | None = None
    items: list | None = None


def parse_expect(entry, where: str, statement: str) -> Expect:
    """``entry`` (the pattern's ``expect``) checked for its form."""
    if not isinstance(entry, dict) or not entry or set(entry) - set(MEMBERS):
        raise WorkloadError(f"{where} takes a table of {', '.join(MEMBERS)} (count or items, at least one)")
    if not statement.lstrip()[:6].upper() == "SELECT":
        raise WorkloadError(f"{where}: only a SELECT may expect (a write would change the seed data the run "
                            "starts from)")
    count, items, params = entry.get("count"), entry.get("items"), entry.get("params")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 0):
        raise WorkloadError(f"{where}.count takes a whole number of items >= 0, not {count!r}")
    if items is not None and (not isinstance(items, list) or not all(isinstance(i, dict) for i in items)):
        raise WorkloadError(f"{where}.items takes a list of items (tables of attribute = value)")
    if count is None and items is None:
        raise WorkloadError(f"{where} needs count or items")
    if count is not None and items is not None and count != len(items):
        raise WorkloadError(f"{where}: count is {count} but items lists {len(items)}")
    if params is not None and not isinstance(params, list):
        raise WorkloadError(f"{where}.params takes a list of values, one per ?")
    return Expect(params, count, None if items is None else [_exact(item) for item in items])


def check(db, name: str, statement: str, drawn: list, expect: Expect, source: str) -> str:
    """Run the statement once (every page) and compare; a WorkloadError saying what came back otherwise.
    Returns what was checked, for the reports."""
    params = drawn if expect.params is None else expect.params
    try:
        got = [item for page in db.pages(statement, params) for item in page.items]
    except DynamoDBError as error:
        raise WorkloadError(f"{source}: pattern {name} expects a result, but its statement {_with(params)} is "
                            f"refused: {error.message}") from None
    wanted = expect.count if expect.items is None else len(expect.items)
    shown = _with(params)
    if len(got) != wanted or (expect.items is not None and got != expect.items):
        said = f"{len(got)} item{'' if len(got) == 1 else 's'}" + (f": {_json(got[:SHOWN])}" if got else "") \
            + (" …" if len(got) > SHOWN else "")
        raise WorkloadError(f"{source}: pattern {name} expects {wanted} item{'' if wanted == 1 else 's'} "
                            f"{'as listed ' if expect.items is not None else ''}{shown}; the seed data gives {said}")
    return f"returns {wanted} item{'' if wanted == 1 else 's'} {shown}, as expected"


def _with(params: list) -> str:
    return f"with {_json(params)}" if params else "with no parameters"


def _json(values) -> str:
    """Items or values as JSON text (numbers as written; what JSON has no form for, as its repr)."""
    return json.dumps(values, default=lambda v: (int(v) if v == v.to_integral_value() else float(v))
                      if isinstance(v, Decimal) else repr(v), ensure_ascii=False)


def _exact(value):
    """A TOML value as the engine returns it: numbers as Decimals (0.1 is 0.1, not the nearest binary float)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if isinstance(value, list):
        return [_exact(v) for v in value]
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items()}
    return value
