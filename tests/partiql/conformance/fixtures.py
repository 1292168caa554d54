"""The spec's §9.0 fixtures, built on a fresh in-memory database.

DynamoDB table names need 3+ characters, so the spec's tables are renamed:
H → HHH, C → CCC, CN → CNN, BIG → BIG, X → XXX, W → WWW. Items are seeded
through the engine's typed put (not PartiQL), so a bug in INSERT cannot
hide behind a broken fixture.
"""

from __future__ import annotations

import partiql
from partiql.engine.engine import WriteAction
from partiql.engine.types import from_python

FILLER = "x" * 3000

HA = {"pk": "a", "n": 5, "s": "str", "ss": {"a", "b", "c"}, "m": {"sub": "x"}, "l": ["a", "b"],
      "nul": None, "flag": True}
HB = {"pk": "b", "n": 10, "s": "other"}
C1 = {"pk": "p", "sk": "1", "n": 1, "tag": "x"}
C2 = {"pk": "p", "sk": "2", "n": 2, "tag": "y"}
C3 = {"pk": "p", "sk": "3", "n": 3, "tag": "x"}
C4 = {"pk": "q", "sk": "1", "n": 4}
S1 = {"pk": "p", "sk": "s1", "gsiPk": "x", "gsiPk2": "x2", "lsiSk": "l1", "lsiSk2": "m1",
      "projattr": "P1", "nonproj": "N1"}
S2 = {"pk": "p", "sk": "s2", "gsiPk": "y", "gsiPk2": "y2", "lsiSk": "l2", "lsiSk2": "m2",
      "projattr": "P2", "nonproj": "N2"}
S3 = {"pk": "p", "sk": "s3", "projattr": "P3", "nonproj": "N3"}
S4 = {"pk": "p", "sk": "s4", "gsiPk": "x", "gsiPk2": "x2", "lsiSk": "l4", "lsiSk2": "m4",
      "projattr": "P4", "nonproj": "N4"}


def big_row(i: int) -> dict:
    return {"pk": "p", "sk": f"s{i:04d}", "tag": "one" if i == 0 else "many", "filler": FILLER}


# name -> (DDL, items)
FIXTURES = {
    "F-H": ("CREATE TABLE HHH (pk STRING) PRIMARY KEY (pk HASH)", [HA, HB]),
    "F-C": ("CREATE TABLE CCC (pk STRING, sk STRING) PRIMARY KEY (pk HASH, sk RANGE)", [C1, C2, C3, C4]),
    "F-CN": ("CREATE TABLE CNN (pk STRING, sk NUMBER) PRIMARY KEY (pk HASH, sk RANGE)",
             [{"pk": "o", "sk": n} for n in (1, 2, 3)]),
    "F-BIG": ("CREATE TABLE BIG (pk STRING, sk STRING) PRIMARY KEY (pk HASH, sk RANGE)",
              [big_row(i) for i in range(4)]),
    "F-X": ("CREATE TABLE XXX (pk STRING, sk STRING, gsiPk STRING, gsiPk2 STRING, lsiSk STRING, "
            "lsiSk2 STRING) PRIMARY KEY (pk HASH, sk RANGE) "
            'GSI ("gsi-all" ON (gsiPk HASH) PROJECTING ALL) '
            'GSI ("gsi-inc" ON (gsiPk2 HASH) PROJECTING INCLUDE (projattr)) '
            'GSI ("gsi-keys" ON (gsiPk2 HASH) PROJECTING KEYS ONLY) '
            'LSI ("lsi-all" ON (pk HASH, lsiSk RANGE) PROJECTING ALL) '
            'LSI ("lsi-keys" ON (pk HASH, lsiSk2 RANGE) PROJECTING KEYS ONLY)', [S1, S2, S3, S4]),
    "F-W": ("CREATE TABLE WWW (pk STRING, sk STRING, gsiPk STRING, lsiSk STRING) "
            "PRIMARY KEY (pk HASH, sk RANGE) "
            'GSI ("gsi-inc" ON (gsiPk HASH) PROJECTING INCLUDE (proj)) '
            'LSI ("lsi-all" ON (pk HASH, lsiSk RANGE) PROJECTING ALL)', []),
}

TABLES = {"F-H": "HHH", "F-C": "CCC", "F-CN": "CNN", "F-BIG": "BIG", "F-X": "XXX", "F-W": "WWW"}


def put(db, table: str, item: dict) -> None:
    """Store ``item`` (Python values) with the engine's typed PutItem."""
    db.engine.write(WriteAction("Put", table, item=from_python(item)))


def build(*names: str, limits=None):
    """A new database holding the named fixtures (all of them when none is named)."""
    db = partiql.connect(limits=limits)
    for name in names or tuple(FIXTURES):
        ddl, items = FIXTURES[name]
        db.execute(ddl)
        for item in items:
            put(db, TABLES[name], item)
    return db
