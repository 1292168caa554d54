"""parse()/parse_dml(): what each statement becomes, and DynamoDB's syntax errors (spec §1, §8.2)."""

import pytest

from partiql import ast, ast_walk, shell_ast
from partiql.errors import StatementError
from partiql.parser import parse, parse_dml

PREFIX = "Statement wasn't well formed, can't be processed: "


def sx(node):
    """A compact rendering of expressions, for the tables below."""
    render = _RENDER.get(type(node))
    return render(node) if render else repr(node)


def _path(p):
    out = ""
    for i, step in enumerate(p.steps):
        if isinstance(step, ast.Attr):
            out += step.name if i == 0 else "." + step.name
        elif isinstance(step, ast.Index):
            out += f"[{step.text}]"
        else:
            out += step.kind
    return out


def _neg(n):
    return "NOT " if n.negated else ""


_RENDER = {
    ast.Path: _path,
    ast.StringLit: lambda n: repr(n.value),
    ast.NumberLit: lambda n: n.text,
    ast.BoolLit: lambda n: str(n.value).lower(),
    ast.NullLit: lambda n: "null",
    ast.MissingLit: lambda n: "missing",
    ast.IonLit: lambda n: f"`{n.text}`",
    ast.Parameter: lambda n: f"?{n.index}",
    ast.Star: lambda n: "*",
    ast.ListLit: lambda n: "[" + ", ".join(map(sx, n.items)) + "]",
    ast.BagLit: lambda n: "<<" + ", ".join(map(sx, n.items)) + ">>",
    ast.TupleLit: lambda n: "{" + ", ".join(f"{sx(p.key)}: {sx(p.value)}" for p in n.pairs) + "}",
    ast.Call: lambda n: f"{n.name}(" + ", ".join(map(sx, n.args)) + ")",
    ast.Unary: lambda n: f"({n.op} {sx(n.operand)})",
    ast.Binary: lambda n: f"({n.op} {sx(n.left)} {sx(n.right)})",
    ast.Comparison: lambda n: f"({n.op} {sx(n.left)} {sx(n.right)})",
    ast.And: lambda n: f"(AND {sx(n.left)} {sx(n.right)})",
    ast.Or: lambda n: f"(OR {sx(n.left)} {sx(n.right)})",
    ast.Not: lambda n: f"(NOT {sx(n.operand)})",
    ast.Between: lambda n: f"({_neg(n)}BETWEEN {sx(n.operand)} {sx(n.low)} {sx(n.high)})",
    ast.In: lambda n: f"({_neg(n)}IN {sx(n.operand)} " + ", ".join(map(sx, n.items)) + ")",
    ast.Like: lambda n: f"({_neg(n)}LIKE {sx(n.operand)} {sx(n.pattern)})",
    ast.Is: lambda n: f"(IS {_neg(n)}{sx(n.operand)} {n.type_name})",
}


def where(text):
    return sx(parse(text).where)


# ---------------------------------------------------------------- WHERE expressions

W = 'SELECT * FROM "H" WHERE '

