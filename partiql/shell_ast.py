"""Syntax-tree nodes of the shell's extensions: EXPLAIN, CREATE/DROP/ALTER TABLE, DESCRIBE, SHOW.

DynamoDB's ExecuteStatement has none of these (``parse_dml`` refuses them);
the shell and ``partiql.api``'s shell mode plan them. They are ``partiql.ast``
nodes like any other (``walk`` and spans work the same).
"""

from __future__ import annotations

from typing import Optional

from partiql.engine.nodes import node

from .ast import Node, Span, Statement


@node
class Explain(Statement):
    statement: Statement
    span: Span


@node
class AttributeDef(Node):
    """``type`` is `S`, `N` or `B`."""

    name: str
    type: str
    span: Span


@node
class KeyElement(Node):
    """``key_type`` is `HASH` or `RANGE`; ``type`` `S`, `N` or `B` when the element gives one
    (``Total NUMBER RANGE``), else None."""

    name: str
    key_type: str
    span: Span
    type: Optional[str] = None


@node
class Throughput(Node):
    read: int
    write: int
    span: Span


@node
class Billing(Node):
    """``mode`` is `PROVISIONED` (with ``throughput``) or `PAY_PER_REQUEST`."""

    mode: str
    throughput: Optional[Throughput]
    span: Span


@node
class IndexProjection(Node):
    """``type`` is `ALL`, `KEYS_ONLY` or `INCLUDE` (with ``attributes``)."""

    type: str
    attributes: tuple[str, ...]
    span: Span


@node
class IndexDef(Node):
    """``kind`` is `GSI` or `LSI`."""

    kind: str
    name: str
    key: tuple[KeyElement, ...]
    projection: IndexProjection
    throughput: Optional[Throughput]
    span: Span


@node
class VectorIndexDef(Node):
    """``VECTOR INDEX (name ON attribute DIMENSIONS n DISTANCE [HASH a TYPE] [FILTER b TYPE, …] PROJECTING …)``:
    ``hash`` and each of ``filters`` is (name, type)."""

    name: str
    attribute: str
    dimensions: int
    distance: str
    hash: Optional[tuple]
    filters: tuple
    projection: IndexProjection
    span: Span


@node
class Stream(Node):
    """``view_type`` is DynamoDB's StreamViewType (`NEW_AND_OLD_IMAGES`, …)."""

    view_type: str
    span: Span


@node
class CreateTable(Statement):
    name: str
    if_not_exists: bool
    attributes: tuple[AttributeDef, ...]
    key: tuple[KeyElement, ...]
    billing: Optional[Billing]
    indexes: tuple[IndexDef, ...]
    span: Span
    stream: Optional[Stream] = None
    vectors: tuple = ()  # VectorIndexDef


@node
class DropTable(Statement):
    name: str
    if_exists: bool
    span: Span


@node
class AlterBilling(Statement):
    table: str
    billing: Billing
    span: Span


@node
class AlterStream(Statement):
    """``ALTER TABLE t SET STREAM view`` (``stream``) or ``ALTER TABLE t DROP STREAM`` (None)."""

    table: str
    stream: Optional[Stream]
    span: Span


@node
class CreateIndex(Statement):
    table: str
    index: IndexDef
    span: Span


@node
class DropIndex(Statement):
    table: str
    index: str
    span: Span


@node
class DescribeTable(Statement):
    name: str
    span: Span


@node
class ShowTables(Statement):
    span: Span


@node
class CreateVectorIndex(Statement):
    table: str
    index: VectorIndexDef
    span: Span


@node
class DropVectorIndex(Statement):
    table: str
    index: str
    span: Span
