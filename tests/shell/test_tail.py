"""``.tail TABLE`` (issue #17 point 5) and the stream DDL: a table's changes in the output format, the kept
ones first, then each change as another thread commits it, until stopped."""

from __future__ import annotations

import json
import threading

import pytest

from partiql.shell import tail

from .conftest import connected

FEED = ["CREATE TABLE Feed PRIMARY KEY (pk STRING HASH) STREAM NEW_AND_OLD_IMAGES",
        "INSERT INTO Feed VALUE {'pk': 'a', 'n': 1}",
        "UPDATE Feed SET n = 2 WHERE pk = 'a'",
        "DELETE FROM Feed WHERE pk = 'a'"]


def test_tail_prints_the_kept_changes_in_the_output_format(make_session):
    session, streams = make_session(connected(FEED), format="jsonl")
    assert session.run_script(".tail Feed")
    rows = [json.loads(line) for line in streams.out.getvalue().splitlines()]
    assert [(row["event"], row["pk"]) for row in rows] == [("INSERT", "a"), ("MODIFY", "a"), ("REMOVE", "a")]
    assert rows[0]["new"] == {"pk": "a", "n": 1} and "old" not in rows[0]
    assert rows[1]["new"] == {"pk": "a", "n": 2} and rows[1]["old"] == {"pk": "a", "n": 1}
    assert rows[2]["old"] == {"pk": "a", "n": 2} and "new" not in rows[2]
    assert [int(row["sequence"]) for row in rows] == sorted(int(row["sequence"]) for row in rows)
    assert "3 changes" in streams.err.getvalue()


@pytest.mark.parametrize("argument, shown", [
    ("Feed", 3), ("Feed --from start", 3), ("Feed --from now", 0), ("Feed --from 000000000000000000002", 2),
])
def test_tail_starts_where_it_is_told(make_session, argument, shown):
    session, streams = make_session(connected(FEED), format="jsonl")
    assert session.run_script(f".tail {argument}")
    assert len(streams.out.getvalue().splitlines()) == shown


@pytest.mark.parametrize("line, message", [
    (".tail", ".tail needs a TABLE"),
    (".tail Feed --from", ".tail needs a TABLE"),
    (".tail Nope", "ResourceNotFoundException"),
    (".tail Plain", "Table Plain has no stream enabled"),
    (".tail Feed --from yesterday", "start takes TRIM_HORIZON or LATEST or a sequence number"),
])
def test_tail_mistakes(make_session, line, message):
    session, streams = make_session(connected(FEED + ["CREATE TABLE Plain PRIMARY KEY (pk STRING HASH)"]))
    assert session.run_script(line) is False
    assert message in streams.err.getvalue()


def test_tail_follows_what_another_thread_writes_until_stopped(make_session):
    db = connected(FEED[:1])
    session, streams = make_session(db, interactive=True, format="jsonl")
    started, done = threading.Event(), threading.Event()

    def write() -> None:
        started.wait(10)
        for n in range(5):
            db.execute(f"INSERT INTO Feed VALUE {{'pk': 'w{n}'}}")
        done.set()

    writer = threading.Thread(target=write)
    writer.start()

    def stop() -> bool:
        started.set()  # the tail is waiting: write now
        return done.is_set() and len(streams.out.getvalue().splitlines()) >= 5

    shown = tail.follow(session, "Feed --from now", stop=stop)
    writer.join(10)
    assert shown == 5
    assert [json.loads(line)["pk"] for line in streams.out.getvalue().splitlines()] == [f"w{n}" for n in range(5)]


def test_stream_ddl_enables_changes_and_drops_the_stream(make_session):
    session, streams = make_session(connected(["CREATE TABLE Later PRIMARY KEY (pk STRING HASH)"]), format="jsonl")
    assert session.run_script("ALTER TABLE Later SET STREAM KEYS_ONLY;\nINSERT INTO Later VALUE {'pk': 'x'};\n.tail Later")
    (row,) = [json.loads(line) for line in streams.out.getvalue().splitlines()]
    assert row["event"] == "INSERT" and "new" not in row
    assert session.db.describe("Later")["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}
    assert session.run_script("ALTER TABLE Later DROP STREAM")
    assert "StreamSpecification" not in session.db.describe("Later")
