"""Issue 37 point 4 through the commands: ``partiql model import|export``, ``partiql simulate --model`` and the
shell's ``.schema --format workbench``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import partiql
from partiql.model_files import read_model
from shell import model as model_command
from shell import simulate as simulate_command
from shell.cli import main as shell_main

HERE = Path(__file__).parent
WORKBENCH = HERE.parent.parent / "examples" / "orders-model.json"
MCP, COSTS = HERE / "files" / "dynamodb_data_model.json", HERE / "files" / "costs.json"


def test_import_into_a_database_and_export_it_back(tmp_path, capsys):
    database = tmp_path / "orders.ddb"
    assert model_command.main(["import", str(WORKBENCH), str(database)]) == 0
    err = capsys.readouterr().err
    assert "NoSQL Workbench 3.0 model Orders: 1 table(s), 2 item(s)" in err
    assert "4 auto-scaling policies kept aside: a database holds none" in err and "note: Orders: facet Order" in err
    db = partiql.connect(str(database))
    assert sorted(item["OrderId"] for item in db.execute("SELECT * FROM Orders").items) == ["o#1001", "o#1002"]
    db.close()
    # a second import would meet the tables: refused whole
    assert model_command.main(["import", str(WORKBENCH), str(database)]) == 1
    assert "already has Orders: nothing was imported" in capsys.readouterr().err
    out = tmp_path / "back.json"
    assert model_command.main(["export", str(database), "--output", str(out), "--items", "1"]) == 0
    back = read_model(out)
    assert back.tables[0]["GlobalSecondaryIndexes"] == read_model(WORKBENCH).tables[0]["GlobalSecondaryIndexes"]
    assert len(back.items["Orders"]) == 1


def test_import_of_an_mcp_model_turns_its_ttl_on_and_writes_a_workload_that_runs(tmp_path, capsys):
    document = json.loads(MCP.read_text())
    document["tables"][0]["TimeToLiveSpecification"] = {"Enabled": True, "AttributeName": "expires"}
    path = tmp_path / "dynamodb_data_model.json"
    path.write_text(json.dumps(document))
    database, workload = tmp_path / "m.ddb", tmp_path / "w" / "orders.toml"
    workload.parent.mkdir()
    assert model_command.main(["import", str(path), str(database), "--workload", str(workload),
                               "--costs", str(COSTS)]) == 0
    capsys.readouterr()
    db = partiql.connect(str(database))
    assert db.control("DescribeTimeToLive", {"TableName": "Orders"})["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}
    db.close()
    text = workload.read_text()
    assert "# note: Orders expires items by expires (TTL): not simulated" in text
    assert (workload.parent / "Orders.ddb.jsonl").exists() and '[cost.table."Orders".index."ByStatus"]' in text
    assert simulate_command.main([str(workload), "--duration", "4", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    rows = {p["name"]: p for p in found["patterns"]}
    assert (rows["mcp-1"]["requested"], rows["mcp-1"]["served"], rows["mcp-1"]["access"]) == (200, 200,
                                                                                             "Query on Orders")
    assert (rows["mcp-2"]["requested"], rows["mcp-2"]["access"]) == (20, "Query on Orders.ByStatus")
    assert found["cost"]["tables"][0]["resources"][0]["storage_gb"] == round(1_000_000 * 900 / 1024 ** 3, 3)


def test_import_says_where_to_put_it():
    assert model_command.main(["import", str(WORKBENCH)]) == 2


def test_simulate_runs_a_model_alone_and_a_workload_s_patterns_on_a_model(tmp_path, capsys):
    assert simulate_command.main(["--model", str(MCP), "--costs", str(COSTS), "--duration", "2", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in found["patterns"]] == ["mcp-1", "mcp-2"] and found["workload"] == str(MCP)
    traffic = tmp_path / "traffic.toml"
    traffic.write_text('duration = 3\n[[pattern]]\nname = "mine"\nstatement = "SELECT * FROM Orders WHERE '
                       'CustomerId = ?"\nparams = ["c#1"]\nrate = 2\nexpect = { count = 2 }\n')
    assert simulate_command.main([str(traffic), "--model", str(WORKBENCH), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in found["patterns"]] == ["mine"] and found["patterns"][0]["served"] == 6
    assert len(found["autoscaling"]) == 4  # (the model's policies: the table's and its GSI's, read and write)
    assert simulate_command.main(["--model", str(tmp_path / "none.json")]) == 1
    assert "none.json" in capsys.readouterr().err
    assert simulate_command.main([]) == 1
    assert "give a WORKLOAD file, or --model FILE" in capsys.readouterr().err


def test_the_shell_writes_a_workbench_model_of_its_tables(tmp_path, capsys):
    database = tmp_path / "orders.ddb"
    assert model_command.main(["import", str(WORKBENCH), str(database)]) == 0
    capsys.readouterr()
    assert shell_main([str(database), "-e", ".schema Orders --format workbench"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["ModelMetadata"]["Version"] == "3.0" and document["DataModel"][0]["TableData"] == []
    assert document["DataModel"][0]["KeyAttributes"] == json.loads(WORKBENCH.read_text())["DataModel"][0][
        "KeyAttributes"]
    assert shell_main([str(database), "-e", ".schema --format yaml"]) == 1
    assert "--format json or --format workbench" in capsys.readouterr().err


@pytest.mark.parametrize("flags", [["import", "/nonexistent/m.json", "x.ddb"], ["export", "/nonexistent/x.ddb"]])
def test_a_file_that_is_not_there_is_said_once(flags, capsys):
    assert model_command.main(flags) == 1
    err = capsys.readouterr().err
    assert err.startswith("partiql model: ") and "Traceback" not in err
