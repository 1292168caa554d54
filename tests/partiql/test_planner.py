"""plan(): what the planner finds in one walk of a WHERE, before lowering it: a path into a
key attribute (refused first), and the `?` that ordering operators compare (checked per execution)."""

import pytest

import partiql
from partiql.engine.errors import DynamoDBError, ValidationException
from partiql.parser import parse, parse_dml
from partiql.planner import plan

OPERAND = "Incorrect operand type for operator or function; operator or function: {}, operand type: {}"
SCALAR = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key {}"


@pytest.fixture(scope="module")
def db():
    db = partiql.connect()
    db.execute("CREATE TABLE TTT (pk STRING, sk NUMBER) PRIMARY KEY (pk HASH, sk RANGE)")
    return db


def _ordered(db, text):
    return [(op, param.index) for op, param in plan(parse_dml(text), db.engine.tables).ordered]


@pytest.mark.parametrize("text, expected", [
    ("SELECT * FROM TTT WHERE pk = ? AND sk > ?", [(">", 1)]),
    ("SELECT * FROM TTT WHERE pk = ? AND (n BETWEEN ? AND ? OR NOT ? <= n)",
     [("BETWEEN", 1), ("BETWEEN", 2), ("<=", 3)]),
    ("SELECT * FROM TTT WHERE pk = ? AND (n < ?) = true AND m IN [?, ?]", [("<", 1)]),
    ("SELECT * FROM TTT WHERE pk = ? AND n <> ? AND begins_with(s, ?)", []),
    ("UPDATE TTT SET n = ? WHERE pk = ? AND sk = ? AND n >= ?", [(">=", 3)]),
    ("DELETE FROM TTT WHERE pk = ? AND sk = 1 AND n NOT BETWEEN 1 AND ?", [("BETWEEN", 1)]),
])
def test_ordering_operators_parameters_in_source_order(db, text, expected):
    assert _ordered(db, text) == expected


@pytest.mark.parametrize("text, params, op, tag", [
    ("SELECT * FROM TTT WHERE pk = ? AND sk > ?", ["a", True], ">", "BOOL"),
    ("SELECT * FROM TTT WHERE pk = ? AND n BETWEEN 1 AND ?", ["a", None], "BETWEEN", "NULL"),
    ("UPDATE TTT SET n = 1 WHERE pk = ? AND sk = 1 AND n < ?", ["a", [1]], "<", "L"),
])
def test_unorderable_parameter_values_are_refused(db, text, params, op, tag):
    with pytest.raises(ValidationException) as caught:
        db.execute(text, params)
    assert caught.value.message == OPERAND.format(op, tag)


@pytest.mark.parametrize("text, key", [
    ("SELECT * FROM TTT WHERE pk.x = 'a' AND s < true", "pk"),
    ("SELECT * FROM TTT WHERE pk = 'a' AND sk[0] BETWEEN [1] AND 2", "sk"),
    ("UPDATE TTT SET n = 1 WHERE pk = 'a' AND sk = 1 AND (s >= NULL OR pk.y = 1)", "pk"),
])
def test_a_path_into_a_key_is_refused_before_operand_types(db, text, key):
    with pytest.raises(ValidationException) as caught:
        plan(parse(text), db.engine.tables)
    assert caught.value.message == SCALAR.format(key)


def test_a_select_from_a_parameter_is_a_dynamodb_error_not_an_internal_one():
    """The multi-attribute refusal looks at the source first; a `?` source has an ``index`` too (its position),
    and no table: found by test_planner_fuzz."""
    db = partiql.connect()
    db.execute("CREATE TABLE Hhh PRIMARY KEY (pk STRING HASH)")
    for statement in ("SELECT * FROM ? HHH WHERE pk = 'a'", "EXPLAIN SELECT * FROM ? WHERE pk = 'a'"):
        with pytest.raises(DynamoDBError):
            db.execute(statement, [""])
