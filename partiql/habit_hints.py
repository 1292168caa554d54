"""Hints for what a SQL user writes out of habit, and for table definitions (issue 38 point 3).

Detectors in the shape of ``partiql.hints``' (``detector(seen, error) -> [hint]``), registered in its
``ERROR_HINTS``: a join, ``VALUES (…)``, a column list with SQL types, a reserved word as a table name, an
aggregate, ORDER BY a non-key (the index that sorts by it), an attribute a table declares but no key uses, a
provisioned table's GSI without throughput of its own (the clause that gives it the table's), and a string
left open across a line end or to the end.
"""

from __future__ import annotations

import re

from .ast_walk import table_of
from .keywords import RESERVED
from .nearest import nearest_name
from .splitter import QUOTED, string_spans

_AGGREGATE = re.compile(r"\b(count|sum|avg|min|max)\s*\(", re.IGNORECASE)


SQL_HABITS = (
    (re.compile(r"\bJOIN\b", re.I), "no joins: keep related items under one partition key (one Query reads "
                                     "them), or query each table"),
    (re.compile(r"\bINSERT\s+INTO\s+\S+\s+VALUES\s*\(", re.I),
     "INSERT takes one item as a tuple: INSERT INTO T VALUE {'pk': 'a', 'n': 1}"),
    (re.compile(r"\bCREATE\s+TABLE\s+\S+\s*\([^)]*\b(VARCHAR|CHAR|INT|INTEGER|TEXT|PRIMARY\s+KEY)\b", re.I),
     "a table declares its key attributes only, typed STRING, NUMBER or BINARY: CREATE TABLE T PRIMARY KEY "
     "(pk STRING HASH, sk NUMBER RANGE)"),
)
_FROM_RESERVED = re.compile(r"\b(?:FROM|INTO|UPDATE)\s+([A-Za-z_]\w*)", re.I)


def sql_habit(seen, error) -> list:
    """What a SQL user writes out of habit (a join, VALUES (…), a column list), and a reserved word used as a
    table name (quoted, it is a name; the nearest table too)."""
    text = QUOTED.sub(lambda q: " " * len(q.group()), seen.statement)
    found = [hint for pattern, hint in SQL_HABITS if pattern.search(text)]
    for word in _FROM_RESERVED.findall(text):
        if word.lower() in RESERVED:
            nearest = nearest_name(word, sorted(seen.tables))
            found.append(f'{word} is a reserved word: quote it as a name, "{word}"'
                         + (f" (or did you mean {nearest}?)" if nearest and nearest != word else ""))
    return found


_ORDER_BY = re.compile(r"Variable reference (\S+) in ORDER BY clause must be part of the primary key")


def order_by_index(seen, error) -> list:
    """ORDER BY a non-key attribute: the index whose sort key it is, or the LSI that would be one."""
    found = _ORDER_BY.search(error.message)
    table = seen.tables.get(table_of(seen.parsed) or "") if found else None
    if table is None:
        return []
    name = found.group(1).strip('"')
    sorting = [index for index in table.spec.indexes if index.key.range_name == name]
    if sorting:
        return [f'{table.name}.{index.name} sorts by {name}: SELECT … FROM "{table.name}"."{index.name}" … ORDER BY '
                f"{name}" for index in sorting]
    return [f"no index of {table.name} sorts by {name}: an LSI keyed on ({table.spec.key.hash_name}, {name}) would "
            "(LSIs are made with the table), or a GSI"]


def undeclared_attribute(seen, error) -> list:
    """A column list naming attributes no key uses: DynamoDB declares key attributes only."""
    from .shell_ast import CreateTable

    stmt = seen.parsed
    if not isinstance(stmt, CreateTable):
        return []
    keyed = {element.name for element in stmt.key} | {element.name for index in stmt.indexes
                                                       for element in index.key}
    extra = [attribute.name for attribute in stmt.attributes if attribute.name not in keyed]
    if not extra:
        return []
    return [f"only key attributes are declared: {', '.join(extra)} {'is' if len(extra) == 1 else 'are'} no key of "
            f"{stmt.name} or its indexes (an item holds any attribute without one): leave "
            f"{'it' if len(extra) == 1 else 'them'} out"]


def aggregate(seen, error) -> list:
    """``COUNT(*)`` and friends: the dialect has none."""
    found = _AGGREGATE.search(QUOTED.sub("''", seen.statement))
    if found is None:
        return []
    return [f"DynamoDB's PartiQL has no aggregates ({found.group(1).upper()}(…)): the status line, or "
            "Result.count, counts the items"]


_NEEDS_THROUGHPUT = re.compile(r"ProvisionedThroughput must be specified for index: (.+)$")


def index_throughput(seen, error) -> list:
    """A GSI of a provisioned table without throughput of its own: the clause that gives it the table's."""
    from .schema import index_clause

    found, request = _NEEDS_THROUGHPUT.search(error.message), getattr(seen.template, "request", None)
    if found is None or request is None:
        return []
    updates = request.get("GlobalSecondaryIndexUpdates", [])
    made = request.get("GlobalSecondaryIndexes") or [update["Create"] for update in updates if "Create" in update]
    index = next((index for index in made if index["IndexName"] == found.group(1)), None)
    units = request.get("ProvisionedThroughput") or _table_units(seen.tables.get(request["TableName"]))
    if index is None or units is None:
        return []
    types = {d["AttributeName"]: d["AttributeType"] for d in request.get("AttributeDefinitions", [])}
    clause = index_clause("GSI", dict(index, ProvisionedThroughput=units), types, provisioned=True)
    if "GlobalSecondaryIndexes" in request:
        return [f"a provisioned table's GSI has throughput of its own: {clause} gives it the table's, or make the "
                "table BILLING MODE ON DEMAND"]
    return [f"a provisioned table's GSI has throughput of its own: ALTER TABLE {request['TableName']} CREATE {clause} "
            "gives it the table's"]


def _table_units(table) -> dict | None:
    throughput = None if table is None else table.spec.throughput
    return None if throughput is None else {"ReadCapacityUnits": throughput.read,
                                            "WriteCapacityUnits": throughput.write}


def open_string(seen, error) -> list:
    """A syntax error after a string that runs across a line end, or never ends: a closing quote left out."""
    for start, end, closed in string_spans(seen.statement):
        text = seen.statement[start:end]
        if closed and "\n" not in text:
            continue
        line = seen.statement.count("\n", 0, start) + 1
        column = start - (seen.statement.rfind("\n", 0, start) + 1) + 1
        shown = text.split("\n")[0][:20]
        how = "runs on across a line end" if closed else "is never closed"
        return [f"the string opened at {line}:{column} ({shown}…) {how}: a closing ' left out? (a ' inside a "
                "string is doubled: 'it''s')"]
    return []
