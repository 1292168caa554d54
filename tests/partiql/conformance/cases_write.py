"""§9.3–9.5 INSERT, UPDATE, DELETE (C-089 … C-140) and §9.10 sizes (C-192 … C-196)."""

from partiql.engine.errors import ConditionalCheckFailedException as CCF
from partiql.engine.errors import DuplicateItemException as DUP
from partiql.engine.errors import ValidationException as VE

from .fixtures import HA, HB
from .texts import FAILED, NO_KEY, WELL_FORMED
from .harness import at, case, step

TOO_LARGE = "Item size has exceeded the maximum allowed size"
FAILED_CHECK = (CCF, FAILED)
UPDATE_TOO_LARGE = "Item size to update has exceeded the maximum allowed size"
INSERT_PARAM = "INSERT INTO HHH VALUE {'pk':'q','m':{'k':?}}"
SECOND_ARG = "UPDATE HHH SET ss = set_add(ss, 'x') WHERE pk = 'a'"
FIRST_ARG = "UPDATE HHH SET t = set_add(ss, <<'x'>>) WHERE pk = 'a'"


def ha(**changes) -> dict:
    """Ha with attributes changed; ``removed=[names]`` drops attributes."""
    removed = changes.pop("removed", ())
    return {k: v for k, v in {**HA, **changes}.items() if k not in removed}


def nested(levels: int) -> str:
    """A literal of ``levels`` nested maps ``{'a': … {'a': 1} …}``."""
    return "{'a':" * levels + "1" + "}" * levels


def size_gate(id: str, statement: str, padding: int, key: tuple, fixture="F-H", table="HHH",
              error=TOO_LARGE):
    """The 409,600-byte gate: ``padding`` bytes fit exactly, one more does not."""
    return case(id, fixture, None,
                step(statement, params=["x" * (padding + 1)], error=(VE, error)),
                step(statement, params=["x" * padding], items=[]),
                step(f"SELECT * FROM {table} WHERE pk = ?", params=[key[0]], check=_exactly_max))


def _exactly_max(result, db) -> None:
    from partiql.engine.types import item_size
    assert [item_size(item) for item in result.items] == [409_600]


