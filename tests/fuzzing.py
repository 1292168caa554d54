"""Random PartiQL statements and wire requests, valid and mangled, from a ``random.Random``.

Shared by the property tests (hypothesis hands them a seeded ``Random``:
``st.randoms()``) and by ``bench/fuzz.py`` (long runs outside CI). Each
generator starts from well-formed seeds over the FUZZ table and mutates them
some of the time, so the cases reach deep into the engine as well as its
front doors. ``outcome`` is the property: a result, or an error a caller of
DynamoDB could receive — anything else is an internal error.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal

from partiql.engine.errors import DynamoDBError

TABLE = "Fuzz"
CREATE_TABLE = {
    "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "sk", "AttributeType": "N"},
                             {"AttributeName": "g", "AttributeType": "S"},
                             {"AttributeName": "l", "AttributeType": "N"}],
    "GlobalSecondaryIndexes": [{"IndexName": "ByG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                "Projection": {"ProjectionType": "ALL"}}],
    "LocalSecondaryIndexes": [{"IndexName": "ByL", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                 {"AttributeName": "l", "KeyType": "RANGE"}],
                               "Projection": {"ProjectionType": "KEYS_ONLY"}}],
}

# ---------------------------------------------------------------- values

ODD_STRINGS = ["", "a", "p1", "x" * 300, "\U0001f600", "\ud800", "'", '"', "\\", "\x00", "ß", "null", "?"]
ODD_NUMBERS = [0, 1, -1, 10 ** 38 - 1, 10 ** 38, Decimal("1e-130"), Decimal("1e126"), Decimal("NaN"),
               Decimal("Infinity"), Decimal("-0"), Decimal("1.50"), 2 ** 63]


def python_value(rng: random.Random, depth: int = 0):
    """A Python value a caller might pass as a parameter (now and then one boto3 would refuse)."""
    choice = rng.randrange(14 if depth < 3 else 9)
    if choice == 0:
        return rng.choice(ODD_STRINGS)
    if choice == 1:
        return rng.choice(ODD_NUMBERS)
    if choice == 2:
        return f"p{rng.randrange(5)}"
    if choice == 3:
        return rng.randrange(-5, 50)
    if choice == 4:
        return rng.choice([True, False, None])
    if choice == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(4)))
    if choice == 6:
        return rng.choice([1.5, float("nan"), object(), (1, 2)])
    if choice == 7:
        return {rng.choice(["a", "b", "s"]) for _ in range(rng.randrange(3))}
    if choice == 8:
        return {Decimal(rng.randrange(9)) for _ in range(rng.randrange(1, 3))}
    if choice in (9, 10):
        return [python_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["a", "b", "c", "", "n.m"]): python_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def wire_value(rng: random.Random, depth: int = 0):
    """A wire AttributeValue, well-formed or not."""
    choice = rng.randrange(12 if depth < 3 else 8)
    if choice == 0:
        return {"S": rng.choice(ODD_STRINGS)}
    if choice == 1:
        return {"N": rng.choice(["1", "-0", "1e126", "NaN", "x", "", " 1", "1" * 40, "0.0000"])}
    if choice == 2:
        return {"B": rng.choice(["AA==", "", "!!", "QUJD"])}
    if choice == 3:
        return rng.choice([{"BOOL": True}, {"NULL": True}, {"NULL": False}, {"BOOL": "yes"}])
    if choice == 4:
        return {rng.choice(["SS", "NS", "BS"]): rng.choice([[], ["1"], ["1", "1"], ["a", "b"], "x"])}
    if choice == 5:
        return rng.choice([{}, {"S": "a", "N": "1"}, {"Q": "1"}, None, "a", 5, [], {"S": None}])
    if choice in (6, 7):
        return {"S": f"p{rng.randrange(5)}"} if rng.random() < .5 else {"N": str(rng.randrange(20))}
    if choice in (8, 9):
        return {"L": [wire_value(rng, depth + 1) for _ in range(rng.randrange(4))]}
    return {"M": {rng.choice(["a", "b", "", "pk"]): wire_value(rng, depth + 1) for _ in range(rng.randrange(4))}}


# ------------------------------------------------------------- statements

SEED_STATEMENTS = [
    "SELECT * FROM Fuzz WHERE pk = ?",
    "SELECT pk, sk, a.b[0] FROM Fuzz WHERE pk = ? AND sk BETWEEN 1 AND 7",
    "SELECT * FROM Fuzz WHERE pk IN [?, 'p2'] AND sk > 2 ORDER BY sk DESC",
    'SELECT * FROM "Fuzz"."ByG" WHERE g = ?',
    'SELECT pk FROM "Fuzz"."ByL" WHERE pk = ? AND l >= ?',
    "SELECT * FROM Fuzz WHERE a = ? OR begins_with(b, ?) OR attribute_type(c, 'S') OR size(d) > ?",
    "SELECT * FROM Fuzz WHERE NOT (x IS MISSING) AND y IS NOT NULL AND contains(z, ?)",
    "SELECT COUNT(*) FROM Fuzz",
    "INSERT INTO Fuzz VALUE {'pk': ?, 'sk': ?, 'g': ?, 'l': ?, 'a': ?}",
    "INSERT INTO Fuzz VALUE {'pk': 'p1', 'sk': 1, 'm': {'x': [1, 'two', <<3>>], 'y': `{a: 1}`}}",
    "UPDATE Fuzz SET a = ?, b.c = ?, n = 1 WHERE pk = ? AND sk = 3",
    "UPDATE Fuzz SET n = n + 1, a = ? WHERE pk = 'p1' AND sk = 1",
    "UPDATE Fuzz SET q = list_append(q, [?]) REMOVE x WHERE pk = ? AND sk = 2 RETURNING ALL NEW *",
    "UPDATE Fuzz SET s = set_add(s, <<?>>) WHERE pk = ? AND sk = 4 AND attribute_exists(pk)",
    "DELETE FROM Fuzz WHERE pk = ? AND sk = 5 RETURNING ALL OLD *",
    "INSERT INTO Fuzz VALUE {'pk': ?, 'sk': 2, 'g': 'g1', 'l': 4, 'a': ?}",
    "EXISTS(SELECT * FROM Fuzz WHERE pk = ? AND sk = 1 AND a = ?)",
]
FRAGMENTS = ["SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "(", ")", "[", "]", "{", "}", "<<", ">>", "'", '"',
             "`", "?", "*", ",", ".", "=", "<>", "<", ">=", "BETWEEN", "IN", "IS", "MISSING", "NULL", "VALUE",
             "SET", "REMOVE", "RETURNING", "ALL", "NEW", "OLD", ";", "--", "/*", "1e999", "-", "+", "||", "\\",
             "\ud800", "Fuzz", "pk", "sk", "size(", "LIMIT", "ORDER BY", "DESC", "EXISTS(", "\n"]


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with 1-3 random edits: spans cut, doubled or swapped, fragments inserted."""
    for _ in range(rng.randrange(1, 4)):
        if not text:
            text = rng.choice(FRAGMENTS)
            continue
        i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        edit = rng.randrange(5)
        if edit == 0:
            text = text[:i] + text[j:]
        elif edit == 1:
            text = text[:j] + text[i:j] + text[j:]
        elif edit == 2:
            text = text[:i] + " " + rng.choice(FRAGMENTS) + " " + text[i:]
        elif edit == 3:
            text = text[:i] + text[j:] + text[i:j]
        else:
            text = text[:i] + rng.choice(FRAGMENTS) + text[j:]
    return text


