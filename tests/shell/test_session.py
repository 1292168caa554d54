"""How inputs run: scripts, errors with line numbers, --bail, output redirection, .last, Ctrl-C."""

from __future__ import annotations

import io
import signal

import pytest

import partiql
from partiql.shell.execution import Cancelled, collect, merge
from partiql.shell.progress import Progress, bar

SCRIPT = """\
CREATE TABLE Tbl (pk S) PRIMARY KEY (pk HASH);
INSERT INTO Tbl VALUE {'pk': 'a', 'n': 1};

-- a comment, then a bad statement on line 5
SELECT * FROM Tbl WHERE = 1;
INSERT INTO Tbl VALUE {'pk': 'a', 'n': 2};
SELECT pk, n FROM Tbl WHERE pk = 'a';
"""


def test_a_script_runs_every_statement_and_reports_errors_with_their_line(make_session):
    session, streams = make_session(partiql.connect())
    assert session.run_script(SCRIPT, source="load.sql") is False
    assert streams.err.getvalue().splitlines() == [
        "Table Tbl created · CreateTable on Tbl",
        "PutItem on Tbl · 1 WCU",
        "load.sql:5: syntax error at 1:25: Statement wasn't well formed, can't be processed: Unexpected operator",
        "  SELECT * FROM Tbl WHERE = 1",
        "                          ^",
        "load.sql:6: DuplicateItemException: Duplicate primary key exists in table",
        "charged: 1 WCU",  # what DynamoDB charges a failed conditional write
        "1 item · GetItem on Tbl · 0.5 RCU",
    ]
    assert "│ a    │   1 │" in streams.out.getvalue()


def test_bail_stops_at_the_first_error(make_session):
    session, streams = make_session(partiql.connect(), bail=True)
    assert session.run_script(SCRIPT, source="load.sql") is False
    assert "DuplicateItemException" not in streams.err.getvalue()


def test_quit_stops_a_script(make_session):
    session, streams = make_session(partiql.connect())
    assert session.run_script("SHOW TABLES;\n.quit\nSHOW TABLES;") is True
    assert streams.err.getvalue().count("ListTables") == 1 and session.done


def test_interactive_results_are_limited_and_last_shows_everything(make_session, music):
    session, streams = make_session(music, interactive=True, row_limit=2, format="jsonl")
    session.run_script("SELECT * FROM Music;")
    lines = streams.out.getvalue().splitlines()
    assert lines[2] == "2 of 3 items shown (.last shows them all)"
    assert lines[3] == "3 items · SCAN of Music · 0.5 RCU"
    session.run_script(".last")
    assert len([line for line in streams.out.getvalue().splitlines()[4:] if line.startswith("{")]) == 3


def test_scripts_print_every_item(make_session, music):
    session, streams = make_session(music, row_limit=1, format="jsonl")
    session.run_script("SELECT * FROM Music;")
    assert len(streams.out.getvalue().splitlines()) == 3


def test_explain_and_describe(make_session, music, golden):
    session, streams = make_session(music)
    session.run_script("EXPLAIN SELECT * FROM Music WHERE Artist = 'Acme' AND SongTitle IN ['Hi', 'Yo'];\n"
                       "EXPLAIN SELECT Artist FROM \"Music\".\"ByYear\" WHERE Released = 2024;\n"
                       "EXPLAIN UPDATE Music SET Plays = Plays + 1 WHERE Artist = 'Acme' AND SongTitle = 'Hi';\n"
                       "EXPLAIN SELECT * FROM Music WHERE Genre = 'Pop';\n"
                       "DESCRIBE Music;\n.describe Music")
    golden("explain.txt", streams.out.getvalue())
    assert session.catalog.keys("Music", "ByYear") == ["Artist", "SongTitle", "Released"]


def test_output_and_once_redirect_results(make_session, music, tmp_path):
    session, streams = make_session(music, format="jsonl")
    kept, once = tmp_path / "kept.jsonl", tmp_path / "once.jsonl"
    session.run_script(f".output {kept}\nSELECT * FROM Music WHERE Artist = 'Zed';\n"
                       f"SELECT * FROM Music WHERE Artist = 'Acme';\n.output\n"
                       f".once {once}\nSELECT * FROM Music WHERE Artist = 'Zed';\n"
                       "SELECT * FROM Music WHERE Artist = 'Zed';")
    assert len(kept.read_text().splitlines()) == 3
    assert len(once.read_text().splitlines()) == 1
    assert len(streams.out.getvalue().splitlines()) == 1


