"""The grammar: expression text → raw tree (Lark LALR over ``grammar/expressions.lark``), and DynamoDB's syntax-error message."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .messages import SYNTAX
from .model import Add, And, Arithmetic, Between, Call, Comparison, Delete, In, Not, Or, Path, Remove, Set


# --------------------------------------------------------------- the grammar

START_RULES = {"condition": "condition_", "update": "update_", "projection": "projection_"}


@dataclass(frozen=True, slots=True)
class NameRef:
    """``#name`` in a template path, substituted at parse time."""

    key: str


@dataclass(frozen=True, slots=True)
class ValueRef:
    """``:value`` in a template, substituted (as ``Value``) at parse time."""

    key: str


@dataclass(frozen=True, slots=True)
class Paren:
    """Parentheses in the raw tree, kept until the redundant-parentheses check."""

    inner: object


@dataclass(frozen=True, slots=True)
class Section:
    keyword: str  # SET, REMOVE, ADD, DELETE (upper case)
    actions: tuple


def _chain(node, cls) -> tuple:
    # An unparenthesised a AND b AND c is one And; (a AND b) AND c keeps its nesting.
    return node.operands if type(node) is cls else (node,)


class _Tree(Transformer):
    """Lark callbacks, run at each reduction: grammar rules → raw template nodes."""

    def projection_(self, c):
        return tuple(c)

    def condition_(self, c):
        return c[0]

    def update_(self, c):
        return tuple(c)

    def or_cond(self, c):
        return Or(_chain(c[0], Or) + (c[2],))

    def and_cond(self, c):
        return And(_chain(c[0], And) + (c[2],))

    def not_cond(self, c):
        return Not(c[1])

    def comparison(self, c):
        return Comparison(c[1], c[0], c[2])

    def comparator(self, c):
        return str(c[0])

    def in_cond(self, c):
        return In(c[0], tuple(c[2:]))

    def between(self, c):
        return Between(c[0], c[2], c[4])

    def paren_condition(self, c):
        return Paren(c[0])

    paren_operand = paren_function = paren_arithmetic = paren_condition

    def function(self, c):
        return Call(str(c[0]), tuple(c[1:]))

    def path(self, c):
        return Path(tuple(int(e) if isinstance(e, Token) else e for e in c))

    def name(self, c):
        token = c[0]
        return NameRef(str(token)) if token.type == "NAME" else str(token)

    def value(self, c):
        return ValueRef(str(c[0]))

    def arithmetic(self, c):
        return c[0] if len(c) == 1 else Arithmetic(str(c[1]), c[0], c[2])

    def set_action(self, c):
        return Set(c[0], c[1])

    def set_section(self, c):
        return Section("SET", tuple(c[1:]))

    def remove_section(self, c):
        return Section("REMOVE", tuple(Remove(path) for path in c[1:]))

    def add_section(self, c):
        return Section("ADD", tuple(Add(c[i], c[i + 1]) for i in range(1, len(c), 2)))

    def delete_section(self, c):
        return Section("DELETE", tuple(Delete(c[i], c[i + 1]) for i in range(1, len(c), 2)))


@functools.cache
def lark_parser() -> Lark:
    grammar = resources.files("partiql.grammar").joinpath("expressions.lark").read_text("utf-8")
    # A context-free ('basic') lexer, like DynamoDB's ANTLR lexer: "set" is SET everywhere.
    return Lark(grammar, parser="lalr", lexer="basic", start=list(START_RULES.values()),
                transformer=_Tree(), maybe_placeholders=False, cache=True)


def _tokens(text: str) -> list[tuple[int, int]]:
    """(start, end) of every token, an unknown character being a token of its own (ANTLR's view)."""
    lark, out, offset = lark_parser(), [], 0
    while offset < len(text):
        try:
            for token in lark.lex(text[offset:]):
                out.append((offset + token.start_pos, offset + token.end_pos))
            break
        except UnexpectedCharacters as error:
            position = offset + error.pos_in_stream
            out.append((position, position + 1))
            offset = position + 1
    return out


def syntax_message(text: str, error: UnexpectedInput) -> str:
    """DynamoDB's text: the offending token, and the text from the token before it to the one after."""
    tokens = _tokens(text)
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        index, shown = len(tokens), "<EOF>"
    else:
        start = error.token.start_pos if isinstance(error, UnexpectedToken) else error.pos_in_stream
        index = next(i for i, (s, _) in enumerate(tokens) if s == start)
        shown = text[tokens[index][0]:tokens[index][1]]
    begin = tokens[index - 1][0] if index > 0 else (tokens[index][0] if index < len(tokens) else len(text))
    # The "next" token may be EOF, whose text ends where the input ends (trailing blanks included).
    end = tokens[index + 1][1] if index + 1 < len(tokens) else len(text)
    return SYNTAX.format(shown, text[begin:end])
