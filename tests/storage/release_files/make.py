"""Make the database files in this directory with a release of partiql-ddb (tests open them with today's).

``format-5*`` were made by the release before file format 6 (commit 3d6eba3, file format 5, our earlier
key hash), ``format-6*`` by the release before format 7 (commit 51f948a, before multi-attribute GSI keys):

    git worktree add /tmp/prev 3d6eba3 && pip install --no-deps --target /tmp/prevsite /tmp/prev
    cd /tmp && PYTHONPATH=/tmp/prevsite python3 /work/main/tests/storage/release_files/make.py \
        /work/main/tests/storage/release_files format-5

``format-5.db``: three tables (S, N and B partition keys; an LSI and GSIs of every projection, sparse
members; a stream with inserts, modifications and removals), closed cleanly. ``format-5-log.db``: the same,
then more writes that the process left in its write log (``format-5-log.db-writes``) when it died.
"""

import os
import sys
from decimal import Decimal

import partiql
from partiql.engine.requests import OPERATIONS
from partiql.engine.storage.sqlite import SqliteStorage

TABLES = [
    {"TableName": "Music",
     "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t} for n, t in
                              (("Artist", "S"), ("Song", "S"), ("Plays", "N"), ("Year", "N"), ("Genre", "S"))],
     "KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"}, {"AttributeName": "Song", "KeyType": "RANGE"}],
     "LocalSecondaryIndexes": [{"IndexName": "ByPlays", "Projection": {"ProjectionType": "KEYS_ONLY"},
                                "KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"},
                                              {"AttributeName": "Plays", "KeyType": "RANGE"}]}],
     "GlobalSecondaryIndexes": [
         {"IndexName": "ByYear", "Projection": {"ProjectionType": "KEYS_ONLY"},
          "KeySchema": [{"AttributeName": "Year", "KeyType": "HASH"}]},
         {"IndexName": "ByGenre", "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["Plays"]},
          "KeySchema": [{"AttributeName": "Genre", "KeyType": "HASH"}, {"AttributeName": "Year", "KeyType": "RANGE"}]},
         {"IndexName": "Everything", "Projection": {"ProjectionType": "ALL"},
          "KeySchema": [{"AttributeName": "Song", "KeyType": "HASH"}]}],
     "BillingMode": "PAY_PER_REQUEST",
     "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}},
    {"TableName": "Readings",
     "AttributeDefinitions": [{"AttributeName": "Sensor", "AttributeType": "N"}, {"AttributeName": "At", "AttributeType": "N"}],
     "KeySchema": [{"AttributeName": "Sensor", "KeyType": "HASH"}, {"AttributeName": "At", "KeyType": "RANGE"}],
     "BillingMode": "PAY_PER_REQUEST"},
    {"TableName": "Blobs",
     "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "B"}],
     "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
     "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}},
]
SENSORS = ["0", "7", "-7", "228", "3635", "0.5", "-0.05", "1E+20", "-123456789012345678901234567890", "99.99"]


def music(n: int) -> dict:
    item = {"Artist": f"artist {n % 7}", "Song": f"song {n:03}", "Plays": Decimal(n * 13 % 101)}
    if n % 3:
        item["Year"] = Decimal(1990 + n % 11)
    if n % 4:
        item["Genre"] = ["rock", "jazz", "pop"][n % 3]
    return item


def write(engine, first: int, last: int) -> None:
    put, update, delete = OPERATIONS["PutItem"], OPERATIONS["UpdateItem"], OPERATIONS["DeleteItem"]
    for n in range(first, last):
        put(engine, {"TableName": "Music", "Item": music(n)})
        put(engine, {"TableName": "Readings", "Item": {"Sensor": Decimal(SENSORS[n % len(SENSORS)]),
                                                      "At": Decimal(n), "v": Decimal(n) / 4}})
        put(engine, {"TableName": "Blobs", "Item": {"id": bytes([n % 256, 7]), "n": Decimal(n)}})
    for n in range(first, last, 5):
        update(engine, {"TableName": "Music", "Key": {"Artist": music(n)["Artist"], "Song": music(n)["Song"]},
                        "UpdateExpression": "SET Plays = Plays + :one", "ExpressionAttributeValues": {":one": Decimal(1)}})
    for n in range(first, last, 9):
        delete(engine, {"TableName": "Music", "Key": {"Artist": music(n)["Artist"], "Song": music(n)["Song"]}})


def made(path: str) -> None:
    """The tables, and 120 rounds of writes, in a database file closed after."""
    db = partiql.connect(path)
    for table in TABLES:
        OPERATIONS["CreateTable"](db.engine, table)
    write(db.engine, 0, 120)
    db.close()


def main(directory: str, name: str) -> None:
    made(os.path.join(directory, f"{name}.db"))
    logged = os.path.join(directory, f"{name}-log.db")
    made(logged)
    db = partiql.connect(logged)
    write(db.engine, 120, 150)  # these stay in the write log: the process dies without closing
    assert isinstance(db.engine.storage, SqliteStorage) and os.path.exists(logged + "-writes")
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
