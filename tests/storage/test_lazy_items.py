"""Items of an opened file stay as their row's text until read (engine/storage/restore.py
``StoredRecord``): every way of reading or writing one sees the item it was, from any thread."""

from __future__ import annotations

import sqlite3
import threading
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import partiql
from partiql.engine.errors import InternalServerError
from partiql.engine.placement import key_hash
from partiql.engine.partition import MAIN, stored_key
from partiql.engine.schema import KeySchema
from partiql.engine.storage.codec import item_checksum, row_key, row_key_reader
from partiql.engine.storage.integrity import check_file
from partiql.engine.storage.restore import StoredRecord

ITEMS = [{"pk": f"p{n % 5}", "sk": Decimal(n), "name": f"item {n}", "tags": {"a", f"t{n}"},
          "m": {"x": [Decimal(n), "y"]}} for n in range(40)]

KEY_VALUES = {"S": st.text(min_size=1, max_size=20),
              "N": st.decimals(allow_nan=False, allow_infinity=False, places=None,
                               min_value=-10 ** 30, max_value=10 ** 30).map(lambda d: Decimal(str(d.normalize()))),
              "B": st.binary(min_size=1, max_size=20)}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from("SNB").flatmap(lambda kind: st.tuples(st.just(kind), KEY_VALUES[kind])),
       st.none() | st.sampled_from("SNB").flatmap(lambda kind: st.tuples(st.just(kind), KEY_VALUES[kind])))
def test_a_row_key_reads_back_as_the_key_it_was_written_from(hash_key, range_key):
    (hash_type, pk), ranged = hash_key, range_key is not None
    schema = KeySchema("h", hash_type, "r" if ranged else None, range_key[0] if ranged else None)
    sort = (range_key[1],) if ranged else None
    h = key_hash(pk)
    read = row_key_reader(schema)(row_key(h, pk, sort))
    assert read == stored_key(h, pk, sort)
    for value, back in zip((pk, *(sort or ())), read[1:]):
        # an integral N key comes back as an int (a quarter of the memory), hashing as its Decimal does
        integral = type(value) is Decimal and value == value.to_integral_value()
        assert type(back) is (int if integral else type(value)) and hash(back) == hash(value)


SMALL_VALUES = {"S": st.sampled_from(["0", "00", "a"]), "N": st.sampled_from([Decimal(0), Decimal(1), Decimal("0.5")]),
                "B": st.sampled_from([b"0", b"00", b"\xff"])}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from("SNB"), st.sampled_from("SNB"), st.data())
def test_a_run_of_row_keys_reads_back_key_by_key(hash_type, range_type, data):
    """The reader keeps the previous row's head (hash, partition key): rows of one collection, of
    another, and of the head it starts from (hash 0, partition key "0") each read back right."""
    schema = KeySchema("h", hash_type, "r", range_type)
    rows = data.draw(st.lists(st.tuples(st.sampled_from([0, 1, 2 ** 64 - 1]), SMALL_VALUES[hash_type],
                                        SMALL_VALUES[range_type]), min_size=1, max_size=12))
    read = row_key_reader(schema)
    for h, pk, sk in sorted(rows, key=lambda row: row_key(row[0], row[1], (row[2],))):
        assert read(row_key(h, pk, (sk,))) == (h, pk, sk)


@pytest.fixture
def path(tmp_path):
    file = tmp_path / "lazy.db"
    with partiql.connect(file) as db:
        db.execute("CREATE TABLE Things PRIMARY KEY (pk STRING HASH, sk NUMBER RANGE)")
        for item in ITEMS:
            db.engine.put_item(TableName="Things", Item=item)
    return file


def _stored(db) -> list:
    return list(db.engine.table("Things").store.scan(MAIN))


def test_an_opened_file_decodes_only_the_items_read(path):
    with partiql.connect(path) as db:
        records = _stored(db)
        assert len(records) == len(ITEMS)
        assert all(type(record) is StoredRecord and not _decoded(record) for record in records)
        assert db.engine.get_item(TableName="Things", Key={"pk": "p3", "sk": 8})["Item"] == ITEMS[8]
        assert [n for n, record in enumerate(sorted(records, key=lambda r: r.key[2])) if _decoded(record)] == [8]


def _decoded(record) -> bool:
    try:
        object.__getattribute__(record, "item")
        return True
    except AttributeError:
        return False


def _sorted(items) -> list:
    return sorted(items, key=lambda item: item["sk"])


@pytest.mark.parametrize("read", [
    lambda db: db.execute("SELECT * FROM Things").items,
    lambda db: [item for n in range(5) for item in db.execute("SELECT * FROM Things WHERE pk = ?", [f"p{n}"]).items],
    lambda db: db.engine.scan(TableName="Things", ProjectionExpression="pk, sk, #n, tags, m",
                              ExpressionAttributeNames={"#n": "name"})["Items"],
    lambda db: [db.engine.get_item(TableName="Things", Key={"pk": i["pk"], "sk": i["sk"]})["Item"] for i in ITEMS],
], ids=["select", "query", "scan-projection", "get"])
def test_every_read_sees_the_items_as_written(path, read):
    with partiql.connect(path) as db:
        assert _sorted(read(db)) == ITEMS


