"""The library from many threads at once, starting together on a fresh process (issue: first use raced).

Each case runs in its own interpreter, so the parser, the plan cache and the
engine are built by the racing threads themselves, not by an earlier test.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import json, sys, threading
    import partiql

    THREADS, PER_THREAD, STATEMENT = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    db = partiql.connect()
    # why not CREATE TABLE: that would build the parser before the threads race for it
    db.engine.create_table(TableName="Conc", BillingMode="PAY_PER_REQUEST",
                           AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                 {"AttributeName": "sk", "AttributeType": "N"}],
                           KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                      {"AttributeName": "sk", "KeyType": "RANGE"}])
    barrier = threading.Barrier(THREADS)
    failures = []

    def work(thread):
        barrier.wait()
        for i in range(PER_THREAD):
            try:
                db.execute(STATEMENT, [f"t{thread}", i])
            except Exception as error:  # every failure is the finding
                failures.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    count = len(db.execute("SELECT * FROM Conc").items)
    print(json.dumps({"failures": failures[:5], "failed": len(failures), "items": count}))
""")


def _race(statement: str, threads: int = 8, per_thread: int = 20) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(threads), str(per_thread), statement],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("statement, items", [
    ("INSERT INTO Conc VALUE {'pk': ?, 'sk': ?}", 160),
    ("DELETE FROM Conc WHERE pk = ? AND sk = ?", 0),
    ("SELECT * FROM Conc WHERE pk = ? AND sk = ?", 0),
])
def test_first_use_from_eight_threads_started_together(statement, items):
    outcome = _race(statement)
    assert outcome["failed"] == 0, outcome["failures"]
    assert outcome["items"] == items
