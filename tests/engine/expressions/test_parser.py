"""DynamoDB's expression language → engine model: data-driven cases.

Rows are (kind, text, expected): ``kind`` picks the parse function and the
parameter named in messages; ``expected`` is a model or, for errors, the exact
message after ``Invalid <param>: ``. Unless a row says otherwise the context is
NAMES / VALUES below. Case numbers refer to item-api §9.4 / §9.7.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from partiql.engine.errors import ValidationException
from partiql.engine.expressions.model import (
    Add, And, Arithmetic, Between, Call, Comparison, Delete, In, Not, Or, Path, Remove, Set, Update, Value,
)
from partiql.engine.expressions.parser import (
    ExpressionContext, check_key_condition, parse_condition, parse_key_condition, parse_projection,
    parse_update, reserved_words,
)

NAMES = {"#a": "a", "#b": "b", "#dot": "a.b", "#count": "count", "#s": "string_set", "#limit": "limit",
         "#ulist": "list", "#h": "pk", "#0": "a", "#1": "b"}
VALUES = {":s": "a", ":s2": "b", ":n": D(1), ":n2": D(2), ":b": b"x", ":bool": True, ":null": None,
          ":l": [D(1)], ":m": {"k": "v"}, ":ss": frozenset({"x"}), ":ns": frozenset({D(1)}),
          ":bs": frozenset({b"y"}), ":t": "S", ":badt": "X", ":v": "x", ":p": "pre",
          ":0": "a", ":1": "pre"}

PARSERS = {
    "condition": (lambda text, ctx: parse_condition(text, ctx), "ConditionExpression"),
    "filter": (lambda text, ctx: parse_condition(text, ctx, "FilterExpression"), "FilterExpression"),
    "key": (parse_key_condition, "KeyConditionExpression"),
    "update": (parse_update, "UpdateExpression"),
    "projection": (parse_projection, "ProjectionExpression"),
}


def P(*elements):
    return Path(tuple(elements))


def V(value):
    return Value(value)


def C(op, left, right):
    return Comparison(op, left, right)


def parse(kind, text, names=NAMES, values=VALUES):
    function, _ = PARSERS[kind]
    return function(text, ExpressionContext(names, values))


def error_of(kind, text, names=NAMES, values=VALUES) -> str:
    with pytest.raises(ValidationException) as raised:
        parse(kind, text, names, values)
    return raised.value.message


# ----------------------------------------------------------------- models

MODELS = [
    ("condition", "#a = :v AND begins_with(#b, :p)",
     And((C("=", P("a"), V("x")), Call("begins_with", (P("b"), V("pre")))))),
    # Precedence: NOT > AND > OR; evaluation left to right.
    ("condition", "a = :s OR b = :s AND c = :s",
     Or((C("=", P("a"), V("a")), And((C("=", P("b"), V("a")), C("=", P("c"), V("a"))))))),
    ("condition", "NOT a = :s AND b = :s", And((Not(C("=", P("a"), V("a"))), C("=", P("b"), V("a"))))),
    ("condition", "NOT (a = :s AND b = :s)", Not(And((C("=", P("a"), V("a")), C("=", P("b"), V("a")))))),
    ("condition", "(a = :s OR b = :s) AND c = :s",
     And((Or((C("=", P("a"), V("a")), C("=", P("b"), V("a")))), C("=", P("c"), V("a"))))),
    ("condition", "a = :s AND b = :s AND c = :s",
     And((C("=", P("a"), V("a")), C("=", P("b"), V("a")), C("=", P("c"), V("a"))))),
    ("condition", "(a = :s AND b = :s) AND c = :s",
     And((And((C("=", P("a"), V("a")), C("=", P("b"), V("a")))), C("=", P("c"), V("a"))))),
    ("condition", "a = :s OR b = :s OR c = :s",
     Or((C("=", P("a"), V("a")), C("=", P("b"), V("a")), C("=", P("c"), V("a"))))),
    ("condition", "NOT NOT attribute_exists(a)", Not(Not(Call("attribute_exists", (P("a"),))))),
    # BETWEEN's AND is its own; IN takes a list.
    ("condition", "a BETWEEN :n AND :n2 AND b IN (:s, :s2, c)",
     And((Between(P("a"), V(D(1)), V(D(2))), In(P("b"), (V("a"), V("b"), P("c")))))),
    ("condition", "a <> :s", C("<>", P("a"), V("a"))),
    ("condition", "a < :n", C("<", P("a"), V(D(1)))),
    ("condition", "a <= :s", C("<=", P("a"), V("a"))),
    ("condition", "a > :b", C(">", P("a"), V(b"x"))),
    ("condition", "a >= b", C(">=", P("a"), P("b"))),
    ("condition", ":s < :s", C("<", V("a"), V("a"))),  # two values may be equal
    # Paths: maps, lists, placeholders; a dot inside a substituted name is literal.
    ("condition", "a.b[1].#dot[0][2] <> :s", C("<>", P("a", "b", 1, "a.b", 0, 2), V("a"))),
    ("condition", "#dot = :s", C("=", P("a.b"), V("a"))),
    ("condition", "#a.#b = :s", C("=", P("a", "b"), V("a"))),
    ("condition", "a [ 1 ] . b = :s", C("=", P("a", 1, "b"), V("a"))),
    ("condition", "a[2147483647] = :s", C("=", P("a", 2147483647), V("a"))),
    # Parentheses are dropped from the model.
    ("condition", "(a) = (:s)", C("=", P("a"), V("a"))),
    ("condition", "(begins_with(a, :p))", Call("begins_with", (P("a"), V("pre")))),
    ("condition", "(size(a)) > :n", C(">", Call("size", (P("a"),)), V(D(1)))),
    ("condition", "(#0 = :0) AND (begins_with(#1, :1))",
     And((C("=", P("a"), V("a")), Call("begins_with", (P("b"), V("pre")))))),
    # Functions (names are case-sensitive, keywords are not).
    ("condition", "attribute_not_exists(a.b)", Call("attribute_not_exists", (P("a", "b"),))),
    ("condition", "attribute_type(a, :t)", Call("attribute_type", (P("a"), V("S")))),
    ("condition", "contains(a, :n)", Call("contains", (P("a"), V(D(1))))),
    ("condition", "contains(a, b)", Call("contains", (P("a"), P("b")))),
    ("condition", "size(a) >= :n", C(">=", Call("size", (P("a"),)), V(D(1)))),
    ("condition", "size(:s) = :n", C("=", Call("size", (V("a"),)), V(D(1)))),
    ("condition", "a = :s and not b = :s Or c BeTwEeN :n AnD :n2",
     Or((And((C("=", P("a"), V("a")), Not(C("=", P("b"), V("a"))))), Between(P("c"), V(D(1)), V(D(2)))))),
    ("condition", "\ta\n=\r:s  ", C("=", P("a"), V("a"))),
    ("condition", "setx = :s", C("=", P("setx"), V("a"))),  # longest match: not SET + x
    ("condition", "Android = :s", C("=", P("Android"), V("a"))),
    ("condition", "#count = :n", C("=", P("count"), V(D(1)))),  # reserved word through a placeholder
    ("filter", "a IN (:s)", In(P("a"), (V("a"),))),
    # Updates: actions in text order, sections in any order.
    ("update", "SET a = :s", Update((Set(P("a"), V("a")),))),
    ("update", "SET a = :s, b = c + :n, d = if_not_exists(d, :n) - :n2, "
               "e = list_append(if_not_exists(e, :l), :l) REMOVE f, g[2] ADD h :n DELETE i :ss",
     Update((Set(P("a"), V("a")),
             Set(P("b"), Arithmetic("+", P("c"), V(D(1)))),
             Set(P("d"), Arithmetic("-", Call("if_not_exists", (P("d"), V(D(1)))), V(D(2)))),
             Set(P("e"), Call("list_append", (Call("if_not_exists", (P("e"), V([D(1)]))), V([D(1)])))),
             Remove(P("f")), Remove(P("g", 2)), Add(P("h"), V(D(1))), Delete(P("i"), V(frozenset({"x"})))))),
    ("update", "REMOVE a SET b = :s", Update((Remove(P("a")), Set(P("b"), V("a"))))),
    ("update", "set a = :s remove b add c :ns delete d :bs",
     Update((Set(P("a"), V("a")), Remove(P("b")), Add(P("c"), V(frozenset({D(1)}))),
             Delete(P("d"), V(frozenset({b"y"})))))),
    ("update", "SET a = (b + :n)", Update((Set(P("a"), Arithmetic("+", P("b"), V(D(1)))),))),
    ("update", "SET a = (b) + (:n)", Update((Set(P("a"), Arithmetic("+", P("b"), V(D(1)))),))),
    ("update", "SET a = (b)", Update((Set(P("a"), P("b")),))),
    ("update", "SET a = b-c", Update((Set(P("a"), Arithmetic("-", P("b"), P("c"))),))),
    ("update", "SET a = b, b = a", Update((Set(P("a"), P("b")), Set(P("b"), P("a"))))),
    ("update", "SET d.hello = :s, d.world = :s",
     Update((Set(P("d", "hello"), V("a")), Set(P("d", "world"), V("a"))))),
    ("update", "SET a[1] = :s, a[2] = :s", Update((Set(P("a", 1), V("a")), Set(P("a", 2), V("a"))))),
    ("update", "SET spec.#limit = :s", Update((Set(P("spec", "limit"), V("a")),))),
    ("update", "REMOVE #ulist[0], some_param", Update((Remove(P("list", 0)), Remove(P("some_param"))))),
    ("update", "ADD a :n, b :ss", Update((Add(P("a"), V(D(1))), Add(P("b"), V(frozenset({"x"})))))),
    # Projections.
    ("projection", "a, b.c, d[0], #dot", (P("a"), P("b", "c"), P("d", 0), P("a.b"))),
    ("projection", "#a.#b", (P("a", "b"),)),
    # Key conditions: nested ANDs flattened, the key on either side.
    ("key", "pk = :s", C("=", P("pk"), V("a"))),
    ("key", "pk = :s AND begins_with(sk, :p)", And((C("=", P("pk"), V("a")), Call("begins_with", (P("sk"), V("pre")))))),
    ("key", "(pk = :s) AND (sk BETWEEN :n AND :n2)", And((C("=", P("pk"), V("a")), Between(P("sk"), V(D(1)), V(D(2)))))),
    ("key", "(pk = :s AND sk < :n)", And((C("=", P("pk"), V("a")), C("<", P("sk"), V(D(1)))))),
    ("key", "(pk = :s AND sk < :n) AND x = :s",
     And((C("=", P("pk"), V("a")), C("<", P("sk"), V(D(1))), C("=", P("x"), V("a"))))),
    ("key", ":n < sk", C("<", V(D(1)), P("sk"))),
    ("key", "#dot = :s", C("=", P("a.b"), V("a"))),
]


@pytest.mark.parametrize("kind, text, expected", MODELS, ids=[row[1][:40] for row in MODELS])
def test_models(kind, text, expected):
    assert parse(kind, text) == expected


# ----------------------------------------------------------------- errors

OPERATORS_301 = "a = :s" + " AND a = :s" * 150  # 151 comparisons + 150 ANDs
IN_101 = "a IN (" + ", ".join([":s"] * 101) + ")"
DEEP_33 = "x" + ".x" * 32

ERRORS = [
    # ---- empty, size (item-api §3.7), cases 35, 37
    ("update", "", "The expression can not be empty;"),
    ("projection", "", "The expression can not be empty;"),
    ("condition", "", "The expression can not be empty;"),
    ("key", "", "The expression can not be empty;"),
    ("filter", "é" * 2049, "Expression size has exceeded the maximum allowed size; expression size: 4098"),
    ("condition", "a = :s " + " " * 4090, "Expression size has exceeded the maximum allowed size; expression size: 4097"),
    # ---- syntax: offending token, then "near" = previous token … next token with the original blanks
    ("update", "SET #a = :a, #b = :b,", 'Syntax error; token: "<EOF>", near: ","'),  # case 51
    ("update", "ADD str_set bad_value", 'Syntax error; token: "bad_value", near: "str_set bad_value"'),
    ("update", "SET _123 = :s", 'Syntax error; token: "_", near: "SET _123"'),
    ("update", "SET a = b + c + d", 'Syntax error; token: "+", near: "c + d"'),  # exactly two operands
    ("update", "SET a = (b + c) + d", 'Syntax error; token: "+", near: ") + d"'),
    ("update", "SET a = list_append(a, b + c)", 'Syntax error; token: "+", near: "b + c"'),  # f(x+y)
    ("update", "SET a = :s, REMOVE b", 'Syntax error; token: "REMOVE", near: ", REMOVE b"'),
    ("update", "SET a = :s REMOVE", 'Syntax error; token: "<EOF>", near: "REMOVE"'),
    ("update", "SET a[:n] = :s", 'Syntax error; token: ":n", near: "[:n]"'),
    ("update", "ADD a size(b)", 'Syntax error; token: "size", near: "a size("'),
    ("update", "a = :s", 'Syntax error; token: "a", near: "a ="'),
    ("update", "   ", 'Syntax error; token: "<EOF>", near: ""'),
    ("condition", "a", 'Syntax error; token: "<EOF>", near: "a"'),  # a bare operand is no condition
    ("condition", ":s", 'Syntax error; token: "<EOF>", near: ":s"'),
    ("condition", "(a)", 'Syntax error; token: "<EOF>", near: ")"'),
    ("condition", "(a) AND b = c", 'Syntax error; token: "AND", near: ") AND b"'),
    ("condition", "a AND b = c = d", 'Syntax error; token: "AND", near: "a AND b"'),
    ("condition", "a = b = c", 'Syntax error; token: "=", near: "b = c"'),
    ("condition", "(a = b) = c", 'Syntax error; token: "=", near: ") = c"'),
    ("condition", "a = (b = c)", 'Syntax error; token: "=", near: "b = c"'),
    ("condition", "(a.b).c = :s", 'Syntax error; token: ".", near: ").c"'),
    ("condition", "(size(a))[0] = :n", 'Syntax error; token: "[", near: ")[0"'),
    ("condition", "a[#n] = :s", 'Syntax error; token: "#n", near: "[#n]"'),
    ("condition", "a IN ()", 'Syntax error; token: ")", near: "()"'),
    ("condition", "a BETWEEN :n", 'Syntax error; token: "<EOF>", near: ":n"'),
    ("condition", "NOT", 'Syntax error; token: "<EOF>", near: "NOT"'),
    ("condition", "a = b  c ", 'Syntax error; token: "c", near: "b  c "'),
    ("condition", "a = $b", 'Syntax error; token: "$", near: "= $b"'),
    ("condition", "a = 'b'", "Syntax error; token: \"'\", near: \"= 'b\""),
    ("condition", "in(a)", 'Syntax error; token: "in", near: "in("'),
    ("condition", "#dog(a)", 'Syntax error; token: "(", near: "#dog(a"'),
    ("condition", "SET a = :s", 'Syntax error; token: "SET", near: "SET a"'),
    ("condition", "a = :s AND dog(a) AND", 'Syntax error; token: "<EOF>", near: "AND"'),  # syntax first
    ("projection", "a, :s", 'Syntax error; token: ":s", near: ", :s"'),
    ("projection", "a,", 'Syntax error; token: "<EOF>", near: ","'),
    ("projection", "a b", 'Syntax error; token: "b", near: "a b"'),
    # ---- limits
    ("condition", "a[2147483648] = :s", "List index is not within the allowable range; index: 2147483648"),
    ("condition", OPERATORS_301 + " AND a = :s", "The expression contains too many operators; operator count: 303"),
    ("condition", IN_101, "The IN operator is provided with too many operands; number of operands: 101"),
    ("projection", DEEP_33, "The document path has too many nesting levels; nesting levels: 33"),
    # ---- redundant parentheses (case 38)
    ("filter", "((a = :s))", "The expression has redundant parentheses;"),
    ("condition", "a > ((b))", "The expression has redundant parentheses;"),
    ("condition", "a=a AND ((a=a AND a=a))", "The expression has redundant parentheses;"),
    ("condition", "NOT ((a = :s))", "The expression has redundant parentheses;"),
    ("condition", "((begins_with(a, :p)))", "The expression has redundant parentheses;"),
    ("condition", "((dog(a)))", "The expression has redundant parentheses;"),  # before function names
    ("update", "SET a = ((b + :n))", "The expression has redundant parentheses;"),
    ("update", "SET a = ((b))", "The expression has redundant parentheses;"),
    # ---- function names (case 39), functions out of place
    ("filter", "dog(a)", "Invalid function name; function: dog"),
    ("condition", "BegIns_WiTh(a, :p)", "Invalid function name; function: BegIns_WiTh"),
    ("condition", "Size(a) = :n", "Invalid function name; function: Size"),
    ("condition", "a = dog(b)", "Invalid function name; function: dog"),
    ("update", "SET a = dog(b)", "Invalid function name; function: dog"),
    ("condition", "size(x) AND dog(a)", "Invalid function name; function: dog"),  # before misused
    ("condition", "if_not_exists(a, :s) = :s",
     "The function is not allowed in a condition expression; function: if_not_exists"),
    ("condition", "list_append(a, :l)", "The function is not allowed in a condition expression; function: list_append"),
    ("update", "SET a = size(b)", "The function is not allowed in an update expression; function: size"),
    ("update", "SET a = attribute_exists(b)",
     "The function is not allowed in an update expression; function: attribute_exists"),
    ("filter", "size(things)", "The function is not allowed to be used this way in an expression; function: size"),
    ("condition", "attribute_exists(a) > b",
     "The function is not allowed to be used this way in an expression; function: attribute_exists"),
    ("condition", "a between b and attribute_exists(c)",
     "The function is not allowed to be used this way in an expression; function: attribute_exists"),
    ("condition", "begins_with(contains(a, b), :p)",
     "The function is not allowed to be used this way in an expression; function: contains"),
    ("condition", "name = :s AND size(x)",
     "The function is not allowed to be used this way in an expression; function: size"),  # before reserved
    # ---- reserved words (case 41): every bare path component, not function names
    ("filter", ":s < abOrT", "Attribute name is a reserved keyword; reserved keyword: abOrT"),
    ("update", "SET abOrt = :s", "Attribute name is a reserved keyword; reserved keyword: abOrt"),
    ("projection", "a.name", "Attribute name is a reserved keyword; reserved keyword: name"),
    ("condition", "a = :s AND b.Count = :n", "Attribute name is a reserved keyword; reserved keyword: Count"),
    ("condition", "#zz = :s AND name = :s", "Attribute name is a reserved keyword; reserved keyword: name"),
    ("update", "SET a = dog(b), name = :s", "Attribute name is a reserved keyword; reserved keyword: name"),
    # ---- value placeholders in paths
    ("condition", "a.:v = :s", "The document path cannot contain attribute value parameters; attribute value: :v"),
    ("projection", "a.:v", "The document path cannot contain attribute value parameters; attribute value: :v"),
    # ---- undefined placeholders (cases 42, 43)
    ("filter", "#4g > a", "An expression attribute name used in the document path is not defined; attribute name: #4g"),
    ("filter", ":a < :b", "An expression attribute value used in expression is not defined; attribute value: :a"),
    ("condition", ":zz = #zz", "An expression attribute value used in expression is not defined; attribute value: :zz"),
    ("condition", "attribute_exists(a, b) AND #zz = :s",
     "An expression attribute name used in the document path is not defined; attribute name: #zz"),
    ("update", "SET a = :zz, #zz = :s",  # update: names before values
     "An expression attribute name used in the document path is not defined; attribute name: #zz"),
    ("update", "SET #zz = :s SET c = :s", 'The "SET" section can only be used once in an update expression;'),
    ("projection", "a, #zz", "An expression attribute name used in the document path is not defined; attribute name: #zz"),
    # ---- operand counts and document paths (cases 45, 47)
    ("filter", "attribute_exists(things, a) and a=a",
     "Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2"),
    ("condition", "begins_with(a)",
     "Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"),
    ("update", "SET a = if_not_exists(b)",
     "Incorrect number of operands for operator or function; operator or function: if_not_exists, number of operands: 1"),
    ("filter", "attribute_exists(:s) and a=a",
     "Operator or function requires a document path; operator or function: attribute_exists"),
    ("condition", "attribute_not_exists(size(a))",
     "Operator or function requires a document path; operator or function: attribute_not_exists"),
    ("update", "SET a = if_not_exists(:s, b)", "Operator or function requires a document path; operator or function: if_not_exists"),
    # ---- distinct operands (case 46)
    ("filter", "#a <> a", "The first operand must be distinct from the remaining operands for this operator or function; "
                          "operator: <>, first operand: [a]"),
    ("condition", "contains(a, a)", "The first operand must be distinct from the remaining operands for this operator "
                                    "or function; operator: contains, first operand: [a]"),
    ("condition", "a.b[1] = #a.#b[1]", "The first operand must be distinct from the remaining operands for this "
                                       "operator or function; operator: =, first operand: [a, b, [1]]"),
    ("condition", "a = a AND begins_with(b, :n)", "The first operand must be distinct from the remaining operands for "
                                                  "this operator or function; operator: =, first operand: [a]"),
    # ---- operand types (case 44)
    ("filter", "begins_with(a, :n)", "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"),
    ("condition", "begins_with(:ss, a)", "Incorrect operand type for operator or function; operator or function: begins_with, operand type: SS"),
    ("condition", "begins_with(size(a), :p)", "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"),
    ("condition", "size(:n) = :n", "Incorrect operand type for operator or function; operator or function: size, operand type: N"),
    ("condition", "size(:bool) = :n", "Incorrect operand type for operator or function; operator or function: size, operand type: BOOL"),
    ("condition", "size(:null) = :n", "Incorrect operand type for operator or function; operator or function: size, operand type: NULL"),
    ("condition", "size(size(a)) = :n", "Incorrect operand type for operator or function; operator or function: size, operand type: N"),
    ("condition", "attribute_type(a, :n)", "Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"),
    ("condition", "attribute_type(a, :badt)", "Invalid attribute type name found; type: X, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"),
    ("condition", "a < :l", "Incorrect operand type for operator or function; operator or function: <, operand type: L"),
    ("condition", ":m >= a", "Incorrect operand type for operator or function; operator or function: >=, operand type: M"),
    ("condition", "a BETWEEN :bool AND :n", "Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: BOOL"),
    ("condition", "a BETWEEN :n AND :s", "The BETWEEN operator requires same data type for lower and upper bounds; "
                                         "lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}"),
    ("condition", "a BETWEEN :n2 AND :n", "The BETWEEN operator requires upper bound to be greater than or equal to lower "
                                          "bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}"),
    ("update", "SET a = :s + b", "Incorrect operand type for operator or function; operator or function: +, operand type: S"),
    ("update", "SET a = b - :ns", "Incorrect operand type for operator or function; operator or function: -, operand type: NS"),
    ("update", "SET a = list_append(:s, b)", "Incorrect operand type for operator or function; operator or function: list_append, operand type: S"),
    ("update", "SET a = list_append(a, :l) + :n", "Incorrect operand type for operator or function; operator or function: +, operand type: L"),
    # ---- ADD / DELETE operands (case 52): long type names, "operator:"
    ("update", "delete a.b :n", "Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER"),
    ("update", "ADD a :s", "Incorrect operand type for operator or function; operator: ADD, operand type: STRING"),
    ("update", "ADD a :b", "Incorrect operand type for operator or function; operator: ADD, operand type: BINARY"),
    ("update", "ADD a :bool", "Incorrect operand type for operator or function; operator: ADD, operand type: BOOLEAN"),
    ("update", "ADD a :null", "Incorrect operand type for operator or function; operator: ADD, operand type: NULL"),
    ("update", "ADD a :l", "Incorrect operand type for operator or function; operator: ADD, operand type: LIST"),
    ("update", "DELETE a :m", "Incorrect operand type for operator or function; operator: DELETE, operand type: MAP"),
    ("update", "SET a = :s + b ADD c :s", "Incorrect operand type for operator or function; operator: ADD, operand type: STRING"),
    # ---- sections (case 49)
    ("update", "SET a = :v SET b = :v", 'The "SET" section can only be used once in an update expression;'),
    ("update", "REMOVE a remove b", 'The "REMOVE" section can only be used once in an update expression;'),
    ("update", "ADD a :n SET b = :s ADD c :n", 'The "ADD" section can only be used once in an update expression;'),
    ("update", "DELETE a :ss DELETE b :ss", 'The "DELETE" section can only be used once in an update expression;'),
    ("update", "SET a = dog(b) SET c = :s", "Invalid function name; function: dog"),
    # ---- overlapping / conflicting paths (case 50)
    ("update", "SET #s = :v, #s = :v", "Two document paths overlap with each other; must remove or rewrite one of these "
                                       "paths; path one: [string_set], path two: [string_set]"),
    ("update", "SET a = :s REMOVE a", "Two document paths overlap with each other; must remove or rewrite one of these "
                                      "paths; path one: [a], path two: [a]"),
    ("update", "SET a.b = :s, a = :s", "Two document paths overlap with each other; must remove or rewrite one of these "
                                       "paths; path one: [a, b], path two: [a]"),
    ("update", "SET #a = :s, a[1] = :s", "Two document paths overlap with each other; must remove or rewrite one of "
                                         "these paths; path one: [a], path two: [a, [1]]"),
    ("update", "SET a.c = :s REMOVE a[1]", "Two document paths conflict with each other; must remove or rewrite one of "
                                           "these paths; path one: [a, c], path two: [a, [1]]"),
    ("update", "SET a.c = :s, a[1] = :s, b = :s, b.x = :s",  # any overlap before any conflict
     "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [b], path two: [b, x]"),
    ("update", "SET a = :s ADD a :s", "Two document paths overlap with each other; must remove or rewrite one of these "
                                      "paths; path one: [a], path two: [a]"),  # before the ADD operand type
    ("projection", "a, a", "Two document paths overlap with each other; must remove or rewrite one of these paths; "
                           "path one: [a], path two: [a]"),
    ("projection", "#a, a.b", "Two document paths overlap with each other; must remove or rewrite one of these paths; "
                              "path one: [a], path two: [a, b]"),
    ("projection", "a.b, a[0]", "Two document paths conflict with each other; must remove or rewrite one of these "
                                "paths; path one: [a, b], path two: [a, [0]]"),
    # ---- KeyConditionExpression structure (§3.9, case 71, 74) and general checks (case 48)
    ("key", "pk = :s OR sk = :s2", "Invalid operator used in KeyConditionExpression: OR"),
    ("key", "NOT pk = :s", "Invalid operator used in KeyConditionExpression: NOT"),
    ("key", "pk IN (:s, :s2)", "Invalid operator used in KeyConditionExpression: IN"),
    ("key", "pk <> :s", "Invalid operator used in KeyConditionExpression: <>"),
    ("key", "pk = :s AND attribute_exists(sk)", "Invalid operator used in KeyConditionExpression: attribute_exists"),
    ("key", "attribute_not_exists(sk)", "Invalid operator used in KeyConditionExpression: attribute_not_exists"),
    ("key", "contains(sk, :s)", "Invalid operator used in KeyConditionExpression: contains"),
    ("key", "attribute_type(sk, :t)", "Invalid operator used in KeyConditionExpression: attribute_type"),
    ("key", "pk = :s AND dog(sk)", "Invalid function name; function: dog"),
    ("key", "size(pk) = :n", "KeyConditionExpressions cannot contain nested operations"),
    ("key", ":s BETWEEN sk AND :s2", "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key "
                                     "attribute as its first operand"),
    ("key", "begins_with(:p, sk)", "Invalid condition in KeyConditionExpression: begins_with operator must have the key "
                                   "attribute as its first operand"),
    ("key", "pk = sk", "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"),
    ("key", "begins_with(pk, sk)", "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"),
    ("key", "a.b = :s", "KeyConditionExpressions cannot have conditions on nested attributes"),
    ("key", "a[0] = :s", "KeyConditionExpressions cannot have conditions on nested attributes"),
    ("key", ":s = :s2", "Invalid condition in KeyConditionExpression: No key attribute specified"),
    ("key", "pk = :s AND pk = :s", "KeyConditionExpressions must only contain one condition per key"),
    ("key", "pk = :p AND sk > :s AND sk < :s2", "KeyConditionExpressions must only contain one condition per key"),
    ("key", "#a = :s AND a = :s", "KeyConditionExpressions must only contain one condition per key"),
    ("key", "pk = :p AND begins_with(sk, :n)", "Incorrect operand type for operator or function; operator or function: "
                                               "begins_with, operand type: N"),
    ("key", "pk = :p AND sk between :s2 and :s", "The BETWEEN operator requires upper bound to be greater than or equal "
                                                 "to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound "
                                                 "operand: AttributeValue: {S:a}"),
]


@pytest.mark.parametrize("kind, text, message", ERRORS, ids=[f"{row[0]}:{row[1][:40]}" for row in ERRORS])
def test_errors(kind, text, message):
    # recorded-2026-11 B9: a key condition's structural errors (item-api §3.9) carry no prefix
    structural = kind == "key" and message.startswith(_KEY_STRUCTURAL)
    assert error_of(kind, text) == (message if structural else f"Invalid {PARSERS[kind][1]}: {message}")


_KEY_STRUCTURAL = ("Invalid operator used in KeyConditionExpression", "Invalid condition in KeyConditionExpression",
                   "KeyConditionExpressions ")


# ------------------------------------------------------------- contexts

def test_placeholders_are_substituted_per_context():
    """The parse is cached on the text; values and names come from each context."""
    text = "#a = :v AND begins_with(#b, :p)"
    one = parse_condition(text, ExpressionContext({"#a": "x", "#b": "y"}, {":v": "1", ":p": "p"}))
    two = parse_condition(text, ExpressionContext({"#a": "z", "#b": "w"}, {":v": D(2), ":p": b"q"}))
    assert one == And((C("=", P("x"), V("1")), Call("begins_with", (P("y"), V("p")))))
    assert two == And((C("=", P("z"), V(D(2))), Call("begins_with", (P("w"), V(b"q")))))
    with pytest.raises(ValidationException, match="operand type: N$"):
        parse_condition(text, ExpressionContext({"#a": "x", "#b": "y"}, {":v": "1", ":p": D(1)}))
    with pytest.raises(ValidationException, match="first operand: \\[x\\]$"):
        parse_condition("#a = #b", ExpressionContext({"#a": "x", "#b": "x"}))
    assert parse_condition("#a = #b", ExpressionContext({"#a": "x", "#b": "y"})) == C("=", P("x"), P("y"))


def test_errors_are_cached_too():
    for _ in range(2):
        assert error_of("condition", "((a = :s))") == "Invalid ConditionExpression: The expression has redundant parentheses;"
        assert error_of("filter", "a =") == 'Invalid FilterExpression: Syntax error; token: "<EOF>", near: "="'


def test_no_context_at_all():
    ctx = ExpressionContext()
    assert parse_projection("a, b", ctx) == (P("a"), P("b"))
    with pytest.raises(ValidationException, match="attribute name: #a$"):
        parse_projection("#a", ctx)
    ctx.check_unused()


UNUSED = [
    # case 33
    ({"#h": "pk", "#count": "count"}, {":h": "x"}, [("filter", "#h = :h")],
     "Value provided in ExpressionAttributeNames unused in expressions: keys: {#count}"),
    # case 34
    ({"#limit": "limit"}, {":countChange": D(1), ":limit": "limit"}, [("update", "SET spec.#limit = :limit")],
     "Value provided in ExpressionAttributeValues unused in expressions: keys: {:countChange}"),
    # names first, then values; several keys
    ({"#a": "a", "#b": "b", "#c": "c"}, {":x": "x", ":y": "y"}, [("condition", "#c = :y")],
     "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}"),
    # used by any expression of the request counts (case 117 has no prefix: the message is plain)
    ({"#unused": "u"}, {":p": "a", ":x": "b"}, [("key", "pk = :p AND begins_with(sk, :x)")],
     "Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}"),
    ({"#a": "a", "#b": "b"}, {":x": "x"}, [("condition", "#a = :x"), ("projection", "#b")], None),
]


@pytest.mark.parametrize("names, values, expressions, message", UNUSED)
def test_unused_placeholders(names, values, expressions, message):
    ctx = ExpressionContext(names, values)
    for kind, text in expressions:
        PARSERS[kind][0](text, ctx)
    if message is None:
        ctx.check_unused()
    else:
        with pytest.raises(ValidationException) as raised:
            ctx.check_unused()
        assert raised.value.message == message


KEYS = [
    # case 32
    (None, {"loc": "sth"}, 'ExpressionAttributeValues contains invalid key: Syntax error; key: "loc"'),
    ({"a": "b"}, None, 'ExpressionAttributeNames contains invalid key: Syntax error; key: "a"'),
    ({"#a-b": "b"}, None, 'ExpressionAttributeNames contains invalid key: Syntax error; key: "#a-b"'),
    ({"#": "b"}, None, 'ExpressionAttributeNames contains invalid key: Syntax error; key: "#"'),
    ({}, {}, "ExpressionAttributeNames must not be empty"),
    ({"#a": "a"}, {}, "ExpressionAttributeValues must not be empty"),  # case 36
    ({"x": "a"}, {}, 'ExpressionAttributeNames contains invalid key: Syntax error; key: "x"'),  # names first
    ({"#" + "a" * 255: "a"}, None, "The expression attribute map contains a key that is too long"),
    ({"#123": "a", "#_": "b"}, {":0": "x", ":a_B": "y"}, None),
]


@pytest.mark.parametrize("names, values, message", KEYS)
def test_placeholder_keys(names, values, message):
    ctx = ExpressionContext(names, values)
    if message is None:
        ctx.check_keys()
    else:
        with pytest.raises(ValidationException) as raised:
            ctx.check_keys()
        assert raised.value.message == message


def test_key_condition_structure_can_wait_for_unused_placeholders():
    """item-api §2.1: structure errors come after unused names and values."""
    ctx = ExpressionContext(None, {":a": "x", ":b": "y", ":c": "z"})
    condition = parse_key_condition("pk = :a OR sk = :b", ctx, defer=True)
    assert condition == Or((C("=", P("pk"), V("x")), C("=", P("sk"), V("y"))))
    with pytest.raises(ValidationException, match="keys: {:c}$"):
        ctx.check_unused()
    ctx = ExpressionContext(None, {":a": "x", ":b": "y"})
    parse_key_condition("pk = :a OR sk = :b", ctx, defer=True)
    with pytest.raises(ValidationException) as raised:
        ctx.check_unused()
    assert raised.value.message == "Invalid operator used in KeyConditionExpression: OR"  # (no prefix: B9)


def test_check_key_condition_on_a_model():
    check_key_condition(And((C("=", P("pk"), V("x")), C("<", V("y"), P("sk")))))
    with pytest.raises(ValidationException, match="one condition per key$"):
        check_key_condition(And((C("=", P("pk"), V("x")), C("<", V("y"), P("pk")))))


def test_reserved_words():
    words = reserved_words()
    assert len(words) == 573
    assert {"NAME", "STATUS", "DATA", "DATE", "TIMESTAMP", "VALUE", "COUNT", "SIZE", "TTL", "PATH"} <= words
    assert all(word == word.upper() for word in words)
