"""Meta-commands: one registry feeds dispatch, .help and completion."""

from __future__ import annotations

import pytest

import partiql
from partiql.shell import commands
from partiql.shell.catalog import Catalog
from partiql.shell.suggest import suggest

REQUIRED = [".help", ".tables", ".describe", ".format", ".read", ".output", ".once", ".timer", ".scan",
            ".last", ".history", ".quit", ".backup", "\\dt", "\\d"]


def test_the_registry_has_every_command_and_alias():
    assert set(REQUIRED) <= set(commands.COMMANDS)


def test_help_lists_every_command_from_the_registry(make_session, music):
    session, streams = make_session(music)
    assert session.run_script(".help")
    text = streams.out.getvalue()
    for command in commands.commands():
        assert f"\n{command.name} " in "\n" + text
    assert "(also \\dt)" in text
    session.run_script(".help .scan")
    assert streams.out.getvalue()[len(text):].startswith(".scan [POLICY]" + " " * 14 + "show or set what a full Scan does")


def test_completion_offers_every_command_from_the_registry(music):
    offered = {s.text for s in suggest(".", Catalog(music))}
    assert {c.name for c in commands.commands()} <= offered


TABLES = ("table    key                               indexes         items\n"
          "Music    Artist S HASH, SongTitle S RANGE  ByYear (GSI)        3\n")


@pytest.mark.parametrize("line, out", [
    (".tables", TABLES),
    ("\\dt", TABLES),
    (".tables -q", "Music\n"),
])
def test_tables(make_session, music, line, out):
    session, streams = make_session(music)
    assert session.run_script(line)
    assert streams.out.getvalue() == out


def test_describe_and_its_alias(make_session, music):
    session, streams = make_session(music)
    assert session.run_script('\\d "Music"')
    assert streams.out.getvalue().startswith("Table Music (ACTIVE)\n  key:      Artist S HASH, SongTitle S RANGE")
    assert session.run_script(".describe Nope") is False
    assert streams.err.getvalue().startswith("ResourceNotFoundException: ")


@pytest.mark.parametrize("line, shown, key, value", [
    (".format csv", "format: csv", "format", "csv"),
    (".timer off", "timer: off", "timer", False),
    (".timer on", "timer: on", "timer", True),
    (".scan warn", "scan: warn", "scan", "warn"),
])
def test_settings(make_session, music, line, shown, key, value):
    session, streams = make_session(music)
    assert session.run_script(line)
    assert streams.err.getvalue() == shown + "\n"
    assert getattr(session.settings, key) == value


def test_a_bad_setting_is_refused(make_session, music):
    session, streams = make_session(music)
    assert session.run_script(".format yaml") is False
    assert session.settings.format == "table"
    assert "format must be one of" in streams.err.getvalue()


def test_scan_setting_reaches_the_connection(make_session, music):
    session, streams = make_session(music)
    session.run_script(".scan")
    session.run_script(".scan deny")
    assert music.scan_policy == "deny"
    assert streams.err.getvalue().splitlines() == ["scan: allow", "scan: deny"]


def test_the_scan_policy_is_not_kept_in_the_database_file(tmp_path):
    from .test_cli import partiql
    database = str(tmp_path / "game.db")
    done = partiql(database, "-e", "CREATE TABLE Tbl PRIMARY KEY (pk STRING HASH);", "-e", ".scan deny")
    assert done.returncode == 0
    done = partiql(database, "-e", "SELECT * FROM Tbl;", "-e", ".scan")
    assert done.returncode == 0 and "scan: allow" in done.stderr  # a new session: the default, not the file's


def test_read_runs_a_file_and_names_it_in_errors(make_session, music, tmp_path):
    script = tmp_path / "more.sql"
    script.write_text("SHOW TABLES;\n\nSELECT * FROM Nope;\n")
    session, streams = make_session(music)
    assert session.run_script(f".read {script}") is False
    assert f"{script}:3: ResourceNotFoundException" in streams.err.getvalue()
    assert session.run_script(".read /no/such/file.sql") is False
    assert "cannot read /no/such/file.sql: No such file or directory" in streams.err.getvalue()


