"""Reads DynamoDB's PartiQL refuses and its API serves: EXPLAIN shows the Query that would make them.

A SELECT of a multi-attribute GSI is refused (multi-attribute-keys.md §10), yet it is an ordinary read
through the API: ``EXPLAIN`` says why it is refused and lowers the statement to that Query instead — the
WHERE's clauses on the index's key attributes as the key condition (``=``, ``<``, ``<=``, ``>``, ``>=``,
``BETWEEN``, ``begins_with``), the rest as its filter, ``ORDER BY … DESC`` as ``ScanIndexForward: false``.
Running the Query tells whether the key condition follows the index's rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from partiql.engine.expressions import model as m

from . import ast
from . import plan as p
from .conditions import bind, condition, path
from .result import PlanSummary

_KEY_COMPARISONS = frozenset(("=", "<", "<=", ">", ">="))


@dataclass
class RefusedSelect:
    """A SELECT of a multi-attribute GSI, kept for EXPLAIN (running it is refused)."""

    table: str
    index: object  # IndexSpec
    where: object  # the WHERE as a model condition, with parameters unbound
    projection: tuple | None
    forward: bool
    reason: str


def multi_attribute_source(stmt, catalog) -> tuple | None:
    """(table, index) when ``stmt`` is a SELECT of a multi-attribute GSI, else None (a source that is not a
    table's name — a ``?`` has an ``index`` too, its position — is left to the statement's own checks)."""
    if not isinstance(stmt, ast.Select) or not stmt.sources:
        return None
    ref = stmt.sources[0].target
    table = catalog.get(ref.table) if isinstance(ref, ast.TableRef) and ref.index is not None else None
    index = table.spec.index(ref.index) if table is not None else None
    return (table, index) if index is not None and index.key.multi else None


def refused_select(stmt, catalog, reason: str) -> RefusedSelect | None:
    """The RefusedSelect of ``stmt`` when it reads a multi-attribute GSI, else None."""
    source = multi_attribute_source(stmt, catalog)
    if source is None:
        return None
    table, index = source
    star = any(isinstance(item, ast.ProjectStar) for item in stmt.projection.items)
    projection = None if star else tuple(path(item.expr) for item in stmt.projection.items)
    descending = any((item.direction or "").upper() == "DESC" for item in stmt.order_by)
    where = condition(stmt.where) if stmt.where is not None else None
    return RefusedSelect(table.name, index, where, projection, not descending, reason)


def explain(template: RefusedSelect, params) -> PlanSummary:
    """The plan of the Query that serves the refused read through the API."""
    where = None if template.where is None else bind(template.where, params)
    keys, rest = [], []
    for atom in m.conjuncts(where):
        (keys if _on_key(atom, template.index.key.names) else rest).append(atom)
    query = p.IndexQuery(template.table, template.index.name, _all(keys), _all(rest), template.projection,
                         template.forward)
    return PlanSummary("Query", template.table, template.index.name, ops=(query,), refused=template.reason)


def _on_key(atom, names) -> bool:
    """Whether ``atom`` is a key-condition clause over one of the index's key attributes."""
    if isinstance(atom, m.Comparison) and atom.op in _KEY_COMPARISONS:
        sides = (atom.left, atom.right)
        return any(isinstance(side, m.Path) and side.is_top_level and side.name in names for side in sides) \
            and any(isinstance(side, m.Value) for side in sides)
    if isinstance(atom, m.Between):
        return isinstance(atom.subject, m.Path) and atom.subject.is_top_level and atom.subject.name in names
    return (isinstance(atom, m.Call) and atom.name == "begins_with" and isinstance(atom.args[0], m.Path)
            and atom.args[0].is_top_level and atom.args[0].name in names)


def _all(atoms: list):
    return None if not atoms else atoms[0] if len(atoms) == 1 else m.And(tuple(atoms))
