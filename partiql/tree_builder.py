"""Lark's tokens and reductions -> ``partiql.ast`` nodes: the lexer hooks and the tree builder.

``TreeBuilder`` is plugged into Lark as its inline transformer, so no parse
tree is built: each grammar rule's callback makes the AST node directly,
with its source span. ``PostLex``, ``keyword_token`` and ``number_token``
are the lexer hooks (keywords are case-insensitive identifiers; numbers
out of DynamoDB's range are refused where they are read).
"""

from __future__ import annotations

from decimal import Decimal

from lark import Token, Transformer

from partiql.engine.types import not_a_java_big_decimal

from . import ast, shell_ast
from .errors import StatementError
from .ddl_builder import DdlBuilder
from .keywords import TOKEN_TYPES
from .token_spans import flag as _flag, over as _over, span_of as _span, unquote as _unquote

_INT32 = range(-2**31, 2**31)


def keyword_token(tok: Token) -> Token:
    """Reserved words lex as IDENT first; give them their keyword type."""
    kind = TOKEN_TYPES.get(tok.lower())
    if kind is not None:
        tok.type = kind
    return tok


def _exponent_fits(exponent: str) -> bool:
    digits = exponent.lstrip("+-").lstrip("0") or "0"
    if len(digits) > 10:  # why: an int32 has 10 digits, and int() refuses over 4,300
        return False
    value = int(digits)
    return (-value if exponent.startswith("-") else value) in _INT32


def number_token(tok: Token) -> Token:
    """Refuse an exponent that does not fit an int32, as DynamoDB's lexer does (empty detail)."""
    mark = max(tok.find("e"), tok.find("E"))
    if mark >= 0 and not _exponent_fits(tok[mark + 1:]):
        raise StatementError.syntax("", tok.line, tok.column, len(tok))
    return tok


class PostLex:
    """Keeps IDENT lexable in every parser state, so that a reserved word met
    where no keyword fits still becomes its keyword token (and an error)."""

    always_accept = ("IDENT",)

    def process(self, stream):
        return stream


# ---------------------------------------------------------------- tree builder

_LITERALS = {
    "STRING": lambda t, s: ast.StringLit(_unquote(t), s),
    "NUMBER": lambda t, s: _number(str(t), s),
    "TRUE": lambda t, s: ast.BoolLit(True, s),
    "FALSE": lambda t, s: ast.BoolLit(False, s),
    "NULL": lambda t, s: ast.NullLit(s),
    "MISSING": lambda t, s: ast.MissingLit(s),
    "ION": lambda t, s: ast.IonLit(str(t[1:-1]), s),
}


def _number(text: str, span) -> ast.NumberLit:
    # why: a literal Java's BigDecimal cannot read (its exponent or scale past 32 bits) is, to DynamoDB, a
    # statement that is not well formed, with nothing after the colon (recorded-2026-11 B7)
    if not_a_java_big_decimal(text):
        raise StatementError.syntax("", span.line, span.column, span.length)
    return ast.NumberLit(text, span)


# why (recorded-2026-11 B8): type names PartiQL reads that DynamoDB's translator has no test for are
# "Unsupported operation: IsType"; other words where a type belongs are not type names at all.
_IS_TYPE_UNSUPPORTED = frozenset(("INT2", "INTEGER2", "INT4", "INTEGER4", "INT8", "INTEGER8", "BIGINT",
                                  "DOUBLE PRECISION", "CHARACTER VARYING"))


def _unsupported_type(name: str, span):
    if name in _IS_TYPE_UNSUPPORTED:
        raise StatementError.near("Unsupported operation: IsType", span)
    raise StatementError.syntax("Expected type name", span.line, span.column, span.length)




def _index_value(text: str) -> int | None:
    """The integer a subscript denotes, or None (not an integer, or absurdly large)."""
    number = Decimal(text)
    if number.adjusted() > 18 or number != number.to_integral_value():
        return None
    return int(number)


def _signed(op: str, text: str) -> str:
    if op == "+":
        return text
    return text[1:] if text.startswith("-") else "-" + text


def _refused_clause(name: str, c: list) -> ast.Clause:
    keyword, expr = c
    return ast.Clause(name, (expr,), _over(keyword, expr), _span(keyword))