INSERTS = [
    case("C-089", "F-H", "INSERT INTO HHH VALUE {'pk':'c','v':1}", items=[], path="PutItem", capacity=1.0,
         state=[("HHH", ("c",), {"pk": "c", "v": 1})]),
    case("C-090", "F-H", "INSERT INTO HHH VALUE {'pk':'a'}", error=(DUP, "Duplicate primary key exists in table"),
         state=[("HHH", ("a",), HA)]),
    case("C-091", "F-H", "INSERT INTO HHH VALUE {'pk': ?, 'data': ?}", params=["p1", "v"], items=[],
         state=[("HHH", ("p1",), {"pk": "p1", "data": "v"})]),
    case("C-092", "F-H", INSERT_PARAM, params=["v"],
         error=(VE, "Unsupported data type: Parameter under key root.k" + at(INSERT_PARAM, "?"))),
    case("C-093", "F-H", "INSERT INTO HHH VALUE {'pk':'d','ss':<<'x','x'>>}",
         error=(VE, "One or more parameter values were invalid: Input collection [x, x] contains duplicates.")),
    case("C-094", "F-H", "INSERT INTO HHH VALUE {'pk':'d','e':<<>>}", error=(VE, "Empty bags are not supported")),
    case("C-095", "F-H", "INSERT INTO HHH VALUE {'pk':'d','mix':<<1,'a'>>}",
         error=(VE, "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags")),
    case("C-096", "F-H", "INSERT INTO HHH VALUE {'pk':'d','x':1,'x':2}",
         error=(VE, "Duplicate keys in tuple. Key: x under root")),
    case("C-097", "F-H", "INSERT INTO HHH VALUE {'pk': 1}",
         error=(VE, "Key attribute's data type should match its data type in table's schema: Key pk")),
    # A11: the AWS-captured wording in every API.
    case("C-098", "F-C", "INSERT INTO CCC VALUE {'pk':'z'}",
         error=(VE, "One or more parameter values were invalid: Missing the key sk in the item")),
    case("C-099", "F-H", "INSERT INTO HHH VALUE {'pk':'r'} RETURNING ALL NEW *",
         error=(VE, "RETURNING is not supported in INSERT")),
    case("C-100", "F-X", "INSERT INTO XXX.\"gsi-all\" VALUE {'pk':'w','sk':'w'}",
         error=(VE, "FROM clause may only contain a single table name in data manipulation statements")),
    case("C-101", "F-H", "INSERT INTO HHH t VALUE {'pk':'x'}",
         error=(VE, WELL_FORMED + "Unexpected token after expression")),
    # pk 'big' (5 B) + 'd' (1 B) + padding.
    size_gate("C-102", "INSERT INTO HHH VALUE {'pk':'big','d':?}", 409_594, ("big",)),
    case("C-103a", "F-H", f"INSERT INTO HHH VALUE {{'pk':'n','d':{nested(31)}}}", items=[]),
    case("C-103b", "F-H", f"INSERT INTO HHH VALUE {{'pk':'n','d':{nested(32)}}}",
         error=(VE, "Nesting Levels have exceeded supported limits under root" + ".a" * 31)),
    case("C-104a", "F-H", "INSERT INTO HHH VALUE {'pk':'o1','l':[1, 1e126]}",
         error=(VE, "Number overflow. Attempting to store a number with magnitude larger than supported "
                    "range under root[1]")),
    case("C-104b", "F-H", "INSERT INTO HHH VALUE {'pk':'o2','m':{'x':1e126}}",
         error=(VE, "Number overflow. Attempting to store a number with magnitude larger than supported "
                    "range under root.x")),
    # INF (§2.4): the shared message, not DynamoDB Local's `Unsupported operation: InsertOp`.
    case("C-105", "F-H", "INSERT INTO HHH << {'pk':'g'} >>",
         error=(VE, 'Unsupported operation: Inserting multiple items in a single statement is not supported, '
                    'use "INSERT INTO tableName VALUE item" instead')),
]

