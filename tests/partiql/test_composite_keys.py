"""Advice on concatenated keys (issue 31 point 4): a key attribute whose values are other attributes' values
(or labelled parts) joined by a separator is one a multi-attribute GSI would replace; ``.describe`` and a
``begins_with`` over it say so, anything else says nothing."""

from __future__ import annotations

import pytest

import partiql


def _table(rows: list, gsi: bool = False) -> partiql.Connection:
    db = partiql.connect()
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH, sk STRING RANGE)"
               + (" GSI (ByGk ON (gk STRING HASH) PROJECTING KEYS ONLY)" if gsi else ""))
    for n, row in enumerate(rows):
        db.engine.put_item(TableName="Orders", Item={"pk": "acme", "sk": f"s{n}", **row})
    return db


CASES = {  # rows -> the advice's attribute and parts (None: no advice)
    "parts are other attributes": ([{"sk": f"REGION#eu#STATUS#s{n % 2}#{n}", "Region": "eu", "Status": f"s{n % 2}"}
                                    for n in range(8)], ("sk", "Region, Status")),
    "labelled parts": ([{"sk": f"TENANT#t{n}#DATE#2026-0{n}"} for n in range(8)], ("sk", "Tenant, Date")),
    "a pipe": ([{"sk": f"{n % 3}|x{n}", "Shard": n % 3} for n in range(8)], ("sk", "Shard")),
    "a GSI's key": ([{"gk": f"{n % 2}#c{n}", "Bucket": str(n % 2)} for n in range(6)], ("gk", "Bucket")),
    "parts that are nothing": ([{"sk": f"plain#{n}"} for n in range(8)], None),
    "no separator": ([{"sk": f"value{n}", "Other": f"value{n}"} for n in range(8)], None),
    "too few items": ([{"sk": f"REGION#eu#{n}", "Region": "eu"} for n in range(4)], None),
    "mostly plain": ([{"sk": f"REGION#eu#{n}", "Region": "eu"} for n in range(3)] + [{"sk": f"v{n}"} for n in range(7)],
                     None),
}


@pytest.mark.parametrize("rows, expected", CASES.values(), ids=CASES)
def test_design_advice(rows, expected):
    db = _table(rows, gsi=True)
    advice = db.design_advice("Orders")
    if expected is None:
        assert advice == []
        return
    attribute, parts = expected
    assert len(advice) == 1 and advice[0].startswith(f"{attribute} holds concatenated values (")
    assert f"a GSI keyed on several attributes ({parts}) would replace it" in advice[0]


def test_describe_and_a_begins_with_over_the_key_give_the_advice():
    rows = CASES["parts are other attributes"][0]
    db = _table(rows)
    result = db.execute("SELECT * FROM Orders WHERE pk = 'acme' AND begins_with(sk, 'REGION#eu#STATUS#s1')")
    assert [warning for warning in result.warnings if "concatenated" in warning] == db.design_advice("Orders")
    plain = db.execute("SELECT * FROM Orders WHERE pk = 'acme' AND sk = 'REGION#eu#STATUS#s1#1'")
    assert not [warning for warning in plain.warnings if "concatenated" in warning]
    from partiql.shell.explain import render_description
    text = render_description(db.describe("Orders"), db.layout("Orders"))
    assert "Advice:\n  sk holds concatenated values ('REGION#eu#STATUS#s0#0')" in text


def test_the_hint_looks_at_a_sample_again_only_as_the_table_grows(monkeypatch):
    """A begins_with statement must not read 200 items each time: the finding is remembered per table, looked
    for again while the table is under the sample, or once it has grown by a tenth."""
    from partiql import composite_keys
    looks = []
    real = composite_keys.concatenated_keys
    monkeypatch.setattr(composite_keys, "concatenated_keys", lambda table: looks.append(1) or real(table))
    db = _table([{"sk": f"REGION#eu#STATUS#s{n % 2}#{n}", "Region": "eu", "Status": f"s{n % 2}"}
                 for n in range(composite_keys.SAMPLE + 20)])
    statement = "SELECT * FROM Orders WHERE pk = 'acme' AND begins_with(sk, 'REGION#eu#STATUS#s1')"
    for _ in range(5):
        assert any("concatenated" in warning for warning in db.execute(statement).warnings)
    assert len(looks) == 1
    db.engine.put_item(TableName="Orders", Item={"pk": "acme", "sk": "one more"})
    db.execute(statement)
    assert len(looks) == 1  # (220 → 221 items: less than a tenth)
    for n in range(25):
        db.engine.put_item(TableName="Orders", Item={"pk": "acme", "sk": f"more{n}"})
    db.execute(statement)
    assert len(looks) == 2
