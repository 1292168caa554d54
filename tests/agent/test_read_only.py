"""``partiql mcp FILE --read-only``: reads answer, every write is refused before it runs, the file is unchanged;
``--scan allow`` lets a full Scan run (the person starting the server chose it)."""

from __future__ import annotations

import pytest

import partiql

from .conftest import Agent

ITEMS = 12


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    path = tmp_path_factory.mktemp("ro") / "shop.db"
    with partiql.connect(str(path)) as db:
        db.execute("CREATE TABLE Orders PRIMARY KEY (customer STRING HASH, placed NUMBER RANGE)")
        for placed in range(ITEMS):
            db.execute(f"INSERT INTO Orders VALUE {{'customer': 'c{placed % 3}', 'placed': {placed}}}")
    before = path.read_bytes()
    agent = Agent(str(path), "--read-only", "--scan", "allow")
    yield agent, path, before
    agent.close()


def test_reads_answer_and_a_scan_runs_when_allowed(reader):
    agent, _, _ = reader
    _, data = agent.ok("execute", {"statement": "SELECT * FROM Orders"})
    assert data["count"] == ITEMS and data["full_table_scan"] is True
    assert agent.ok("describe_table", {"table": "Orders"})[1]["table"]["ItemCount"] == ITEMS
    for name, tool in agent.tools().items():
        assert tool.annotations.read_only_hint is True and tool.annotations.destructive_hint is False, name


# (tool, arguments): every way of writing
WRITES = [
    ("create_table", {"statement": "CREATE TABLE Other PRIMARY KEY (pk STRING HASH)"}),
    ("import_items", {"table": "Orders", "items": [{"customer": "c9", "placed": 1}]}),
    ("execute", {"statement": "INSERT INTO Orders VALUE {'customer': 'c9', 'placed': 1}"}),
    ("execute", {"statement": "  delete FROM Orders WHERE customer = 'c0' AND placed = 0"}),
    ("execute", {"statement": "DROP TABLE Orders"}),
    ("execute", {"statement": "-- a comment first\nDELETE FROM Orders WHERE customer = 'c0' AND placed = 0"}),
    ("execute", {"statements": [{"statement": "SELECT * FROM Orders WHERE customer = 'c0' AND placed = 0"},
                                {"statement": "UPDATE Orders SET a = 1 WHERE customer = 'c0' AND placed = 0"}]}),
    ("execute", {"transaction": True, "statements": [
        {"statement": "DELETE FROM Orders WHERE customer = 'c0' AND placed = 0"}]}),
]


@pytest.mark.parametrize("tool, arguments", WRITES)
def test_every_write_is_refused_and_nothing_changes(reader, tool, arguments):
    agent, path, before = reader
    assert "read-only" in agent.error(tool, arguments)
    assert agent.ok("execute", {"statement": "SELECT * FROM Orders"})[1]["count"] == ITEMS
    assert path.read_bytes() == before
