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
import re
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

# Seeds mark each parameter with what it stands for: ?S a partition key
# (string), ?N a number (sort key or LSI key), ?V any value. The marks become
# plain ``?``; the parameter is of the right type most of the time, so the
# statements get past key checks into conditions, updates and index upkeep.
SEED_STATEMENTS = [
    "SELECT * FROM Fuzz WHERE pk = ?S",
    "SELECT pk, sk, a.b[0], a[1].b FROM Fuzz WHERE pk = ?S AND sk BETWEEN ?N AND 7",
    "SELECT * FROM Fuzz WHERE pk IN [?S, 'p2'] AND sk > ?N",
    "SELECT * FROM Fuzz WHERE pk = ?S AND sk IN [1, ?N, 3] ORDER BY sk DESC",
    'SELECT * FROM "Fuzz"."ByG" WHERE g = ?V',
    'SELECT pk, l FROM "Fuzz"."ByL" WHERE pk = ?S AND l >= ?N ORDER BY l',
    "SELECT * FROM Fuzz WHERE a = ?V OR begins_with(b, ?V) OR attribute_type(c, 'S') OR size(d) > ?N",
    "SELECT * FROM Fuzz WHERE NOT (x IS MISSING) AND y IS NOT NULL AND contains(z, ?V)",
    "SELECT a, \"b\", m.\"x y\" FROM \"Fuzz\" WHERE pk = ?S AND sk = ?N AND attribute_exists(a)",
    "SELECT COUNT(*) FROM Fuzz",
    "INSERT INTO Fuzz VALUE {'pk': ?S, 'sk': ?N, 'g': ?V, 'l': ?N, 'a': ?V}",
    "INSERT INTO Fuzz VALUE {'pk': ?S, 'sk': ?N, 'm': {'x': [1, 'two', <<3, 4>>, {'y': null}], 'b': true}}",
    "INSERT INTO Fuzz VALUE {'pk': 'p1', 'sk': 1, 'm': {'y': `{a: 1}`}}",
    "UPDATE Fuzz SET a = ?V, b = ?V, n = 1 WHERE pk = ?S AND sk = ?N",
    "UPDATE Fuzz SET n = n + ?N, a[0] = ?V WHERE pk = ?S AND sk = ?N RETURNING MODIFIED OLD *",
    "UPDATE Fuzz SET q = list_append(q, [1, 'x']) REMOVE a.b WHERE pk = ?S AND sk = ?N RETURNING ALL NEW *",
    "UPDATE Fuzz SET q = list_append(q, [?V]) WHERE pk = ?S AND sk = ?N",
    "UPDATE Fuzz SET s = set_add(s, <<'a', 'b'>>) WHERE pk = ?S AND sk = ?N AND attribute_exists(pk)",
    "UPDATE Fuzz SET s = set_delete(s, <<'a'>>), g = ?V, l = ?N WHERE pk = ?S AND sk = ?N AND a <> ?V",
    "UPDATE Fuzz REMOVE g, l SET m.x = ?V WHERE pk = ?S AND sk = ?N RETURNING ALL OLD *",
    "DELETE FROM Fuzz WHERE pk = ?S AND sk = ?N RETURNING ALL OLD *",
    "DELETE FROM Fuzz WHERE pk = ?S AND sk = ?N AND (a = ?V OR attribute_not_exists(g))",
    "EXISTS(SELECT * FROM Fuzz WHERE pk = ?S AND sk = ?N AND a = ?V)",
    "EXISTS(SELECT * FROM Fuzz WHERE pk = ?S AND sk = ?N)",
]
FRAGMENTS = ["SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "(", ")", "[", "]", "{", "}", "<<", ">>", "'", '"',
             "`", "?", "*", ",", ".", "=", "<>", "<", ">=", "BETWEEN", "IN", "IS", "MISSING", "NULL", "VALUE",
             "SET", "REMOVE", "RETURNING", "ALL", "NEW", "OLD", ";", "--", "/*", "1e999", "-", "+", "||", "\\",
             "\ud800", "Fuzz", "pk", "sk", "size(", "LIMIT", "ORDER BY", "DESC", "EXISTS(", "\n", "[-1]",
             "`{a: 1}`", "'\ud800'", '"\U0001f600"', "9" * 50, "0x1", "1e-130", "MODIFIED", "UPDATE", "DELETE",
             "INSERT INTO", "attribute_exists(", "list_append(", "set_add(", "\x00", "#", ":v"]
