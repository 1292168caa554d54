"""The PartiQL syntax tree: one frozen node class per grammar construct.

Every node carries a ``span`` (where its text is in the statement) so that any
later stage can report DynamoDB's ``at L:C:N`` suffixes. Nodes are immutable
and hashable, so parse results can be cached and shared.

The tree is deliberately wider than what DynamoDB executes: constructs the
service parses and then refuses (aliases, LIMIT, SELECT VALUE, functions in
the projection, ...) have nodes too, so ``partiql.checks`` can refuse them
with the service's words.
"""

from __future__ import annotations

from typing import Optional, Union

from partiql.engine.nodes import node


@node
class Span:
    """A stretch of statement text: 1-based line/column, length and offsets, in characters."""

    line: int
    column: int
    length: int
    start: int
    end: int

    def to(self, end: int) -> "Span":
        """The span from the start of ``self`` to the offset ``end``."""
        return Span(self.line, self.column, end - self.start, self.start, end)


class Node:
    """Base of every syntax-tree node."""

    __slots__ = ()


class Expr(Node):
    """Base of expressions (operands, predicates, literals)."""

    __slots__ = ()


class Statement(Node):
    """Base of statements."""

    __slots__ = ()


# ---------------------------------------------------------------- paths

@node
class Attr(Node):
    """A named path component: the root identifier, `.name` or `['name']`."""

    name: str
    span: Span


@node
class Index(Node):
    """A list subscript `[n]`; ``text`` is the literal as written (with its sign),
    ``value`` its integer value (None when not an integer). The span is the
    number's (the sign excluded), as DynamoDB points at it."""

    value: Optional[int]
    text: str
    span: Span


@node
class Wildcard(Node):
    """`.*` (kind ``".*"``) or `[*]` (kind ``"[*]"``)."""

    kind: str
    span: Span


Step = Union[Attr, Index, Wildcard]


@node
class Path(Expr):
    """A document path; ``steps[0]`` is the root attribute."""

    steps: tuple[Step, ...]
    span: Span

    @property
    def root(self) -> Attr:
        return self.steps[0]


# ---------------------------------------------------------------- literals and values

@node
class StringLit(Expr):
    value: str
    span: Span


@node
class NumberLit(Expr):
    """A number literal; ``text`` is as written, unary signs folded in (`- -1` is `1`)."""

    text: str
    span: Span


@node
class BoolLit(Expr):
    value: bool
    span: Span


@node
class NullLit(Expr):
    span: Span


@node
class MissingLit(Expr):
    span: Span


@node
class IonLit(Expr):
    """A backtick Ion literal (always refused); ``text`` is between the backticks."""

    text: str
    span: Span


@node
class ListLit(Expr):
    items: tuple[Expr, ...]
    span: Span


@node
class Pair(Node):
    """One `key: value` of a tuple literal."""

    key: Expr
    value: Expr
    span: Span


@node
class TupleLit(Expr):
    pairs: tuple[Pair, ...]
    span: Span


@node
class BagLit(Expr):
    items: tuple[Expr, ...]
    span: Span


@node
class Parameter(Expr):
    """A `?`; ``index`` is its 0-based position among the statement's `?` in source order."""

    index: int
    span: Span


@node
class Star(Node):
    """A `*` argument or target (`COUNT(*)`, `RETURNING ALL OLD *`)."""

    span: Span


# ---------------------------------------------------------------- operators and calls

@node
class Call(Expr):
    """A function call; ``name`` as written, ``name_span`` where it is."""

    name: str
    args: tuple[Union[Expr, Star], ...]
    span: Span
    name_span: Span


@node
class Unary(Expr):
    """A sign applied to something other than a number literal (`-n`, `-?`)."""

    op: str
    operand: Expr
    span: Span


@node
class Binary(Expr):
    """Arithmetic or concatenation: ``op`` in `+ - * / % ||`."""

    op: str
    left: Expr
    right: Expr
    span: Span
    op_span: Span


@node
class Comparison(Expr):
    """``op`` in `= <> < <= > >=` (`!=` is read as `<>`)."""

    op: str
    left: Expr
    right: Expr
    span: Span
    op_span: Span


@node
class Between(Expr):
    operand: Expr
    low: Expr
    high: Expr
    negated: bool
    span: Span


@node
class In(Expr):
    """`x [NOT] IN [a, b]` or `x [NOT] IN (a, b)`."""

    operand: Expr
    items: tuple[Expr, ...]
    negated: bool
    span: Span


