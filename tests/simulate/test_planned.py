"""Issue 37 point 1: every pattern is planned against its design before the clock starts.

A statement that cannot run stops the run before any request, saying which pattern and why (with the hints);
a full Scan is named in the terminal, JSON and HTML reports with what would make it a Query, and makes the
exit status 1 unless it is declared (``scan = true``, ``--allow-scan``)."""

from __future__ import annotations

import json

import pytest

from partiql.shell import simulate as command
from partiql.simulate import WorkloadError, parse, simulate

TABLES = ('tables = ["CREATE TABLE Orders PRIMARY KEY (pk STRING HASH) '
          'GSI (byStatus ON (status STRING HASH) PROJECTING ALL)"]\n'
          '[[data]]\ntable = "Orders"\ncount = 20\n'
          'item = { pk = { sequence = "o{}" }, status = { choice = ["open", "shipped"] }, total = { number = [1, 9] } }\n')


def _workload(pattern: str) -> str:
    return f"duration = 3\nseed = 1\n{TABLES}[[pattern]]\nname = \"p\"\n{pattern}\nrate = 5\n"


@pytest.mark.parametrize("pattern, words", [
    ('statement = "SELECT * FROM Ordrs WHERE pk = ?"\nparams = ["o1"]',
     "Requested resource not found\n  hint: there is no table Ordrs: did you mean Orders?"),
    ('statement = "SELECT * FORM Orders WHERE pk = ?"\nparams = ["o1"]', "did you mean FROM?"),
    ('statement = "SELECT * FROM \\"Orders\\".\\"byStatu\\" WHERE status = ?"\nparams = ["open"]',
     "hint: Orders has no index byStatu: did you mean byStatus?"),
    ('statement = "SELECT * FROM Orders WHERE pk = ? AND status = ?"\nparams = ["o1"]',
     "Number of parameters in request and statement don't match."),
    ('statement = "SELECT * FROM Orders WHERE pk = ?"\nparams = ["o1", "extra"]',
     "pattern p has 2 generators in params for 1 ? in its statement"),
])
def test_a_statement_that_cannot_run_stops_the_run_before_any_request(pattern, words, monkeypatch):
    sent = []
    monkeypatch.setattr("partiql.simulate.runner._send", lambda *args: sent.append(args))
    with pytest.raises(WorkloadError) as stopped:
        simulate(parse(_workload(pattern), "w.toml"))
    assert str(stopped.value).startswith("w.toml: pattern p ") and words in str(stopped.value)
    assert sent == []


def test_the_cli_says_so_and_exits_non_zero(tmp_path, capsys):
    path = tmp_path / "w.toml"
    path.write_text(_workload('statement = "SELECT * FROM Ordrs WHERE pk = ?"\nparams = ["o1"]'))
    assert command.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert f"partiql simulate: {path}: pattern p cannot run" in err and "did you mean Orders?" in err


SCAN = 'statement = "SELECT * FROM Orders WHERE status = ?"\nparams = [{ choice = ["open"] }]'
ADVICE = 'Orders.byStatus is keyed on status: FROM "Orders"."byStatus" would be a Query'


@pytest.mark.parametrize("extra, flags, status, declared", [
    ("", [], 1, False), ("scan = true", [], 0, True), ("", ["--allow-scan"], 0, True)])
def test_a_scan_is_named_in_every_report_and_gates_the_exit_status(tmp_path, capsys, extra, flags, status, declared):
    path = tmp_path / "w.toml"
    path.write_text(_workload(f"{SCAN}\n{extra}"))
    html = tmp_path / "r.html"
    assert command.main([str(path), *flags, "--html", str(html)]) == status
    out, err = capsys.readouterr()
    assert "  SCAN of Orders -- a full Scan every request" + ("" if declared else " (not declared)") in out
    assert ADVICE in out
    assert ("a full Scan not declared" in err) is not declared
    page = html.read_text()
    assert "SCAN of Orders" in page and "a full Scan every request" in page and ADVICE.replace('"', "&quot;") in page
    assert command.main([str(path), *flags, "--json"]) == status
    found = json.loads(capsys.readouterr().out)["patterns"][0]
    assert (found["access"], found["full_scan"], found["scan_meant"]) == ("SCAN of Orders", True, declared)
    assert found["advice"] == [ADVICE]


@pytest.mark.parametrize("statement, access, advice", [
    ("SELECT * FROM Orders WHERE pk = ?", "GetItem on Orders", None),
    ("SELECT * FROM \\\"Orders\\\".\\\"byStatus\\\" WHERE status = ?", "Query on Orders.byStatus", None),
    ("SELECT * FROM Orders WHERE total = ?", "SCAN of Orders", "a GSI keyed on total would make it a Query"),
    ("SELECT * FROM Orders WHERE total > ?", "SCAN of Orders", "the WHERE compares no attribute with ="),
])
def test_each_pattern_reports_its_access_path(statement, access, advice):
    outcome = simulate(parse(_workload(f'statement = "{statement}"\nparams = [{{ choice = ["open"] }}]\nscan = true'),
                             "w.toml"))
    (planned,) = outcome.planned
    assert planned.access == access and planned.scan is (advice is not None)
    assert advice is None or advice in planned.advice[0]


def test_planning_draws_from_copies_so_the_run_is_unchanged():
    """A sequence's first value is the run's: planning drew from a copy of the generator."""
    text = _workload('statement = "INSERT INTO Orders VALUE {\'pk\': ?}"\nparams = [{ sequence = "n{}" }]')
    outcome = simulate(parse(text, "w.toml"))
    assert outcome.planned[0].access == "PutItem on Orders"
    keys = sorted(item["pk"] for item in outcome.db.execute("SELECT pk FROM Orders").items if item["pk"][0] == "n")
    assert keys[:2] == ["n0", "n1"] and len(keys) == outcome.requests