class TreeBuilder(DdlBuilder, Transformer):
    """Lark inline transformer: one method per grammar rule (or alias), each
    receiving the rule's children and returning an AST node (or a piece)."""

    def __init__(self):
        super().__init__()
        self.parameters = 0

    # statements
    def statement(self, c):
        return c[0]

    dml_statement = statement

    def select(self, c):
        (start, quantifier, projection), sources, where, group_by, having, order_by, limit, offset = c
        clauses = tuple([x for x in (group_by, having, limit, offset) if x is not None])
        order = order_by or ()
        span = _over(start, sources[-1], where, group_by, having, order[-1] if order else None, limit, offset)
        return ast.Select(projection, sources, where, order, clauses, quantifier and quantifier.upper(),
                          quantifier and _span(quantifier), span)

    def select_head(self, c):
        return c[0], c[1], c[2]

    def pivot_head(self, c):
        pivot, value, _, key = c
        return pivot, None, ast.ProjectPivot(value, key, _over(pivot, key))

    def set_quantifier(self, c):
        return c[0]

    def proj_list(self, c):
        return ast.ProjectList(tuple(c), _over(c[0], c[-1]))

    def proj_value(self, c):
        return ast.ProjectValue(c[1], _over(c[0], c[1]))

    def proj_star(self, c):
        return ast.ProjectStar(_span(c[0]))

    def proj_item(self, c):
        expr, alias = c
        return ast.ProjectItem(expr, alias, _over(expr, alias))

    def alias(self, c):
        keyword, name = c
        return ast.Alias(name.name, _over(keyword or name, name))

    def at_alias(self, c):
        return ast.Alias(c[1].name, _over(c[0], c[1]))

    by_alias = at_alias

    def from_clause(self, c):
        return tuple(c[1:])

    def from_source(self, c):
        expr, alias, at_alias, by_alias = c
        target = expr
        if isinstance(expr, ast.Path) and all(type(s) is ast.Attr for s in expr.steps):
            target = ast.TableRef(tuple([s.name for s in expr.steps]), expr.span)
        return ast.FromSource(target, alias, at_alias, by_alias, _over(expr, alias, at_alias, by_alias))

    def where_clause(self, c):
        return c[1]

    def group_by(self, c):
        group, by, exprs = c
        return ast.Clause("GROUP BY", tuple(exprs), _over(group, exprs[-1]), _over(group, by))

    def having(self, c):
        return _refused_clause("HAVING", c)

    def limit(self, c):
        return _refused_clause("LIMIT", c)

    def offset(self, c):
        return _refused_clause("OFFSET", c)

    def order_by(self, c):
        return tuple(c[2:])

    def order_item(self, c):
        expr, direction = c
        return ast.OrderItem(expr, direction and direction.upper(), _over(expr, direction))

    def insert(self, c):
        start, _, table, (keyword, value), on_conflict, returning = c
        return ast.Insert(table, value, keyword, on_conflict, returning,
                          _over(start, value, on_conflict, returning))

    def insert_value(self, c):
        return True, c[1]

    def insert_values(self, c):
        return False, c[0]

    def on_conflict(self, c):
        return ast.OnConflict(_over(c[0], *c[1:]), _over(c[0], c[1]))

    def conflict_action(self, c):
        return c[-1]

    def update(self, c):
        start, table, _, actions, where, returning = c
        return ast.Update(table, tuple(actions), where, returning, False,
                          _over(start, actions[-1], where, returning))

    def from_update(self, c):
        start, table, where, actions, returning = c
        return ast.Update(table, tuple(actions), where, returning, True,
                          _over(start, actions[-1], returning))

    def delete(self, c):
        start, _, table, _, where, returning = c
        return ast.Delete(table, where, returning, _over(start, table, where, returning))

    def dml_alias(self, c):
        raise StatementError.near("Aliasing is not supported", _over(*[part for part in c if part is not None]))

    def dml_target(self, c):
        return ast.TableRef(tuple(n.name for n in c), _over(c[0], c[-1]))

    def set_clause(self, c):
        return [c[1], *(c[2] or ())]

    def set_more(self, c):
        return [c[0], *(c[1] or ())]

    def next_clause(self, c):
        return c[-1]

    def remove_clause(self, c):
        return [ast.RemoveAction(c[1], c[1].span), *(c[2] or ())]

    def remove_more(self, c):
        return [ast.RemoveAction(c[0], c[0].span), *(c[1] or ())]

    def assignment(self, c):
        target, _, value = c
        return ast.SetAction(target, value, _over(target, value))

    def returning(self, c):
        return ast.Returning(tuple(c[1:]), _over(c[0], c[-1]))

    def returning_elem(self, c):
        status, age, target = c
        if isinstance(target, Token):
            target = ast.Star(_span(target))
        return ast.ReturningElem(status.upper(), age.upper(), target, _over(status, target))

    def exists_stmt(self, c):
        return ast.Exists(c[2], _over(c[0], c[3]))

    def explain(self, c):
        return shell_ast.Explain(c[1], _over(c[0], c[1]))

    # conditions
    def or_(self, c):
        return ast.Or(c[0], c[2], _over(c[0], c[2]))

    def and_(self, c):
        return ast.And(c[0], c[2], _over(c[0], c[2]))

    def not_(self, c):
        return ast.Not(c[1], _over(c[0], c[1]))

    def comparison(self, c):
        left, op, right = c
        symbol = "<>" if op.type == "NE" else str(op)
        return ast.Comparison(symbol, left, right, _over(left, right), _span(op))

    def between(self, c):
        operand, negated, _, low, _, high = c
        return ast.Between(operand, low, high, _flag(negated), _over(operand, high))

    def in_(self, c):
        operand, negated, _, (items, end) = c
        return ast.In(operand, items, _flag(negated), _over(operand, end))

    def in_list(self, c):
        return tuple(c[1] or ()), c[-1]

    def like(self, c):
        operand, negated, _, pattern, _, escape = c
        return ast.Like(operand, pattern, escape, _flag(negated), _over(operand, pattern, escape))

    def is_(self, c):
        operand, _, negated, (type_name, type_span) = c
        return ast.Is(operand, type_name, _flag(negated), _span(operand).to(type_span.end), type_span)

    def is_type(self, c):
        return c[0].upper(), _over(c[0], *c[1:])

    def two_word_type(self, c):
        return _unsupported_type(" ".join(str(word).upper() for word in c), _over(*c))

    def word_type(self, c):
        return _unsupported_type(str(c[0]).upper(), _span(c[0]))

    # operands
    def binary(self, c):
        left, op, right = c
        return ast.Binary(str(op), left, right, _over(left, right), _span(op))

    def unary(self, c):
        op, operand = c
        span = _over(op, operand)
        if isinstance(operand, ast.NumberLit):
            # why: DynamoDB folds signs into number literals, even repeated ones (`- - 1`).
            return ast.NumberLit(_signed(op, operand.text), span)
        return ast.Unary(str(op), operand, span)

    def param(self, c):
        index = self.parameters
        self.parameters += 1
        return ast.Parameter(index, _span(c[0]))

    def list_lit(self, c):
        return ast.ListLit(tuple(c[1] or ()), _over(c[0], c[2]))

    def tuple_lit(self, c):
        return ast.TupleLit(tuple(c[1] or ()), _over(c[0], c[2]))

    def bag_lit(self, c):
        return ast.BagLit(tuple(c[1] or ()), _over(c[0], c[2]))

    def exprs(self, c):
        return c

    pairs = exprs

    def pair(self, c):
        return ast.Pair(c[0], c[1], _over(c[0], c[1]))

    def call(self, c):
        name, _, args, end = c
        if isinstance(args, Token):
            args = (ast.Star(_span(args)),)
        return ast.Call(str(name), tuple(args or ()), _over(name, end), _span(name))

    def literal(self, c):
        tok = c[0]
        return _LITERALS[tok.type](tok, _span(tok))

    def path(self, c):
        root = ast.Attr(_unquote(c[0]), _span(c[0]))
        if len(c) == 1:  # why: most paths are one name
            return ast.Path((root,), root.span)
        steps = tuple([step for step, _ in c[1:]])
        return ast.Path((root, *steps), _over(root, c[-1][1]))

    def dot_step(self, c):
        dot, tok = c
        if tok.type == "STAR":
            return ast.Wildcard(".*", _over(dot, tok)), tok
        return ast.Attr(_unquote(tok), _span(tok)), tok

    def index_step(self, c):
        _, sign, number, end = c
        text = ("-" if sign == "-" else "") + number
        return ast.Index(_index_value(text), text, _span(number)), end

    def key_step(self, c):
        return ast.Attr(_unquote(c[1]), _span(c[1])), c[2]

    def index_star(self, c):
        return ast.Wildcard("[*]", _over(c[0], c[2])), c[2]

    def name(self, c):
        return ast.Attr(_unquote(c[0]), _span(c[0]))
