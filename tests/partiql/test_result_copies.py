"""Every item a PartiQL result hands out is the caller's own: changing it, or the maps
and lists inside it, never reaches the stored item.

One row per way a statement hands out an item that stays stored (a point SELECT, a
Query, a Scan, each with ``*`` and with a projection, a transaction's read, RETURNING,
a cancelled transaction's item, an INSERT's plan), for stored items whose lists and
maps hold scalars only and ones that nest in a list, in a map or both.
"""

from __future__ import annotations

import pytest

import partiql
from partiql.engine.errors import TransactionCanceledException

from ..mutations import vandalise

STORED_ITEMS = {
    "nested": {"pk": "a", "sk": 1, "tags": ["t1", ["deep"]], "doc": {"m": {"k": "v"}}, "n": 1},
    "nested in a list": {"pk": "a", "sk": 1, "tags": ["t1", {"k": "v"}], "doc": {"k": "v"}, "n": 1},
    "nested in a map": {"pk": "a", "sk": 1, "tags": ["t1"], "doc": {"l": ["x"]}, "n": 1},
    "shallow": {"pk": "a", "sk": 1, "tags": ["t1", "t2"], "doc": {"k": "v"}, "n": 1},
}
NAMES = ("pk", "sk", "tags", "doc", "n")
INSERT = "INSERT INTO tbl VALUE {" + ", ".join(f"'{name}': ?" for name in NAMES) + "}"
POINT = "WHERE pk = 'a' AND sk = 1"

READS = [
    ("point SELECT *", lambda db: db.execute(f"SELECT * FROM tbl {POINT}").items),
    ("point SELECT projected", lambda db: db.execute(f"SELECT tags, doc FROM tbl {POINT}").items),
    ("Query SELECT *", lambda db: db.execute("SELECT * FROM tbl WHERE pk = 'a'").items),
    ("Query SELECT projected", lambda db: db.execute("SELECT tags, doc FROM tbl WHERE pk = 'a'").items),
    ("Scan SELECT *", lambda db: db.execute("SELECT * FROM tbl WHERE n = 1").items),
    ("Scan SELECT projected", lambda db: db.execute("SELECT tags, doc FROM tbl WHERE n = 1").items),
    ("transaction read", lambda db: db.execute_transaction([f"SELECT * FROM tbl {POINT}"])[0].items),
    ("RETURNING ALL OLD", lambda db: db.execute(f"UPDATE tbl SET n = 1 {POINT} RETURNING ALL OLD *").items),
    ("RETURNING ALL NEW", lambda db: db.execute(f"UPDATE tbl SET n = 1 {POINT} RETURNING ALL NEW *").items),
    ("RETURNING MODIFIED NEW", lambda db: db.execute(
        f"UPDATE tbl SET tags = tags SET doc = doc {POINT} RETURNING MODIFIED NEW *").items),
    ("cancelled transaction's item", lambda db: [_cancelled(db).reasons[0].item]),
    ("INSERT's plan", lambda db: [_reinsert(db).plan.ops[0].item]),
]


def _cancelled(db) -> TransactionCanceledException:
    with pytest.raises(TransactionCanceledException) as failure:
        db.execute_transaction([(f"UPDATE tbl SET n = 2 {POINT} AND n = 0", [], {"return_old": True})])
    return failure.value


def _reinsert(db):
    item = db.execute(f"DELETE FROM tbl {POINT} RETURNING ALL OLD *").items[0]
    return db.execute(INSERT, [item[name] for name in NAMES])


@pytest.fixture(params=sorted(STORED_ITEMS))
def stored(request) -> dict:
    return STORED_ITEMS[request.param]


@pytest.fixture
def db(stored):
    connection = partiql.connect()
    connection.execute("CREATE TABLE tbl (pk STRING, sk NUMBER) PRIMARY KEY (pk HASH, sk RANGE)")
    connection.execute(INSERT, [stored[name] for name in NAMES])
    return connection


@pytest.mark.parametrize("read", [row[1] for row in READS], ids=[row[0] for row in READS])
def test_returned_items_do_not_reach_the_store(db, stored, read):
    items = read(db)
    assert items
    for item in items:
        vandalise(item)
    assert db.execute(f"SELECT * FROM tbl {POINT}").items == [stored]
