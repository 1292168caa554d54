"""Issue 37 point 7: a pattern's ``expect`` — what it must return for the seed data, checked once before the
clock starts. The seed items are generated, so the expected answers are computed here by a plain model of
the table (a dict of items grouped by key), not written down from the engine's answers."""

from __future__ import annotations

import json

import pytest

from partiql.simulate import WorkloadError, parse, report, simulate
from shell import simulate as command

SEEDED = """duration = 2
seed = {seed}
tables = ["CREATE TABLE Orders PRIMARY KEY (CustomerId STRING HASH, OrderId STRING RANGE)"]
[[data]]
table = "Orders"
count = 12
item = {{ CustomerId = {{ choice = ["c#1", "c#2", "c#3"] }}, OrderId = {{ sequence = "o#{{}}" }}, Total = 7.25 }}
[[pattern]]
name = "orders"
statement = "SELECT * FROM Orders WHERE CustomerId = ?"
params = [{{ item = "Orders.CustomerId" }}]
rate = 5
{expect}
"""


def _model(seed: int) -> dict:
    """CustomerId -> its items in sort-key order, from the seed data as a plain dict (a run with nothing to
    check reads what was seeded)."""
    import random

    import partiql
    from partiql.simulate.runner import _build

    workload = parse(SEEDED.format(seed=seed, expect=""), "w.toml")
    db = partiql.connect()
    _build(db, workload, random.Random(seed))
    by_customer: dict = {}
    for item in db.engine.table("Orders").store.scan(None):
        by_customer.setdefault(item.item["CustomerId"], []).append(
            {"CustomerId": item.item["CustomerId"], "OrderId": item.item["OrderId"], "Total": 7.25})
    return {key: sorted(items, key=lambda item: item["OrderId"]) for key, items in by_customer.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_true_expectation_passes_and_is_reported(seed):
    model = _model(seed)
    customer = sorted(model)[0]
    items = ", ".join("{ " + ", ".join(f'{k} = {json.dumps(v)}' for k, v in item.items()) + " }"
                      for item in model[customer])
    for expect in (f'expect = {{ params = ["{customer}"], count = {len(model[customer])} }}',
                   f'expect = {{ params = ["{customer}"], items = [{items}] }}',
                   'expect = { params = ["nobody"], count = 0 }'):
        found = report(simulate(parse(SEEDED.format(seed=seed, expect=expect), "w.toml")))
        (pattern,) = found["patterns"]
        assert pattern["expected"].endswith(", as expected") and pattern["requested"] == 10


@pytest.mark.parametrize("seed", [1, 2])
def test_a_false_expectation_stops_the_run_saying_what_came_back(seed):
    model = _model(seed)
    customer = sorted(model)[0]
    wrong = len(model[customer]) + 1
    with pytest.raises(WorkloadError) as stopped:
        simulate(parse(SEEDED.format(seed=seed, expect=f'expect = {{ params = ["{customer}"], count = {wrong} }}'),
                       "w.toml"))
    said = str(stopped.value)
    assert said.startswith(f'w.toml: pattern orders expects {wrong} items with ["{customer}"]; the seed data gives '
                           f'{len(model[customer])} item')
    assert json.dumps(model[customer][0]["OrderId"]) in said
    # the same items in another order are not the items expected (a Query returns them in sort-key order)
    items = ", ".join('{ CustomerId = "%s", OrderId = "%s", Total = 7.25 }' % (customer, item["OrderId"])
                      for item in reversed(model[customer]))
    if len(model[customer]) > 1:
        with pytest.raises(WorkloadError, match="as listed"):
            expect = f'expect = {{ params = ["{customer}"], items = [{items}] }}'
            simulate(parse(SEEDED.format(seed=seed, expect=expect), "w.toml"))


def test_without_params_the_check_uses_the_values_planning_draws():
    text = SEEDED.format(seed=1, expect="expect = { count = 1 }").replace('{ item = "Orders.CustomerId" }', '"c#none"')
    with pytest.raises(WorkloadError, match=r'expects 1 item with \["c#none"\]; the seed data gives 0 items'):
        simulate(parse(text, "w.toml"))


@pytest.mark.parametrize("expect, words", [
    ("expect = 3", "pattern[0].expect takes a table of params, count, items"),
    ("expect = {}", "pattern[0].expect takes a table of params, count, items"),
    ("expect = { rows = 3 }", "pattern[0].expect takes a table of params, count, items"),
    ("expect = { params = [] }", "pattern[0].expect needs count or items"),
    ("expect = { count = -1 }", "pattern[0].expect.count takes a whole number of items >= 0, not -1"),
    ("expect = { count = true }", "pattern[0].expect.count takes a whole number"),
    ("expect = { items = [1] }", "pattern[0].expect.items takes a list of items"),
    ("expect = { count = 2, items = [{ a = 1 }] }", "pattern[0].expect: count is 2 but items lists 1"),
    ("expect = { params = 'c#1', count = 1 }", "pattern[0].expect.params takes a list of values"),
])
def test_an_expectation_that_cannot_be_is_named_with_its_place(expect, words):
    with pytest.raises(WorkloadError, match=words.replace("[", r"\[").replace("]", r"\]")):
        parse(SEEDED.format(seed=1, expect=expect), "w.toml")


def test_a_write_may_not_expect():
    text = SEEDED.format(seed=1, expect="expect = { count = 0 }").replace(
        "SELECT * FROM Orders WHERE CustomerId = ?", "DELETE FROM Orders WHERE CustomerId = ? AND OrderId = 'x'")
    with pytest.raises(WorkloadError, match="only a SELECT may expect"):
        parse(text, "w.toml")


def test_the_cli_exits_1_before_any_request_and_shows_a_kept_expectation(tmp_path, capsys):
    path = tmp_path / "w.toml"
    path.write_text(SEEDED.format(seed=1, expect='expect = { params = ["nobody"], count = 1 }'))
    assert command.main([str(path)]) == 1
    assert "pattern orders expects 1 item with [\"nobody\"]; the seed data gives 0 items" in capsys.readouterr().err
    path.write_text(SEEDED.format(seed=1, expect='expect = { params = ["nobody"], count = 0 }'))
    html = tmp_path / "r.html"
    assert command.main([str(path), "--html", str(html)]) == 0
    assert '  expect: returns 0 items with ["nobody"], as expected' in capsys.readouterr().out
    assert "expect: returns 0 items with [&quot;nobody&quot;], as expected" in html.read_text()
