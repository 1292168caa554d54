"""check_statement(): the catalog-free rejections, with DynamoDB's exact texts (spec §1, §8.2, §9)."""

import pytest

from partiql.checks import check_statement, projected_name
from partiql.errors import StatementError
from partiql.parser import parse

H = 'SELECT * FROM "H" WHERE pk=\'a\' AND '
_RANGE = "List index is not within the allowable range; index: "
_IS_TYPES = "Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]"

REFUSED = [
    # SELECT: clauses, projection, FROM
    ('SELECT * FROM "C" WHERE pk = \'p\' LIMIT 1', "Unsupported clause: LIMIT at 1:34:5"),          # C-047
    ('SELECT * FROM "C" OFFSET 1', "Unsupported clause: OFFSET at 1:19:6"),
    ('SELECT * FROM "C" GROUP BY pk', "Unsupported clause: GROUP BY at 1:19:8"),
    ('SELECT * FROM "C" HAVING pk = 1', "Unsupported clause: HAVING at 1:19:6"),
    ('SELECT COUNT(*) FROM "C"', "Unexpected path component at 1:8:5"),                             # C-048
    ('SELECT COUNT(*) FROM "Missing"', "Unexpected path component at 1:8:5"),
    ('SELECT attribute_exists(ss) FROM "C"', "Unexpected path component at 1:8:16"),
    ('SELECT pk, 1 FROM "C"', "Unexpected path component at 1:12:1"),
    ('SELECT DISTINCT pk FROM "C"', "Unsupported token in expression: DISTINCT"),                   # C-049
    ('SELECT * FROM "C" t WHERE pk = \'p\'', "Aliasing is not supported"),                          # C-050
    ('SELECT * FROM "C" AS t WHERE pk = \'p\'', "Aliasing is not supported"),
    ('SELECT * FROM "C" AT i', "Aliasing is not supported"),
    ('SELECT pk AS k FROM "C"', "Aliasing is not supported"),                                       # C-051
    ('SELECT * FROM my-table', "Unexpected from source"),                                           # C-052
    ('SELECT * FROM "C"[0]', "Unexpected from source"),
    ('SELECT * FROM [1, 2]', "Invalid list expression in source."),
    ('SELECT * FROM "A", "B"', "Only select from a single table or index is supported."),
    ('SELECT * FROM "C"."a"."b"', "A path may contain at most 2 components in the FROM clause"),    # C-056
    ('SELECT * FROM ""', "Path component cannot be an empty string"),                               # C-057
    ('SELECT * FROM "C".""', "Path component cannot be an empty string"),
    ('SELECT m.sub, x.sub FROM "H"', "Duplicate identifiers in select clause: sub"),                # C-059
    ('SELECT a, a FROM "H"', "Duplicate identifiers in select clause: a"),
    ('SELECT m.k[1], k[1] FROM "H"', "Duplicate identifiers in select clause: k[1]"),
    ('SELECT l[-0], l[0] FROM "H"', "Duplicate identifiers in select clause: l[0]"),
    ('SELECT l[-1] FROM "H" WHERE pk = \'a\'', _RANGE + "[-1] at 1:11:1"),                          # C-060
    ('SELECT l[2147483648] FROM "H"', _RANGE + "[2147483648] at 1:10:10"),
    ('SELECT l[1.5] FROM "H"', _RANGE + "[1.5] at 1:10:3"),
    ('SELECT * FROM "H" WHERE l[-3] = 1', _RANGE + "[-3] at 1:28:1"),
    ("UPDATE \"H\" SET l[-1] = 1 WHERE pk = 'a'", _RANGE + "[-1] at 1:19:1"),
    ("UPDATE \"H\" REMOVE l[4294967296] WHERE pk = 'a'", _RANGE + "[4294967296] at 1:21:10"),
    ('SELECT x.* FROM "H"', "Changing item's hierarchy while reading isn't supported"),
    ('SELECT a.*.b FROM "H"', "Unpivot path component like a.*.b are not supported"),
    ('SELECT a[*].b FROM "H"', "Wildcard path component like a[*].b are not supported"),
    ('SELECT VALUE x FROM "H"', "Select projection doesn't support value or pivot keywords"),
    ('PIVOT v AT k FROM "H"', "Select projection doesn't support value or pivot keywords"),
    ('SELECT *, a FROM "H"', "Other attributes should not be present in the projection when '*' is used."),
    # WHERE
    (H + "attribute_exists('ss')",
     "Operator or function requires a document path; operator or function: attribute_exists"),     # C-075
    (H + "attribute_exists(?)",
     "Operator or function requires a document path; operator or function: attribute_exists"),
    (H + "begins_with('abc', 'a')",
     "Operator or function requires a document path; operator or function: begins_with"),
    (H + "attribute_exists(ss, n)",
     "Incorrect number of operands for operator or function; operator or function: attribute_exists, "
     "number of operands: 2"),
    (H + "CONTAINS(ss)",
     "Incorrect number of operands for operator or function; operator or function: contains, "
     "number of operands: 1"),
    (H + "EXISTS(ss)", "Unrecognized function: exists at 1:36:6"),                                 # C-076
    (H + "set_add(ss, <<'a'>>)", "Unrecognized function: set_add at 1:36:7"),
    (H + "SET_DELETE(ss, <<'a'>>) = true", "Unrecognized function: set_delete at 1:36:10"),
    (H + "if_not_exists(n, 1) = 1", "Unrecognized function: if_not_exists at 1:36:13"),           # A13
    (H + "list_delete(l, 1) = 1", "Unrecognized function: list_delete at 1:36:11"),
    (H + "upper(s) = 'A'", "Unrecognized function: upper at 1:36:5"),
    (H + "nope = MISSING", "MISSING must be compared using IS operator"),                         # C-080
    (H + "n IN [1, MISSING]", "MISSING must be compared using IS operator"),
    (H + "n = 1e126",
     "Number overflow. Attempting to store a number with magnitude larger than supported range under root"),  # C-086
    (H + "n = 123456789012345678901234567890123456789",
     "Attempting to store more than 38 significant digits in a Number under root"),                # C-087
    (H + "n = [1, 1e-131]",
     "Number underflow. Attempting to store a number with magnitude smaller than supported range under root[1]"),
    (H + "n IN [" + ", ".join(str(i) for i in range(101)) + "]",
     "The IN operator is provided with too many operands; number of operands: 101"),              # C-083
    (H + "n IN []",
     "IN operator must have a left hand argument of type Variable Reference and right hand argument of "
     "type Seq with at least one member"),
    ('SELECT * FROM "H" WHERE size(s)', "WHERE clause must contain an expression that resolves to a boolean"),
    ('SELECT * FROM "H" WHERE flag', "WHERE clause must contain an expression that resolves to a boolean"),
    (H + "size(s)", "The arguments to AND/OR must be Expressions"),
    ('SELECT * FROM "H" WHERE NOT s', "The argument to NOT must be a Type or Expression"),
    (H + "x IS INT", "Unsupported data type for IS operator: INT. " + _IS_TYPES),
    (H + "x IS NOT TIMESTAMP", "Unsupported data type for IS operator: TIMESTAMP. " + _IS_TYPES),
    (H + "size(x) IS NULL",
     "The left hand side argument to IS must be a Variable Reference, Literal, or Path"),
    (H + "n = -n", "Unsupported operator in Condition Expression. Operator: -"),
    (H + "n = -?", "Unsupported operator in Condition Expression. Operator: -"),
    (H + "n = n + 1", "Unsupported operator in Condition Expression. Operator: +"),
    (H + "s LIKE 'a%'", "Unsupported operator in Condition Expression. Operator: like"),
    (H + "m = `{a: 1}`", "Ion Literals are not supported: {a: 1} under key root"),
    (H + 'm."" = 1', "Path component cannot be an empty string"),
    # INSERT
    ("INSERT INTO \"H\" VALUE {'pk':'q','m':{'k':?}}", "Unsupported data type: Parameter under key root.k at 1:42:1"),  # C-092
    ("INSERT INTO \"H\" VALUE {'pk':'d','ss':<<'x','x'>>}",
     "One or more parameter values were invalid: Input collection [x, x] contains duplicates."),   # C-093
    ("INSERT INTO \"H\" VALUE {'pk':'d','ns':<<2, 2.0>>}",
     "One or more parameter values were invalid: Input collection [2, 2.0] contains duplicates! under root"),
    ("INSERT INTO \"H\" VALUE {'pk':'d','e':<<>>}", "Empty bags are not supported"),               # C-094
    ("INSERT INTO \"H\" VALUE {'pk':'d','mix':<<1,'a'>>}",
     "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"),   # C-095
    ("INSERT INTO \"H\" VALUE {'pk':'d','mix':<<[1]>>}",
     "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"),
    ("INSERT INTO \"H\" VALUE {'pk':'d','x':1,'x':2}", "Duplicate keys in tuple. Key: x under root"),  # C-096
    ("INSERT INTO \"H\" VALUE {'pk':'d','m':{'a':{'b':1,'b':2}}}", "Duplicate keys in tuple. Key: b under root.a"),
    ("INSERT INTO \"H\" VALUE {'pk':'d','m':{1:2}}", "Tuple keys must be of type String. Actual type: INT under root"),
    ("INSERT INTO \"H\" VALUE {'pk':'d','m':{'a':[{true:2}]}}",
     "Tuple keys must be of type String. Actual type: BOOL under root.a[0]"),
    ("INSERT INTO \"H\" VALUE {'pk':'d','m':{'':2}}", "Path component cannot be an empty string"),
    ("INSERT INTO \"H\" VALUE {'':'d'}", "Path component cannot be an empty string"),
    ("INSERT INTO \"H\" VALUE {'pk':'r'} RETURNING ALL NEW *", "RETURNING is not supported in INSERT"),  # C-099
    ("INSERT INTO \"X\".\"gsi-all\" VALUE {'pk':'w','sk':'w'}",
     "FROM clause may only contain a single table name in data manipulation statements"),          # C-100
    ("INSERT INTO \"H\" << {'pk':'g'} >>",
     'Unsupported operation: Inserting multiple items in a single statement is not supported, use '
     '"INSERT INTO tableName VALUE item" instead'),                                                # C-105
    ("INSERT INTO \"H\" VALUE {'pk':'o1','l':[1, 1e126]}",
     "Number overflow. Attempting to store a number with magnitude larger than supported range under root[1]"),  # C-104
    ("INSERT INTO \"H\" VALUE {'pk':'o2','m':{'x':1e126}}",
     "Number overflow. Attempting to store a number with magnitude larger than supported range under root.x"),
    ("INSERT INTO \"H\" VALUE {'pk':'o2','m':set_add(a, <<1>>)}", "Unsupported data type: set_add under key root at 1:38:7"),
    ("INSERT INTO \"H\" VALUE {'pk':'o2'} ON CONFLICT DO NOTHING", "Unsupported clause: ON CONFLICT at 1:35:11"),
    ("INSERT INTO \"H\" VALUE [1]",
     "Unsupported format in item expression. Please use struct format {...} to express item values for insert "
     "statement."),
    ("INSERT INTO \"H\" VALUE {'pk':'o','x':MISSING}", "MISSING must be compared using IS operator"),
    # UPDATE
    ("UPDATE \"H\" SET ss = set_add(ss, 'x') WHERE pk = 'a'",
     "The second argument to SET_ADD must be a value with type SET at 1:29:2"),                   # C-117
    ("UPDATE \"H\" SET t = set_add(ss, <<'x'>>) WHERE pk = 'a'",
     "The first argument to SET_ADD must equal the assignment value at 1:20:7"),                  # C-118
    ("UPDATE \"H\" SET t = set_delete(t) WHERE pk = 'a'", "SET_DELETE must have exactly two arguments at 1:20:10"),
    ("UPDATE \"H\" SET m.a = SET_DELETE(m.b, <<1>>) WHERE pk = 'a'",
     "The first argument to SET_DELETE must equal the assignment value at 1:22:10"),
    ("UPDATE \"H\" SET x = [?] WHERE pk = 'a'", "Unsupported data type: Parameter under key root[0] at 1:21:1"),
    ("UPDATE \"H\" SET x = {'a': [1, <<?>>]} WHERE pk = 'a'",
     "Unsupported data type: Parameter under key root.a[1][0] at 1:32:1"),
    ("UPDATE \"H\" SET x = n IS NULL WHERE pk = 'a'", "IS operator is not supported in update expressions"),
    ("UPDATE \"H\" SET x = if_not_exists(x, 1) WHERE pk = 'a'", "Unrecognized function: if_not_exists at 1:20:13"),
    ("UPDATE \"H\" SET x = list_append(set_add(x, <<1>>), [1]) WHERE pk = 'a'",
     "Unrecognized function: set_add at 1:32:7"),
    ("UPDATE \"H\" SET x = list_append(x) WHERE pk = 'a'",
     "Incorrect number of operands for operator or function; operator or function: list_append, number of operands: 1"),
    ("UPDATE \"H\" SET x = n * 2 WHERE pk = 'a'", "Unsupported operator in Update Expression. Operator: *"),
    ("UPDATE \"H\" SET x = -n WHERE pk = 'a'", "Unsupported operator in Update Expression. Operator: -"),
    ("UPDATE \"H\" SET x = MISSING WHERE pk = 'a'", "MISSING must be compared using IS operator"),
    ("UPDATE \"X\".\"gsi-all\" SET projattr = 'z' WHERE pk = 'p' AND sk = 's1'",
     "This operation is not supported on an index"),                                               # C-131
    ("UPDATE \"H\" SET a = 1 WHERE pk = 'a' RETURNING ALL NEW *, ALL OLD *",
     "Invalid syntax with multiple returning elements in RETURNING clause"),
    ("UPDATE \"H\" SET a = 1 WHERE pk = 'a' RETURNING ALL NEW a",
     "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause"),
    ("UPDATE \"H\" SET a = 1 WHERE pk = 'a' AND EXISTS(x)", "Unrecognized function: exists at 1:41:6"),
    # DELETE
    ("DELETE FROM \"H\" WHERE pk = 'a' RETURNING ALL NEW *",
     "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE statements."),  # C-138
    ("DELETE FROM \"H\" WHERE pk = 'a' RETURNING MODIFIED OLD *",
     "Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed in DELETE statements."),
    ("DELETE FROM \"H\" WHERE pk = 'a' RETURNING MODIFIED NEW *",
     "Invalid returning clause: RETURNING MODIFIED NEW *. Only RETURNING ALL OLD * is allowed in DELETE statements."),
    ("DELETE FROM \"X\".\"i\" WHERE pk = 'a'", "This operation is not supported on an index"),
    # EXISTS / EXPLAIN look inside
    ("EXISTS(SELECT COUNT(*) FROM \"H\" WHERE pk = 'a')", "Unexpected path component at 1:15:5"),
    ("EXPLAIN DELETE FROM \"X\".\"i\" WHERE pk = 'a'", "This operation is not supported on an index"),
]


