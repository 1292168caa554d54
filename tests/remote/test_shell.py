"""The shell on a remote DynamoDB (issue #18 points 1, 3, 6): ``partiql --endpoint-url URL -e/-f …`` against
``partiql serve`` and moto: statements, DDL and meta-commands, where you are on every status line, DROP TABLE
confirmed, local-only commands refused, and the settings a remote endpoint starts with."""

from __future__ import annotations

import itertools

import pytest

from partiql.shell import cli

_names = itertools.count()


def shell(capsys, endpoint, *arguments) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``partiql --endpoint-url URL ARGUMENTS…``."""
    code = cli.main(["--endpoint-url", endpoint.url, "--region", "us-east-1", *arguments])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")


def test_statements_ddl_and_meta_commands(capsys, endpoint):
    name = f"Shell{next(_names)}"
    code, out, err = shell(capsys, endpoint, "--format", "jsonl",
                           "-e", f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH)",
                           "-e", f"INSERT INTO {name} VALUE {{'pk': 'a', 'v': 'x'}}",
                           "-e", f"SELECT * FROM {name} WHERE pk = 'a'",
                           "-e", f"EXPLAIN SELECT * FROM {name}",
                           "-e", ".tables -q", "-e", f".describe {name}", "-e", f".schema {name}")
    assert code == 0, err
    assert '{"pk": "a", "v": "x"}' in out
    assert f"GetItem on {name}" in err and endpoint.url in err  # the status line names where it ran
    assert "EXPLAIN (nothing was sent)" in err and f"SCAN of {name}" in out
    assert f"\n{name}\n" in f"\n{out}" and f"Table {name} (ACTIVE)" in out
    assert f"CREATE TABLE {name}\n  PRIMARY KEY (pk STRING HASH)" in out


def test_drop_table_needs_yes_in_a_script(capsys, served):
    name = f"Shell{next(_names)}"
    assert shell(capsys, served, "-e", f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH)")[0] == 0
    code, _, err = shell(capsys, served, "-e", f"DROP TABLE {name}")
    assert code == 1 and f"DROP TABLE on {served.url} is not run from a script without --yes" in err
    assert f"\n{name}\n" in "\n" + shell(capsys, served, "-e", ".tables -q")[1]
    assert shell(capsys, served, "--yes", "-e", f"DROP TABLE {name}")[0] == 0
    assert f"\n{name}\n" not in "\n" + shell(capsys, served, "-e", ".tables -q")[1]


def test_throughput_settings_are_a_local_database_s(capsys, served):
    code, _, err = shell(capsys, served, "-e", ".throughput")
    assert code == 1 and f"works on a local database; this shell runs on {served.url}" in err


@pytest.mark.parametrize("command, expected", [
    (".heat T", "{url} keeps no partition metrics: they are partiql-ddb's (a local database, or one partiql serve "
                "serves)"),
    (".backup x.db", "{url} has no database file to copy (DynamoDB's own backups: CreateBackup)")])
def test_partiql_serve_s_tools_on_another_dynamodb_say_what_they_need(capsys, moto, command, expected):
    code, _, err = shell(capsys, moto, "-e", command)
    assert code == 1 and expected.format(url=moto.url) in err


def test_the_scan_policy_starts_at_warn_and_read_only_refuses_writes(capsys, served):
    name = f"Shell{next(_names)}"
    assert shell(capsys, served, "-e", f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH)")[0] == 0
    before = len(served.log)
    code, _, err = shell(capsys, served, "-e", ".scan", "-e", f"SELECT * FROM {name}")
    assert code == 0 and "scan: warn" in err and "a full Scan" in err
    code, _, err = shell(capsys, served, "--scan", "deny", "-e", f"SELECT * FROM {name}")
    assert code == 1 and "full table scans are refused in this session (.scan deny)" in err
    code, _, err = shell(capsys, served, "--read-only", "-e", f"INSERT INTO {name} VALUE {{'pk': 'a'}}")
    assert code == 1 and "read-only" in err
    assert served.sent(before).count("ExecuteStatement") == 1  # only the warned Scan was sent


def test_a_file_and_an_endpoint_are_not_both_taken(capsys, served):
    code = cli.main(["game.db", "--endpoint-url", served.url, "-e", "SHOW TABLES"])
    assert code == 1 and "not both" in capsys.readouterr().err


def test_a_script_file_runs_on_the_endpoint(capsys, endpoint, tmp_path):
    name = f"Shell{next(_names)}"
    script = tmp_path / "setup.sql"
    script.write_text(f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH);\n"
                      f"INSERT INTO {name} VALUE {{'pk': 'from-file'}};\n"
                      f"SELECT * FROM {name} WHERE pk = 'from-file';\n")
    code, out, err = shell(capsys, endpoint, "--format", "jsonl", "-f", str(script))
    assert code == 0, err
    assert out.strip() == '{"pk": "from-file"}'


def test_the_prompt_names_the_endpoint_in_the_remote_colour(served):
    from partiql.shell.repl import prompt_message
    import partiql
    with served.connect() as db:
        host = served.url.split("//")[1]
        assert prompt_message(db) == [("class:remote", f"partiql {host}"), ("", "> ")]
        assert prompt_message(db, object()) == [("class:remote", f"partiql {host}"), ("", "*> ")]  # (a block open)
    with partiql.connect() as local:
        assert prompt_message(local) == "partiql> "


@pytest.mark.parametrize("answer, kept", [(False, True), (True, False)])
def test_an_interactive_drop_is_asked_first(served, answer, kept):
    import io

    from partiql.shell.config import Settings
    from partiql.shell.session import Session

    name = f"Shell{next(_names)}"
    with served.connect() as db:
        db.execute(f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH)")
        session = Session(db, Settings(), interactive=True, stdout=io.StringIO(), stderr=io.StringIO())
        session.ask_before_drop = True
        asked: list = []
        session.confirm = lambda question: asked.append(question) or answer
        before = len(served.log)
        assert session.run_statement(f"DROP TABLE {name}")
        assert asked == [f"Drop this table on {served.url}? Its items are deleted for good."]
        assert ("DeleteTable" in served.sent(before)) != kept
        assert (name in db.table_names()) == kept


def test_without_boto3_a_remote_connection_says_how_to_get_it(monkeypatch):
    import sys

    import partiql
    monkeypatch.setitem(sys.modules, "boto3", None)
    with pytest.raises(ImportError, match=r"pip install 'partiql-ddb\[aws\]'"):
        partiql.connect(region="eu-west-1")