WHERE_CASES = [
    ("pk = 'a'", "(= pk 'a')"),
    ("pk = ?", "(= pk ?0)"),
    ("pk <> 'a' AND n != 3", "(AND (<> pk 'a') (<> n 3))"),          # A1: != is <>
    ("a < 1 OR b <= 2 AND c > 3", "(OR (< a 1) (AND (<= b 2) (> c 3)))"),
    ("NOT pk = 'a'", "(NOT (= pk 'a'))"),
    ("NOT NOT a >= 1", "(NOT (NOT (>= a 1)))"),
    ("n BETWEEN 0 AND 5 AND s = 'x'", "(AND (BETWEEN n 0 5) (= s 'x'))"),
    ("n NOT BETWEEN -1 AND +1", "(NOT BETWEEN n -1 1)"),
    ("n IN [?, 2]", "(IN n ?0, 2)"),
    ("n IN (1, 'a')", "(IN n 1, 'a')"),
    ("n NOT IN []", "(NOT IN n )"),
    ("nul IS NULL", "(IS nul NULL)"),
    ("s IS NOT MISSING", "(IS NOT s MISSING)"),
    ("flag is bool", "(IS flag BOOL)"),
    ("x IS NOT decimal(5, 2)", "(IS NOT x DECIMAL)"),
    ("s LIKE 'a%'", "(LIKE s 'a%')"),
    ("attribute_exists(n) = true", "(= attribute_exists(n) true)"),
    ("(n BETWEEN 0 AND 5) = TRUE", "(= (BETWEEN n 0 5) true)"),
    ("attribute_exists(nope) IN [true, false]", "(IN attribute_exists(nope) true, false)"),
    ("ATTRIBUTE_EXISTS(m.sub)", "ATTRIBUTE_EXISTS(m.sub)"),
    ("size(s) = 3", "(= size(s) 3)"),
    ("attribute_type(ss, 'SS')", "attribute_type(ss, 'SS')"),
    ("EXISTS(ss)", "EXISTS(ss)"),
    ("foo(a, 1)", "foo(a, 1)"),
    ("m.sub = l[1] AND m['k'] = \"m.z\"", "(AND (= m.sub l[1]) (= m.k m.z))"),
    ('"quo""ted" = 1', "(= quo\"ted 1)"),
    ("a.b[0].c[12] = 1", "(= a.b[0].c[12] 1)"),
    ("n = 7.31e6 AND n = 7.31E+6 AND n = 731e4 AND n = .73e1 AND n = -.73e1",
     "(AND (AND (AND (AND (= n 7.31e6) (= n 7.31E+6)) (= n 731e4)) (= n .73e1)) (= n -.73e1))"),
    ("n = - - 1", "(= n 1)"),
    ("n = - + - 2.5", "(= n 2.5)"),
    ("n = -n", "(= n (- n))"),
    ("n = -?", "(= n (- ?0))"),
    ("n = TRUE AND n = False AND n = NuLL", "(AND (AND (= n true) (= n false)) (= n null))"),
    ("nope = MISSING", "(= nope missing)"),
    ("s = 'it''s' AND s = '?'", "(AND (= s \"it's\") (= s '?'))"),
    ("m = {'a': 1, 'b': [1, <<'x'>>]}", "(= m {'a': 1, 'b': [1, <<'x'>>]})"),
    ("m = `{a: 1}`", "(= m `{a: 1}`)"),
    ("n = 1 + 2 * 3 - 4", "(= n (- (+ 1 (* 2 3)) 4))"),
    ("a = ? AND b = ? OR c IN [?, ?]", "(OR (AND (= a ?0) (= b ?1)) (IN c ?2, ?3))"),
    ("Artist = 'x' AND SongTitle = 'y' AND Awards = 1 AND Address = 'z'",
     "(AND (AND (AND (= Artist 'x') (= SongTitle 'y')) (= Awards 1)) (= Address 'z'))"),
    ("e = 1 AND x = 1 AND t = 1 AND c = 1 AND tag = 1 AND nul = 1 AND flag = 1 AND ss = 1",
     "(AND (AND (AND (AND (AND (AND (AND (= e 1) (= x 1)) (= t 1)) (= c 1)) (= tag 1)) (= nul 1)) "
     "(= flag 1)) (= ss 1))"),
]


@pytest.mark.parametrize("text, expected", WHERE_CASES)
def test_where_expressions(text, expected):
    assert where(W + text) == expected


# ---------------------------------------------------------------- statements

def test_select_star_point_read():
    stmt = parse('SELECT * FROM "T" WHERE pk = ?')
    assert isinstance(stmt, ast.Select)
    assert stmt.projection.items == (ast.ProjectStar(stmt.projection.items[0].span),)
    assert stmt.sources[0].target.names == ("T",)
    assert stmt.sources[0].target.table == "T" and stmt.sources[0].target.index is None
    assert stmt.where.right == ast.Parameter(0, ast.Span(1, 30, 1, 29, 30))
    assert stmt.span == ast.Span(1, 1, 30, 0, 30)


def test_select_projection_index_and_order_by():
    stmt = parse('select m.k[1], l[0], "m.z" from "T"."idx" where pk = \'a\' order by sk DESC, pk')
    assert [_path(i.expr) for i in stmt.projection.items] == ["m.k[1]", "l[0]", "m.z"]
    assert stmt.sources[0].target.table == "T" and stmt.sources[0].target.index == "idx"
    assert [(sx(o.expr), o.direction) for o in stmt.order_by] == [("sk", "DESC"), ("pk", None)]


@pytest.mark.parametrize("text, kind", [
    ('SELECT * FROM "C" WHERE pk = \'p\' LIMIT 1', ("LIMIT",)),
    ('SELECT * FROM "C" GROUP BY pk HAVING pk = 1 LIMIT 1 OFFSET 2', ("GROUP BY", "HAVING", "LIMIT", "OFFSET")),
])
def test_refused_clauses_are_kept(text, kind):
    assert tuple(c.name for c in parse(text).clauses) == kind


