"""A write SQLite refuses (here: a trigger another program added to the file) is a StorageError naming
the file, on every path ``SqliteStorage.persist`` takes, and memory keeps what the file holds."""

from __future__ import annotations

import sqlite3

import pytest

import partiql
from partiql.engine.storage import StorageError

WRITES = {
    "one item (a lone statement)": lambda db: db.engine.put_item(TableName="Things", Item={"pk": "b"}),
    "two items (one transaction)": lambda db: db.engine.batch_write_item(RequestItems={"Things": [
        {"PutRequest": {"Item": {"pk": "b"}}}, {"PutRequest": {"Item": {"pk": "c"}}}]}),
    "an item and its stream record (one statement)": lambda db: db.engine.put_item(
        TableName="Recorded", Item={"pk": "b"}),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES)
def test_a_refused_write_names_the_file_and_changes_nothing(tmp_path, write):
    path = tmp_path / "refused.db"
    db = partiql.connect(path)
    db.execute("CREATE TABLE Things PRIMARY KEY (pk STRING HASH)")
    db.engine.create_table(TableName="Recorded", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                           KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST",
                           StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    for table in ("Things", "Recorded"):
        db.engine.put_item(TableName=table, Item={"pk": "a"})
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("CREATE TRIGGER refuse BEFORE INSERT ON items BEGIN SELECT RAISE(ABORT, 'no room'); END")
    other.close()
    with pytest.raises(StorageError, match=f"^cannot write {path}: no room$"):
        write(db)
    for table in ("Things", "Recorded"):
        assert db.engine.scan(TableName=table)["Items"] == [{"pk": "a"}]
    db.close()