TOKEN = re.compile(r"'(?:[^']|'')*'?|\"(?:[^\"]|\"\")*\"?|`[^`]*`?|<<|>>|<>|!=|<=|>=|\w+|\s+|.", re.S)


def _span_edit(text: str, rng: random.Random) -> str:
    """One character-level edit: a span cut, doubled or swapped to the end, a fragment inserted or pasted over."""
    i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
    edit = rng.randrange(5)
    if edit == 0:
        return text[:i] + text[j:]
    if edit == 1:
        return text[:j] + text[i:j] + text[j:]
    if edit == 2:
        return text[:i] + " " + rng.choice(FRAGMENTS) + " " + text[i:]
    if edit == 3:
        return text[:i] + text[j:] + text[i:j]
    return text[:i] + rng.choice(FRAGMENTS) + text[j:]


def _token_edit(text: str, rng: random.Random) -> str:
    """One token-level edit: a token deleted, doubled, swapped with another or replaced by a fragment."""
    tokens = TOKEN.findall(text)
    i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
    edit = rng.randrange(4)
    if edit == 0:
        del tokens[i]
    elif edit == 1:
        tokens.insert(i, tokens[i])
    elif edit == 2:
        tokens[i], tokens[j] = tokens[j], tokens[i]
    else:
        tokens[i] = rng.choice(FRAGMENTS)
    return "".join(tokens)


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with 1-3 random edits, on characters or on tokens."""
    for _ in range(rng.randrange(1, 4)):
        if not text:
            text = rng.choice(FRAGMENTS)
        else:
            text = (_token_edit if rng.random() < .5 else _span_edit)(text, rng)
    return text


# ------------------------------------------------------ generated conditions

PATHS = ["a", "b", "c", "n", "g", "l", "m.x", "m.x[0]", "a[1]", "q[0].y", '"b"', 'm."x y"', "s"]
TYPE_NAMES = ["'S'", "'N'", "'M'", "'NULL'"]
LITERALS = ["1", "-2.5e3", "'p1'", "''", "'x'", "true", "null", "[1, 'a']", "{'k': 1}", "<<'a'>>", "<<1, 2>>", "?V"]


def _operand(rng: random.Random) -> str:
    return rng.choice(PATHS) if rng.random() < .5 else rng.choice(LITERALS)


def condition(rng: random.Random, depth: int = 0) -> str:
    """A random WHERE condition over the item's attributes (no key conditions), ?V where a value goes."""
    kind = rng.randrange(10 if depth < 3 else 6)
    if kind == 0:
        return f"{_operand(rng)} {rng.choice(['=', '<>', '<', '<=', '>', '>='])} {_operand(rng)}"
    if kind == 1:
        return f"{rng.choice(PATHS)} IS {rng.choice(['', 'NOT '])}{rng.choice(['MISSING', 'NULL'])}"
    if kind == 2:
        function = rng.choice(["attribute_exists", "attribute_not_exists"])
        return f"{function}({rng.choice(PATHS)})"
    if kind == 3:
        function = rng.choice(["begins_with", "contains", "attribute_type"])
        return f"{function}({rng.choice(PATHS)}, {rng.choice(LITERALS + TYPE_NAMES)})"
    if kind == 4:
        return f"size({rng.choice(PATHS)}) {rng.choice(['>', '=', '<='])} {rng.choice(['0', '2', '?N'])}"
    if kind == 5:
        members = ", ".join(_operand(rng) for _ in range(rng.randrange(1, 4)))
        return f"{rng.choice(PATHS)} {rng.choice(['', 'NOT '])}IN [{members}]"
    if kind == 6:
        return f"{_operand(rng)} BETWEEN {_operand(rng)} AND {_operand(rng)}"
    if kind == 7:
        return f"NOT ({condition(rng, depth + 1)})"
    return f"({condition(rng, depth + 1)}) {rng.choice(['AND', 'OR'])} ({condition(rng, depth + 1)})"


GENERATED = [
    "SELECT * FROM Fuzz WHERE pk = ?S AND ({c})",
    "SELECT {p} FROM Fuzz WHERE {c}",
    'SELECT * FROM "Fuzz"."ByG" WHERE g = ?V AND {c}',
    "UPDATE Fuzz SET {p} = ?V WHERE pk = ?S AND sk = ?N AND ({c})",
    "DELETE FROM Fuzz WHERE pk = ?S AND sk = ?N AND {c}",
    "EXISTS(SELECT * FROM Fuzz WHERE pk = ?S AND sk = ?N AND ({c}))",
]


