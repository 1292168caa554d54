"""A data model read from a file: what both formats become (design-time.md §3)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field


class ModelError(ValueError):
    """A model file that cannot be read, with the place in it that is wrong."""


@dataclass
class Policy:
    """An auto-scaling policy of a table or GSI dimension (min, max, target %)."""

    table: str
    index: str | None
    dimension: str  # "read" or "write"
    min: int
    max: int
    target: float


@dataclass
class Access:
    """An access pattern: an item-API request with ``?`` where drawn values go, and their generators (TOML
    text); or, with ``operation`` None, one the model lists but that cannot run here (``why``)."""

    name: str
    description: str
    operation: str | None
    request: dict = field(default_factory=dict)
    params: list = field(default_factory=list)   # generator TOML per ?, in order
    rate: float = 1.0
    why: str = ""


@dataclass
class Model:
    """Tables (CreateTable requests), their items (wire JSON), auto scaling and access patterns, and what the
    reader kept aside (``notes``: unknown members, skipped items, facets, defaults taken)."""

    name: str
    kind: str                                   # "NoSQL Workbench 3.0", "AWS DynamoDB MCP server"
    tables: list = field(default_factory=list)  # CreateTable requests
    items: dict = field(default_factory=dict)   # table -> [wire item]
    ttl: dict = field(default_factory=dict)     # table -> TTL attribute
    policies: list = field(default_factory=list)
    patterns: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    sizes: dict = field(default_factory=dict)   # table (or "table.index") -> (items, item bytes) in production


def expect(value, kind, where: str, what: str):
    """``value`` when it is a ``kind``; else a ModelError naming ``where``."""
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise ModelError(f"{where} takes {what}, not {json.dumps(value)[:60]}")
    return value