@pytest.mark.parametrize("text, check", [
    ('SELECT DISTINCT pk FROM "C"', lambda s: s.quantifier == "DISTINCT"),
    ('SELECT VALUE x FROM "C"', lambda s: isinstance(s.projection, ast.ProjectValue)),
    ('PIVOT v AT k FROM "C"', lambda s: isinstance(s.projection, ast.ProjectPivot)),
    ('SELECT pk AS k FROM "C"', lambda s: s.projection.items[0].alias.name == "k"),
    ('SELECT pk k FROM "C"', lambda s: s.projection.items[0].alias.name == "k"),
    ('SELECT * FROM "C" t', lambda s: s.sources[0].alias.name == "t"),
    ('SELECT * FROM "C" AS t AT i BY j', lambda s: (s.sources[0].at_alias.name, s.sources[0].by_alias.name) == ("i", "j")),
    ('SELECT * FROM "A", "B"', lambda s: len(s.sources) == 2),
    ('SELECT * FROM my-table', lambda s: sx(s.sources[0].target) == "(- my table)"),
    ('SELECT * FROM [1]', lambda s: isinstance(s.sources[0].target, ast.ListLit)),
    ('SELECT x.*, a[*] FROM "C"', lambda s: [i.expr.steps[-1].kind for i in s.projection.items] == [".*", "[*]"]),
    ('SELECT COUNT(*) FROM "C"', lambda s: s.projection.items[0].expr == ast.Call(
        "COUNT", (ast.Star(ast.Span(1, 14, 1, 13, 14)),), ast.Span(1, 8, 8, 7, 15), ast.Span(1, 8, 5, 7, 12))),
    ('-- c\nSELECT/**/* FROM "H" /* x */ WHERE pk = \'a\'; -- done', lambda s: s.span.line == 2),
    ("select * from H", lambda s: s.sources[0].target.names == ("H",)),
])
def test_select_forms(text, check):
    assert check(parse(text))


def test_insert():
    stmt = parse("INSERT INTO \"H\" VALUE {'pk': ?, 'data': ?, 'n': 1}")
    assert isinstance(stmt, ast.Insert) and stmt.value_keyword
    assert stmt.table.names == ("H",)
    assert sx(stmt.value) == "{'pk': ?0, 'data': ?1, 'n': 1}"


@pytest.mark.parametrize("text, check", [
    ("INSERT INTO \"H\" << {'pk':'g'} >>", lambda s: not s.value_keyword and isinstance(s.value, ast.BagLit)),
    ("INSERT INTO \"X\".\"gsi-all\" VALUE {'pk':'w'}", lambda s: s.table.index == "gsi-all"),
    ("INSERT INTO \"H\" VALUE {'pk':'r'} RETURNING ALL NEW *", lambda s: s.returning.elems[0].age == "NEW"),
    ("INSERT INTO \"H\" VALUE {'pk':'r'} ON CONFLICT DO NOTHING", lambda s: s.on_conflict is not None),
    ("insert into H value {'pk':'r'};", lambda s: s.table.names == ("H",)),
])
def test_insert_forms(text, check):
    assert check(parse(text))


UPDATE_CASES = [
    ("UPDATE \"H\" SET s = 'new' WHERE pk = 'a'", ["SET s = 'new'"]),
    ("UPDATE \"H\" SET a = 1, b = 2 WHERE pk = 'a'", ["SET a = 1", "SET b = 2"]),
    ("UPDATE \"H\" SET a = 1 SET b = 2 WHERE pk = 'a'", ["SET a = 1", "SET b = 2"]),
    ("UPDATE \"H\" SET a = 1 REMOVE c, d SET e = n + 1 WHERE pk = 'a'",
     ["SET a = 1", "REMOVE c", "REMOVE d", "SET e = (+ n 1)"]),
    ("UPDATE \"H\" REMOVE c, SET a = 1, REMOVE d WHERE pk = 'a'", ["REMOVE c", "SET a = 1", "REMOVE d"]),
    ("UPDATE \"H\" SET l = list_append(l, ['c']), ss = SET_ADD(ss, <<'d'>>) WHERE pk = 'a'",
     ["SET l = list_append(l, ['c'])", "SET ss = SET_ADD(ss, <<'d'>>)"]),
    ("UPDATE \"H\" SET m.sub = 'y', l[5] = ? WHERE pk = ?", ["SET m.sub = 'y'", "SET l[5] = ?0"]),
    ("FROM \"H\" WHERE pk = 'a' SET c = 1", ["SET c = 1"]),
    ("FROM \"H\" WHERE pk = 'a' SET c = 2 REMOVE n", ["SET c = 2", "REMOVE n"]),
    ("from \"H\" where pk = 'a' set e = 4", ["SET e = 4"]),
    ("FROM \"H\" SET c = 1", ["SET c = 1"]),
]


