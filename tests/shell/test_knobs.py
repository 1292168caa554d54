"""ExecuteStatement's knobs in the shell (issue #13 point 3): .limit and .next, .consistent, .param / \\bind."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import connected

SCORES = ["CREATE TABLE Scores (Game STRING) PRIMARY KEY (Game HASH, Score NUMBER RANGE)",
          *(f"INSERT INTO Scores VALUE {{'Game': 'g', 'Score': {n}, 'Pad': '{'x' * 3000}'}}" for n in range(1, 6))]


@pytest.fixture
def scores():
    return connected(SCORES)


def status_lines(streams) -> list[str]:
    return [line for line in streams.err.getvalue().splitlines() if "Query on Scores" in line]


@pytest.mark.parametrize("line, shown", [
    (".limit", "limit: off (every page)"), (".limit 3", "limit: 3"), (".limit off", "limit: off (every page)"),
    (".consistent", "consistent: off"), (".consistent on", "consistent: on"),
    (".param", "parameters: none"), (".param 'u102', 5, [1, 2]", "parameters: 'u102', 5, [1, 2]"),
    ("\\bind 'a'", "parameters: 'a'"), (".param clear", "parameters: none"),
    (".next", "nothing more to read: .next follows a SELECT run with .limit N that had more"),
])
def test_knobs_show_and_set(make_session, scores, line, shown):
    session, streams = make_session(scores)
    assert session.run_script(line)
    assert streams.err.getvalue() == shown + "\n"


@pytest.mark.parametrize("line, error", [
    (".limit 0", ".limit takes a whole number of items from 1, or off, not '0'"),
    (".limit many", ".limit takes a whole number of items from 1, or off, not 'many'"),
    (".consistent yes", ".consistent takes on or off, not 'yes'"),
    (".param 'open", ".param takes PartiQL values separated by commas ('text', 5, [1, 2]): "),
    (".param ?", ".param takes PartiQL values separated by commas ('text', 5, [1, 2]): "),
])
def test_bad_knobs_are_refused(make_session, scores, line, error):
    session, streams = make_session(scores)
    assert session.run_script(line) is False
    assert error in streams.err.getvalue()
    assert (session.knobs.limit, session.knobs.consistent, session.knobs.params) == (None, False, [])


def test_limit_reads_one_page_and_next_reads_on(make_session, scores):
    session, streams = make_session(scores, format="csv")
    session.run_script(".limit 2\nSELECT Score FROM Scores WHERE Game = 'g';\n.next\n.next\n.next")
    assert streams.out.getvalue().split() == ["Score", "1", "2", "Score", "3", "4", "Score", "5"]
    lines = status_lines(streams)
    assert [line.endswith("more: .next") for line in lines] == [True, True, False]
    assert streams.err.getvalue().endswith("nothing more to read: .next follows a SELECT run with .limit N that "
                                           "had more\n")


def test_consistent_reads_cost_twice_as_much(make_session, scores):
    session, streams = make_session(scores)
    session.run_script("SELECT * FROM Scores WHERE Game = 'g';\n.consistent on\nSELECT * FROM Scores WHERE Game = 'g';")
    eventually, strongly = status_lines(streams)
    assert eventually.endswith("2 RCU") and strongly.endswith("4 RCU")  # 5 items of 3 KB: 15 KB


def test_parameters_bind_the_question_marks(make_session, scores):
    session, streams = make_session(scores, format="csv")
    assert session.run_script(".param 'g', 3\nSELECT Score FROM Scores WHERE Game = ? AND Score > ?;")
    assert streams.out.getvalue().split() == ["Score", "4", "5"]
    assert session.run_script("SELECT Score FROM Scores WHERE Game = 'g' AND Score = 1;")  # no ?: none sent


def test_a_limit_clause_gets_a_hint(make_session, scores):
    session, streams = make_session(scores)
    assert session.run_script("SELECT * FROM Scores LIMIT 2;") is False
    assert streams.err.getvalue().splitlines()[-1] == (
        "hint: DynamoDB's PartiQL has no LIMIT clause: .limit N sets DynamoDB's Limit, and .next reads on")


def test_knobs_in_a_script_run_with_f(tmp_path):
    script = tmp_path / "knobs.sql"
    script.write_text(";\n".join(SCORES) + ";\n.limit 4\nSELECT Score FROM Scores WHERE Game = 'g';\n.next\n")
    done = subprocess.run([sys.executable, "-m", "partiql.shell", "-f", str(script), "--format", "csv"],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Score", "1", "2", "3", "4", "Score", "5"]
    assert "4 items · Query on Scores · 1.5 RCU · more: .next" in done.stderr
