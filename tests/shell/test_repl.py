"""The interactive loop, driven through prompt_toolkit's pipe input and dummy output."""

from __future__ import annotations

import threading
import time

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from partiql.shell import config, repl

ENTER, CTRL_C, CTRL_D, TAB = "\r", "\x03", "\x04", "\t"


def paste(text):
    return f"\x1b[200~{text}\x1b[201~"


@pytest.fixture
def shell(make_session, music):
    """``shell(*keys, pause=0, **settings)`` types the keys into a REPL over Music, then Ctrl-D;
    with ``pause`` each key string is sent that many seconds after the previous one."""
    def run(*keys, pause=0.0, **settings):
        session, streams = make_session(music, interactive=True, **settings)
        with create_pipe_input() as pipe:
            typist = threading.Thread(target=type_keys, args=(pipe, [*keys, CTRL_D], pause))
            typist.start()
            status = repl.run(session, input=pipe, output=DummyOutput())
            typist.join()
        return session, streams.out.getvalue(), status
    return run


def type_keys(pipe, keys, pause):
    for key in keys:
        time.sleep(pause)
        pipe.send_text(key)


def ran(out, what):
    return [line for line in out.splitlines() if what in line]


def test_banner_and_ctrl_d(shell):
    _, out, status = shell()
    assert status == 0
    assert out.startswith("partiql-ddb 0.1.0 on an in-memory database (nothing is saved when you quit)\n")


def test_a_multi_line_statement_runs_when_it_ends_with_a_semicolon(shell):
    session, out, _ = shell("SELECT *", ENTER, "FROM Music", ENTER, "WHERE Artist = 'Zed'", ENTER, ";", ENTER)
    assert ran(out, "GetItem") == [] and len(ran(out, "Query on Music")) == 1
    assert session.history()[-1] == "SELECT *\nFROM Music\nWHERE Artist = 'Zed'\n;"


def test_a_half_typed_update_never_runs(shell):
    session, out, _ = shell("UPDATE Music SET Plays = 1 WHERE Artist = 'Zed' AND SongTitle = 'Ok'", ENTER,
                            ENTER, CTRL_C)
    assert ran(out, "UpdateItem") == [] and session.history() == []


def test_enter_inside_a_string_is_a_new_line(shell):
    _, out, _ = shell("SELECT * FROM Music WHERE Artist = 'a;", ENTER, "b';", ENTER)
    assert len(ran(out, "0 items · Query on Music")) == 1


def test_a_paste_of_two_statements_runs_both_in_order(shell):
    _, out, _ = shell(paste("SELECT * FROM Music WHERE Artist = 'Zed';\n"
                            "SELECT * FROM Music WHERE Artist = 'Acme';"), ENTER)
    assert ran(out, "Query on Music") == ["1 item · Query on Music · 0.5 RCU", "2 items · Query on Music · 0.5 RCU"]


def test_ctrl_c_clears_the_line(shell):
    _, out, _ = shell("SELECT * FROM Mus", CTRL_C, ".tables -q", ENTER)
    assert out.splitlines()[2:] == ["Music"]


def test_tab_completes(shell):
    session, out, _ = shell("SELECT * FROM Mu", TAB, " WHERE Art", TAB, " = 'Zed';", ENTER, pause=0.2)
    assert session.history() == ["SELECT * FROM Music WHERE Artist = 'Zed';"]
    assert ran(out, "Query on Music") == ["1 item · Query on Music · 0.5 RCU"]


def test_meta_commands_need_no_semicolon_and_errors_do_not_end_the_session(shell):
    session, out, _ = shell(".format jsonl", ENTER, "SELECT * FROM Nope;", ENTER,
                            "SELECT * FROM Music WHERE Artist = 'Zed';", ENTER, ".quit", ENTER, "SHOW TABLES;", ENTER)
    assert session.settings.format == "jsonl"
    assert "ResourceNotFoundException: Requested resource not found" in out
    assert '{"Artist": "Zed", "SongTitle": "Ok", "Released": 2024, "Live": true}' in out
    assert ran(out, "ListTables") == []


def test_history_is_kept_in_the_xdg_directory(shell):
    shell(".tables", ENTER)
    assert config.history_file().read_text().strip().endswith("+.tables")
    session, _, _ = shell()
    assert session.history() == [".tables"]


def test_a_full_scan_asks_first_when_scan_is_warn(shell):
    _, out, _ = shell("SELECT * FROM Music WHERE Genre = 'Pop';", ENTER, "n", ENTER,
                      "SELECT * FROM Music WHERE Genre = 'Pop';", ENTER, "y", ENTER, scan="warn")
    assert ran(out, "not run") == ["not run"]
    assert ran(out, "SCAN of Music")[-1] == "1 item (3 scanned) · SCAN of Music · 0.5 RCU"


def test_vi_mode(shell):
    session, out, _ = shell("SELECT * FROM Music WHERE Artist = 'Zed';", ENTER, key_bindings="vi")
    assert ran(out, "Query on Music") == ["1 item · Query on Music · 0.5 RCU"]


def test_the_scan_question_takes_one_line_and_a_yes_is_not_warned_again(shell):
    # typed ahead in one go: the answer, then the next statement -- which must still run
    _, out, _ = shell("SELECT * FROM Music WHERE Genre = 'Pop';\ry\rSELECT * FROM Music WHERE Artist = 'Zed';\r",
                      scan="warn")
    assert ran(out, "SCAN of Music") == ["1 item (3 scanned) · SCAN of Music · 0.5 RCU"]
    assert ran(out, "Query on Music") == ["1 item · Query on Music · 0.5 RCU"]
    assert ran(out, "reads the whole") == []  # the question said it; the answer was yes


@pytest.mark.parametrize("above, prompt", [
    ("SELECT *\n", "    ...> "),
    ("SELECT * FROM Music WHERE Artist = 'Ac\n", "   ...'> "),
    ('SELECT * FROM "Mus\n', '   ..."> '),
    ("SELECT * /* why\n", "   ...*> "),
])
def test_the_continuation_prompt_shows_an_open_quote(make_session, music, above, prompt):
    assert repl.continuation_for(above) == prompt
    session, _ = make_session(music, interactive=True)
    assert repl.build_prompt(session).prompt_continuation is repl.continuation  # what the REPL draws with