def test_writes_over_undecoded_items_see_and_return_the_old_item(path):
    with partiql.connect(path) as db:
        old = db.engine.put_item(TableName="Things", Item={"pk": "p0", "sk": 0, "name": "new"}, ReturnValues="ALL_OLD")
        assert old["Attributes"] == ITEMS[0]
        updated = db.engine.update_item(TableName="Things", Key={"pk": "p1", "sk": 1}, UpdateExpression="SET n = :n",
                                        ExpressionAttributeValues={":n": 7}, ReturnValues="ALL_NEW")
        assert updated["Attributes"] == {**ITEMS[1], "n": Decimal(7)}
        gone = db.engine.delete_item(TableName="Things", Key={"pk": "p2", "sk": 2}, ReturnValues="ALL_OLD")
        assert gone["Attributes"] == ITEMS[2]
        db.engine.put_item(TableName="Things", Item={"pk": "p3", "sk": 3, "name": "c"},
                           ConditionExpression="#n = :old", ExpressionAttributeNames={"#n": "name"},
                           ExpressionAttributeValues={":old": "item 3"})
    with partiql.connect(path) as db:
        expected = {0: {"pk": "p0", "sk": 0, "name": "new"}, 1: {**ITEMS[1], "n": Decimal(7)},
                    3: {"pk": "p3", "sk": 3, "name": "c"}}
        items = _sorted(db.execute("SELECT * FROM Things").items)
        assert items == [expected.get(n, item) for n, item in enumerate(ITEMS) if n != 2]


def test_threads_reading_a_freshly_opened_file_together_see_every_item(path):
    with partiql.connect(path) as db:
        barrier, results, errors = threading.Barrier(8), {}, []

        def reader(number):
            try:
                barrier.wait()
                order = ITEMS[number % 2::2] if number % 2 else list(reversed(ITEMS))
                results[number] = [db.engine.get_item(TableName="Things", Key={"pk": i["pk"], "sk": i["sk"]})["Item"]
                                   for i in order] + db.execute("SELECT * FROM Things").items
            except Exception as error:  # (reported below)
                errors.append(error)

        threads = [threading.Thread(target=reader, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    for number, items in results.items():
        read = len(ITEMS) // (2 if number % 2 else 1)
        assert _sorted(items[read:]) == ITEMS
        assert all(item in ITEMS for item in items[:read])


def test_an_item_row_that_is_not_an_item_fails_clearly_when_read_and_in_check(path):
    db = sqlite3.connect(path, isolation_level=None)
    key, size = db.execute("SELECT key, size FROM items WHERE item LIKE '%\"item 9\"%'").fetchone()
    text = '{"pk":{"S":"p4"},"sk":{"X":"9"}}'  # an unknown type tag, under a checksum that holds
    db.execute("UPDATE items SET item = ?, crc = ? WHERE key = ?", (text, item_checksum(key, size, text), key))
    db.close()
    with partiql.connect(path) as opened:
        assert opened.engine.get_item(TableName="Things", Key={"pk": "p3", "sk": 8})["Item"] == ITEMS[8]
        with pytest.raises(InternalServerError, match=r"a stored item cannot be read \(KeyError: 'X'\): run "
                                                      r"`partiql check` on the database file"):
            opened.engine.get_item(TableName="Things", Key={"pk": "p4", "sk": 9})
    report = check_file(path)
    assert any("cannot be read (KeyError: 'X')" in problem for problem in report.problems)


def test_an_item_collection_read_from_a_file_shares_one_partition_key(path):
    """Rows come in key order: the items of one partition key share its hash and value (memory)."""
    with partiql.connect(path) as db:
        by_pk: dict = {}
        for record in _stored(db):
            h, pk, _ = record.key
            by_pk.setdefault(pk, []).append((h, pk))
        assert sorted(by_pk) == [f"p{n}" for n in range(5)] and all(len(keys) == 8 for keys in by_pk.values())
        for keys in by_pk.values():
            assert all(h is keys[0][0] and pk is keys[0][1] for h, pk in keys)


@pytest.mark.parametrize("text, name", [
    ('{"pk":{"S":"p4"},"sk":{"N":"9"},"name":{"S":"caf\\u00e9 \\ud83d\\ude00"}}', "café 😀"),  # as written: escaped
    ('{"pk":{"S":"p4"},"sk":{"N":"9"},"name":{"S":"café 😀"}}', "café 😀"),                # other means: raw UTF-8
])
def test_an_opened_item_reads_back_its_text_whatever_its_characters(path, text, name):
    db = sqlite3.connect(path, isolation_level=None)
    key, size = db.execute("SELECT key, size FROM items WHERE item LIKE '%\"item 9\"%'").fetchone()
    db.execute("UPDATE items SET item = ?, crc = ? WHERE key = ?", (text, item_checksum(key, size, text), key))
    db.close()
    with partiql.connect(path) as opened:
        assert opened.engine.get_item(TableName="Things", Key={"pk": "p4", "sk": 9})["Item"] == {
            "pk": "p4", "sk": Decimal(9), "name": name}