@node
class Like(Expr):
    operand: Expr
    pattern: Expr
    escape: Optional[Expr]
    negated: bool
    span: Span


@node
class Is(Expr):
    """`x IS [NOT] T`; ``type_name`` upper-cased (`MISSING`, `NULL`, `BOOLEAN`, ...)."""

    operand: Expr
    type_name: str
    negated: bool
    span: Span
    type_span: Span


@node
class And(Expr):
    left: Expr
    right: Expr
    span: Span


@node
class Or(Expr):
    left: Expr
    right: Expr
    span: Span


@node
class Not(Expr):
    operand: Expr
    span: Span


# ---------------------------------------------------------------- SELECT

@node
class Alias(Node):
    """`AS name`, `name`, `AT name` or `BY name` (all refused)."""

    name: str
    span: Span


@node
class ProjectStar(Node):
    span: Span


@node
class ProjectItem(Node):
    expr: Expr
    alias: Optional[Alias]
    span: Span


@node
class ProjectList(Node):
    """`SELECT *` or `SELECT a, b.c` (items may mix both; the checks refuse that)."""

    items: tuple[Union[ProjectStar, ProjectItem], ...]
    span: Span


@node
class ProjectValue(Node):
    """`SELECT VALUE expr`."""

    expr: Expr
    span: Span


@node
class ProjectPivot(Node):
    """`PIVOT value AT key`."""

    value: Expr
    key: Expr
    span: Span


Projection = Union[ProjectList, ProjectValue, ProjectPivot]


@node
class TableRef(Node):
    """A table, or `"table"."index"`, as dotted names (more than two are refused)."""

    names: tuple[str, ...]
    span: Span

    @property
    def table(self) -> str:
        return self.names[0]

    @property
    def index(self) -> Optional[str]:
        return self.names[1] if len(self.names) > 1 else None


@node
class FromSource(Node):
    """One FROM source: a ``TableRef`` when it is a plain dotted name, else the expression."""

    target: Union[TableRef, Expr]
    alias: Optional[Alias]
    at_alias: Optional[Alias]
    by_alias: Optional[Alias]
    span: Span


@node
class OrderItem(Node):
    """An ORDER BY item; ``direction`` is `ASC`, `DESC` or None."""

    expr: Expr
    direction: Optional[str]
    span: Span


@node
class Clause(Node):
    """A clause DynamoDB refuses: ``name`` is `GROUP BY`, `HAVING`, `LIMIT` or `OFFSET`."""

    name: str
    args: tuple[Expr, ...]
    span: Span
    keyword_span: Span


@node
class Select(Statement):
    """``quantifier`` is `DISTINCT`, `ALL` or None (``quantifier_span`` where it is);
    ``clauses`` are the refused ones, in source order."""

    projection: Projection
    sources: tuple[FromSource, ...]
    where: Optional[Expr]
    order_by: tuple[OrderItem, ...]
    clauses: tuple[Clause, ...]
    quantifier: Optional[str]
    quantifier_span: Optional[Span]
    span: Span


# ---------------------------------------------------------------- writes

@node
class ReturningElem(Node):
    """`(ALL | MODIFIED) (OLD | NEW) (* | path)`."""

    status: str
    age: str
    target: Union[Star, Path]
    span: Span


@node
class Returning(Node):
    elems: tuple[ReturningElem, ...]
    span: Span


@node
class OnConflict(Node):
    """`ON CONFLICT ... DO ...` (refused); ``keyword_span`` covers `ON CONFLICT`."""

    span: Span
    keyword_span: Span


@node
class Insert(Statement):
    """``value_keyword`` is False for the multi-item form `INSERT INTO t <expr>`."""

    table: TableRef
    value: Expr
    value_keyword: bool
    on_conflict: Optional[OnConflict]
    returning: Optional[Returning]
    span: Span


@node
class SetAction(Node):
    target: Path
    value: Expr
    span: Span


@node
class RemoveAction(Node):
    path: Path
    span: Span


Action = Union[SetAction, RemoveAction]


@node
class Update(Statement):
    """UPDATE, or the FROM-first form (``from_first``); actions in source order."""

    table: TableRef
    actions: tuple[Action, ...]
    where: Optional[Expr]
    returning: Optional[Returning]
    from_first: bool
    span: Span


@node
class Delete(Statement):
    table: TableRef
    where: Optional[Expr]
    returning: Optional[Returning]
    span: Span


@node
class Exists(Statement):
    """`EXISTS(SELECT ...)`: a condition check inside ExecuteTransaction."""

    select: Select
    span: Span
