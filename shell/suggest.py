"""What to offer at the cursor: the completer's logic, as a pure function of text and catalog.

Keywords come from the grammar (``grammar.feed(...).accepts()``: the
terminals the parser would take next); names come from the catalog: tables
after FROM / INTO / UPDATE / TABLE / DESCRIBE, index names after
``"Table".`` in FROM, attribute names (and functions) of the statement's
table elsewhere. Meta-commands and their arguments (tables, formats, file
paths, ...) come from the ``commands`` registry.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from partiql.keywords import RESERVED
from partiql.splitter import is_complete, split_statements

from . import commands
from .grammar import feed, keywords

# spec §4.2: the functions each clause takes -- conditions in WHERE, updates on SET's right-hand side.
CLAUSE_FUNCTIONS = {
    "WHERE": ("attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains", "size"),
    "SET": ("list_append", "set_add", "set_delete"),
}
FUNCTIONS = frozenset(name for names in CLAUSE_FUNCTIONS.values() for name in names)
CLAUSES = frozenset({"SELECT", "FROM", "WHERE", "SET", "REMOVE", "VALUE", "ORDER", "RETURNING"})
# After these, SET is on its right-hand side (a value, where an update function may stand).
VALUE_STARTS = frozenset({"EQ", "PLUS", "MINUS", "LPAR", "COMMA"})

# Words the grammar reads only so DynamoDB can refuse them with its own message.
REFUSED = frozenset({"PIVOT", "DISTINCT", "GROUP", "HAVING", "LIMIT", "OFFSET", "AT", "AS", "LIKE",
                     "ESCAPE", "CONFLICT"})
# Words offered only right after another (BY also names a FROM alias, which DynamoDB refuses).
ONLY_AFTER = {"BY": "ORDER"}
# Terminals standing for several words: DDL attribute types, and the type names
# DynamoDB's IS operator supports (spec §4.1).
TERMINAL_WORDS = {"DDL_TYPE": ("STRING", "NUMBER", "BINARY"),
                  "TYPENAME": ("BOOL", "BOOLEAN", "NUMERIC", "STRING", "BLOB", "STRUCT", "TUPLE", "LIST")}
TABLE_CONTEXT = frozenset({"FROM", "INTO", "UPDATE", "TABLE", "DESCRIBE"})
NAME_TERMINALS = frozenset({"IDENT", "QIDENT"})
PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*\Z")
_INDEX = re.compile(r'("(?:[^"]|"")*"|[A-Za-z_][\w$]*)\.("(?:[^"]|"")*"?|[\w$]*)\Z')


@dataclass(frozen=True)
class Suggestion:
    """Replace the last ``replace`` characters before the cursor with ``text``."""

    text: str
    replace: int
    meta: str


def quote(name: str) -> str:
    """``name`` as PartiQL must spell it: bare when a plain non-reserved identifier, else quoted."""
    if PLAIN_NAME.match(name) and name.lower() not in RESERVED:
        return name
    return '"' + name.replace('"', '""') + '"'


def _unquote(word: str) -> str:
    return word[1:].rstrip('"').replace('""', '"') if word.startswith('"') else word


def _matching(words, typed: str, meta: str, spell=lambda w: w) -> list:
    """Suggestions for the ``words`` that start with what was typed (case-insensitive)."""
    prefix = _unquote(typed).lower()
    return [Suggestion(spell(w), len(typed), meta) for w in words if w.lower().startswith(prefix)]


# ---------------------------------------------------------------- meta-commands

def _files(typed: str) -> list:
    """Paths that complete ``typed`` (hidden ones once a dot is typed); folders end with a slash."""
    folder, stem = os.path.split(typed)
    where = os.path.expanduser(folder) or "."
    try:
        entries = sorted(os.listdir(where))
    except OSError:
        return []
    shown = [e for e in entries if e.startswith(stem) and (stem.startswith(".") or not e.startswith("."))]
    return [Suggestion(os.path.join(folder, e) + ("/" if os.path.isdir(os.path.join(where, e)) else ""),
                       len(typed), "file") for e in shown]


# What a meta-command's argument is (``Command.argument``) -> how to complete it;
# a tuple of words completes from those words.
_ARGUMENTS = {
    "table": lambda typed, catalog: _matching(catalog.tables(), typed, "table", quote),
    "command": lambda typed, catalog: _matching([c.name for c in commands.commands()], typed, "command"),
    "file": lambda typed, catalog: _files(typed),
}


def _command(text: str, catalog) -> list:
    """Meta-command names, or the argument of the command typed."""
    word, space, argument = text.lstrip().partition(" ")
    if not space:
        return _matching(list(commands.COMMANDS), word, "command")
    found = commands.COMMANDS.get(word)
    kind = found.argument if found else None
    if isinstance(kind, tuple):
        return _matching(kind, argument.lstrip(), "value")
    complete = _ARGUMENTS.get(kind)
    return complete(argument.lstrip(), catalog) if complete else []


# ---------------------------------------------------------------- statements

def _current(text: str) -> str:
    """The statement being typed: the text after the last complete statement."""
    if not text.strip() or is_complete(text):
        return ""
    pieces = split_statements(text)
    start = text.rindex(pieces[-1][0]) if pieces else len(text)
    return text[start:]


def _statement_table(tokens: list) -> str | None:
    """The table a statement names after FROM / INTO / UPDATE (its first one)."""
    for before, token in zip(tokens, tokens[1:]):
        if before.type in ("FROM", "INTO", "UPDATE") and token.type in NAME_TERMINALS:
            return _unquote(str(token))
    return None


def _keywords(accepted: set, previous: str, typed: str) -> list:
    """The words of the accepted terminals, in the typed word's case (lower if typed lower)."""
    words = []
    for terminal in sorted(accepted):
        if terminal in TERMINAL_WORDS:
            words += TERMINAL_WORDS[terminal]
        elif terminal in keywords() and terminal not in REFUSED:
            if ONLY_AFTER.get(terminal, previous) == previous:
                words.append(terminal)
    return _matching(words, typed, "keyword", str.lower if typed.islower() else str)


