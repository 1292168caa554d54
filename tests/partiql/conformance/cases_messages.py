"""§8.2: every ValidationException message the dialect can produce, statement → exact text.

Run end to end through ``db.execute`` against F-H/F-C/F-X (the conformance cases
already cover many; this table holds the rest). Messages of §8.2 our grammar
cannot reach are listed in ``UNREACHABLE`` with the reason.
"""

from partiql.engine.errors import ValidationException as VE

from .texts import OPERAND, WELL_FORMED
from .harness import Err, at, case

FIXTURES = ("F-H", "F-C", "F-X")
GROUP_BY = "SELECT * FROM HHH GROUP BY pk"
ON_CONFLICT = "INSERT INTO HHH VALUE {'pk':'x'} ON CONFLICT DO NOTHING"
LIST_APPEND = "SELECT * FROM HHH WHERE pk = 'a' AND list_append(l, l)"
IF_NOT_EXISTS = "SELECT * FROM HHH WHERE pk = 'a' AND if_not_exists(s, 'x') = 'x'"
SET_ADD_ARITY = "UPDATE HHH SET ss = set_add(ss) WHERE pk = 'a'"
SET_DELETE_SECOND = "UPDATE HHH SET ss = set_delete(ss, 'x') WHERE pk = 'a'"
SET_DELETE_FIRST = "UPDATE HHH SET ss = set_delete(t, <<'x'>>) WHERE pk = 'a'"
SET_ADD_WHERE = "SELECT * FROM HHH WHERE pk = 'a' AND set_add(ss, <<'x'>>)"
SET_ADD_VALUE = "INSERT INTO HHH VALUE {'pk': 'q', 'x': set_add(ss, <<'x'>>)}"
SIZE_IN_SET = "UPDATE HHH SET s = size(s) WHERE pk = 'a'"
PARAMETER_IN_LIST = "UPDATE HHH SET x = [?] WHERE pk = 'a'"
HAVING = "SELECT * FROM HHH WHERE pk = 'a' HAVING pk = 'a'"
OFFSET = "SELECT * FROM HHH OFFSET 2"
INDEX_RANGE = "SELECT l[2147483648] FROM HHH"
ORDER_ARGUMENT = "Argument to ORDER BY must be of type VariableReference. Type: "


def deep(levels: int):
    """A Python value of ``levels`` nested maps."""
    return {"a": deep(levels - 1)} if levels else 1