UPDATES = [
    case("C-106", "F-H", "UPDATE HHH SET s = 'new' WHERE pk = 'a'", items=[], path="UpdateItem", capacity=1.0,
         state=[("HHH", ("a",), ha(s="new"))]),
    case("C-107", "F-H", "UPDATE HHH SET s = 'x' WHERE pk = 'zzz'", error=FAILED_CHECK,
         state=[("HHH", ("zzz",), None)]),
    case("C-108", "F-H", "UPDATE HHH SET s = 'x' WHERE s = 'str'", error=(VE, NO_KEY)),
    case("C-109", "F-C", "UPDATE CCC SET n = 9 WHERE pk = 'p'", error=(VE, NO_KEY)),
    case("C-110a", "F-H", "UPDATE HHH SET s = 'q' WHERE pk = 'a' AND pk = 'b'",
         error=(VE, "Multiple conditions on same key pk. Only single item Update/Insert/Delete are supported")),
    case("C-110b", "F-H", "UPDATE HHH SET s = 'q' WHERE pk = 'a' AND pk = 'a'", items=[],
         state=[("HHH", ("a",), ha(s="q"))]),
    case("C-111a", "F-H", "UPDATE HHH SET n = n + 1 WHERE pk = 'a'", state=[("HHH", ("a",), ha(n=6))]),
    case("C-111b", "F-H", "UPDATE HHH SET n = n - 1 WHERE pk = 'a'", state=[("HHH", ("a",), ha(n=4))]),
    case("C-112", "F-H", "UPDATE HHH SET n = 'a' + 1 WHERE pk = 'a' AND nope = 'x'",
         error=(VE, "Incorrect operand type for operator or function; operator or function: +, operand type: S")),
    case("C-113", "F-H", "UPDATE HHH SET l = list_append(l, ['c']) WHERE pk = 'a'",
         state=[("HHH", ("a",), ha(l=["a", "b", "c"]))]),
    case("C-114a", "F-H", "UPDATE HHH SET ss = set_add(ss, <<'d'>>) WHERE pk = 'a'",
         state=[("HHH", ("a",), ha(ss={"a", "b", "c", "d"}))]),
    case("C-114b", "F-H", "UPDATE HHH SET ss = set_add(ss, <<'a'>>) WHERE pk = 'a'", state=[("HHH", ("a",), HA)]),
    case("C-114c", "F-H", "UPDATE HHH SET ss = SET_ADD(ss, <<'d'>>) WHERE pk = 'a'",
         state=[("HHH", ("a",), ha(ss={"a", "b", "c", "d"}))]),
    case("C-115", "F-H", "UPDATE HHH SET nss = set_add(nss, <<'x'>>) WHERE pk = 'a'",
         state=[("HHH", ("a",), ha(nss={"x"}))]),
    case("C-116", "F-H", "UPDATE HHH SET ss = set_delete(ss, <<'a','b','c'>>) WHERE pk = 'a'",
         state=[("HHH", ("a",), ha(removed=["ss"]))]),
    case("C-117", "F-H", SECOND_ARG, error=(VE, "The second argument to SET_ADD must be a value with type SET"
                                             + at(SECOND_ARG, "ss", 2, length=2))),
    case("C-118", "F-H", FIRST_ARG, error=(VE, "The first argument to SET_ADD must equal the assignment value"
                                            + at(FIRST_ARG, "set_add"))),
    case("C-119", "F-H", "UPDATE HHH SET ss = set_add(ss, <<1>>) WHERE pk = 'a'",
         error=(VE, "An operand in the update expression has an incorrect data type")),
    case("C-120", "F-H", "UPDATE HHH SET pk = 'z' WHERE pk = 'a'",
         error=(VE, "One or more parameter values were invalid: Cannot update attribute pk. This attribute is "
                    "part of the key")),
    case("C-121", "F-H", "UPDATE HHH SET x = 1 WHERE pk = 'a' AND n = 999", error=FAILED_CHECK),
    case("C-122a", "F-H", "UPDATE HHH SET x = 1 WHERE pk = 'a' AND attribute_exists(n)",
         state=[("HHH", ("a",), ha(x=1))]),
    case("C-122b", "F-H", "UPDATE HHH SET x = 1 WHERE pk = 'a' AND attribute_not_exists(n)", error=FAILED_CHECK),
    case("C-123", "F-H", "UPDATE HHH SET s = 'new' WHERE pk = 'a' RETURNING ALL OLD *", items=[HA]),
    case("C-124", "F-H", "UPDATE HHH SET s = 'new' WHERE pk = 'a' RETURNING MODIFIED NEW *", items=[{"s": "new"}]),
    case("C-125", "F-H", "UPDATE HHH SET m.sub = 'y' WHERE pk = 'a' RETURNING MODIFIED OLD *",
         items=[{"m": {"sub": "x"}}]),
    case("C-126", "F-H", "UPDATE HHH REMOVE s WHERE pk = 'a' RETURNING MODIFIED NEW *", items=[],
         state=[("HHH", ("a",), ha(removed=["s"]))]),
    case("C-127", "F-H", None,
         step("FROM HHH WHERE pk = 'a' SET c = 1", items=[], state=[("HHH", ("a",), ha(c=1))]),
         step("FROM HHH WHERE pk = 'a' SET c = 2 REMOVE n", state=[("HHH", ("a",), ha(c=2, removed=["n"]))]),
         step("from HHH where pk = 'a' set e = 4", state=[("HHH", ("a",), ha(c=2, e=4, removed=["n"]))])),
    case("C-128a", "F-H", "FROM HHH SET c = 1", error=(VE, NO_KEY)),
    case("C-128b", "F-H", "FROM HHH SET c = 1 WHERE pk = 'a'",
         error=(VE, WELL_FORMED + "Unexpected token after expression")),
    case("C-129a", "F-H", "UPDATE HHH SET newlist[0] = 'x' WHERE pk = 'a'",
         error=(VE, "The document path provided in the update expression is invalid for update")),
    case("C-129b", "F-H", "UPDATE HHH SET l[5] = 'c' WHERE pk = 'a'", state=[("HHH", ("a",), ha(l=["a", "b", "c"]))]),
    case("C-130a", "F-H", "UPDATE HHH SET a = 1, b = 2 WHERE pk = 'a'", state=[("HHH", ("a",), ha(a=1, b=2))]),
    case("C-130b", "F-H", "UPDATE HHH SET a = 1 SET b = 2 WHERE pk = 'a'", state=[("HHH", ("a",), ha(a=1, b=2))]),
    case("C-131a", "F-X", "UPDATE XXX.\"gsi-all\" SET projattr = 'z' WHERE pk = 'p' AND sk = 's1'",
         error=(VE, "This operation is not supported on an index")),
    case("C-131b", "F-X", "UPDATE \"Nope\".\"gsi-all\" SET projattr = 'z' WHERE pk = 'p' AND sk = 's1'",
         error=(VE, "This operation is not supported on an index")),
    # Ha is 41 B; `d` adds 1 B of name plus the padding.
    size_gate("C-132", "UPDATE HHH SET d = ? WHERE pk = 'a'", 409_558, ("a",), error=UPDATE_TOO_LARGE),
]