def test_scan_deny_refuses_before_reading(make_session, music):
    session, streams = make_session(music, scan="deny")
    assert music.scan_policy == "deny"
    assert session.run_script("SELECT * FROM Music WHERE Genre = 'Pop';") is False
    # the shell names its own command, never the library's attribute
    assert streams.err.getvalue().splitlines()[0] == (
        "ValidationException: full table scans are refused in this session (.scan deny): SCAN of Music. Pin the "
        "partition key with an equality in WHERE, or .scan warn (ask first) / .scan allow")
    assert "scan_policy" not in streams.err.getvalue()


def test_scan_warn_asks_in_the_repl(make_session, music):
    session, streams = make_session(music, interactive=True, scan="warn")
    questions = []
    session.confirm = lambda question: questions.append(question) or False
    assert session.run_script("SELECT * FROM Music WHERE Genre = 'Pop';")
    assert questions == ["SCAN of Music reads the whole table. Run it?"]
    assert streams.out.getvalue() == "not run\n"
    session.confirm = lambda question: True
    session.run_script("SELECT * FROM Music WHERE Genre = 'Pop';")
    shown = streams.out.getvalue()
    assert "1 item (3 scanned) · SCAN of Music" in shown
    assert "reads the whole table (a full Scan)" not in shown  # asked once, answered yes: no second warning
    assert music.scan_policy == "warn"  # the session's policy holds for the next statement


def test_ctrl_c_stops_between_pages_and_reports_what_was_read(make_session, fake_db, scan_page):
    pages = [scan_page([{"pk": "a"}]), scan_page([{"pk": "b"}]), scan_page([{"pk": "c"}], None)]
    session, streams = make_session(fake_db(pages, interrupt_after=2), format="jsonl")
    with pytest.raises(Cancelled):
        session.run_script("SELECT * FROM T;\nSELECT * FROM T;")
    assert streams.out.getvalue().splitlines() == ['{"pk": "a"}', '{"pk": "b"}']
    assert streams.err.getvalue() == "cancelled after 2 pages · 2 items · SCAN of T\n"
    assert len(session.db.statements) == 1


def test_a_second_ctrl_c_stops_at_once_and_still_reports_what_came_back(make_session, fake_db, scan_page):
    pages = [scan_page([{"pk": "a"}]), scan_page([{"pk": "b"}], None)]
    db = fake_db(pages)

    def pressed_twice_during_the_second_page(statement, parameters=None, consistent_read=False):
        yield pages[0]
        signal.raise_signal(signal.SIGINT)  # "stopping after this page"
        signal.raise_signal(signal.SIGINT)  # ... and again: at once, the second page never comes back
        yield pages[1]

    db.pages = pressed_twice_during_the_second_page
    session, streams = make_session(db, format="jsonl")
    with pytest.raises(Cancelled):
        session.run_script("SELECT * FROM T;")
    assert streams.out.getvalue().splitlines() == ['{"pk": "a"}']
    assert streams.err.getvalue() == "cancelled after 1 page · 1 item · SCAN of T\n"


def test_the_first_ctrl_c_is_answered_at_once_on_a_terminal(fake_db, scan_page):
    terminal = Terminal()
    progress = Progress(terminal)  # its first progress line is two seconds away
    run = collect(fake_db([scan_page([{"pk": "a"}]), scan_page([], None)], interrupt_after=1), "SELECT", progress)
    assert run.cancelled and run.pages == 1
    assert "stopping after this page (Ctrl-C again stops at once)" in terminal.getvalue()


def test_pages_are_put_together(scan_page):
    merged = merge([scan_page([{"pk": "a"}]), scan_page([{"pk": "b"}, {"pk": "c"}], None)])
    assert (merged.count, merged.scanned_count, merged.next_token) == (3, 3, None)
    assert [item["pk"] for item in merged.items] == ["a", "b", "c"]


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_appears_only_on_a_terminal_after_the_delay():
    now = [0.0]
    terminal = Terminal()
    progress = Progress(terminal, delay=2.0, clock=lambda: now[0])
    progress.show("early")
    now[0] = 2.5
    progress.show(bar(3, 4))
    progress.clear()
    assert terminal.getvalue() == "\r\x1b[K[###############-----] 3/4\r\x1b[K"
    now[0] = 3.0
    progress.show("again")
    with progress.suspended():
        terminal.write("status\n")
    assert terminal.getvalue().endswith("again\r\x1b[Kstatus\n\r\x1b[Kagain")
    quiet = io.StringIO()
    late = Progress(quiet, delay=0.0)
    late.show("x")
    assert quiet.getvalue() == ""


def test_internal_errors_do_not_escape(make_session, fake_db):
    class Broken(type(fake_db([]))):
        def pages(self, statement, parameters=None, consistent_read=False):
            raise RuntimeError("boom")

    session, streams = make_session(Broken([]))
    assert session.run_script("SELECT * FROM T;") is False
    assert streams.err.getvalue() == "internal error: RuntimeError: boom\n"
