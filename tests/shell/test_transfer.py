"""The shell's ``.import`` / ``.export`` and the ``partiql DATABASE import|export`` subcommands."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

import partiql
from partiql.shell import transfer
from partiql.shell.progress import Progress


@pytest.mark.parametrize("argument,direction,expected", [
    ("rows.csv Music", "import", transfer.Request("rows.csv", "Music")),
    ('"my rows.csv" Music --format csv --continue-on-error --types age=N,zip=s', "import",
     transfer.Request("my rows.csv", "Music", "csv", True, {"age": "N", "zip": "S"})),
    ("rows.json Music --format=ddb-json --types a=N --types b=SS", "import",
     transfer.Request("rows.json", "Music", "ddb-json", False, {"a": "N", "b": "SS"})),
    ("Music out.csv", "export", transfer.Request("out.csv", "Music")),
    ("Music out.txt --format json", "export", transfer.Request("out.txt", "Music", "json")),
])
def test_arguments_parse(argument, direction, expected):
    assert transfer.parse(argument, direction) == expected


@pytest.mark.parametrize("argument,direction,message", [
    ("rows.csv", "import", "usage: .import FILE TABLE"),
    ("Music out.csv extra", "export", "usage: .export TABLE FILE"),
    ("rows.csv Music --format xml", "import", "unknown format 'xml'"),
    ("rows.csv Music --fast", "import", "unknown option --fast"),
    ("Music out.csv --continue-on-error", "export", "unknown option --continue-on-error for .export"),
    ("rows.csv Music --types age", "import", "NAME=TYPE"),
    ("rows.csv Music --format", "import", "--format needs a value"),
    ('"rows.csv Music', "import", "No closing quotation"),
])
def test_argument_mistakes_are_explained(argument, direction, message):
    with pytest.raises(transfer.UsageError, match=message):
        transfer.parse(argument, direction)


def test_dot_import_and_dot_export(music, make_session, tmp_path):
    session, streams = make_session(music)
    target = tmp_path / "music.csv"
    assert transfer.export_command(session, f"Music {target}")
    assert "exported 3 items of Music to" in streams.err.getvalue()
    music.execute("CREATE TABLE Copy (Artist S, SongTitle S) PRIMARY KEY (Artist HASH, SongTitle RANGE)")
    assert transfer.import_command(session, f"{target} Copy --types Tags=SS,Stats=M,Live=BOOL")
    assert "imported 3 items into Copy from" in streams.err.getvalue()
    assert music.execute("SELECT * FROM Copy").items == music.execute("SELECT * FROM Music").items


def test_export_is_lossless_by_default_and_a_plain_one_warns_of_sets(music, make_session, tmp_path):
    session, streams = make_session(music)  # Music holds a string set (Tags)
    assert transfer.export_command(session, f"Music {tmp_path / 'all.jsonl'}")
    exported = [json.loads(line)["Item"] for line in (tmp_path / "all.jsonl").read_text().splitlines()]
    assert [item["Tags"] for item in exported if "Tags" in item] == [{"SS": ["a", "b"]}]
    assert "(ddb-json)" in streams.err.getvalue() and "warning" not in streams.err.getvalue()
    assert transfer.export_command(session, f"Music {tmp_path / 'plain.jsonl'} --format json")
    assert ("warning: 1 item hold sets (SS, NS, BS): json writes them as lists, which an import reads back as "
            "lists unless it declares their types (ddb-json keeps them)") in streams.err.getvalue()


def test_bad_rows_are_reported_with_their_lines(music, make_session, tmp_path):
    session, streams = make_session(music)
    source = tmp_path / "rows.jsonl"
    source.write_text('{"Artist": "A", "SongTitle": "ok"}\n{"Artist": 5, "SongTitle": "bad"}\n')
    assert not transfer.import_command(session, f"{source} Music")
    assert "1 bad row; nothing was imported" in streams.err.getvalue()
    assert "line 2: One or more parameter values were invalid: Type mismatch for key Artist" \
        in streams.err.getvalue()
    assert transfer.import_command(session, f"{source} Music --continue-on-error")
    assert "imported 1 item into Music" in streams.err.getvalue() and "1 bad row skipped" in streams.err.getvalue()


def test_missing_table_and_file_fail_cleanly(music, make_session, tmp_path):
    session, streams = make_session(music)
    assert not transfer.import_command(session, f"{tmp_path / 'none.csv'} Music")
    assert "cannot use" in streams.err.getvalue() and "No such file" in streams.err.getvalue()
    assert not transfer.export_command(session, f"Nope {tmp_path / 'out.csv'}")
    assert "Requested resource not found" in streams.err.getvalue()
    assert not transfer.import_command(session, "only-one-word")
    assert "usage: .import" in streams.err.getvalue()


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_is_drawn_once_the_delay_passed():
    now = [0.0]
    progress = Progress(_Terminal(), delay=0, clock=lambda: now[0])
    report = transfer.progress_reporter(progress, "rows.csv")
    report("read", 50 << 10, 200 << 10)
    assert progress.stream.getvalue().endswith("reading rows.csv [#####---------------] 50/200 KB")
    now[0] += 1
    report("write", 3, 3)
    assert progress.stream.getvalue().endswith("writing rows.csv [####################] 3/3 items")
    quiet = Progress(_Terminal())  # the default two-second delay: nothing yet
    transfer.progress_reporter(quiet, "rows.csv")("read", 1, 2)
    assert quiet.stream.getvalue() == ""


def test_subcommands_import_and_export_a_database_file(tmp_path):
    database, source, target = tmp_path / "app.db", tmp_path / "rows.jsonl", tmp_path / "out.json"
    with partiql.connect(database) as db:
        db.execute("CREATE TABLE Tab (pk S) PRIMARY KEY (pk HASH)")
    source.write_text('{"pk": "a", "n": 1}\n{"pk": "b"}\n')
    err = io.StringIO()
    assert transfer.subcommand([str(database), "import", str(source), "Tab"], stderr=err) == 0
    assert "imported 2 items into Tab" in err.getvalue()
    assert transfer.subcommand([str(database), "export", "Tab", str(target)], stderr=err) == 0
    assert sorted(json.loads(line)["Item"]["pk"]["S"] for line in target.read_text().splitlines()) == ["a", "b"]
    source.write_text('{"pk": 1}\n')
    assert transfer.subcommand([str(database), "import", str(source), "Tab"], stderr=err) == 1
    assert transfer.subcommand([str(database), "-e", "SELECT * FROM Tab"]) is None
    assert transfer.subcommand(["-e", "import"]) is None


def test_subcommand_reports_a_locked_database(tmp_path):
    database = tmp_path / "app.db"
    err = io.StringIO()
    with partiql.connect(database):
        assert transfer.subcommand([str(database), "export", "T", str(tmp_path / "o.csv")], stderr=err) == 1
    assert "already open" in err.getvalue() and str(database) in err.getvalue()


def test_subcommand_usage_errors_exit_2(tmp_path):
    result = subprocess.run([sys.executable, "-c", "import sys; from partiql.shell import transfer; "
                             "sys.exit(transfer.subcommand())", str(tmp_path / "a.db"), "import", "only-file"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "usage: partiql DATABASE import" in result.stderr


def test_the_command_line_and_the_registry_are_wired(tmp_path):
    """``partiql DB import …`` goes through cli.main; .import/.export are registered meta-commands."""
    import subprocess
    import sys

    from partiql.shell import commands

    assert {".import", ".export"} <= {entry.name for entry in commands.commands()}
    database, source = tmp_path / "app.db", tmp_path / "rows.jsonl"
    source.write_text('{"pk": "a"}\n')
    run = [sys.executable, "-m", "partiql.shell", str(database)]
    subprocess.run(run + ["-e", "CREATE TABLE Tab (pk S) PRIMARY KEY (pk HASH);"], check=True, capture_output=True)
    done = subprocess.run(run + ["import", str(source), "Tab"], capture_output=True, text=True)
    assert done.returncode == 0 and "imported 1 item into Tab" in done.stderr
    out = subprocess.run(run + ["--format", "jsonl", "-e", "SELECT * FROM Tab;"], capture_output=True, text=True)
    assert out.stdout.strip() == '{"pk": "a"}'
