"""§9.6 transactions (C-141 … C-158) and §9.7 batches (C-159 … C-170)."""

from partiql.engine.errors import IdempotentParameterMismatchException as IPM
from partiql.engine.errors import ResourceNotFoundException as RNF
from partiql.engine.errors import ValidationException as VE

from .fixtures import FILLER, HA, HB
from .texts import BATCH_SELECT, FAILED, IN_TX, TX_SELECT
from .harness import Err, Ok, case, step

EXISTS_OK = "EXISTS(SELECT * FROM HHH WHERE pk='a' AND s='str')"
UPDATE_HB = "UPDATE HHH SET n=1 WHERE pk='b'"
D1 = "INSERT INTO WWW VALUE {'pk':'d1','sk':'1','gsiPk':'g1','lsiSk':'L1','proj':'p'}"
D2 = "INSERT INTO WWW VALUE {'pk':'d2','sk':'1','gsiPk':'g1','proj':?}"
# INF: AWS names the member and renders the value; the value of a list is not reproduced.
TOO_LONG = ("1 validation error detected: Value at '{}' failed to satisfy constraint: Member must have length "
            "less than or equal to {}")


def hb(**changes) -> dict:
    return {**HB, **changes}


def _write_arms(total, table, gsi=None, lsi=None) -> dict:
    """A transactional write's INDEXES ConsumedCapacity for WWW (WriteCapacityUnits mirrored)."""
    arm = lambda units: {"CapacityUnits": units, "WriteCapacityUnits": units}  # noqa: E731
    out = {"TableName": "WWW", "CapacityUnits": total, "WriteCapacityUnits": total, "Table": arm(table)}
    if gsi:
        out["GlobalSecondaryIndexes"] = {"gsi-inc": arm(gsi)}
    if lsi:
        out["LocalSecondaryIndexes"] = {"lsi-all": arm(lsi)}
    return out


TRANSACTIONS = [
    case("C-141", "F-H", transaction=[EXISTS_OK, UPDATE_HB], responses=[Ok(), Ok()],
         state=[("HHH", ("b",), hb(n=1))]),
    case("C-142", "F-H", transaction=["EXISTS(SELECT * FROM HHH WHERE pk='a' AND s='nope')", UPDATE_HB],
         cancelled=[("ConditionalCheckFailed", FAILED), ("None", None)]),
    case("C-143", "F-H", transaction=["EXISTS(SELECT * FROM HHH WHERE pk='a')", UPDATE_HB],
         error=(VE, IN_TX.format(0, "EXISTS() must contain a single item read with additional condition"))),
    case("C-144", "F-H", EXISTS_OK, error=(VE, "EXISTS can only be used in ExecuteTransaction write requests.")),
    case("C-145", "F-H", transaction=["SELECT * FROM HHH WHERE pk='a'", "INSERT INTO HHH VALUE {'pk':'t'}"],
         error=(VE, "ExecuteTransaction API does not support both read and write operations in the same request.")),
    case("C-146", "F-H", transaction=["SELECT * FROM HHH WHERE pk='a'", "SELECT * FROM HHH WHERE pk='zzz'"],
         responses=[Ok([HA]), Ok([])],
         consumed=("TOTAL", [{"TableName": "HHH", "CapacityUnits": 4.0, "ReadCapacityUnits": 4.0}])),
    case("C-147", "F-H", transaction=["SELECT nope FROM HHH WHERE pk='a'"], responses=[Ok([{}])]),
    case("C-148a", "F-C", transaction=["SELECT * FROM CCC WHERE pk='p'"], error=(VE, TX_SELECT)),
    case("C-148b", "F-C", transaction=["SELECT * FROM CCC WHERE pk='p' AND sk='1' AND tag='x'"],
         error=(VE, TX_SELECT)),
    case("C-149", "F-X", transaction=["SELECT * FROM XXX.\"lsi-all\" WHERE pk='p' AND lsiSk='l1'"],
         error=(VE, IN_TX.format(0, "Reads on indices are not supported within transactions."))),
    case("C-150", "F-H", transaction=["UPDATE HHH SET n=1 WHERE pk='a'", "DELETE FROM HHH WHERE pk='a'"],
         error=(VE, "Transaction request cannot include multiple operations on one item")),
    case("C-151", "F-H", transaction=["INSERT INTO HHH VALUE {'pk':'t1'}", "UPDATE HHH SET n=1 WHERE pk='zzz'"],
         cancelled=[("None", None), ("ConditionalCheckFailed", FAILED)], state=[("HHH", ("t1",), None)]),
    case("C-152", "F-H", transaction=["UPDATE HHH SET n=1 WHERE pk='a' RETURNING ALL NEW *"],
         error=(VE, IN_TX.format(0, "RETURNING clause is not supported in ExecuteTransaction."))),
    case("C-153", "F-C", transaction=["UPDATE CCC SET n=1 WHERE pk='p'", "UPDATE CCC SET n=1 WHERE pk='q' AND sk='1'"],
         cancelled=[("ValidationError", "The provided key element does not match the schema"), ("None", None)]),
    case("C-154", "F-H", transaction=["UPDATE \"Missing\" SET a=1 WHERE pk='x'"],
         cancelled=[("ResourceNotFound", "Requested resource not found")]),
    case("C-155", "F-H", transaction=[f"INSERT INTO HHH VALUE {{'pk':'t{i}'}}" for i in range(101)],
         error=(VE, TOO_LONG.format("transactStatements", 100))),
    case("C-156", "F-H", None,
         step(transaction=["UPDATE HHH SET n = n + 1 WHERE pk='b'"], client_token="tok-1",
              state=[("HHH", ("b",), hb(n=11))]),
         step(transaction=["UPDATE HHH SET n = n + 1 WHERE pk='b'"], client_token="tok-1",
              state=[("HHH", ("b",), hb(n=11))]),
         step(transaction=["UPDATE HHH SET n = n + 2 WHERE pk='b'"], client_token="tok-1",
              error=(IPM, "Specified idempotent token was used with different request parameters within the "
                          "idempotency window"))),
    case("C-157", "F-W", transaction=[D1], consumed=("INDEXES", [_write_arms(4.0, 2.0, gsi=1.0, lsi=1.0)])),
    case("C-158", "F-W", transaction=[(D2, [FILLER])], consumed=("INDEXES", [_write_arms(9.0, 6.0, gsi=3.0)])),
]