def parameter(rng: random.Random):
    """Mostly a plain key-like value (so statements reach the items), now and then anything."""
    if rng.random() < .6:
        return f"p{rng.randrange(5)}" if rng.random() < .5 else rng.randrange(10)
    return python_value(rng)


def statement(rng: random.Random) -> tuple[str, list]:
    """(text, parameters): a seed statement, mutated one time in two."""
    text = rng.choice(SEED_STATEMENTS)
    if rng.random() < .5:
        text = mutate(text, rng)
    count = text.count("?") + rng.choice([0, 0, 0, 0, 0, 1, -1])
    return text, [parameter(rng) for _ in range(max(count, 0))]


# ---------------------------------------------------------- wire requests

def _plain(rng):
    """Mostly a well-formed plain value, now and then anything."""
    if rng.random() < .3:
        return wire_value(rng)
    return {"S": f"p{rng.randrange(5)}"} if rng.random() < .5 else {"N": str(rng.randrange(10))}


def _parameters(rng, params: list) -> list:
    """A statement's parameters on the wire: plain ones converted, the rest generated."""
    return [{"S": p} if isinstance(p, str) and p[:1] == "p" else {"N": str(p)} if type(p) is int
            else wire_value(rng) for p in params]


def _statement(rng) -> dict:
    text, params = statement(rng)
    return {"Statement": text, "Parameters": _parameters(rng, params)} if params else {"Statement": text}