def generated_statement(rng: random.Random) -> str:
    """A statement with a generated condition (marked parameters, as in the seeds)."""
    return rng.choice(GENERATED).format(c=condition(rng), p=rng.choice(PATHS))


# --------------------------------------------------------------- parameters

def _marked(mark: str, rng: random.Random, odd: float):
    """A parameter for a ``?S``/``?N``/``?V`` mark: anything with probability ``odd``, else the right type."""
    if rng.random() < odd:
        return parameter(rng)
    if mark == "S":
        return f"p{rng.randrange(5)}"
    if mark == "N":
        return rng.randrange(10)
    return rng.choice(["x", "p1", 3, True, None, ["x", 1], {"b": "c"}, {"a", "b"}, b"\x00"])


def parameter(rng: random.Random):
    """Mostly a plain key-like value (so statements reach the items), now and then anything."""
    if rng.random() < .6:
        return f"p{rng.randrange(5)}" if rng.random() < .5 else rng.randrange(10)
    return python_value(rng)


MARK = re.compile(r"\?([SNV])")


def statement(rng: random.Random, mutation: float = 1 / 3, odd: float = .2,
              miscount: float = 1 / 6) -> tuple[str, list]:
    """(text, parameters): a seed or generated statement, mutated with probability ``mutation``,
    each parameter anything at all with probability ``odd``.

    Parameters follow the marks; after a mutation the list is cut or padded
    to the ``?`` count; with probability ``miscount`` one too many or too few.
    """
    text = rng.choice(SEED_STATEMENTS) if rng.random() < .7 else generated_statement(rng)
    params = [_marked(mark, rng, odd) for mark in MARK.findall(text)]
    text = MARK.sub("?", text)
    if rng.random() < mutation:
        text = mutate(text, rng)
        params = params[:text.count("?")] + [parameter(rng) for _ in range(text.count("?") - len(params))]
    if rng.random() < miscount:
        params = params + [parameter(rng)] if rng.random() < .5 or not params else params[:-1]
    return text, params


RETURNING = re.compile(r" RETURNING .*$")
# Seeds a transaction always refuses: SELECTs (reads), Ion literals, parameters inside collection literals.
REFUSED_IN_TRANSACTIONS = re.compile(r"^SELECT|`|\[\?|<<\?")


def transaction(rng: random.Random) -> list:
    """1-4 (text, parameters) for ExecuteTransaction or BatchExecuteStatement: mostly writes and EXISTS.

    At most one of them mutated, RETURNING mostly dropped (refused in a
    transaction), so that many transactions run, and some cancel.
    """
    out = []
    for _ in range(rng.randrange(1, 5)):
        for _ in range(4):  # why: bounded, so a Random that always answers 0 still ends
            text, params = statement(rng, mutation=0, odd=.03, miscount=.02)
            if not REFUSED_IN_TRANSACTIONS.search(text):
                break
        out.append((RETURNING.sub("", text) if rng.random() < .9 else text, params))
    if rng.random() < .25:
        index = rng.randrange(len(out))
        out[index] = (mutate(out[index][0], rng), out[index][1])
    return out


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


def _statement(rng, case=None) -> dict:
    """An ExecuteStatement body (also an element of the batch and transaction lists)."""
    text, params = case or statement(rng)
    return {"Statement": text, "Parameters": _parameters(rng, params)} if params else {"Statement": text}


def _statements(rng) -> list:
    return [_statement(rng, case) for case in transaction(rng)] if rng.random() < .9 else []


def _key_schema(rng, names) -> list:
    schema = [{"AttributeName": names[0], "KeyType": "HASH"}]
    return schema + [{"AttributeName": names[1], "KeyType": "RANGE"}] if rng.random() < .6 else schema


def _definitions(rng, *schemas) -> list:
    """A definition for every key attribute (one in ten left out), of a random key type."""
    names = dict.fromkeys(element["AttributeName"] for schema in schemas for element in schema)
    return [{"AttributeName": name, "AttributeType": rng.choice("SNB")} for name in names if rng.random() < .9]


