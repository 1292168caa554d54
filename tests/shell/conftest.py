"""Shared fixtures of the shell tests: a private config directory, sessions, fakes, golden files."""

from __future__ import annotations

import io
import os
import signal
from pathlib import Path

import pytest

import partiql
from partiql.result import PlanSummary, Result
from partiql.shell.config import Settings
from partiql.shell.session import Session

GOLDEN = Path(__file__).parent / "golden"
MUSIC = [
    "CREATE TABLE Music (Artist S, SongTitle S, Released N) PRIMARY KEY (Artist HASH, SongTitle RANGE) "
    "GSI (ByYear ON (Released HASH) PROJECTING INCLUDE (Genre))",
    "INSERT INTO Music VALUE {'Artist': 'Acme', 'SongTitle': 'Hi', 'Released': 2024, 'Genre': 'Pop'}",
    "INSERT INTO Music VALUE {'Artist': 'Acme', 'SongTitle': 'Yo', 'Released': 2020, "
    "'Tags': <<'b', 'a'>>, 'Stats': {'plays': 12, 'likes': [1, 2]}}",
    "INSERT INTO Music VALUE {'Artist': 'Zed', 'SongTitle': 'Ok', 'Released': 2024, 'Live': true}",
]


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    """Every test gets its own XDG_CONFIG_HOME, so no developer's config or history leaks in."""
    home = tmp_path / "xdg"
    home.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    monkeypatch.delenv("PAGER", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    return home


@pytest.fixture
def music():
    """A real connection holding the Music table."""
    return connected(MUSIC)


def connected(statements) -> partiql.Connection:
    """A fresh in-memory database after ``statements``."""
    db = partiql.connect()
    for statement in statements:
        db.execute(statement)
    return db


class Streams:
    """Captured stdout and stderr of a session."""

    def __init__(self):
        self.out = io.StringIO()
        self.err = io.StringIO()


def _make_session(db, *, interactive=False, bail=False, **settings):
    streams = Streams()
    chosen = Settings(**{"timer": False, **settings})
    session = Session(db, chosen, interactive=interactive, bail=bail, stdout=streams.out,
                      stderr=streams.err)
    return session, streams


@pytest.fixture
def make_session():
    """``make_session(db, interactive=False, bail=False, **settings)`` -> (session, streams):
    a session writing into StringIOs, with the timer off so output is stable."""
    return _make_session


class FakeConnection:
    """Answers every statement with the given pages; can press Ctrl-C after a page."""

    remote = False

    def __init__(self, pages, interrupt_after=None):
        self.pages_ = pages
        self.interrupt_after = interrupt_after
        self.scan_policy = "allow"
        self.statements = []

    def pages(self, statement, parameters=None, consistent_read=False):
        self.statements.append(statement)
        for number, page in enumerate(self.pages_, 1):
            if number == self.interrupt_after:
                signal.raise_signal(signal.SIGINT)
            yield page

    def table_names(self):
        return []

    def describe(self, table):
        return {}


def _scan_page(items, token="next"):
    return Result(items=items, count=len(items), scanned_count=len(items), next_token=token,
                  plan=PlanSummary("Scan", "T", full_table_scan=True))


@pytest.fixture
def fake_db():
    """``fake_db(pages, interrupt_after=None)``: a FakeConnection answering with ``pages``."""
    return FakeConnection


@pytest.fixture
def scan_page():
    """``scan_page(items, token='next')``: a page of a Scan of T."""
    return _scan_page


@pytest.fixture
def golden():
    """``golden(name, text)``: compare with tests/shell/golden/<name>; UPDATE_GOLDEN=1 rewrites."""
    def check(name: str, text: str) -> None:
        path = GOLDEN / name
        if os.environ.get("UPDATE_GOLDEN"):
            path.write_text(text, encoding="utf-8")
        assert text == path.read_text(encoding="utf-8")
    return check
