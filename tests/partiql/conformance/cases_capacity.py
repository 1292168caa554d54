"""§6.6 worked capacity examples (K-01 …) not already a numbered case; sizes from §5.3."""

from .fixtures import big_row
from .harness import Ok, case, step


def padded(pk: str, size: int) -> dict:
    """An HHH item of exactly ``size`` bytes: pk, and `d` padded with x's."""
    return {"pk": pk, "d": "x" * (size - 2 - len(pk) - 1)}


BIG_SCAN = "SELECT * FROM BIG"
W2 = "INSERT INTO HHH VALUE {'pk':'w2','data':?}"

CASES = [
    # 2. a 10,240-byte item rounds up to 12 KB.
    case("K-02", "F-H", None,
         step("SELECT pk FROM HHH WHERE pk = 'k'", consistent=True, capacity=3.0),
         step("SELECT pk FROM HHH WHERE pk = 'k'", capacity=1.5), seed=[("HHH", padded("k", 10_240))]),
    # 3. a missing key: eventual 0.5, strong 1.0, transactional 2.0.
    case("K-03", "F-H", None,
         step("SELECT * FROM HHH WHERE pk = 'zz'", capacity=0.5),
         step("SELECT * FROM HHH WHERE pk = 'zz'", consistent=True, capacity=1.0),
         step(transaction=["SELECT * FROM HHH WHERE pk = 'zz'"], responses=[Ok([])], capacity=2.0)),
    # An empty Query still costs the minimum.
    case("K-04", "F-C", None,
         step("SELECT * FROM CCC WHERE pk = 'zz'", items=[], path="Query", capacity=0.5),
         step("SELECT * FROM CCC WHERE pk = 'zz'", consistent=True, capacity=1.0)),
    # 5. BIG: 12,091 evaluated bytes → R = 3, whatever the filter or projection.
    case("K-05", "F-BIG", None,
         step(BIG_SCAN, capacity=1.5), step(BIG_SCAN, consistent=True, capacity=3.0),
         step("SELECT sk FROM BIG WHERE tag = 'one'", items=[{"sk": "s0000"}], capacity=1.5),
         step("SELECT * FROM BIG WHERE tag = 'absent'", items=[], capacity=1.5),
         step("SELECT sk FROM BIG", capacity=1.5),
         step("SELECT sk FROM BIG WHERE pk = 'p' AND sk = 's0000'", capacity=0.5),
         step("SELECT * FROM BIG WHERE tag = 'absent'", limit=1, items=[], next_token=True, capacity=0.5),
         step("SELECT sk FROM BIG WHERE pk = 'p'", items=[{"sk": f"s{i:04d}"} for i in range(4)], capacity=1.5)),
    # 7. a batch of point reads rounds per item: 1.5 KB + 6.5 KB → 1 + 2 strong.
    case("K-07", "F-H", seed=[("HHH", padded("k1", 1536)), ("HHH", padded("k2", 6656))],
         batch=[("SELECT pk FROM HHH WHERE pk = 'k1'", [], {"consistent_read": True}),
                ("SELECT pk FROM HHH WHERE pk = 'k2'", [], {"consistent_read": True})], capacity=3.0),
    # 9. INSERT of a 3,008-byte item → 3.
    case("K-09", "F-H", W2, params=["x" * 3000], capacity=3.0),
    # 10. UPDATE shrinking 3,018 B to 19 B → max(3, 1).
    case("K-10", "F-H", "UPDATE HHH SET d = 'x' WHERE pk = 'k'", seed=[("HHH", padded("k", 3018))], capacity=3.0),
    # 11. DELETE of a 32-byte item → 1.
    case("K-11", "F-H", "DELETE FROM HHH WHERE pk = 'k'", seed=[("HHH", padded("k", 32))], capacity=1.0),
    # 14. a batch writing 500 B and 3.5 KB → 1 + 4.
    case("K-14", "F-H", batch=[("INSERT INTO HHH VALUE {'pk':'k1','d':?}", [padded("k1", 500)["d"]]),
                               ("INSERT INTO HHH VALUE {'pk':'k2','d':?}", [padded("k2", 3584)["d"]])], capacity=5.0,
         state=[("HHH", ("k1",), padded("k1", 500))]),
    # An UPDATE grows W with the larger image; the transaction doubles the table arm.
    case("K-15", "F-BIG", None,
         step("UPDATE BIG SET filler = 'y' WHERE pk = 'p' AND sk = 's0001'", capacity=3.0),
         step(transaction=["UPDATE BIG SET filler = 'z' WHERE pk = 'p' AND sk = 's0002'"], capacity=6.0),
         step("SELECT * FROM BIG WHERE pk = 'p' AND sk = 's0001'", items=[{**big_row(1), "filler": "y"}])),
]