INDEX_NAMES = {"GlobalSecondaryIndexes": "Global", "LocalSecondaryIndexes": "Local"}


def _create_table(rng) -> dict:
    """CreateTable for one of a few new tables: random key types, an LSI and a GSI now and then."""
    names = rng.sample(["h", "r", "x", "y"], 4)
    schemas = {"KeySchema": _key_schema(rng, names)}
    projection = {"ProjectionType": rng.choice(["ALL", "KEYS_ONLY", "INCLUDE"])}
    if projection["ProjectionType"] == "INCLUDE" or rng.random() < .05:
        projection["NonKeyAttributes"] = ["a"]
    if rng.random() < .4:
        schemas["GlobalSecondaryIndexes"] = _key_schema(rng, names[2:])
    if rng.random() < .3:
        schemas["LocalSecondaryIndexes"] = _key_schema(rng, [names[0], names[3]])
    key_schema = schemas.pop("KeySchema")
    request = {"TableName": f"Fz{rng.randrange(6)}", "KeySchema": key_schema,
               "AttributeDefinitions": _definitions(rng, key_schema, *schemas.values())}
    for kind, schema in schemas.items():
        request[kind] = [{"IndexName": INDEX_NAMES[kind], "KeySchema": schema, "Projection": projection}]
    if rng.random() < .7:
        request["BillingMode"] = "PAY_PER_REQUEST"
    else:
        throughput = {"ReadCapacityUnits": rng.choice([1, 5, 0]), "WriteCapacityUnits": 1}
        request["ProvisionedThroughput"] = throughput
        for index in request.get("GlobalSecondaryIndexes", []):
            index["ProvisionedThroughput"] = throughput
    return request


def _update_table(rng) -> dict:
    """UpdateTable: billing or throughput of the fuzz table; a GSI created or deleted on a new table."""
    if rng.random() < .6:
        mode = rng.choice(["PROVISIONED", "PAY_PER_REQUEST", 5])
        request = {"TableName": TABLE, "BillingMode": mode}
        if mode != "PAY_PER_REQUEST" or rng.random() < .1:
            request["ProvisionedThroughput"] = {"ReadCapacityUnits": rng.randrange(-1, 3), "WriteCapacityUnits": 1}
        return request
    request = {"TableName": f"Fz{rng.randrange(6)}",
               "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": rng.choice("SN")}]}
    request["GlobalSecondaryIndexUpdates"] = [rng.choice([
        {"Create": {"IndexName": "ByA", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "KEYS_ONLY"}}},
        {"Delete": {"IndexName": rng.choice(["ByA", "Global", "Nope"])}}])]
    return request


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


# What real clients send that our seeds did not (issue 30.2): key conditions over non-key, index and unknown
# names, extra and repeated clauses; legacy parameters with every value type, NULL among them.
KEY_NAMES = ["pk", "sk", "l", "g", "a", "nope", "#n"]
KEY_CLAUSES = ["{n} = :v", "{n} < :w", "{n} <= :v", "{n} > :w", "{n} >= :v", "{n} BETWEEN :v AND :w",
               "begins_with({n}, :w)", "{n} <> :v", "attribute_exists({n})", "contains({n}, :v)"]
LEGACY_OPERATORS = ["EQ", "NE", "LE", "LT", "GE", "GT", "NOT_NULL", "NULL", "CONTAINS", "NOT_CONTAINS",
                    "BEGINS_WITH", "IN", "BETWEEN", "XX"]


def _key_condition(rng) -> str:
    """Mostly a valid key condition (pk = :p, a sort clause) with extra clauses after or among it."""
    clauses = ["pk = :p"] if rng.random() < .8 else []
    if rng.random() < .6:
        clauses.append(rng.choice(["sk > :w", "sk BETWEEN :w AND :w", "l <= :w", "begins_with(sk, :w)"]))
    clauses += [rng.choice(KEY_CLAUSES).format(n=rng.choice(KEY_NAMES)) for _ in range(rng.randrange(3))]
    if rng.random() < .3:
        rng.shuffle(clauses)
    return rng.choice([" AND ", " AND ", " AND ", " OR "]).join(clauses or ["pk = :p"])