MESSAGES = [
    # parsing
    ("SELECT * FROM HHH WHERE (pk = 'a'))", WELL_FORMED + "Unexpected token after expression"),
    ("DELETE FROM HHH WHERE pk = 'a' ORDER BY pk", WELL_FORMED + "Unexpected token after expression"),
    ("INSERT INTO HHH SELECT * FROM HHH", WELL_FORMED + "Unexpected token after expression"),
    ("SELECT * FROM", WELL_FORMED + "Unexpected term"),
    ("SELECT * FROM HHH WHERE pk = 'a' OR", WELL_FORMED + "Missing right-hand side expression of infix operator"),
    ("SELECT * FROM HHH WHERE ORDER BY pk", WELL_FORMED + "Unexpected keyword"),
    ("SELECT * FROM HHH WHERE IS NULL", WELL_FORMED + "Unexpected operator"),
    ("SELECT * FROM HHH WHERE pk = LIKE", WELL_FORMED + "Unexpected operator"),
    ("SELECT * FROM HHH WHERE pk = 'a' AND n IS FOO", WELL_FORMED + "Expected type name"),
    ("DELETE FROM", WELL_FORMED + "Expected identifier for simple path"),
    ("THIS IS NOT SQL", WELL_FORMED + "Expected data manipulation"),
    ("UPSERT INTO HHH VALUE {'pk':'a'}", WELL_FORMED + "Expected data manipulation"),
    ("BEGIN TRANSACTION", WELL_FORMED + "Expected data manipulation"),
    ("SELECT * FROM HHH WHERE s = 'unterminated", WELL_FORMED),
    ("SELECT * FROM HHH /* unterminated", WELL_FORMED),
    ("SELECT * FROM HHH WHERE n = 1e2147483648", WELL_FORMED),
    ("SELECT * FROM HHH WHERE attribute_exists(m.inner)", WELL_FORMED + "Invalid path dot component"),
    # structure and unsupported forms
    ("SELECT * FROM HHH AT x", "Aliasing is not supported"),
    ("SELECT * FROM HHH, CCC", "Only select from a single table or index is supported."),
    ("SELECT * FROM [1, 2]", "Invalid list expression in source."),
    ('INSERT INTO "HHH"."x"."y" VALUE {\'pk\':\'z\'}', "A path may contain at most 2 components in the FROM clause"),
    ('DELETE FROM XXX."gsi-all" WHERE pk = \'p\' AND sk = \'s1\'', "This operation is not supported on an index"),
    (GROUP_BY, "Unsupported clause: GROUP BY" + at(GROUP_BY, "GROUP BY")),
    (HAVING, "Unsupported clause: HAVING" + at(HAVING, "HAVING")),
    (OFFSET, "Unsupported clause: OFFSET" + at(OFFSET, "OFFSET")),
    (ON_CONFLICT, "Unsupported clause: ON CONFLICT" + at(ON_CONFLICT, "ON CONFLICT")),
    ("SELECT VALUE pk FROM HHH", "Select projection doesn't support value or pivot keywords"),
    ("PIVOT v AT k FROM HHH", "Select projection doesn't support value or pivot keywords"),
    ("SELECT m.* FROM HHH", "Changing item's hierarchy while reading isn't supported"),
    ("SELECT *, pk FROM HHH", "Other attributes should not be present in the projection when '*' is used."),
    ("SELECT attribute_exists(ss) FROM HHH", "Unexpected path component at 1:8:16"),
    ("INSERT INTO HHH VALUE 'x'",
     "Unsupported format in item expression. Please use struct format {...} to express item values for insert "
     "statement."),
    ("DELETE FROM HHH WHERE pk = 'a' RETURNING MODIFIED OLD *",
     "Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed in DELETE "
     "statements."),
    ("DELETE FROM HHH WHERE pk = 'a' RETURNING MODIFIED NEW *",
     "Invalid returning clause: RETURNING MODIFIED NEW *. Only RETURNING ALL OLD * is allowed in DELETE "
     "statements."),
    ("UPDATE HHH SET s = 'x' WHERE pk = 'a' RETURNING ALL OLD *, ALL NEW *",
     "Invalid syntax with multiple returning elements in RETURNING clause"),
    ("UPDATE HHH SET s = 'x' WHERE pk = 'a' RETURNING ALL OLD s",
     "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause"),
    ("UPDATE HHH SET s = 1 IS NULL WHERE pk = 'a'", "IS operator is not supported in update expressions"),
    ("SELECT * FROM HHH WHERE pk = 'a' AND n * 2 = 10", "Unsupported operator in Condition Expression. Operator: *"),
    ("UPDATE HHH SET s = 'x' * 2 WHERE pk = 'a'", "Unsupported operator in Update Expression. Operator: *"),
    ("UPDATE HHH SET x = -n WHERE pk = 'a'", "Unsupported operator in Update Expression. Operator: -"),
    ("SELECT * FROM HHH WHERE 'a'", "WHERE clause must contain an expression that resolves to a boolean"),
    ("SELECT * FROM HHH WHERE size(s)", "WHERE clause must contain an expression that resolves to a boolean"),
    ("SELECT * FROM HHH WHERE pk = 'a' AND 'x'", "The arguments to AND/OR must be Expressions"),
    ("SELECT * FROM HHH WHERE NOT 'x'", "The argument to NOT must be a Type or Expression"),
    ("SELECT * FROM HHH WHERE size(s) IS NULL",
     "The left hand side argument to IS must be a Variable Reference, Literal, or Path"),
    ("SELECT * FROM HHH WHERE n IN []",
     "IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq "
     "with at least one member"),
    ("SELECT * FROM HHH WHERE pk = 'a' AND s IS VARCHAR",
     "Unsupported data type for IS operator: VARCHAR. Supported data types are [MISSING, NULL, BOOLEAN, BLOB, "
     "STRING, NUMERIC, STRUCT, TUPLE, LIST]"),
    (LIST_APPEND, "Unrecognized function: list_append" + at(LIST_APPEND, "list_append")),
    (IF_NOT_EXISTS, "Unrecognized function: if_not_exists" + at(IF_NOT_EXISTS, "if_not_exists")),
    (SET_ADD_WHERE, "Unrecognized function: set_add" + at(SET_ADD_WHERE, "set_add")),
    (SIZE_IN_SET, "Unrecognized function: size" + at(SIZE_IN_SET, "size")),
    ("SELECT * FROM HHH WHERE pk = 'a' AND m.*.b = 1", "Unpivot path component like a.*.b are not supported"),
    ("SELECT * FROM HHH WHERE pk = 'a' AND l[*].b = 1", "Wildcard path component like a[*].b are not supported"),
    (INDEX_RANGE, "List index is not within the allowable range; index: [2147483648]"
     + at(INDEX_RANGE, "2147483648")),
    # keys and planning
    ("SELECT * FROM HHH WHERE pk.x = 'a'",
     "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key pk"),
    ("UPDATE CCC SET n = 1 WHERE pk = 'p' AND sk[0] = '1'",
     "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key sk"),
    ("INSERT INTO HHH VALUE {'pk': true}", "Key value must be of type S, N, or B. Key name: pk, Key type: BOOL"),
    ("DELETE FROM CCC WHERE pk = 'p' AND sk = ['1']",
     "Key value must be of type S, N, or B. Key name: sk, Key type: L"),
    ("SELECT * FROM CCC WHERE pk = 'p' ORDER BY sk.x", ORDER_ARGUMENT + "Path"),
    ("SELECT * FROM CCC WHERE pk = 'p' ORDER BY 1", ORDER_ARGUMENT + "Literal"),
    ("SELECT * FROM CCC WHERE pk = 'p' ORDER BY size(sk)", ORDER_ARGUMENT + "NAry"),
    ('SELECT * FROM XXX."gsi-all" WHERE gsiPk = \'x\' ORDER BY sk',
     "Variable reference sk in ORDER BY clause must be part of the primary key"),
    ('SELECT * FROM XXX."XXX"', "The table does not have the specified index"),
    # values and types
    (PARAMETER_IN_LIST, "Unsupported data type: Parameter under key root[0]" + at(PARAMETER_IN_LIST, "?"), ["v"]),
    (SET_ADD_VALUE, "Unsupported data type: set_add under key root" + at(SET_ADD_VALUE, "set_add")),
    ("SELECT * FROM HHH WHERE pk = 'a' AND attribute_type(l, 1)", OPERAND.format("attribute_type", "N")),
    ("SELECT * FROM HHH WHERE pk = 'a' AND s BETWEEN [1] AND [2]", OPERAND.format("BETWEEN", "L")),
    ("SELECT * FROM HHH WHERE pk = 'a' AND s >= NULL", OPERAND.format(">=", "NULL")),
    ("UPDATE HHH SET n = NULL - 1 WHERE pk = 'a'", OPERAND.format("-", "NULL")),
    ("UPDATE HHH SET n = [1] + 1 WHERE pk = 'a'", OPERAND.format("+", "L")),
    ("SELECT * FROM HHH WHERE pk = 'a' AND attribute_exists(s, n)",
     "Incorrect number of operands for operator or function; operator or function: attribute_exists, number of "
     "operands: 2"),
    ("SELECT * FROM HHH WHERE pk = 'a' AND begins_with(?, 'x')",
     "Operator or function requires a document path; operator or function: begins_with", ["x"]),
    (SET_ADD_ARITY, "SET_ADD must have exactly two arguments" + at(SET_ADD_ARITY, "set_add")),
    (SET_DELETE_SECOND, "The second argument to SET_DELETE must be a value with type SET"
     + at(SET_DELETE_SECOND, "ss", 2)),
    (SET_DELETE_FIRST, "The first argument to SET_DELETE must equal the assignment value"
     + at(SET_DELETE_FIRST, "set_delete")),
    ("UPDATE HHH SET s = set_add(s, <<'x'>>) WHERE pk = 'a'",
     "An operand in the update expression has an incorrect data type"),
    ("UPDATE HHH SET n = s + 1 WHERE pk = 'a'", "An operand in the update expression has an incorrect data type"),
    ("UPDATE HHH SET m.x.y = 1 WHERE pk = 'a'",
     "The document path provided in the update expression is invalid for update"),
    ("UPDATE HHH SET n = nope + 1 WHERE pk = 'a'",
     "The provided expression refers to an attribute that does not exist in the item"),
    ("UPDATE HHH REMOVE pk WHERE pk = 'a'",
     "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"),
    ("UPDATE CCC SET sk = set_add(sk, <<'x'>>) WHERE pk = 'p' AND sk = '1'",
     "One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key"),
    ("INSERT INTO HHH VALUE {'pk': 'q', 1: 2}", "Tuple keys must be of type String. Actual type: INT under root"),
    ("INSERT INTO HHH VALUE {'pk': 'q', 'm': {'': 2}}", "Path component cannot be an empty string"),
    ("SELECT * FROM HHH WHERE pk = 'a' AND x = `ion`", "Ion Literals are not supported: ion under key root"),
    ("SELECT * FROM HHH WHERE pk = 'a' AND n = 1e-131",
     "Number underflow. Attempting to store a number with magnitude smaller than supported range under root"),
    ("SELECT * FROM HHH WHERE pk = 'a' AND n = <<1, 1.0>>",
     "One or more parameter values were invalid: Input collection [1, 1.0] contains duplicates! under root"),
    ("INSERT INTO HHH VALUE {'pk': 'q', 'd': ?}",
     "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported "
     "limit", [deep(32)]),
    ("UPDATE HHH SET d = ? WHERE pk = 'a'", "Nesting Levels have exceeded supported limits", [deep(32)]),
    ("INSERT INTO HHH VALUE {'pk': ?}", "One or more parameter values were invalid: Size of hashkey has exceeded the "
                                        "maximum size limit of2048 bytes", ["k" * 2049]),
    ("INSERT INTO XXX VALUE {'pk':'p','sk':'s9','gsiPk':1}",
     "One or more parameter values were invalid: Type mismatch for Index Key gsiPk Expected: S Actual: N IndexName: "
     "gsi-all"),
]

