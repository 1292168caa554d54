"""Hints for the classic DynamoDB-PartiQL mistakes: advice beside DynamoDB's answer, never instead of it.

``for_result`` adds hints to a Result's ``warnings``; ``for_error`` attaches
them to an error as ``error.hints``. DynamoDB's items, message, error type
and capacity stay exactly as they are (the library's ``Connection`` calls
these; the wire and the boto3-shaped client never do). The mistakes:

- a double-quoted word that names no attribute (``UserId = "u102"``: a
  quoted name is an attribute path, strings take single quotes);
- a near-miss of the partition key's name or case that made a Query a full
  Scan (``userid = 'u1'``: did you mean UserId?);
- a Scan of a table whose WHERE pins an index's partition key (reading the
  index would be a Query), in results, EXPLAIN and refused Scans alike;
- a table that does not exist (DynamoDB's message names none: the hint names
  it, and the nearest existing one), or an index that does not;
- a misspelt keyword at a syntax error (``FORM``: did you mean FROM?);
- ``begins_with`` over a key of concatenated values (``TENANT#a#REGION#b``) that a
  GSI keyed on several attributes would replace;
- what a SQL user writes out of habit, and table definitions (``habit_hints``:
  joins, ``VALUES (…)``, aggregates, ORDER BY a non-key, a GSI without its
  throughput, a string left open).

The common path costs a comparison or two: only full Scans, empty results
of statements holding a double quote, and errors look further.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from partiql.engine.errors import DynamoDBError, ResourceNotFoundException, ValidationException

from . import ast, ast_walk
from .ast_walk import index_of, table_of
from .access import analyse
from .errors import SYNTAX_PREFIX, ScanRefused
from .keywords import GRAMMAR_WORDS, RESERVED
from .habit_hints import (aggregate, index_throughput, open_string, order_by_index, sql_habit,
                          undeclared_attribute)
from .nearest import CLOSE, close, nearest_name
from .splitter import QUOTED

# The words a statement is built of, the shell's too: what a misspelling is compared with.
KEYWORDS = sorted(w.upper() for w in GRAMMAR_WORDS | {"table", "tables", "show", "explain", "index", "gsi",
                                                       "lsi", "hash", "range", "begin", "commit", "rollback"})
_WORD = re.compile(r"[A-Za-z_]\w*")
NO_INDEX = "The table does not have the specified index"


class Seen:
    """One statement as the hints look at it: its text, parameters and (when asked) parse and template."""

    def __init__(self, connection, statement: str, params):
        self.connection = connection
        self.statement = statement
        self.params = params
        # (on an endpoint: the catalog's tables, read by DescribeTable, and their names by ListTables)
        self.tables = _RemoteTables(connection) if connection.remote else connection.engine.tables

    @functools.cached_property
    def parsed(self):
        """The syntax tree (an EXPLAIN's inner statement), or None when it does not parse."""
        from .parser import parse
        from .shell_ast import Explain

        try:
            stmt = parse(self.statement)
        except DynamoDBError:
            return None
        return stmt.statement if isinstance(stmt, Explain) else stmt

    @functools.cached_property
    def template(self):
        """The plan template (an EXPLAIN's inner one), or None when the statement cannot be planned."""
        from .planner import ExplainTemplate

        try:
            found = self.connection.runner.template(self.statement, self.params, shell=True)
        except DynamoDBError:
            return None
        return found.statement if isinstance(found, ExplainTemplate) else found


# ------------------------------------------------------------------ entry points

def advised(connection, statement: str, params, run, *, results: bool = True):
    """``run()``'s answer with the hints it calls for: a DynamoDBError it raises carries them as
    ``error.hints`` (its type and message stay DynamoDB's); with ``results``, a Result's are added to its
    warnings. Every connection, local or remote, runs and explains statements through this."""
    try:
        answer = run()
    except DynamoDBError as error:
        for_error(connection, statement, params, error)
        raise
    if results:
        for_result(connection, statement, params, answer)
    return answer


def for_result(connection, statement: str, params, result) -> None:
    """Add the hints a successful result calls for to ``result.warnings``."""
    found = for_plan(connection, statement, params, result.plan, result.count == 0)
    result.warnings.extend(hint for hint in found if hint not in result.warnings)


def for_plan(connection, statement: str, params, plan, empty: bool = True) -> list:
    """The hints a statement planned as ``plan`` calls for (``empty``: it found nothing, or has not run);
    the shell shows them before it asks whether to run a full Scan."""
    prefixed = plan is not None and plan.table is not None and "begins_with" in statement.lower()
    if plan is None or not (plan.full_table_scan or prefixed or (empty and '"' in statement)):
        return []
    seen = Seen(connection, statement, params)
    found = near_key(seen) + index_would_query(seen) if plan.full_table_scan else []
    found += double_quoted(seen) + (concatenated_key(seen, plan.table) if prefixed else [])
    return list(dict.fromkeys(found))


def for_error(connection, statement: str, params, error: DynamoDBError) -> None:
    """Attach the hints ``error`` calls for as ``error.hints`` (its type and message stay DynamoDB's)."""
    seen = Seen(connection, statement, params)
    found = []
    for matches, detector in ERROR_HINTS:
        if matches(error):
            found += detector(seen, error)
    error.hints = list(dict.fromkeys(found))


# ------------------------------------------------------------------ the detectors

def near_key(seen: Seen, error=None) -> list:
    """``userid = 'u1'`` made a Scan where ``UserId = 'u1'`` would be a Query: name the key."""
    template = seen.template
    if getattr(template, "where", None) is None or getattr(template, "analysis", None) is None:
        return []
    key, index = template.key, template.index
    out = []
    for name in _where_names(seen.parsed):
        if name in key.names or not close(name, key.hash_name):
            continue
        if not analyse(template.where, replace(key, hash_name=name)).scan:
            whose = "the partition key" if index is None else f"the partition key of {index.name}"
            case = " (names are case-sensitive)" if name.lower() == key.hash_name.lower() else ""
            out.append(f"{name} is not a key attribute: did you mean {key.hash_name}, {whose}? With it this "
                       f"would be a Query, not a Scan{case}")
    return out


_BEGINS_WITH = re.compile(r'begins_with\s*\(\s*"?([A-Za-z_][\w-]*)', re.IGNORECASE)


def concatenated_key(seen: Seen, table_name: str) -> list:
    """``begins_with(sk, 'TENANT#acme#')`` over a key of concatenated values: a multi-attribute GSI would
    pin those parts as attributes (``composite_keys``)."""
    from .composite_keys import remembered_keys
    named = set(_BEGINS_WITH.findall(seen.statement))
    table = seen.tables.get(table_name)
    if table is None or not named & set(table.spec.key.names).union(*(i.key.names for i in table.spec.indexes)):
        return []
    if seen.connection.remote:  # (its items are not read here: a sample would cost)
        return []
    return [found.advice() for found in remembered_keys(seen.connection.engine, table) if found.attribute in named]


def index_would_query(seen: Seen, error=None) -> list:
    """A Scan of a table whose WHERE pins an index's partition key: reading the index is a Query."""
    template = seen.template
    if getattr(template, "analysis", None) is None or template.index is not None or template.where is None:
        return []
    table = seen.tables.get(template.table)
    out = []
    for candidate in table.spec.indexes if table is not None else ():
        try:
            if analyse(template.where, candidate.key).scan:
                continue
        except DynamoDBError:  # too many decomposed reads for this index too
            continue
        projected = "" if candidate.projection.type == "ALL" else (
            f" (it projects {candidate.projection.type.replace('_', ' ')}: select what it holds)")
        out.append(f"{table.name}.{candidate.name} is keyed on {candidate.key.hash_name}: FROM "
                   f"\"{table.name}\".\"{candidate.name}\" would be a Query{projected}")
    return out


def double_quoted(seen: Seen, error=None) -> list:
    """``UserId = "u102"``: a double-quoted word that is no attribute was meant as a string."""
    if '"' not in seen.statement:
        return []
    stmt = seen.parsed
    table = seen.tables.get(table_of(stmt) or "")
    if table is None:
        return []
    known = _known_attributes(seen.connection, table)
    out = []
    for node in _operands(stmt):
        if (isinstance(node, ast.Path) and len(node.steps) == 1 and node.root.name not in known
                and seen.statement[node.span.start:node.span.start + 1] == '"'):
            name = node.root.name
            out.append(f'"{name}" is an attribute name; strings take single quotes: '
                       f"'{name.replace(chr(39), chr(39) * 2)}'")
    return out


def missing_table(seen: Seen, error) -> list:
    """No such table: name it, and the nearest existing one (DynamoDB's message names neither)."""
    name = table_of(seen.parsed)
    if name is None or name in seen.tables:
        return []
    names = sorted(seen.tables)
    nearest = nearest_name(name, names)
    if nearest is not None:
        return [f"there is no table {name}: did you mean {nearest}?"]
    if not names:
        return [f"there is no table {name}: the database has no tables yet"]
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return [f"there is no table {name}; the tables are {shown}"]


def missing_index(seen: Seen, error) -> list:
    """No such index: the nearest of the table's indexes, or all of them."""
    stmt = seen.parsed
    table = seen.tables.get(table_of(stmt) or "")
    index = index_of(stmt)
    if table is None or index is None:
        return []
    names = [i.name for i in table.spec.indexes]
    if not names:
        return [f"{table.name} has no indexes"]
    nearest = nearest_name(index, names)
    if nearest is not None:
        return [f"{table.name} has no index {index}: did you mean {nearest}?"]
    return [f"{table.name} has no index {index}; its indexes are {', '.join(names)}"]


def misspelt_keyword(seen: Seen, error) -> list:
    """The word at a syntax error, or the one before it, close to a keyword (``FORM``: FROM)."""
    import difflib

    text = seen.statement
    offset = _offset(text, error.line, error.column) if error.line is not None else len(text)
    words = [m for m in _WORD.finditer(QUOTED.sub(lambda q: " " * len(q.group()), text))
             if m.start() <= offset][-2:]
    names = set(seen.tables)  # a table's or attribute's name is no misspelt keyword
    for table in seen.tables.values():
        names |= set(table.spec.key.names).union(*(index.key.names for index in table.spec.indexes))
    for word in reversed(words):
        spelled = word.group()
        if spelled.lower() in RESERVED or spelled in names:
            continue
        nearest = difflib.get_close_matches(spelled.upper(), KEYWORDS, n=1, cutoff=CLOSE)
        if nearest:
            return [f"did you mean {nearest[0]}? ({spelled} is not a keyword)"]
    return []


# SQL habits a syntax error comes from, as data: (what the statement holds, the hint)
def _is_syntax(error) -> bool:
    return error.message.startswith(SYNTAX_PREFIX) and hasattr(error, "line")


# (which errors, detector) in the order their hints are shown
ERROR_HINTS = (
    (lambda e: isinstance(e, ResourceNotFoundException), missing_table),
    (lambda e: e.message.startswith(NO_INDEX), missing_index),
    (_is_syntax, misspelt_keyword),
    (_is_syntax, sql_habit),
    (_is_syntax, open_string),
    (lambda e: "ProvisionedThroughput must be specified for index" in e.message, index_throughput),
    (lambda e: e.message.startswith("Variable reference"), order_by_index),
    (lambda e: "does not exactly match number of attributes defined in AttributeDefinitions" in e.message,
     undeclared_attribute),
    (lambda e: isinstance(e, ValidationException), aggregate),
    (lambda e: isinstance(e, ValidationException), double_quoted),
    (lambda e: isinstance(e, ScanRefused), near_key),
    (lambda e: isinstance(e, ScanRefused), index_would_query),
)


# ------------------------------------------------------------------ helpers

class _RemoteTables:
    """An endpoint's tables as the detectors read a local engine's: by name (DescribeTable, the planner's
    cached catalog), and every name (ListTables, read once per statement that needs it)."""

    def __init__(self, connection):
        self.connection = connection

    def get(self, name: str, default=None):
        return self.connection.catalog.get(name, default)

    def __contains__(self, name) -> bool:
        return self.get(name) is not None

    @functools.cached_property
    def _names(self) -> list:
        return self.connection.table_names()

    def __iter__(self):
        return iter(self._names)

    def values(self):
        return [found for found in (self.get(name) for name in self._names) if found is not None]


def _where_names(stmt) -> list:
    """Top-level attribute names the statement's WHERE reads, in order, once each."""
    where = getattr(stmt, "where", None)
    if where is None:
        return []
    return list(dict.fromkeys(node.root.name for node in ast_walk.walk(where) if isinstance(node, ast.Path)))


def _operands(stmt):
    """The expressions a mistaken string could be among: the WHERE, SET values and an INSERT's item."""
    roots = [getattr(stmt, "where", None)]
    roots += [action.value for action in getattr(stmt, "actions", ()) if isinstance(action, ast.SetAction)]
    if isinstance(stmt, ast.Insert):
        roots.append(stmt.value)
    for root in roots:
        if root is not None:
            yield from ast_walk.walk(root)


def _known_attributes(connection, table) -> set:
    """Key, index key and projected names, and the names seen in a sample of items."""
    known = set(table.spec.key.names)
    for index in table.spec.indexes:
        known |= set(index.key.names) | set(index.projection.non_key_attributes or ())
    return known | set(connection.attribute_names(table.name))


def _offset(text: str, line: int, column: int) -> int:
    """The character offset of 1-based (line, column) in ``text``."""
    lines = text.split("\n")
    return sum(len(each) + 1 for each in lines[:line - 1]) + column - 1
