"""The command line as a subprocess: stdout, stderr, exit codes, --bail, stdin, imports."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CREATE = "CREATE TABLE Tbl (pk S) PRIMARY KEY (pk HASH);"
INSERT = "INSERT INTO Tbl VALUE {'pk': 'a', 'n': 1};"
SELECT = "SELECT * FROM Tbl WHERE pk = 'a';"


def partiql(*args, stdin="", env=None):
    """Run ``python -m partiql.shell`` with stdin a pipe; returns the finished process."""
    return subprocess.run([sys.executable, "-m", "partiql.shell", *args],
                          input=stdin, capture_output=True, text=True, timeout=30,
                          env={**os.environ, "NO_COLOR": "1", **(env or {})})


def test_execute_prints_results_on_stdout_and_status_on_stderr():
    done = partiql("-e", CREATE, "-e", INSERT, "-e", SELECT, "--format", "jsonl")
    assert done.returncode == 0
    assert done.stdout == '{"pk": "a", "n": 1}\n'
    lines = done.stderr.splitlines()
    assert lines[0].startswith("Table Tbl created · CreateTable on Tbl")
    assert lines[2].startswith("1 item · GetItem on Tbl · 0.5 RCU")


def test_a_file_reports_errors_with_the_file_line_and_exits_1(tmp_path):
    script = tmp_path / "load.sql"
    script.write_text(f"{CREATE}\n{INSERT}\n\nSELECT * FROM Tbl WHERE;\n{SELECT}\n")
    done = partiql("-f", str(script), "--format", "csv")
    assert done.returncode == 1
    assert done.stdout == "pk,n\na,1\n"
    assert f"{script}:4: syntax error at 1:24: " in done.stderr


def test_bail_stops_at_the_first_error(tmp_path):
    script = tmp_path / "load.sql"
    script.write_text(f"{CREATE}\nSELECT * FROM Nope;\n{INSERT}\n")
    done = partiql("--bail", "-f", str(script))
    assert done.returncode == 1
    assert "PutItem" not in done.stderr
    assert partiql("-f", str(script)).stderr.count("PutItem") == 1


def test_statements_on_stdin():
    done = partiql(stdin=f"{CREATE}\n{INSERT}\n.format json\n{SELECT}\n")
    assert done.returncode == 0
    assert done.stdout == '[\n  {"pk": "a", "n": 1}\n]\n'


def test_errors_name_each_e_script():
    done = partiql("-e", "SHOW TABLES;", "-e", "SELECT * FROM Nope;")
    assert done.returncode == 1
    assert "-e #2:1: ResourceNotFoundException" in done.stderr


def test_scan_policy_option():
    done = partiql("--scan", "deny", "-e", CREATE, "-e", "SELECT * FROM Tbl;")
    assert done.returncode == 1
    assert "ValidationException" in done.stderr


@pytest.mark.parametrize("args, code, stream, text", [
    (["--version"], 0, "stdout", "partiql 0.1.0"),
    (["--help"], 0, "stdout", "usage: partiql [-h] [-e STATEMENT] [-f FILE]"),
    (["--format", "yaml"], 2, "stderr", "invalid choice: 'yaml'"),
    (["/", "-e", "SHOW TABLES;"], 1, "stderr", "partiql: "),
    (["-f", "/no/such.sql"], 1, "stderr", "cannot read /no/such.sql: No such file or directory"),
])
def test_options_and_their_failures(args, code, stream, text):
    done = partiql(*args)
    assert done.returncode == code
    assert text in getattr(done, stream)


def test_a_database_file_keeps_its_tables_between_runs(tmp_path):
    database = str(tmp_path / "music.db")
    assert partiql(database, "-e", CREATE, "-e", INSERT).returncode == 0
    done = partiql(database, "-e", SELECT, "--format", "jsonl")
    assert (done.returncode, done.stdout) == (0, '{"pk": "a", "n": 1}\n')


def test_a_file_that_is_no_database_is_refused(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello, not a database\n" * 100)
    done = partiql(str(notes), "-e", "SHOW TABLES;")
    assert done.returncode == 1 and done.stderr.startswith("partiql: ") and str(notes) in done.stderr
    assert notes.read_text() == "hello, not a database\n" * 100


def test_a_bad_config_file_is_reported(tmp_path):
    bad = tmp_path / "bad.conf"
    bad.write_text("[shell]\nformat = yaml\n")
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "--config", str(bad), "-e", "SHOW TABLES;"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "format must be one of" in done.stderr


PROBE = """
import sys, runpy
sys.argv = ["partiql"] + sys.argv[1:]
try:
    runpy.run_module("partiql.shell", run_name="__main__")