def _action(a):
    if isinstance(a, ast.SetAction):
        return f"SET {sx(a.target)} = {sx(a.value)}"
    return f"REMOVE {sx(a.path)}"


@pytest.mark.parametrize("text, actions", UPDATE_CASES)
def test_update_actions(text, actions):
    stmt = parse(text)
    assert isinstance(stmt, ast.Update)
    assert [_action(a) for a in stmt.actions] == actions
    assert stmt.from_first == text.lower().startswith("from")


def test_update_where_and_returning():
    stmt = parse("UPDATE \"H\" SET s = 'new' WHERE pk = 'a' RETURNING MODIFIED OLD *")
    assert sx(stmt.where) == "(= pk 'a')"
    assert [(e.status, e.age, type(e.target)) for e in stmt.returning.elems] == [("MODIFIED", "OLD", ast.Star)]
    assert parse("FROM \"H\" SET c = 1").where is None


def test_delete_and_exists():
    stmt = parse("DELETE FROM \"H\" WHERE pk = 'a' RETURNING ALL OLD *")
    assert isinstance(stmt, ast.Delete) and stmt.table.names == ("H",) and sx(stmt.where) == "(= pk 'a')"
    exists = parse("EXISTS(SELECT * FROM \"H\" WHERE pk='a' AND s='str')")
    assert isinstance(exists, ast.Exists) and sx(exists.select.where) == "(AND (= pk 'a') (= s 'str'))"


def test_parameters_numbered_in_source_order():
    text = "UPDATE \"H\" SET a = ?, b = list_append(?, [1]) WHERE pk = ? AND n IN [?, ?]"
    stmt = parse(text)
    assert [p.index for p in ast_walk.parameters(stmt)] == [0, 1, 2, 3, 4]
    assert [p.span.start for p in ast_walk.parameters(stmt)] == [i for i, c in enumerate(text) if c == "?"]


def test_parse_results_are_cached_and_shared():
    assert parse('SELECT * FROM "T"') is parse('SELECT * FROM "T"')


def test_multiline_spans():
    stmt = parse("SELECT *\nFROM \"T\"\nWHERE pk =\n  'a'")
    assert stmt.where.right.span == ast.Span(4, 3, 3, 31, 34)
    assert stmt.span == ast.Span(1, 1, 34, 0, 34)


# ---------------------------------------------------------------- extensions

EXTENSION_CASES = [
    ("CREATE TABLE T (pk STRING) PRIMARY KEY (pk HASH)",
     shell_ast.CreateTable("T", False, (shell_ast.AttributeDef("pk", "S", None),), (shell_ast.KeyElement("pk", "HASH", None),),
                     None, (), None)),
    ('create table if not exists "my-t" (pk S, sk number, b B) primary key (pk hash, sk range) '
     "billing mode provisioned (5 rcu, 7 wcu)",
     shell_ast.CreateTable("my-t", True, (shell_ast.AttributeDef("pk", "S", None), shell_ast.AttributeDef("sk", "N", None),
                                    shell_ast.AttributeDef("b", "B", None)),
                     (shell_ast.KeyElement("pk", "HASH", None), shell_ast.KeyElement("sk", "RANGE", None)),
                     shell_ast.Billing("PROVISIONED", shell_ast.Throughput(5, 7, None), None), (), None)),
    ("DROP TABLE IF EXISTS T", shell_ast.DropTable("T", True, None)),
    ("DROP TABLE \"T\"", shell_ast.DropTable("T", False, None)),
    ("ALTER TABLE T SET BILLING MODE ON DEMAND",
     shell_ast.AlterBilling("T", shell_ast.Billing("PAY_PER_REQUEST", None, None), None)),
    ("ALTER TABLE T DROP GSI \"g-1\"", shell_ast.DropIndex("T", "g-1", None)),
    ("CREATE TABLE T PRIMARY KEY (pk S HASH) STREAM keys_only",
     shell_ast.CreateTable("T", False, (), (shell_ast.KeyElement("pk", "HASH", None, "S"),), None, (), None,
                           shell_ast.Stream("KEYS_ONLY", None))),
    ("ALTER TABLE T SET STREAM NEW_AND_OLD_IMAGES",
     shell_ast.AlterStream("T", shell_ast.Stream("NEW_AND_OLD_IMAGES", None), None)),
    ("ALTER TABLE T DROP STREAM", shell_ast.AlterStream("T", None, None)),
    ("DESCRIBE TABLE T", shell_ast.DescribeTable("T", None)),
    ("describe T;", shell_ast.DescribeTable("T", None)),
    ("SHOW TABLES", shell_ast.ShowTables(None)),
]