DELETES = [
    case("C-133", "F-H", "DELETE FROM HHH WHERE pk = 'b'", items=[], path="DeleteItem", capacity=1.0,
         state=[("HHH", ("b",), None)]),
    case("C-134", "F-H", "DELETE FROM HHH WHERE pk = 'never'", items=[], capacity=1.0),
    case("C-135", "F-H", "DELETE FROM HHH WHERE pk = 'a' AND s = 'nope'", error=FAILED_CHECK),
    case("C-136", "F-H", "DELETE FROM HHH WHERE pk = 'never' AND s = 'x'", items=[]),
    case("C-137a", "F-H", "DELETE FROM HHH WHERE pk = 'a' RETURNING ALL OLD *", items=[HA],
         state=[("HHH", ("a",), None)]),
    case("C-137b", "F-H", "DELETE FROM HHH WHERE pk = 'never' RETURNING ALL OLD *", items=[]),
    case("C-138", "F-H", "DELETE FROM HHH WHERE pk = 'a' RETURNING ALL NEW *",
         error=(VE, "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE "
                    "statements.")),
    case("C-139", "F-C", "DELETE FROM CCC WHERE pk = 'p'", error=(VE, NO_KEY)),
    case("C-140a", "F-H", "DELETE FROM HHH WHERE pk = 'a' AND NOT begins_with(s, 'st')", error=FAILED_CHECK),
    case("C-140b", "F-H", "DELETE FROM HHH WHERE pk = 'a' AND NOT begins_with(s, 'zz')", items=[],
         state=[("HHH", ("a",), None), ("HHH", ("b",), HB)]),
]

SIZES = [
    # pk 'k' (3 B) + n (1 + number) + 'p' (1 B) + padding = 409,600.
    size_gate("C-192", "INSERT INTO HHH VALUE {'pk':'k','n':3.14159,'p':?}", 409_590, ("k",)),
    size_gate("C-193a", "INSERT INTO HHH VALUE {'pk':'k','n':123456,'p':?}", 409_591, ("k",)),
    size_gate("C-193b", "INSERT INTO HHH VALUE {'pk':'k','n':1E125,'p':?}", 409_593, ("k",)),
    case("C-194", "F-H", None,
         step("INSERT INTO HHH VALUE {'pk': ?}", params=["k" * 2049],
              error=(VE, "One or more parameter values were invalid: Size of hashkey has exceeded the maximum "
                         "size limit of2048 bytes")),
         step("INSERT INTO HHH VALUE {'pk': ?}", params=["k" * 2048], items=[])),
    case("C-195", "F-C", "INSERT INTO CCC VALUE {'pk':'p', 'sk': ?}", params=["s" * 1025],
         error=(VE, "One or more parameter values were invalid: Aggregated size of all range keys has exceeded "
                    "the size limit of 1024 bytes")),
    case("C-196", "F-H", "INSERT INTO HHH VALUE {'pk':''}",
         error=(VE, "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                    "contain an empty string value. Key: pk")),
]

CASES = [*INSERTS, *UPDATES, *DELETES, *SIZES]
