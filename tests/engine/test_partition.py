"""Partitions: hash routing, DynamoDB order inside a collection, splits, the partition formula."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partiql.engine import limits
from partiql.engine.placement import key_hash
from partiql.engine.partition import MAIN, Record, Store, stored_key
from partiql.engine.schema import KeySchema, TableSpec, Throughput


def _spec(throughput):
    return TableSpec("T", KeySchema("pk", "S"), {"pk": "S"}, throughput)


PARTITION_COUNTS = [
    (Throughput(5000, 500), 3),  # data-modeling.md: 5,000 RCU + 500 WCU -> 3 partitions
    (Throughput(1, 1), 1),
    (Throughput(3000, 0), 1),
    (Throughput(3001, 0), 2),
    (Throughput(0, 1000), 1),
    (Throughput(6000, 2000), 4),
    (None, 8),  # on-demand: 12,000 RRU + 4,000 WRU initial throughput
]


@pytest.mark.parametrize("throughput,count", PARTITION_COUNTS)
def test_initial_partition_count(throughput, count):
    assert _spec(throughput).initial_partitions() == count


def test_partition_count_grows_with_size():
    assert _spec(Throughput(1, 1)).initial_partitions(25 * 1024 ** 3) == 3


def test_partitions_cover_the_hash_space():
    store = Store(3, {MAIN: False})
    assert store.partitions[0].lo == 0 and store.partitions[-1].hi == limits.HASH_SPACE
    for left, right in zip(store.partitions, store.partitions[1:]):
        assert left.hi == right.lo


def _put(store, pk, sort=None, size=10, space=MAIN):
    h = key_hash(pk)
    store.put(space, h, pk, sort, Record({"pk": pk, "sort": sort}, size))
    return h


def _key(record):
    """The (h, pk, sort) a test record was stored under."""
    return key_hash(record.item["pk"]), record.item["pk"], record.item["sort"]


SORT_ORDERS = [
    ([Decimal(10), Decimal(9), Decimal("-1"), Decimal("2.5")], [Decimal("-1"), Decimal("2.5"), Decimal(9), Decimal(10)]),
    (["b", "a", "B", "é", "ab"], ["B", "a", "ab", "b", "é"]),  # UTF-8 byte order
    ([b"\xff", b"\x00", b"a"], [b"\x00", b"a", b"\xff"]),  # unsigned bytes
]


@pytest.mark.parametrize("values,ordered", SORT_ORDERS)
def test_collection_sorted_in_dynamodb_order(values, ordered):
    store = Store(1, {MAIN: True})
    for value in values:
        _put(store, "p", (value,))
    records = store.collection(MAIN, key_hash("p"), "p")
    assert [record.item["sort"][0] for record in records] == ordered


def test_scan_order_is_hash_then_sort_and_resumable():
    store = Store(4, {MAIN: True})
    for pk in "abcdefgh":
        for sk in (Decimal(2), Decimal(1)):
            _put(store, pk, (sk,))
    rows = [_key(record) for record in store.scan(MAIN)]
    assert rows == sorted(rows)
    assert len(rows) == 16
    resumed = [_key(record) for record in store.scan(MAIN, after=rows[6])]
    assert resumed == rows[7:]


def test_segments_partition_the_scan():
    from partiql.engine.placement import segment_range
    store = Store(2, {MAIN: False})
    for i in range(200):
        _put(store, f"k{i}")
    everything = [record.item["pk"] for record in store.scan(MAIN)]
    parts = [[record.item["pk"] for record in store.scan(MAIN, None, *segment_range(s, 3))] for s in range(3)]
    assert sum(parts, []) == everything


def test_partition_splits_past_its_byte_limit():
    store = Store(1, {MAIN: False}, max_bytes=1000)
    for i in range(30):
        _put(store, f"key{i}", size=100)
    assert len(store.partitions) >= 3
    assert all(p.bytes <= 1000 for p in store.partitions)
    assert store.items == 30 and store.bytes == 3000
    assert sorted(record.item["pk"] for record in store.scan(MAIN)) == sorted(f"key{i}" for i in range(30))
    for i in range(30):
        assert store.get(MAIN, key_hash(f"key{i}"), f"key{i}", None) is not None


def test_one_partition_key_value_is_never_split():
    store = Store(1, {MAIN: True}, max_bytes=100)
    for i in range(10):
        _put(store, "hot", (Decimal(i),), size=50)
    assert len(store.partitions) == 1 and store.partitions[0].bytes == 500


def test_ensure_partitions_splits_evenly():
    store = Store(1, {MAIN: False})
    for i in range(50):
        _put(store, f"k{i}")
    store.ensure_partitions(4)
    assert len(store.partitions) == 4
    assert store.items == 50


def test_remove_keeps_accounting():
    store = Store(1, {MAIN: True})
    _put(store, "p", (Decimal(1),), size=7)
    assert store.remove(MAIN, key_hash("p"), "p", (Decimal(1),)).size == 7
    assert store.bytes == 0 and store.items == 0
    assert list(store.collection(MAIN, key_hash("p"), "p")) == []


def test_an_overwrite_keeps_one_entry_in_its_place_and_returns_the_old_one():
    store = Store(1, {MAIN: True})
    for sk in (Decimal(3), Decimal(1), Decimal(2)):
        _put(store, "p", (sk,), size=10)
    h = key_hash("p")
    before = store.get(MAIN, h, "p", (Decimal(2),))
    replaced = store.put(MAIN, h, "p", (Decimal(2),), Record({"pk": "p", "sort": "new"}, 25))
    assert replaced.item == {"pk": "p", "sort": (Decimal(2),)} and replaced.size == 10
    assert [r.item["sort"] for r in store.collection(MAIN, h, "p")] == [(Decimal(1),), "new", (Decimal(3),)]
    assert store.items == 3 and store.bytes == 45
    # what a lookup handed out before the overwrite is a snapshot: it still shows the old item
    assert before.item == {"pk": "p", "sort": (Decimal(2),)} and before.size == 10


def test_a_lookup_is_a_snapshot_even_of_an_item_overwritten_later():
    store = Store(1, {MAIN: False})
    _put(store, "k", size=10)
    snapshot = store.get(MAIN, key_hash("k"), "k", None)
    _put(store, "k", size=99)
    assert snapshot.size == 10
    assert store.get(MAIN, key_hash("k"), "k", None).size == 99


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([f"p{n}" for n in range(40)]), st.integers(0, 5)), unique=True,
                max_size=120),
       st.randoms(use_true_random=False), st.sampled_from([True, False]))
def test_a_bulk_load_in_any_order_stores_what_puts_one_by_one_do(keys, shuffle, sorted_first):
    """``Store.load`` (an open) walks entries in key order without a search per entry, and searches
    for the ones out of order (an index's entries come in its table's order)."""
    def entries():
        made = [(key_hash(pk), pk, (Decimal(sk),), Record({"pk": pk, "sk": Decimal(sk)}, 10 + sk))
                for pk, sk in keys]
        if sorted_first:
            made.sort(key=lambda entry: entry[:3])
        else:
            shuffle.shuffle(made)
        return made
    loaded, put_one_by_one = Store(6, {MAIN: True}), Store(6, {MAIN: True})
    made = entries()
    for h, pk, sort, record in made:
        record.key = stored_key(h, pk, sort)
    loaded.load(MAIN, [record for *_, record in made])
    for h, pk, sort, record in entries():
        put_one_by_one.put(MAIN, h, pk, sort, record)
    for store in (loaded, put_one_by_one):
        assert len(store.partitions) == 6
    assert ([[(r.key, r.size) for r in p.spaces[MAIN].records()] for p in loaded.partitions]
            == [[(r.key, r.size) for r in p.spaces[MAIN].records()] for p in put_one_by_one.partitions])
    assert [(p.counts[MAIN], p.sizes[MAIN]) for p in loaded.partitions] == [
        (p.counts[MAIN], p.sizes[MAIN]) for p in put_one_by_one.partitions]
    assert all(p.spaces[MAIN].get(r.key) is r for p in loaded.partitions for r in p.spaces[MAIN].records())
