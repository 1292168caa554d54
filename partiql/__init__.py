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

from importlib import import_module

__version__ = "0.1.0"

# The public names, imported on first use (PEP 562): ``partiql --version`` and a program that only
# names ``partiql.__version__`` do not load the engine (start-up time, issue 19).
_LAZY = {"connect": ".api", "Connection": ".api", "SCAN_POLICIES": ".arguments", "ScanRefused": ".errors",
         "ConsumedCapacity": ".result", "PlanSummary": ".result", "Result": ".result",
         "StorageError": "partiql.engine.storage", "DatabaseLocked": "partiql.engine.storage"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'partiql' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def client(db=None):
    """A boto3-shaped DynamoDB client over ``db`` (a new in-memory database if None)."""
    from .boto_client import Client
    from .api import connect
    return Client(db if db is not None else connect())


__all__ = ["connect", "client", "Connection", "Result", "ConsumedCapacity", "PlanSummary", "ScanRefused",
           "SCAN_POLICIES", "StorageError", "DatabaseLocked", "__version__"]