def _key(rng):
    return {"pk": wire_value(rng) if rng.random() < .1 else {"S": f"p{rng.randrange(5)}"},
            "sk": wire_value(rng) if rng.random() < .1 else {"N": str(rng.randrange(10))}}


def _item(rng):
    item = _key(rng)
    for name in rng.sample(["g", "l", "a", "b", "c"], rng.randrange(4)):
        item[name] = _plain(rng)
    return item


def _values(rng, names=("v", "w", "p")):
    """Values for the expression's placeholders (one in twenty missing)."""
    return {f":{name}": _plain(rng) for name in names if rng.random() < .95}


WIRE_SEEDS = {
    "GetItem": lambda rng: {"TableName": TABLE, "Key": _key(rng), "ProjectionExpression": "pk, a.b[1], #n",
                            "ExpressionAttributeNames": {"#n": "c"}},
    "Scan-plain": lambda rng: {"TableName": TABLE, "Limit": rng.randrange(1, 4)},
    "PutItem": lambda rng: {"TableName": TABLE, "Item": _item(rng), "ConditionExpression": "attribute_not_exists(a) OR a <> :v",
                            "ExpressionAttributeValues": _values(rng, "v"), "ReturnValues": "ALL_OLD"},
    "UpdateItem": lambda rng: {"TableName": TABLE, "Key": _key(rng),
                               "UpdateExpression": rng.choice(["SET a = :v, b = if_not_exists(b, :w)", "ADD n :v :w",
                                                               "SET c = :v REMOVE a, b[0]", "DELETE s :v",
                                                               "SET q = :v + :w"]),
                               "ExpressionAttributeValues": _values(rng, "vw"), "ReturnValues": "UPDATED_NEW"},
    "DeleteItem": lambda rng: {"TableName": TABLE, "Key": _key(rng), "ConditionExpression": "size(a) < :v",
                               "ExpressionAttributeValues": _values(rng, "v")},
    "Query": lambda rng: {"TableName": TABLE, "KeyConditionExpression": "pk = :v AND sk BETWEEN :w AND :p",
                          "ExpressionAttributeValues": {":v": {"S": f"p{rng.randrange(5)}"}, ":w": {"N": "1"},
                                                        ":p": _plain(rng) if rng.random() < .2 else {"N": "8"}},
                          "Limit": rng.choice([1, 5, 0, -1]), "ScanIndexForward": rng.random() < .5,
                          "IndexName": rng.choice(["ByL", "ByG", None, None, None])},
    "Scan": lambda rng: {"TableName": TABLE, "FilterExpression": "contains(a, :v) AND NOT begins_with(b, :w) OR c = :p",
                         "ExpressionAttributeValues": _values(rng), "Segment": rng.randrange(3), "TotalSegments": 2},
    "BatchGetItem": lambda rng: {"RequestItems": {TABLE: {"Keys": [_key(rng) for _ in range(rng.randrange(4))]}}},
    "BatchWriteItem": lambda rng: {"RequestItems": {TABLE: [
        rng.choice([{"PutRequest": {"Item": _item(rng)}}, {"DeleteRequest": {"Key": _key(rng)}}])
        for _ in range(rng.randrange(4))]}},
    "TransactGetItems": lambda rng: {"TransactItems": [{"Get": {"TableName": TABLE, "Key": _key(rng)}}
                                                       for _ in range(rng.randrange(3))]},
    "TransactWriteItems": lambda rng: {"TransactItems": [
        rng.choice([{"Put": {"TableName": TABLE, "Item": _item(rng)}},
                    {"Delete": {"TableName": TABLE, "Key": _key(rng)}},
                    {"ConditionCheck": {"TableName": TABLE, "Key": _key(rng), "ConditionExpression": "a = :v",
                                        "ExpressionAttributeValues": _values(rng, "v")}}])
        for _ in range(rng.randrange(4))]},
    "ExecuteStatement": _statement,
    "BatchExecuteStatement": lambda rng: {"Statements": [_statement(rng) for _ in range(rng.randrange(4))]},
    "ExecuteTransaction": lambda rng: {"TransactStatements": [_statement(rng) for _ in range(rng.randrange(4))]},
    "DescribeTable": lambda rng: {"TableName": rng.choice([TABLE, "Nope", "", "a;b"])},
    "UpdateTable": lambda rng: {"TableName": TABLE, "BillingMode": rng.choice(["PROVISIONED", "PAY_PER_REQUEST", 5]),
                                "ProvisionedThroughput": {"ReadCapacityUnits": rng.randrange(-1, 3),
                                                          "WriteCapacityUnits": 1}},
}
JUNK = [None, 0, -1, "", "x", [], {}, True, 1.5, 10 ** 30, {"S": "a"}, ["a"], "\ud800"]


