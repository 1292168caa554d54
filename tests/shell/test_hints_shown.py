"""The shell shows the library's hints (issue #13 point 4): under DynamoDB's error as ``hint:`` lines,
beside the status line as warnings; through the session and through ``-e``."""

from __future__ import annotations

from .conftest import connected
from .test_cli import partiql

SETUP = ["CREATE TABLE GameScores PRIMARY KEY (UserId STRING HASH, GameTitle STRING RANGE) "
         "GSI (GameTitleIndex ON (GameTitle HASH) PROJECTING ALL)",
         "INSERT INTO GameScores VALUE {'UserId': 'u101', 'GameTitle': 'Galaxy Invaders'}"]


def test_an_error_is_followed_by_its_hint(make_session):
    session, streams = make_session(connected(SETUP))
    assert session.run_script("SELECT * FROM GameScore WHERE UserId = 'u1';") is False
    assert streams.err.getvalue().splitlines() == [
        "ResourceNotFoundException: Requested resource not found",
        "hint: there is no table GameScore: did you mean GameScores?"]


def test_a_scan_that_an_index_would_answer_warns_beside_the_status(make_session):
    session, streams = make_session(connected(SETUP))
    assert session.run_script('SELECT * FROM GameScores WHERE UserId = "u101";')
    err = streams.err.getvalue()
    assert "warning: \"u101\" is an attribute name; strings take single quotes: 'u101'" in err


def test_hints_through_e():
    done = partiql("-e", SETUP[0] + ";", "-e", "SELECT * FORM GameScores;")
    assert done.returncode == 1
    assert "hint: did you mean FROM? (FORM is not a keyword)" in done.stderr
