"""N keys of an opened file are held as ints when integral (engine/storage/codec.py ``_number_key``):
every read and write of a reopened table must see what the same table never written to a file sees."""

from __future__ import annotations

from decimal import Decimal

import pytest

import partiql

SORT_KEYS = [Decimal(text) for text in
             ("-1E+30", "-10", "-1.5", "-1", "0", "0.25", "1", "1.5", "2", "10", "99.999", "100",
              "123456789012345678901234567890", "1E+125")]
ITEMS = [{"pk": pk, "sk": sk, "n": Decimal(number)} for pk in (Decimal(-7), Decimal("2.5"), Decimal(40))
         for number, sk in enumerate(SORT_KEYS)]

CONDITIONS = [(f"sk {op} :v", value) for op in ("=", "<", "<=", ">", ">=") for value in
              ("-10", "-1.2", "0", "1", "1.5", "10", "1E+125")] + [
    ("sk BETWEEN :v AND :w", None)]


def _fill(db) -> None:
    db.execute("CREATE TABLE Numbers PRIMARY KEY (pk NUMBER HASH, sk NUMBER RANGE)")
    for item in ITEMS:
        db.engine.put_item(TableName="Numbers", Item=item)


@pytest.fixture
def pair(tmp_path):
    """(the reopened file, the same table in memory)."""
    with partiql.connect(tmp_path / "numbers.db") as db:
        _fill(db)
    opened, memory = partiql.connect(tmp_path / "numbers.db"), partiql.connect()
    _fill(memory)
    yield opened, memory
    opened.close()
    memory.close()


@pytest.mark.parametrize("forward", [True, False])
@pytest.mark.parametrize("condition, value", CONDITIONS)
def test_a_query_of_a_reopened_file_returns_what_the_table_in_memory_does(pair, condition, value, forward):
    values = {":p": Decimal(40), ":v": Decimal(value or "-1")}
    if value is None:
        values[":w"] = Decimal("1.5")
    pages = [db.engine.query(TableName="Numbers", KeyConditionExpression=f"pk = :p AND {condition}",
                             ExpressionAttributeValues=values, ScanIndexForward=forward, Limit=3)
             for db in pair]
    assert pages[0] == pages[1]
    assert all(type(item["sk"]) is Decimal for item in pages[0]["Items"])
    key = pages[0].get("LastEvaluatedKey")
    if key is not None:  # the next page starts after an int-held key found by its Decimal
        assert all(type(value) is Decimal for value in key.values())
        nexts = [db.engine.query(TableName="Numbers", KeyConditionExpression=f"pk = :p AND {condition}",
                                 ExpressionAttributeValues=values, ScanIndexForward=forward, ExclusiveStartKey=key)
                 for db in pair]
        assert nexts[0] == nexts[1]


def test_scan_get_overwrite_and_delete_of_a_reopened_file_see_each_key_once(pair):
    opened, memory = pair
    assert opened.engine.scan(TableName="Numbers") == memory.engine.scan(TableName="Numbers")
    for item in ITEMS:
        key = {"pk": item["pk"], "sk": item["sk"]}
        assert opened.engine.get_item(TableName="Numbers", Key=key)["Item"] == item
    for db in pair:
        db.engine.put_item(TableName="Numbers", Item={"pk": Decimal(40), "sk": Decimal(10), "n": Decimal(-1)})
        db.engine.delete_item(TableName="Numbers", Key={"pk": Decimal("2.5"), "sk": Decimal("1E+125")})
        db.engine.put_item(TableName="Numbers", Item={"pk": Decimal(-7), "sk": Decimal("3"), "n": Decimal(0)})
    assert opened.engine.scan(TableName="Numbers") == memory.engine.scan(TableName="Numbers")
    assert opened.engine.describe_table(TableName="Numbers")["Table"]["ItemCount"] == len(ITEMS)


def test_the_largest_partition_key_of_a_reopened_file_is_a_number_value(pair):
    opened, memory = pair
    spread = opened.key_spread("Numbers")
    assert spread == memory.key_spread("Numbers")
    assert type(spread[None][2]) is Decimal
