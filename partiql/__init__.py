"""partiql-ddb: DynamoDB's PartiQL dialect over a faithful local DynamoDB.

    import partiql
    db = partiql.connect()
    db.execute("CREATE TABLE Music (Artist STRING, SongTitle STRING) "
               "PRIMARY KEY (Artist HASH, SongTitle RANGE)")
    db.execute("INSERT INTO Music VALUE {'Artist': 'Acme', 'SongTitle': 'Hi'}")
    res = db.execute("SELECT * FROM Music WHERE Artist = ?", ["Acme"])
    res.items, res.plan.access_path, res.consumed_capacity.total

    with partiql.connect("app.db") as db:   # a durable single-file database
        db.import_items("Music", "music.csv")

Importing this package imports neither prompt_toolkit, pygments nor boto3.
"""

from __future__ import annotations

from partiql.engine.storage import DatabaseLocked, StorageError

from .api import Connection, connect
from .arguments import SCAN_POLICIES
from .errors import ScanRefused
from .result import ConsumedCapacity, PlanSummary, Result

__version__ = "0.1.0"


def client(db: Connection | None = None):
    """A boto3-shaped DynamoDB client over ``db`` (a new in-memory database if None)."""
    from .boto_client import Client
    return Client(db if db is not None else connect())


__all__ = ["connect", "client", "Connection", "Result", "ConsumedCapacity", "PlanSummary", "ScanRefused",
           "SCAN_POLICIES", "StorageError", "DatabaseLocked", "__version__"]
