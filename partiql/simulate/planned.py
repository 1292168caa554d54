"""Every pattern planned against its design before the clock starts (EXPLAIN is local and free).

A statement that cannot run — an unknown table or index, a syntax error, a
``?`` without a generator or a generator without a ``?`` — stops the run
before it starts, with DynamoDB's message and the hints: thousands of
failing requests would teach nothing. What depends on the values drawn (a
number out of range, a key of the wrong type) is DynamoDB's answer to those
requests, counted as failures as the run goes. A pattern that lowers to a full Scan
is named as one, with the index that would make it a Query (or the key
that would), in the terminal, JSON and HTML reports; ``scan = true`` on the
pattern, or ``--allow-scan``, says it is meant (the command's exit status
is 1 when one is not).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

from partiql import ast, ast_walk, hints
from partiql.nearest import nearest_name
from partiql.parser import parse
from partiql.engine.errors import DynamoDBError

from . import expected
from .errors import WorkloadError


@dataclass
class Planned:
    """How a pattern's statement is served: its access path, and whether it is a full Scan (``meant``: said
    so by ``scan = true`` or ``--allow-scan``) with the advice that would avoid it."""

    access: str
    table: str | None = None  # the table it reads or writes (None: not planned)
    scan: bool = False
    meant: bool = False
    advice: list = field(default_factory=list)
    expected: str | None = None  # what its ``expect`` checked, when it has one

    def as_data(self) -> dict:
        return {"access": self.access, "table": self.table, "full_scan": self.scan, "scan_meant": self.meant,
                "advice": self.advice, "expected": self.expected}


def plan_patterns(db, workload, allow_scan: bool = False) -> list:
    """A ``Planned`` per pattern of ``workload``, in order, against ``db`` (built, seeded, clock not started);
    WorkloadError for the first statement that cannot run. Parameters are drawn from copies of the
    generators (a sequence's next value stays the run's)."""
    out = []
    for n, pattern in enumerate(workload.patterns):
        params = [generator.draw(random.Random(f"plan/{n}"), 0.0) for generator in copy.deepcopy(pattern.params)]
        if pattern.request is not None:
            out.append(_request(db, pattern, params, workload.source, allow_scan))
            continue
        try:  # (the statement itself: its syntax, its tables and indexes, its ? against the values)
            hints.advised(db, pattern.statement, params, lambda: db.runner.template(pattern.statement, params,
                                                                                    shell=True), results=False)
        except DynamoDBError as error:
            said = "".join(f"\n  hint: {hint}" for hint in getattr(error, "hints", []))
            raise WorkloadError(f"{workload.source}: pattern {pattern.name} cannot run ({pattern.statement}): "
                                f"{error.message}{said}") from None
        try:
            summary = db.explain(pattern.statement, params)
        except DynamoDBError as error:  # (this draw's values: others may pass; the run counts what fails)
            out.append(Planned(f"not planned with a drawn value: {error.message}"))
            if pattern.expect is not None:
                out[-1].expected = expected.check(db, pattern.name, pattern.statement, params, pattern.expect,
                                                  workload.source)
            continue
        stmt = parse(pattern.statement)
        marks = len(ast_walk.parameters(stmt))
        if marks != len(params):  # (DynamoDB takes extra values silently: in a workload they are a mistake)
            raise WorkloadError(f"{workload.source}: pattern {pattern.name} has {len(params)} generator"
                                f"{'' if len(params) == 1 else 's'} in params for {marks} ? in its statement")
        found = Planned(summary.access_path, summary.table)
        if summary.full_table_scan:
            found.scan, found.meant = True, pattern.scan or allow_scan
            found.advice = hints.for_plan(db, pattern.statement, params, summary) or [_key_advice(summary, stmt)]
        if pattern.expect is not None:
            found.expected = expected.check(db, pattern.name, pattern.statement, params, pattern.expect,
                                            workload.source)
        out.append(found)
    return out


def _request(db, pattern, params: list, source: str, allow_scan: bool) -> Planned:
    """An item-API pattern planned: its table and index exist, its ``?`` and generators match; a Scan is
    named as one."""
    request = pattern.request
    said = f"{source}: pattern {pattern.name} cannot run ({request.operation})"
    if request.marks != len(params):
        raise WorkloadError(f"{source}: pattern {pattern.name} has {len(params)} generator"
                            f"{'' if len(params) == 1 else 's'} in params for {request.marks} ? in its request")
    tables = db.table_names()
    table = request.table
    if table is not None and table not in tables:
        near = nearest_name(table, tables)
        raise WorkloadError(f"{said}: no table {table}" + (f" (did you mean {near}?)" if near else ""))
    index = request.body.get("IndexName")
    if table is not None and isinstance(index, str):  # (one of another type: DynamoDB's answer, counted)
        spec = db.engine.table(table).spec
        names = [i.name for i in (spec.vectors if request.operation == "SearchVectors" else spec.indexes)]
        if index not in names:
            near = nearest_name(index, names)
            raise WorkloadError(f"{said}: {table} has no index {index}" + (f" (did you mean {near}?)" if near else ""))
    where = (table or "its tables") + (f".{index}" if index else "")
    found = Planned(f"{request.operation} on {where}", table)
    if request.operation == "Scan":
        found.scan, found.meant = True, pattern.scan or allow_scan
        found.advice = ["a Scan reads every item of " + where + ": a Query on a key (or an index's) serves one "
                        "partition-key value"]
    return found


def _key_advice(summary, stmt) -> str:
    """What would make a Scan a Query when no index of the table would: a GSI keyed on an attribute the
    WHERE compares with =, or a key that the WHERE can pin."""
    where = getattr(stmt, "where", None)
    pinned = [] if where is None else list(dict.fromkeys(
        side.root.name for node in ast_walk.walk(where) if isinstance(node, ast.Comparison) and node.op == "="
        for side in (node.left, node.right) if isinstance(side, ast.Path)))
    if pinned:
        return (f"no key of {summary.table} or its indexes is pinned by the WHERE: a GSI keyed on {pinned[0]} would "
                f"make it a Query (ALTER TABLE {summary.table} CREATE GSI (by{pinned[0]} ON ({pinned[0]} STRING HASH) "
                "PROJECTING ALL), with its type)")
    return ("the WHERE compares no attribute with =, so no key can serve it: a Query needs a partition key "
            "pinned with = (a key design that groups these items under one value, or a GSI of such a key)")