except SystemExit:
    pass
print(sorted({m.split(".")[0] for m in sys.modules} & {"prompt_toolkit", "pygments", "sqlite3", "mcp"}
             | {m for m in sys.modules if m.startswith("partiql.agent")}), file=sys.stderr)
"""


@pytest.mark.parametrize("args, stdin", [
    (["-e", "SHOW TABLES;"], ""),
    (["-f", "{script}"], ""),
    ([], "SHOW TABLES;\n.help\n.tables\n"),
])
def test_scripts_in_memory_never_import_prompt_toolkit_pygments_sqlite_or_mcp(tmp_path, args, stdin):
    script = tmp_path / "s.sql"
    script.write_text("SHOW TABLES;\nEXPLAIN SELECT * FROM Nope;\n.describe Nope\n")
    args = [a.format(script=script) for a in args]
    done = subprocess.run([sys.executable, "-c", PROBE, *args], input=stdin, capture_output=True, text=True,
                          timeout=30)
    assert done.stderr.splitlines()[-1] == "[]"


THIN = "CREATE TABLE Thin (pk S) PRIMARY KEY (pk HASH) BILLING MODE PROVISIONED (1 RCU, 1 WCU);"


def test_throughput_enforce_throttles_and_report_warns(tmp_path):
    script = tmp_path / "burst.sql"
    script.write_text(THIN + "".join(f"INSERT INTO Thin VALUE {{'pk': 'k{i}'}};\n" for i in range(302)))
    enforced = partiql("--throughput", "enforce", "-f", str(script))
    assert enforced.returncode == 1
    assert "ProvisionedThroughputExceededException: The level of configured provisioned throughput" \
        in enforced.stderr
    reported = partiql("-f", str(script))
    assert reported.returncode == 0
    assert "warning: TableWriteProvisionedThroughputExceeded on Thin partition 1/1" in reported.stderr
    off = partiql("--throughput", "off", "--classic-partitions", "-f", str(script))
    assert off.returncode == 0 and "warning" not in off.stderr


def test_help_lists_every_subcommand_in_80_columns(capsys):
    """Issue 38: `partiql --help` lists each subcommand, and each one it lists answers its own --help."""
    from partiql.shell import cli
    from partiql.shell.cli import SUBCOMMANDS
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = capsys.readouterr().out
    assert max(len(line) for line in text.splitlines()) <= 80
    listed = {word for usage, _ in SUBCOMMANDS for word in usage.split()[:2]}
    assert {"serve", "simulate", "mcp", "copy", "import", "export", "check", "recover", "backup"} <= listed
    assert all(f"partiql {usage}" in text for usage, _ in SUBCOMMANDS)
    for word in ("serve", "simulate", "mcp", "copy", "check", "recover", "backup"):
        with pytest.raises(SystemExit) as done:
            cli.main([word, "--help"])
        assert done.value.code == 0 and capsys.readouterr().out.startswith(f"usage: partiql {word}")


@pytest.mark.parametrize("argv", [[], ["serve"], ["simulate"], ["mcp"], ["copy"], ["check"], ["recover"], ["backup"],
                                  ["x.db", "import"], ["x.db", "export"]])
def test_help_wraps_at_words_only(capsys, monkeypatch, argv):
    """Issue 38: at any width, wrapping moves whole words (``--into-existing`` is never ``--into-`` + ``existing``):
    the words of the help at 50 columns are the words at 400, and at 80 no line is longer."""
    from partiql.shell import cli

    def words(columns: int) -> list:
        monkeypatch.setenv("COLUMNS", str(columns))
        with pytest.raises(SystemExit):
            cli.main([*argv, "--help"])
        return capsys.readouterr().out

    wide, narrow = words(400), words(50)
    assert narrow.split() == wide.split()
    assert max(len(line) for line in words(80).splitlines()) <= 80