@pytest.mark.parametrize("text, message", REFUSED)
def test_refused(text, message):
    stmt = parse(text)
    with pytest.raises(StatementError) as caught:
        check_statement(stmt)
    assert caught.value.message == message


ACCEPTED = [
    "SELECT * FROM \"H\" WHERE pk = 'a'",
    "SELECT m.sub, l[1], l[-0] FROM \"H\" WHERE pk = 'a'",                                          # C-058, C-060
    "SELECT * FROM \"X\".\"gsi-all\" WHERE gsiPk = 'x' ORDER BY gsiPk DESC",
    "SELECT * FROM \"C\" ORDER BY pk",                                                               # planner's call
    "SELECT * FROM \"H\" WHERE pk = 'a' AND (n BETWEEN 0 AND 5) = true",
    "SELECT * FROM \"H\" WHERE pk = 'a' AND attribute_exists(nope) IN [true, false]",
    "SELECT * FROM \"H\" WHERE pk = 'a' AND n IN [?, 2] AND s < true AND n < 'x'",                 # C-077/078 are runtime
    "SELECT * FROM \"H\" WHERE pk = 'a' AND n = 5.0e0 AND n = - - 1 AND n = 1e-130",                 # C-088
    "SELECT * FROM \"H\" WHERE pk = 'a' AND nul IS NULL AND s IS NOT MISSING AND flag IS BOOL AND s IS string",
    "SELECT * FROM \"H\" WHERE pk='a' AND attribute_type(ss, 'SS') AND size(s) = 3 AND contains(ss, 'b')"
    " AND begins_with(s, 'st') AND ATTRIBUTE_NOT_EXISTS(nope)",
    "SELECT * FROM \"H\" WHERE NOT (pk = 'a' OR pk = 'b')",
    "SELECT * FROM \"H\" WHERE pk = 'a' AND ss = <<'a', 'b'>> AND m = {'k': [1, {'x': null}]}",
    "INSERT INTO \"H\" VALUE {'pk': ?, 'data': ?}",
    "INSERT INTO \"H\" VALUE {'pk':'c','v':1,'ss':<<'a','b'>>,'ns':<<1, 2.5>>,'l':[],'m':{},'n':null}",
    "UPDATE \"H\" SET s = 'q' WHERE pk = 'a' AND pk = 'b'",                                         # C-110: planner
    "UPDATE \"H\" SET n = n + 1, n = n - 1 WHERE pk = 'a'",
    "UPDATE \"H\" SET l = list_append(l, ['c']) WHERE pk = 'a'",
    "UPDATE \"H\" SET ss = set_add(ss, <<'d'>>) WHERE pk = 'a'",
    "UPDATE \"H\" SET ss = SET_DELETE(ss, ?) WHERE pk = 'a'",
    "UPDATE \"H\" SET m.a[2] = set_add(m.a[2], <<1>>) WHERE pk = 'a'",
    "UPDATE \"H\" SET x = ? WHERE pk = 'a' RETURNING MODIFIED OLD *",
    "FROM \"H\" WHERE pk = 'a' SET c = 2 REMOVE n",                                                  # C-127
    "FROM \"H\" SET c = 1",                                                                          # C-128: planner
    "DELETE FROM \"H\" WHERE pk = 'a' RETURNING ALL OLD *",
    "EXISTS(SELECT * FROM \"H\" WHERE pk='a' AND s='str')",
    "CREATE TABLE T (pk S) PRIMARY KEY (pk HASH)",
    "EXPLAIN SELECT * FROM \"H\"",
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_accepted(text):
    check_statement(parse(text))


def _nested(levels):
    value = "1"
    for _ in range(levels):
        value = "{'a': " + value + "}"
    return value


def test_nesting_limit():                                                                             # C-103
    check_statement(parse("INSERT INTO \"H\" VALUE {'pk':'n','d':" + _nested(31) + "}"))
    with pytest.raises(StatementError) as caught:
        check_statement(parse("INSERT INTO \"H\" VALUE {'pk':'n','d':" + _nested(32) + "}"))
    assert caught.value.message == "Nesting Levels have exceeded supported limits under root" + ".a" * 31


def test_positions_are_carried_for_carets():
    with pytest.raises(StatementError) as caught:
        check_statement(parse('SELECT COUNT(*) FROM "C"'))
    error = caught.value
    assert (error.detail, error.line, error.column, error.length) == ("Unexpected path component", 1, 8, 5)


@pytest.mark.parametrize("path, name", [
    ("a", "a"), ("m.k", "k"), ("m.k[1]", "k[1]"), ("Devices.FireStick.DateWatched[0]", "DateWatched[0]"),
    ("l[0][2]", "l[0][2]"), ('"m.z"', "m.z"), ("m['x y']", "x y"), ("l[-0]", "l[0]"),
])
def test_projected_name(path, name):
    assert projected_name(parse(f"SELECT {path} FROM t").projection.items[0].expr) == name