def _without_spans(node):
    if isinstance(node, tuple):
        return tuple(_without_spans(n) for n in node)
    if not isinstance(node, ast.Node):
        return node
    values = {f: _without_spans(getattr(node, f)) for f in node._fields}
    return type(node)(**{k: (None if isinstance(v, ast.Span) else v) for k, v in values.items()})


@pytest.mark.parametrize("text, expected", EXTENSION_CASES)
def test_extensions(text, expected):
    assert _without_spans(parse(text)) == expected


def test_create_table_with_indexes():
    stmt = parse("CREATE TABLE X (pk S, sk S, g S, h S, l S) PRIMARY KEY (pk HASH, sk RANGE) "
                 "GSI (gsi-all ON (g HASH) PROJECTING ALL) " .replace("gsi-all", '"gsi-all"') +
                 "GSI (g2 ON (g HASH, h HASH, sk RANGE) PROJECTING INCLUDE (a, b) PROVISIONED (1 RCU, 2 WCU)) "
                 "LSI (l1 ON (pk HASH, l RANGE) PROJECTING KEYS ONLY) BILLING MODE ON DEMAND")
    assert [(i.kind, i.name, [(k.name, k.key_type) for k in i.key], i.projection.type, i.projection.attributes)
            for i in stmt.indexes] == [
        ("GSI", "gsi-all", [("g", "HASH")], "ALL", ()),
        ("GSI", "g2", [("g", "HASH"), ("h", "HASH"), ("sk", "RANGE")], "INCLUDE", ("a", "b")),
        ("LSI", "l1", [("pk", "HASH"), ("l", "RANGE")], "KEYS_ONLY", ()),
    ]
    assert stmt.indexes[1].throughput.read == 1 and stmt.billing.mode == "PAY_PER_REQUEST"


def test_alter_create_index_and_explain():
    stmt = parse("ALTER TABLE T CREATE GSI (x ON (a HASH) PROJECTING ALL PROVISIONED (3 RCU, 4 WCU))")
    assert stmt.table == "T" and stmt.index.name == "x" and stmt.index.throughput.write == 4
    explain = parse("EXPLAIN SELECT * FROM T WHERE pk = 1")
    assert isinstance(explain, shell_ast.Explain) and isinstance(explain.statement, ast.Select)


def test_extension_words_stay_identifiers_elsewhere():
    stmt = parse("SELECT hash, range, gsi, s, n, b, tables, show, if, stream, keys_only, new_image "
                 "FROM T WHERE number = 1")
    assert [sx(i.expr) for i in stmt.projection.items] == ["hash", "range", "gsi", "s", "n", "b", "tables",
                                                           "show", "if", "stream", "keys_only", "new_image"]


# ---------------------------------------------------------------- syntax errors

