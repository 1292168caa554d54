"""Syntax highlighting from our own grammar: a pygments lexer over the PartiQL parser's tokens.

Each statement of the buffer is fed to the grammar's LALR parser token by
token (``grammar.feed``: the same contextual lexer ``parse`` uses), so words
are coloured as the parser reads them: ``table`` is a name after FROM and a
keyword after CREATE; a name is a function when it is one of ``FUNCTIONS``.
The token the parser cannot use is marked ``Error`` as you type (unless it
is the word still being typed at the end); the rest of the statement is
coloured by the context-free lexer. An unterminated string or comment at
the end is text being typed, not an error. Only the interactive shell
imports this module.
"""

from __future__ import annotations

import functools
import re
from copy import copy

from lark.exceptions import UnexpectedCharacters
from lark.lexer import BasicLexer, LexerThread
from pygments.lexer import Lexer
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String,
                            Text)

from partiql.errors import StatementError
from partiql.splitter import split_statements

from .commands import is_command
from .grammar import feed, keywords, lark
from .suggest import FUNCTIONS

# Terminals of grammar/partiql.lark -> pygments token types, besides the
# keywords (``grammar.keywords()``) and RESERVED (words no rule accepts).
TOKENS = {
    "IDENT": Name,
    "QIDENT": Name.Variable,
    "QMARK": Name.Variable.Magic,
    "FUNCKW": Name.Function,
    "TYPENAME": Keyword.Type,
    "DDL_TYPE": Keyword.Type,
    "STRING": String.Single,
    "ION": String.Backtick,
    "NUMBER": Number,
    "COMMENT": Comment,
    "RESERVED": Keyword,
    **dict.fromkeys(("EQ", "NE", "LE", "GE", "LT", "GT", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT",
                     "CONCAT", "LBAG", "RBAG"), Operator),
    **dict.fromkeys(("LPAR", "RPAR", "LSQB", "RSQB", "LBRACE", "RBRACE", "COMMA", "COLON", "DOT",
                     "SEMI"), Punctuation),
}

# pygments token types -> the [colors] key that styles them.
COLOR_KEYS = {
    Keyword: "keyword",
    Name.Function: "function",
    String: "string",
    Number: "number",
    Name: "identifier",
    Name.Variable: "quoted_identifier",
    Name.Variable.Magic: "parameter",
    Operator: "operator",
    Comment: "comment",
    Error: "invalid",
}

_GAP = re.compile(r"(?P<comment>--[^\n]*|/\*[\s\S]*?(?:\*/|\Z))|(?P<semi>;)|(?P<text>\s+|.)")
_GAP_TOKENS = {"comment": Comment, "semi": Punctuation, "text": Text}
_WORD_AT_END = re.compile(r"[\w$]+")
_OPEN = {"'": String.Single, '"': Name.Variable, "`": String.Backtick}


def token_type(terminal: str):
    """The pygments token type of a grammar terminal."""
    if terminal in TOKENS:
        return TOKENS[terminal]
    return Keyword if terminal in keywords() else Text


@functools.cache
def _plain_lexer() -> BasicLexer:
    """The grammar's terminals without context, whitespace and comments included."""
    conf = copy(lark().lexer_conf)
    conf.ignore = ()
    return BasicLexer(conf)


def _gaps(text: str, start: int, end: int, offset: int):
    """Blanks, comments and semicolons between statements or tokens."""
    for match in _GAP.finditer(text, start, end):
        yield offset + match.start(), _GAP_TOKENS[match.lastgroup], match.group()


def _plain(text: str, start: int, offset: int):
    """Tokens of ``text[start:]`` by the context-free lexer, past characters it cannot read."""
    position = start
    while position < len(text):
        base = position
        try:
            for token in LexerThread.from_text(_plain_lexer(), text[base:]).lex(None):
                yield offset + base + token.start_pos, token_type(token.type), str(token)
                position = base + token.end_pos
            return
        except UnexpectedCharacters as error:
            position = base + error.pos_in_stream
        except StatementError:  # why: the NUMBER callback refuses huge exponents; the rest is an error
            yield offset + position, Error, text[position:]
            return
        yield from _unreadable(text, position, offset)
        position = len(text) if text[position] in _OPEN or text.startswith("/*", position) else position + 1


def _unreadable(text: str, start: int, offset: int):
    """An unterminated quote or comment runs to the end (it is being typed); another character is an error."""
    kind = _OPEN.get(text[start])
    if kind is not None:
        yield offset + start, kind, text[start:]
    elif text.startswith("/*", start):
        yield offset + start, Comment, text[start:]
    else:
        yield offset + start, Error, text[start]


def _kind(token):
    kind = token_type(token.type)
    return Name.Function if kind is Name and token.lower() in FUNCTIONS else kind


def _statement(statement: str, offset: int, typing: bool):
    """Tokens of one statement; with ``typing`` (it ends the buffer) a refused last word is
    still being typed and is not marked."""
    fed = feed(statement)
    bad = fed.bad
    if typing and bad is not None and _WORD_AT_END.fullmatch(statement, bad):
        bad = None
    position = 0
    for token in fed.tokens:
        yield from _gaps(statement, position, token.start_pos, offset)
        yield offset + token.start_pos, _kind(token), str(token)
        position = token.end_pos
    yield from _gaps(statement, position, fed.stop, offset)
    for start, kind, value in _plain(statement, fed.stop, offset):
        yield start, Error if start - offset == bad else kind, value


def _command(line: str, offset: int):
    """A meta-command line: the command word, then its argument as plain text."""
    word = line.split(None, 1)[0]
    yield offset, Keyword.Pseudo, word
    yield offset + len(word), Text, line[len(word):]


def tokens(text: str):
    """``(index, token type, text)`` for every character of ``text``, in order."""
    position = 0
    for piece, _ in split_statements(text):
        start = text.index(piece, position)
        yield from _gaps(text, position, start, 0)
        if is_command(piece):
            yield from _command(piece, start)
        else:
            yield from _statement(piece, start, start + len(piece) == len(text))
        position = start + len(piece)
    yield from _gaps(text, position, len(text), 0)


class PartiQLLexer(Lexer):
    """Pygments lexer for DynamoDB's PartiQL and the shell's extensions."""

    name = "PartiQL"
    aliases = ["partiql"]

    def get_tokens_unprocessed(self, text):
        return (item for item in tokens(text) if item[2])


def style_rules(colors: dict) -> dict:
    """prompt_toolkit style rules for the highlighted buffer, from the ``[colors]`` section."""
    return {"pygments." + ".".join(kind).lower(): colors.get(key, "")
            for kind, key in COLOR_KEYS.items()}