def deep(levels: int):
    return {"a": deep(levels - 1)} if levels else 1


# Beyond the spec's numbered cases: cancellation reasons, capacity shapes, batch slots.
MORE_TRANSACTIONS = [
    # A3: a duplicate INSERT cancels with DuplicateItem.
    case("T-01", "F-H", transaction=["INSERT INTO HHH VALUE {'pk':'a'}", UPDATE_HB],
         cancelled=[("DuplicateItem", "Duplicate primary key exists in table"), ("None", None)]),
    # Every statement's condition is evaluated, an unknown table included.
    case("T-02", "F-H", transaction=["UPDATE \"Missing\" SET a=1 WHERE pk='x'", "UPDATE HHH SET n=1 WHERE pk='zzz'"],
         cancelled=[("ResourceNotFound", "Requested resource not found"), ("ConditionalCheckFailed", FAILED)]),
    # A validation failure is reported alone; the other statements read None.
    case("T-03", "F-C", transaction=["UPDATE CCC SET n=1 WHERE pk='zz' AND sk='1'", "INSERT INTO CCC VALUE {'pk':'z'}"],
         cancelled=[("None", None), ("ValidationError", "One or more parameter values were invalid: Missing the key "
                                                        "sk in the item")]),
    case("T-04", "F-H", transaction=["UPDATE HHH SET n = 1 WHERE pk = 1"],
         cancelled=[("ValidationError", "The provided key element does not match the schema")]),
    case("T-05", "F-H", transaction=["UPDATE HHH SET n = 1 WHERE pk IN ['a']"],
         cancelled=[("ValidationError", "The provided key element does not match the schema")]),
    case("T-06", "F-H", transaction=[("UPDATE HHH SET n=1 WHERE pk='a' AND s='nope'", [], {"return_old": True}),
                                     UPDATE_HB],
         cancelled=[("ConditionalCheckFailed", FAILED, HA), ("None", None)]),
    case("T-07", "F-H", transaction=[("UPDATE HHH SET d = ? WHERE pk='a'", [deep(32)])],
         cancelled=[("ValidationError", "Nesting Levels have exceeded supported limits")]),
    case("T-08", "F-H", transaction=["SELECT * FROM HHH WHERE pk='a'", "SELECT pk FROM HHH WHERE pk IN ['a']"],
         error=(VE, "Transaction request cannot include multiple operations on one item")),
    case("T-09", "F-H", transaction=["SELECT * FROM \"Missing\" WHERE pk='a'"],
         error=(RNF, "Requested resource not found")),
    case("T-10", "F-X", transaction=["EXISTS(SELECT * FROM XXX.\"gsi-all\" WHERE gsiPk='x' AND pk='p')"],
         error=(VE, IN_TX.format(0, "Operations on indices are not supported in transactions"))),
    case("T-11", "F-H", transaction=[UPDATE_HB, "DELETE FROM HHH WHERE pk='a' RETURNING ALL OLD *"],
         error=(VE, IN_TX.format(1, "RETURNING clause is not supported in ExecuteTransaction."))),
    case("T-12", "F-H", transaction=[UPDATE_HB],
         consumed=("TOTAL", [{"TableName": "HHH", "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}])),
    # INF: a condition check is a transactional read of the item (2 × R).
    case("T-13", "F-H", transaction=[EXISTS_OK, UPDATE_HB],
         consumed=("TOTAL", [{"TableName": "HHH", "CapacityUnits": 4.0, "ReadCapacityUnits": 2.0,
                              "WriteCapacityUnits": 2.0}])),
    case("T-14", "F-H", transaction=["SELECT s FROM HHH WHERE pk='a'", "SELECT pk FROM HHH WHERE pk='b'"],
         responses=[Ok([{"s": "str"}]), Ok([{"pk": "b"}])]),
    case("T-16", "F-H", transaction=["SELECT * FROM HHH WHERE pk='a' AND pk='b'"], error=(VE, TX_SELECT)),
    case("T-17", "F-H", transaction=["SELECT * FROM HHH WHERE pk=1"],
         error=(VE, IN_TX.format(0, "Key attribute's data type should match its data type in table's schema: Key pk"))),
    case("T-18", "F-H", transaction=["SELECT * FROM HHH WHERE pk='a' ORDER BY n"],
         error=(VE, IN_TX.format(0, "Variable reference n in ORDER BY clause must be part of the primary key"))),
    case("T-15", "F-H", transaction=[], error=(VE, "1 validation error detected: Value at 'transactStatements' "
                                                   "failed to satisfy constraint: Member must have length greater "
                                                   "than or equal to 1")),
]

BATCHES = [
    case("C-159", "F-H", batch=["SELECT * FROM HHH WHERE pk='a'", "SELECT * FROM HHH WHERE pk='zzz'"],
         responses=[Ok([HA], "HHH"), Ok([], "HHH")],
         consumed=("TOTAL", [{"TableName": "HHH", "CapacityUnits": 1.0}])),
    case("C-160", "F-H", batch=[("SELECT * FROM HHH WHERE pk='a'", [], {"consistent_read": True}),
                                "SELECT * FROM HHH WHERE pk='zzz'"],
         responses=[Ok([HA], "HHH"), Ok([], "HHH")], capacity=1.5),
    case("C-161", "F-C", batch=["SELECT * FROM CCC WHERE pk='p'"], responses=[Err("ValidationError", BATCH_SELECT)]),
    case("C-162", "F-X", batch=["SELECT * FROM XXX.\"gsi-all\" WHERE gsiPk='x'"],
         responses=[Err("ValidationError", BATCH_SELECT)]),
    case("C-163", "F-H", batch=["SELECT * FROM HHH WHERE pk='a'", "INSERT INTO HHH VALUE {'pk':'u'}"],
         error=(VE, "Read and write requests together in the same batch is not supported.")),
    case("C-164", "F-H", batch=["INSERT INTO HHH VALUE {'pk':'dup'}", "UPDATE HHH SET n=1 WHERE pk='dup'"],
         error=(VE, "Provided list of item keys contains duplicates")),
    case("C-165", "F-H", batch=["INSERT INTO HHH VALUE {'pk':'a'}"],
         responses=[Err("DuplicateItem", "Duplicate primary key exists in table", "HHH")]),
    case("C-166", "F-H", batch=[("UPDATE HHH SET s='c' WHERE pk='a' AND s='nomatch'", [], {"return_old": True})],
         responses=[Err("ConditionalCheckFailed", FAILED, "HHH")]),
    case("C-167", "F-H", batch=["SELECT id FROM \"unknown-table\" WHERE pk='x'"],
         responses=[Err("ResourceNotFound", "Requested resource not found")]),
    case("C-168", "F-H", batch=["THIS IS NOT SQL", "INSERT INTO HHH VALUE {'pk':'ok1'}"],
         responses=[Err("ValidationError", "Statement wasn't well formed, can't be processed: Expected data "
                                           "manipulation"), Ok([], "HHH")],
         state=[("HHH", ("ok1",), {"pk": "ok1"})]),
    case("C-169", "F-H", batch=["UPDATE HHH SET s='r' WHERE pk='a' RETURNING ALL NEW *"],
         responses=[Ok([{**HA, "s": "r"}], "HHH")]),
    case("C-170", "F-H", batch=[f"INSERT INTO HHH VALUE {{'pk':'t{i}'}}" for i in range(26)],
         error=(VE, TOO_LONG.format("statements", 25))),
]

MORE_BATCHES = [
    case("B-01", "F-H", batch=["UPDATE HHH SET s='x' WHERE pk='a' AND s='nope'", "UPDATE HHH SET s='y' WHERE pk='b'"],
         responses=[Err("ConditionalCheckFailed", FAILED, "HHH"), Ok([], "HHH")],
         consumed=("TOTAL", [{"TableName": "HHH", "CapacityUnits": 1.0}]), state=[("HHH", ("b",), hb(s="y"))]),
    case("B-02", "F-H", batch=[EXISTS_OK], responses=[Err("ValidationError", "EXISTS can only be used in "
                                                                            "ExecuteTransaction write requests.")]),
    case("B-03", "F-H", batch=["DELETE FROM HHH WHERE pk = 1"],
         responses=[Err("ValidationError", "Key attribute's data type should match its data type in table's "
                                           "schema: Key pk")]),
    case("B-04", "F-H", batch=["UPDATE HHH SET s='x' WHERE pk='zz'"], responses=[Err("ConditionalCheckFailed", FAILED,
                                                                                       "HHH")]),
    case("B-05", "F-H", batch=["DELETE FROM HHH WHERE pk='b' RETURNING ALL OLD *", "DELETE FROM HHH WHERE pk='q'"],
         responses=[Ok([HB], "HHH"), Ok([], "HHH")], capacity=2.0),
    case("B-06", "F-H", batch=["SELECT * FROM HHH WHERE pk='a'", "SELECT * FROM CCC WHERE pk='p' AND sk='1'"],
         setup=["CREATE TABLE CCC (pk STRING, sk STRING) PRIMARY KEY (pk HASH, sk RANGE)"],
         consumed=("TOTAL", [{"TableName": "HHH", "CapacityUnits": 0.5}, {"TableName": "CCC", "CapacityUnits": 0.5}])),
    case("B-07", "F-H", batch=["SELECT * FROM HHH WHERE pk='a'", "SELECT * FROM HHH WHERE pk='a'"],
         error=(VE, "Provided list of item keys contains duplicates")),
    case("B-09", "F-H", batch=["SELECT * FROM HHH WHERE pk='a' AND pk='b'",
                               "SELECT * FROM HHH WHERE pk='a' AND pk='a'"],
         responses=[Err("ValidationError", BATCH_SELECT), Err("ValidationError", BATCH_SELECT)]),
    case("B-08", "F-H", batch=[("SELECT * FROM HHH WHERE pk=?", ["a"]), ("SELECT * FROM HHH WHERE pk=?", ["b"])],
         responses=[Ok([HA], "HHH"), Ok([HB], "HHH")]),
]

CASES = [*TRANSACTIONS, *MORE_TRANSACTIONS, *BATCHES, *MORE_BATCHES]