def _query_keys(rng) -> dict:
    """A Query whose placeholders are the ones its key condition uses (as a client's are: unused ones are
    refused before the condition is looked at)."""
    text = _key_condition(rng)
    values = {":p": {"S": "p1"} if rng.random() < .9 else _any_value(rng), ":v": _any_value(rng),
              ":w": {"N": "3"} if rng.random() < .8 else _any_value(rng)}
    request = {"TableName": TABLE, "KeyConditionExpression": text,
               "ExpressionAttributeValues": {name: value for name, value in values.items() if name in text},
               "IndexName": rng.choice(["ByL", "ByG", None, None]), "ScanIndexForward": rng.random() < .5,
               "Limit": rng.choice([1, 3, None])}
    if "#n" in text:
        request["ExpressionAttributeNames"] = {"#n": rng.choice(KEY_NAMES[:-1])}
    return request


def _any_value(rng):
    return rng.choice([{"NULL": True}, {"NULL": False}, {"BOOL": True}, wire_value(rng), _plain(rng),
                       {"L": []}, {"M": {}}, {"SS": ["a"]}, {"NS": ["1"]}, {"BS": ["AA=="]}])


def _legacy_conditions(rng, names=("pk", "sk", "a", "l", "nope")) -> dict:
    return {rng.choice(names): {"ComparisonOperator": rng.choice(LEGACY_OPERATORS),
                                "AttributeValueList": [_any_value(rng) for _ in range(rng.randrange(3))]}
            for _ in range(rng.randrange(1, 4))}


def _expected(rng) -> dict:
    return {name: rng.choice([{"Value": _any_value(rng)}, {"Exists": False}, {"Exists": True, "Value": _any_value(rng)},
                              {"ComparisonOperator": rng.choice(LEGACY_OPERATORS),
                               "AttributeValueList": [_any_value(rng)]}])
            for name in rng.sample(["a", "b", "pk", "n"], rng.randrange(1, 3))}


WIRE_SEEDS = {
    "Query-keys": lambda rng: _query_keys(rng),
    "Query-legacy": lambda rng: {
        "TableName": TABLE, "KeyConditions": _legacy_conditions(rng),
        "QueryFilter": _legacy_conditions(rng, ("a", "b", "sk")) if rng.random() < .5 else None,
        "ConditionalOperator": rng.choice(["AND", "OR", None])},
    "Scan-legacy": lambda rng: {"TableName": TABLE, "ScanFilter": _legacy_conditions(rng),
                                "ConditionalOperator": rng.choice(["AND", "OR", None])},
    "UpdateItem-legacy": lambda rng: {"TableName": TABLE, "Key": _key(rng), "AttributeUpdates": {
        name: {"Action": rng.choice(["PUT", "ADD", "DELETE", None]),
               "Value": _any_value(rng) if rng.random() < .8 else None}
        for name in rng.sample(["a", "b", "n", "s", "sk"], rng.randrange(1, 3))},
        "Expected": _expected(rng) if rng.random() < .5 else None, "ReturnValues": "ALL_NEW"},
    "PutItem-legacy": lambda rng: {"TableName": TABLE, "Item": _item(rng), "Expected": _expected(rng),
                                   "ConditionalOperator": rng.choice(["AND", "OR", None])},
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
    "BatchExecuteStatement": lambda rng: {"Statements": _statements(rng)},
    "ExecuteTransaction": lambda rng: {"TransactStatements": _statements(rng)},
    "CreateTable": _create_table,
    "DeleteTable": lambda rng: {"TableName": f"Fz{rng.randrange(8)}"},
    "DescribeTable": lambda rng: {"TableName": rng.choice([TABLE, "Nope", "", "a;b"])},
    "UpdateTable": _update_table,
}
# JSON text no Python value dumps to: put into a body through a placeholder string.
RAW_JSON = ["9" * 5000, "1e400", "-1e400", "NaN", "-Infinity", "1E+999999999999", "-0.0", "1" + "0" * 40,
            "[" * 300 + "]" * 300, '{"M": {"a": ' * 300 + '{"S": "x"}' + "}}" * 300,
            '{"L": [' * 300 + '{"N": "1"}' + "]}" * 300, '{"L": [' * 40 + "]}" * 40,
            '"\\ud800"', '"a\\udfffb"', '"\\ud83d\\ude00"', '"\\u0000"', '{"S": "\\udbff"}',
            '{"S": "a", "S": "b"}', '{"N": "1", "N": "x"}', '"' + "x" * 5000 + '"']