def test_history_shows_the_last_entries(make_session, music):
    session, streams = make_session(music)
    session.history = lambda: ["SELECT 1;", "SHOW TABLES;", ".tables"]
    session.run_script(".history 2")
    assert streams.out.getvalue() == "    2  SHOW TABLES;\n    3  .tables\n"


def test_unknown_commands_and_last_without_a_result(make_session, music):
    session, streams = make_session(music)
    assert session.run_script(".frobnicate") is False
    assert session.run_script(".last")
    assert streams.err.getvalue() == "unknown command .frobnicate (.help lists them)\nno result yet\n"


def test_backup_copies_the_open_database(make_session, tmp_path):
    import partiql

    with partiql.connect(tmp_path / "live.db") as db:
        session, streams = make_session(db)
        assert session.run_script("CREATE TABLE Tab (pk S) PRIMARY KEY (pk HASH);\nINSERT INTO Tab VALUE {'pk': 'a'};")
        assert session.run_script(f".backup {tmp_path / 'copy.db'}")
        assert f"backed up to {tmp_path / 'copy.db'}" in streams.err.getvalue()
        assert session.run_script(f".backup {tmp_path / 'copy.db'}") is False  # never overwrites
        assert "the file exists" in streams.err.getvalue()
        assert session.run_script(".backup") is False
        assert ".backup needs a FILE" in streams.err.getvalue()
    with partiql.connect(tmp_path / "copy.db") as copy:
        assert copy.execute("SELECT * FROM Tab").items == [{"pk": "a"}]


def test_backup_of_an_in_memory_session_says_why_not(make_session, music, tmp_path):
    session, streams = make_session(music)
    assert session.run_script(f".backup {tmp_path / 'copy.db'}") is False
    assert "an in-memory database has no file to back up" in streams.err.getvalue()
    assert not (tmp_path / "copy.db").exists()


@pytest.mark.parametrize("line, shown, mode", [
    (".throughput", "throughput: report (adaptive capacity)", "report"),
    (".throughput enforce", "throughput: enforce (adaptive capacity)", "enforce"),
    (".throughput off", "throughput: off (adaptive capacity)", "off"),
])
def test_throughput_shows_and_switches_the_mode(make_session, music, line, shown, mode):
    session, streams = make_session(music)
    assert session.run_script(line)
    assert streams.err.getvalue() == shown + "\n"
    assert music.engine.throughput.mode == mode


def test_a_bad_throughput_mode_is_refused(make_session, music):
    session, streams = make_session(music)
    assert session.run_script(".throughput on") is False
    assert "throughput must be one of off, report, enforce, not 'on'" in streams.err.getvalue()
    assert music.engine.throughput.mode == "report"


@pytest.mark.parametrize("line, starts", [
    ("help", ".help [COMMAND|TOPIC]"), ("help;", ".help [COMMAND|TOPIC]"), ("\\?", ".help [COMMAND|TOPIC]"),
    (".help import", ".import FILE TABLE"), (".help .import", ".import FILE TABLE"),
    (".help CREATE", "CREATE TABLE [IF NOT EXISTS] name [(attr TYPE, …)]"),
    (".help alter", "ALTER TABLE name SET BILLING MODE"), (".help transaction", "BEGIN [TRANSACTION];"),
])
def test_help_and_its_topics(make_session, music, line, starts):
    session, streams = make_session(music)
    assert session.run_script(line)
    assert streams.out.getvalue().startswith(starts)


def test_help_fits_80_columns(make_session, music):
    session, streams = make_session(music, interactive=False)
    for line in (".help", ".help CREATE", ".help ALTER", ".help transaction"):
        session.run_script(line)
    assert max(len(line) for line in streams.out.getvalue().splitlines()) <= 80


@pytest.mark.parametrize("line", ["quit", "quit;", "exit", "EXIT;", "\\q", ".exit"])
def test_quit_and_exit_work_bare(make_session, music, line):
    session, _ = make_session(music)
    assert session.run_script(line + "\nSELECT nothing FROM nowhere;")  # nothing after quit runs
    assert session.done