def _index(current: str, tokens: list, catalog) -> list | None:
    """Index names after ``FROM "Table".`` (None when the cursor is elsewhere)."""
    match = _INDEX.search(current)
    if not match or not tokens or tokens[-1].type != "FROM":
        return None
    table = _unquote(match.group(1))
    if table not in catalog.tables():
        return None
    return _matching(catalog.indexes(table), match.group(2), "index", quote)


def _wants_table(tokens: list) -> bool:
    """Right after FROM, INTO, UPDATE, DESCRIBE or TABLE (but not CREATE TABLE: a new name)."""
    previous = tokens[-1].type if tokens else ""
    return previous in TABLE_CONTEXT and not (previous == "TABLE" and tokens[-2].type == "CREATE")


def _names(tokens: list, typed: str, catalog) -> list:
    """Attributes of the statement's table (key attributes first, tagged with their role; the map's keys
    after ``Ship.``), and the functions the clause being typed takes."""
    if tokens and tokens[-1].type in NAME_TERMINALS:  # a name right after a name would be an alias
        return []
    table = _statement_table(tokens)
    if table not in catalog.tables():
        table = None
    path = _path_before(tokens)
    if path is not None:
        members = catalog.attributes(table, path) if table else []
        return _matching(members, typed, "map key", quote)
    attributes = catalog.attributes(table) if table else []
    roles = catalog.key_roles(table) if table else {}
    keyed = [name for name in attributes if name in roles] + [name for name in attributes if name not in roles]
    prefix = _unquote(typed).lower()
    names = [Suggestion(quote(name), len(typed), roles.get(name, "attribute"))
             for name in keyed if name.lower().startswith(prefix)]
    if not typed.startswith('"'):
        names += _matching(_functions(tokens), typed, "function", lambda f: f + "(")
    return names


def _path_before(tokens: list) -> tuple | None:
    """The map path a ``.`` just typed follows (``Ship.`` -> ("Ship",), ``a.b.`` -> ("a", "b")), or None."""
    if not tokens or tokens[-1].type != "DOT":
        return None
    path = []
    position = len(tokens) - 1
    while position >= 1 and tokens[position].type == "DOT" and tokens[position - 1].type in NAME_TERMINALS:
        path.append(_unquote(str(tokens[position - 1])))
        position -= 2
    return tuple(reversed(path)) if path else None


def _functions(tokens: list) -> tuple:
    """The functions the clause being typed takes: conditions in WHERE, updates on SET's right side."""
    clause = next((t.type for t in reversed(tokens) if t.type in CLAUSES), None)
    if clause == "SET" and not (tokens and tokens[-1].type in VALUE_STARTS):
        return ()  # the left-hand side of SET is a path
    return CLAUSE_FUNCTIONS.get(clause, ())


def _typed(current: str) -> str | None:
    """The word being typed at the end of ``current`` ('' between words; None inside a string)."""
    fed = feed(current)
    rest = current[fed.stop:]
    if rest and fed.bad is None:  # the lexer stopped: an unterminated quote being typed
        return rest if rest.startswith('"') else None
    last = fed.tokens[-1] if fed.tokens else None
    if fed.bad is None and last and last.end_pos == len(current):
        return str(last) if last.type in NAME_TERMINALS | keywords() else ""
    return rest if _IDENT.match(rest) else ""


def _statement(current: str, catalog) -> list:
    typed = _typed(current)
    if typed is None:
        return []
    fed = feed(current[:len(current) - len(typed)])
    if fed.bad is not None or fed.stop < len(current) - len(typed):
        return []
    index = _index(current, fed.tokens[:-2], catalog)
    if index is not None:
        return index
    accepted = fed.accepts()
    wants_name = bool(accepted & NAME_TERMINALS)
    if wants_name and _wants_table(fed.tokens):
        return _matching(catalog.tables(), typed, "table", quote)
    names = _names(fed.tokens, typed, catalog) if wants_name else []
    return names + _keywords(accepted, fed.tokens[-1].type if fed.tokens else "", typed)


def suggest(text: str, catalog) -> list:
    """Completions for the text before the cursor, best first."""
    if commands.is_command(text) and "\n" not in text.strip():
        return _command(text, catalog)
    return _statement(_current(text), catalog)