def _mangle(value, rng: random.Random):
    """``value`` with one member somewhere replaced, removed or added."""
    if isinstance(value, dict) and value and rng.random() < .7:
        name = rng.choice(list(value))
        if rng.random() < .5:
            return {**value, name: _mangle(value[name], rng)}
        return {k: v for k, v in value.items() if k != name} if rng.random() < .5 else {**value, "Extra": 1}
    if isinstance(value, list) and value and rng.random() < .7:
        index = rng.randrange(len(value))
        return value[:index] + [_mangle(value[index], rng)] + value[index + 1:]
    return rng.choice(JUNK)


def wire_request(rng: random.Random) -> tuple[str, bytes]:
    """(operation, body): a generated request, mangled one time in two, sometimes as broken JSON text."""
    seed = rng.choice(sorted(WIRE_SEEDS))
    operation, request = seed.split("-")[0], WIRE_SEEDS[seed](rng)
    request = {name: value for name, value in request.items() if value is not None}
    for _ in range(rng.randrange(1, 3) if rng.random() < .4 else 0):
        request = _mangle(request, rng)
    body = json.dumps(request)
    if rng.random() < .05:
        body = mutate(body, rng)
    return operation, body.encode("utf-8", "surrogatepass")


# ------------------------------------------------------------------ outcome

# boto3's TypeSerializer refuses these Python values with a TypeError before a
# request leaves the caller; the library does the same, with these words.
CALLER_MESSAGES = ("Infinity and NaN not supported", "Float types are not supported", "Unsupported type",
                   "parameters must be a list", "A set must hold", "Attribute names must be strings")


def outcome(run) -> str:
    """'ok', or the name of the DynamoDB error / caller error ``run()`` raised; anything else propagates."""
    try:
        run()
        return "ok"
    except DynamoDBError as error:
        return error.code
    except TypeError as error:
        if not str(error).startswith(CALLER_MESSAGES):
            raise
        return "caller TypeError"