RAW = [f"\x01RAW{n}\x01" for n in range(len(RAW_JSON))]
JUNK = [None, 0, -1, "", "x", [], {}, True, 1.5, 10 ** 30, {"S": "a"}, ["a"], "\ud800"] + RAW


def _mangle(value, rng: random.Random, junk: list = JUNK):
    """``value`` with one member somewhere replaced (by one of ``junk``), removed or added."""
    if isinstance(value, dict) and value and rng.random() < .7:
        name = rng.choice(list(value))
        if rng.random() < .5:
            return {**value, name: _mangle(value[name], rng, junk)}
        return {k: v for k, v in value.items() if k != name} if rng.random() < .5 else {**value, "Extra": 1}
    if isinstance(value, list) and value and rng.random() < .7:
        index = rng.randrange(len(value))
        return value[:index] + [_mangle(value[index], rng, junk)] + value[index + 1:]
    return rng.choice(junk)


def wire_request(rng: random.Random) -> tuple[str, bytes]:
    """(operation, body): a generated request, mangled one time in two, sometimes as broken JSON text."""
    seed = rng.choice(sorted(WIRE_SEEDS))
    return seed.split("-")[0], mangled(WIRE_SEEDS[seed](rng), rng)


def mangled(request: dict, rng: random.Random) -> bytes:
    """The body of ``request`` mangled one time in two (members replaced by junk, removed or added),
    sometimes as broken JSON text or bytes that are not UTF-8."""
    request = {name: value for name, value in request.items() if value is not None}
    for _ in range(rng.randrange(1, 3) if rng.random() < .4 else 0):
        request = _mangle(request, rng)
    body = json.dumps(request)
    for n in range(len(RAW)):
        body = body.replace(json.dumps(RAW[n]), RAW_JSON[n])
    if rng.random() < .05:
        body = mutate(body, rng)
    data = body.encode("utf-8", "surrogatepass")
    if rng.random() < .03:
        data = _byte_edit(data, rng)
    return data


# ------------------------------------------------------------ library requests

# What a Python caller can put where a wire body holds only JSON: names that are not str, tuples,
# sets, bytes, objects, floats, Decimal NaN, ints past any range, dict subclasses.
PYTHON_JUNK = [None, 0, "", "x", [], {}, True, 1.5, {1: "a"}, {b"pk": "a"}, {("t",): 1}, {None: 1},
               {"pk": object()}, object(), {"a", "b"}, frozenset(), (1, 2), b"x", bytearray(b"x"),
               Decimal("NaN"), Decimal("-Infinity"), 10 ** 400, {"S": "a"}, [{"S": "a"}], "\ud800",
               type("Mapping", (dict,), {})(pk="a")]


def python_request(rng: random.Random, operations) -> tuple[str, dict]:
    """(operation, keyword arguments) for the library's ``Engine`` methods: a wire seed of one of
    ``operations`` with its attribute values as Python values, mangled one time in two with
    Python-only junk."""
    from partiql.engine.requests.convert import convert  # (the engine's own walk of value members)
    from partiql.engine.wire_values import from_wire

    def to_python(wire):
        try:
            return from_wire(wire)
        except DynamoDBError:
            return python_value(rng)
    seed = rng.choice(sorted(seed for seed in WIRE_SEEDS if seed.split("-")[0] in operations))
    request = convert({name: value for name, value in WIRE_SEEDS[seed](rng).items() if value is not None},
                      to_python)
    if rng.random() < .5:
        mangled = _mangle(request, rng, PYTHON_JUNK)
        keywords = type(mangled) is dict and all(type(name) is str for name in mangled)
        request = mangled if keywords else request  # (the keyword arguments of a call: names are str)
    return seed.split("-")[0], request


def _byte_edit(data: bytes, rng: random.Random) -> bytes:
    """The body cut short, or with bytes that are not UTF-8 put in."""
    i = rng.randrange(len(data) + 1)
    if rng.random() < .5:
        return data[:i]
    return data[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + data[i:]


# ------------------------------------------------------------------ outcome

# boto3's TypeSerializer refuses these Python values with a TypeError before a
# request leaves the caller; the library does the same, with these words.
CALLER_MESSAGES = ("Infinity and NaN not supported", "Float types are not supported", "Unsupported type",
                   "parameters must be a list", "A set must hold", "Attribute names must be strings",
                   "Map keys must be strings",
                   "a statement must be a str", "statements must be a list", "each statement must be",
                   "statement options must be a dict")


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