# §8.2 texts DynamoDB's wider grammar reaches but ours cannot: its parser accepts
# constructs our grammar already refuses as syntax errors.
UNREACHABLE = {
    "Only one operation is allowed in a statement.": "our grammar parses one DML operation per statement",
    "Unsupported FROM ... WHERE ... clause in INSERT statement.": "INSERT ... FROM ... WHERE does not parse",
    "AT is not supported in insert statements.": "INSERT ... AT does not parse",
    "Only SET and REMOVE are supported in update expressions at this time": "only SET/REMOVE parse as DML ops",
    "Unrecognized assignment target: %s": "SET targets parse as paths only",
    "A path cannot start with a list index": "a leading `[n]` parses as a list literal",
    "Key attribute should be present in the item: Key %s": "A11: the AWS-captured `Missing the key` text is used",
    "Given NextToken is invalid for this account": "one account per database",
    "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE keys.":
        "multi-attribute GSI keys cannot be created",
}


def _row(statement, message, parameters=None):
    return statement, message, parameters


CASES = [case(f"M-{i:03d}", FIXTURES, statement, params=parameters, error=(VE, message))
         for i, (statement, message, parameters) in enumerate((_row(*row) for row in MESSAGES), 1)]
CASES.append(case("M-DDL", FIXTURES, batch=["CREATE TABLE ZZZ (pk STRING) PRIMARY KEY (pk HASH)"],
                  responses=[Err("ValidationError", WELL_FORMED + "Expected data manipulation")]))