ERROR_CASES = [
    # (text, detail, (line, column, length))
    ('SELECT * FROM "C" ORDER BY pk WHERE pk = \'p\'', "Unexpected token after expression", (1, 31, 5)),  # C-042
    ('SELECT * FROM "H" WHERE pk = \'a\' foo', "Unexpected token after expression", (1, 34, 3)),        # C-061
    ('SELECT * FROM "H" WHERE pk = \'a\' 1)', "Unexpected token after expression", (1, 34, 1)),
    ("DELETE FROM \"H\" WHERE pk = 'a' ORDER BY pk", "Unexpected token after expression", (1, 32, 5)),
    ("INSERT INTO \"H\" t VALUE {'pk':'x'}", "Unexpected token after expression", (1, 19, 5)),          # C-101
    ("FROM \"H\" SET c = 1 WHERE pk = 'a'", "Unexpected token after expression", (1, 20, 5)),           # C-128
    ("SELECT * FROM \"H\"; SELECT 1", "Unexpected token after expression", (1, 20, 6)),
    ('SELECT * FROM "H" WHERE', "Unexpected term", (1, 24, 1)),                                        # C-062
    ('SELECT * FROM', "Unexpected term", (1, 14, 1)),
    ('SELECT * FROM "H" WHERE pk = \'a\' AND', "Missing right-hand side expression of infix operator", (1, 37, 1)),  # C-063
    ('SELECT * FROM "H" WHERE pk = \'a\' OR;', "Missing right-hand side expression of infix operator", (1, 36, 1)),
    ('SELECT * FROM "H" WHERE pk =', "Missing right-hand side expression of infix operator", (1, 29, 1)),
    ('SELECT * FROM "H" WHERE ORDER BY pk', "Unexpected keyword", (1, 25, 5)),
    ('SELECT * FROM "H" WHERE IS NULL', "Unexpected operator", (1, 25, 2)),
    ('SELECT * FROM "H" WHERE pk = LIKE', "Unexpected operator", (1, 30, 4)),
    ('SELECT * FROM "H" WHERE x IS FOO', "Expected type name", (1, 30, 3)),
    ('SELECT * FROM "H" WHERE x IS NOT select', "Expected type name", (1, 34, 6)),
    ("DELETE FROM", "Expected identifier for simple path", (1, 12, 1)),
    ("SLECT * FROM \"H\"", "Expected data manipulation", (1, 1, 5)),                                     # C-066
    ("THIS IS NOT SQL", "Expected data manipulation", (1, 1, 4)),                                        # C-168
    ("WHERE x = 1", "Expected data manipulation", (1, 1, 5)),
    ("", "Expected data manipulation", (1, 1, 1)),
    ('SELECT * FROM "H" WHERE attribute_exists(m.inner)', "Invalid path dot component", (1, 44, 5)),
    ('SELECT * FROM "H" WHERE m.value = 1', "Invalid path dot component", (1, 27, 5)),
    ('SELECT pad FROM "H"', "Unexpected keyword", (1, 8, 3)),
    ('SELECT * FROM "H" WHERE pad = 1', "Unexpected keyword", (1, 25, 3)),
    ('SELECT * FROM "H" WHERE pk = \'a\' # note', "", (1, 34, 1)),                                      # C-064
    ('SELECT * FROM "H" WHERE pk = \'a', "", (1, 30, 1)),
    ('SELECT * FROM "H WHERE pk = 1', "", (1, 15, 1)),
    ('SELECT * FROM "H" /* open', "", (1, 19, 1)),
    ('SELECT * FROM "H" WHERE pk = @x', "", (1, 30, 1)),
    ('SELECT * FROM "H" WHERE n = 1e2147483648', "", (1, 29, 12)),
    ('SELECT * FROM "H" WHERE n = 1E-2147483649', "", (1, 29, 13)),
    ("UPDATE \"H\" WHERE pk = 'a'", "Unexpected keyword", (1, 12, 5)),
    ("SELECT * FROM \"H\" WHERE l[?] = 1", "Unexpected term", (1, 27, 1)),
    ("CREATE TABLE T (pk STRING) PRIMARY KEY (pk HASH) BILLING MODE PROVISIONED (1.5 RCU, 1 WCU)",
     "Expected a whole number of capacity units", (1, 76, 3)),
]


@pytest.mark.parametrize("text, detail, position", ERROR_CASES)
def test_syntax_errors(text, detail, position):
    with pytest.raises(StatementError) as caught:
        parse(text)
    error = caught.value
    assert error.message == PREFIX + detail
    assert error.detail == detail
    assert (error.line, error.column, error.length) == position


@pytest.mark.parametrize("text", [
    "CREATE TABLE T (pk S) PRIMARY KEY (pk HASH)",
    "DROP TABLE T",
    "ALTER TABLE T DROP GSI g",
    "DESCRIBE T",
    "SHOW TABLES",
    "EXPLAIN SELECT * FROM T",
])
def test_parse_dml_refuses_extensions_like_unknown_words(text):
    parse(text)
    with pytest.raises(StatementError) as caught:
        parse_dml(text)
    assert caught.value.message == PREFIX + "Expected data manipulation"
    assert (caught.value.line, caught.value.column) == (1, 1)


def test_parse_dml_reads_the_dialect():
    assert isinstance(parse_dml("SELECT * FROM \"H\" WHERE pk = 'a';"), ast.Select)
    assert isinstance(parse_dml("EXISTS(SELECT * FROM \"H\" WHERE pk='a' AND s='str')"), ast.Exists)


def test_statement_error_is_a_validation_exception():
    from partiql.engine.errors import ValidationException
    with pytest.raises(ValidationException):
        parse("SLECT")