def test_mode_is_format_and_unknown_help_is_refused(make_session, music):
    session, streams = make_session(music)
    assert session.run_script(".mode csv")
    assert session.settings.format == "csv"
    assert session.run_script(".help nothing") is False
    assert "no help for 'nothing': .help lists the commands; topics: CREATE, ALTER, transaction" in \
        streams.err.getvalue()


@pytest.mark.parametrize("line, why", [
    (".output a\x00b", "not a usable file name"), (".once \ud800x", "not a usable file name"),
    (".read a\x00b", "not a usable file name"), (".read \udcff", "No such file or directory"),
])
def test_a_file_name_no_file_can_have_is_refused_plainly(make_session, music, line, why):
    session, streams = make_session(music)
    assert session.run_script(line) is False
    message = streams.err.getvalue()
    assert why in message and "\x00" not in message and message.isascii()


@pytest.mark.parametrize("line, hints", [
    (".tail Orders", ["hint: ALTER TABLE Orders SET STREAM NEW_AND_OLD_IMAGES; turns one on"]),
    (".describe Ordrs", ["hint: there is no table Ordrs: did you mean Orders?",
                         "hint: CREATE TABLE Ordrs PRIMARY KEY (pk STRING HASH) creates it (.help CREATE)"]),
    (".heat Invoices", ["hint: CREATE TABLE Invoices PRIMARY KEY (pk STRING HASH) creates it (.help CREATE)"]),
])
def test_a_meta_command_s_table_problem_comes_with_its_fix(make_session, line, hints):
    """Issue 38 point 3: the nearest table and how to create a missing one; the DDL that turns a stream on."""
    db = partiql.connect()
    db.execute("CREATE TABLE Orders PRIMARY KEY (pk STRING HASH)")
    session, streams = make_session(db)
    assert session.run_script(line) is False
    shown = [text for text in streams.err.getvalue().splitlines() if text.startswith("hint:")]
    assert shown == hints


def test_param_with_double_quotes_says_strings_take_single_quotes(make_session):
    session, streams = make_session(partiql.connect())
    assert session.run_script('.param "u1", 5') is False
    said = streams.err.getvalue()
    assert "strings take single quotes: 'u1'" in said
    assert "root.p" not in said and "shell_parameters" not in said  # (no name of the shell's own wrapper)


@pytest.mark.parametrize("select, header", [
    ("SELECT zeta, pk, alpha FROM Tab WHERE pk = 'a'", ["zeta", "pk", "alpha"]),  # (as the list is written)
    ("SELECT * FROM Tab WHERE pk = 'a'", ["pk", "sk", "zeta", "alpha"]),  # (keys first)
])
def test_columns_follow_the_select_list(make_session, select, header):
    db = partiql.connect()
    db.execute("CREATE TABLE Tab PRIMARY KEY (pk STRING HASH, sk NUMBER RANGE)")
    db.execute("INSERT INTO Tab VALUE {'pk': 'a', 'sk': 1, 'zeta': 1, 'alpha': 2}")
    session, streams = make_session(db, interactive=True)
    assert session.run_script(select)
    line = next(text for text in streams.out.getvalue().splitlines() if "pk" in text and "│" in text)
    assert [cell.strip() for cell in line.split("│")[1:-1]] == header


def test_refresh_reads_a_snapshot_again(make_session, tmp_path):
    path = str(tmp_path / "held.db")
    with partiql.connect(path) as owner:
        owner.execute("CREATE TABLE Before PRIMARY KEY (pk STRING HASH)")
    session, streams = make_session(partiql.connect(path, read_only=True))
    with partiql.connect(path) as owner:  # (another program writes the file meanwhile)
        owner.execute("CREATE TABLE After PRIMARY KEY (pk STRING HASH)")
    assert session.db.table_names() == ["Before"]
    assert session.run_script(".refresh")
    assert session.db.table_names() == ["After", "Before"] and session.db.engine.storage.read_only
    assert f"reading a snapshot of {path} as of " in streams.err.getvalue()
    session.db.close()


def test_refresh_is_for_snapshots(make_session):
    session, streams = make_session(partiql.connect())
    assert session.run_script(".refresh") is False
    assert ".refresh reads a snapshot again: this session writes its database" in streams.err.getvalue()
